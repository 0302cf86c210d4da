"""Every declared page loads in both languages without an exception."""

import pytest

from tests.app.conftest import PAGES, fresh_app


def test_pages_are_declared():
    assert PAGES[:2] == ["pages/home.py", "pages/playground.py"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_page_loads(page, lang):
    at = fresh_app(lang)
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, f"{page} shows no title"


def test_home_follows_language():
    assert fresh_app("en").title[0].value == "Tool calling, hands on"
    assert fresh_app("zh").title[0].value == "动手学工具调用"
