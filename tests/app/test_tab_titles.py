"""Each page names its browser tab "<page title> · <app title>" in the page's language (newcomer session 7, item 5:
every tab read "Tool calling, hands on", so open tabs could not be told apart). AppTest keeps no page config in its
element tree: the titles are read from the forward messages of each run (ForwardMsg.page_config_changed)."""

import pytest
from streamlit.testing.v1 import local_script_runner

from tests.app.conftest import fresh_app
from toolcall.i18n import t
from toolcall.pages_registry import PAGES


@pytest.fixture
def tab_titles(monkeypatch) -> list[str]:
    """Every page title set during the runs that follow, in order (the last one of a run is what the tab shows)."""
    titles: list[str] = []
    parse = local_script_runner.parse_tree_from_messages

    def recording(messages):
        titles.extend(m.page_config_changed.title for m in messages
                      if m.HasField("page_config_changed") and m.page_config_changed.title)
        return parse(messages)

    monkeypatch.setattr(local_script_runner, "parse_tree_from_messages", recording)
    return titles


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [p for p in PAGES if not p.instructor_only], ids=lambda p: p.id)
def test_each_page_names_its_tab(tab_titles, page, lang):
    at = fresh_app(lang, page=page.script)
    assert not at.exception
    assert tab_titles[-1] == f"{t(page.title_key, lang)} · {t('app.title', lang)}"


def test_the_shipped_titles_read_as_expected(tab_titles):
    fresh_app("zh", page="pages/passk_lab.py")
    assert tab_titles[-1] == "pass^k 实验室 · 动手学工具调用"
    fresh_app("en", page="pages/harness_lab.py")
    assert tab_titles[-1] == "Be the loop · Tool calling, hands on"


def test_titles_differ_between_pages():
    titles = {f"{t(p.title_key, lang)} · {t('app.title', lang)}" for p in PAGES for lang in ("en", "zh")}
    assert len(titles) == 2 * len(PAGES)
