"""Every declared page loads in both languages without an exception."""

import pytest

from tests.app.conftest import PAGES, fresh_app
from toolcall.i18n import t


def test_pages_are_declared():
    assert PAGES[:2] == ["pages/home.py", "pages/playground.py"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_page_loads(page, lang):
    at = fresh_app(lang)
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} shows no title"
    # app.py ran around the page (not Streamlit's legacy pages/ mode): the sidebar switch is there
    assert at.selectbox(key="app_lang").value == lang


def test_home_follows_language():
    assert fresh_app("en").title[0].value == t("home.title", "en") == "Tool calling, hands on"
    assert fresh_app("zh").title[0].value == t("home.title", "zh")


@pytest.mark.parametrize("page, page_id", [("pages/playground.py", "playground"), ("pages/passk_lab.py", "passk_lab"),
                                           ("pages/walkthrough.py", "walkthrough")])
def test_each_page_shows_its_lessons_above_the_interactive_part(page, page_id):
    from toolcall.lessons import load_lessons

    titles = [lesson.title for lesson in load_lessons("en").for_page(page_id)]
    at = fresh_app("en")
    at.switch_page(page).run()
    assert titles and [e.label for e in at.expander][:len(titles)] == [f"📖 Lesson: {title}" for title in titles]
