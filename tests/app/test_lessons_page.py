"""AppTest: the lessons page in both languages, the folded lessons above a page, and the
language switch (browser locale default, sidebar switch, kept across page switches)."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import fresh_app

from ui.common import LANG_KEY
from ui.lesson_widgets import PAGE_TITLES
from toolcall.i18n import catalogue, t
from toolcall.lessons import PAGE_IDS, load_lessons

TIMEOUT = 30


def _app(locale: str | None = None) -> AppTest:
    return fresh_app(None, locale=locale)


def _lessons_page(locale: str | None = None) -> AppTest:
    at = _app(locale)
    return at.switch_page("pages/lessons.py").run()


def test_lessons_page_in_english():
    """Every English lesson appears as a header, in order, with its table-of-contents link."""
    at = _lessons_page("en-US")
    assert not at.exception
    assert at.title[0].value == t("lessons.title", "en")
    titles = [lesson.title for lesson in load_lessons("en").lessons]
    assert [h.value for h in at.header] == titles
    toc = at.get("markdown")
    assert any("1. [The model proposes, your code decides](#01-model-proposes)" in m.value for m in toc)
    assert "Shown on: Schema playground" in [c.value for c in at.caption]


def test_lessons_page_in_chinese():
    at = _lessons_page("zh-CN")
    assert not at.exception
    assert at.title[0].value == "课程讲义"
    assert [h.value for h in at.header] == [lesson.title for lesson in load_lessons("zh").lessons]
    assert "所在页面：Schema 练习场" in [c.value for c in at.caption]


def test_language_defaults_from_the_browser_locale():
    assert _app("zh-CN").session_state[LANG_KEY] == "zh"
    assert _app("zh_Hant_TW").session_state[LANG_KEY] == "zh"
    assert _app("en-GB").session_state[LANG_KEY] == "en"
    assert _app("fr-FR").session_state[LANG_KEY] == "en"
    assert _app().session_state[LANG_KEY] == "en"


def test_a_links_lang_code_picks_the_language_over_the_browsers():
    """``?lang=zh`` (what a teacher types into a link by hand) opens the app in Chinese on an English
    browser (it was ignored: only the sidebar's ?app_lang=中文 was read); an unknown code leaves the
    browser's language; the sidebar's own choice in the address wins over the link's code."""
    for query, locale, expected in (({"lang": "zh"}, "en-US", "zh"), ({"lang": "zh-CN"}, "en-US", "zh"),
                                    ({"lang": "en"}, "zh-CN", "en"), ({"lang": "fr"}, "zh-CN", "zh"),
                                    ({"lang": ""}, "zh-CN", "zh"), ({"lang": "zh", "app_lang": "English"}, None, "en")):
        at = fresh_app(None, query=query, locale=locale, page="pages/lessons.py")
        assert at.session_state[LANG_KEY] == expected, query
        assert at.title[0].value == t("lessons.title", expected), query


def test_sidebar_switch_changes_the_language_and_it_survives_a_page_switch():
    """Switch to Chinese on the home page, open the lessons page: still Chinese, and back."""
    at = _app("en-US")
    assert at.sidebar.selectbox(key=LANG_KEY).value == "en"
    at.sidebar.selectbox(key=LANG_KEY).set_value("zh").run()
    assert not at.exception
    assert at.title[0].value == "动手学工具调用"
    at.switch_page("pages/lessons.py").run()
    assert not at.exception
    assert at.session_state[LANG_KEY] == "zh"
    assert at.title[0].value == "课程讲义"
    at.switch_page("pages/home.py").run()
    assert at.sidebar.selectbox(key=LANG_KEY).value == "zh"


def test_the_locale_does_not_override_a_chosen_language():
    """A rerun still carries the browser locale; the sidebar choice must win."""
    at = _app("zh-CN")
    at.sidebar.selectbox(key=LANG_KEY).set_value("en").run()
    at.switch_page("pages/lessons.py").run()
    assert at.title[0].value == t("lessons.title", "en")


SCRIPT = """
import streamlit as st
from ui.lesson_widgets import show_page_lessons
show_page_lessons(st.session_state.get("page_id", "playground"))
st.text("interactive part")
"""


def _widget(lang: str, page: str) -> AppTest:
    at = AppTest.from_string(SCRIPT, default_timeout=TIMEOUT)
    at.session_state[LANG_KEY] = lang
    at.session_state["page_id"] = page
    return at.run()


def test_page_lessons_are_folded_above_the_page():
    at = _widget("en", "playground")
    assert not at.exception
    assert [e.label for e in at.expander] == ["📖 Lesson: " + lesson.title
                                             for lesson in load_lessons("en").for_page("playground")]
    assert at.text[0].value == "interactive part"


def test_page_lessons_in_chinese():
    at = _widget("zh", "passk_lab")
    assert not at.exception
    assert [e.label for e in at.expander] == ["📖 讲义：" + lesson.title
                                             for lesson in load_lessons("zh").for_page("passk_lab")]


def test_a_page_without_lessons_shows_nothing():
    at = _widget("en", "no_such_page")
    assert not at.exception
    assert len(at.expander) == 0


def test_every_page_id_has_a_title_on_the_lessons_page():
    """A page id added to the lesson schema needs a nav title for "Shown on: …"."""
    assert sorted(PAGE_TITLES) == sorted(PAGE_IDS)
    assert [key for key in PAGE_TITLES.values() if key not in catalogue("en")] == []


@pytest.mark.parametrize("title", ["Arrays]", "Step [1", "C:\\"])
def test_a_title_with_a_bracket_keeps_its_table_of_contents_link(monkeypatch, title):
    """Break-it pass brk10web2: an instructor's title with an unbalanced bracket or a final backslash left the
    contents line as raw Markdown ("1. [Arrays]](#…)") or linked only part of it; every line is now one link
    showing the title as its header shows it."""
    from dataclasses import replace

    from markdown_it import MarkdownIt

    import ui.lesson_widgets

    loaded = load_lessons("en")
    first = replace(loaded.lessons[0], title=title)
    monkeypatch.setattr(ui.lesson_widgets, "lesson_set", lambda *a, **k: replace(loaded, lessons=(first,
                                                                                                  *loaded.lessons[1:])))
    at = _lessons_page("en-US")
    assert not at.exception
    toc = next(m.value for m in at.markdown if m.value.startswith("1. ["))
    md = MarkdownIt("commonmark")
    assert md.render(toc.split("\n")[0]) == \
        f'<ol>\n<li><a href="#{first.slug}">{md.renderInline(title)}</a></li>\n</ol>\n'
