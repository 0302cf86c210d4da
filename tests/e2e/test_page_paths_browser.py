"""Real browser: every URL path the page registry declares opens its page, in both languages,
without Streamlit's "Page not found" dialog (issue 14: /home, the home page's own id, showed it)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import wait_connected
from toolcall.pages_registry import PAGES

pytestmark = pytest.mark.e2e

PATHS = [(p, path) for p in PAGES for path in p.url_paths]


def _open(browser, url: str, locale: str):
    page = browser.new_context(locale=locale).new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    wait_connected(page)
    page.locator("h1").first.wait_for()
    return page


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("entry, path", PATHS, ids=[f"/{path}" for _, path in PATHS])
def test_every_registry_path_opens_its_page(browser, server, entry, path, locale):
    """The page at /<path> is the page at its own address (same heading), and no dialog says the
    page was not found."""
    canonical = _open(browser, f"{server}/{entry.url_path}", locale)
    heading = canonical.locator("h1").first.inner_text()
    canonical.context.close()

    page = _open(browser, f"{server}/{path}", locale)
    expect(page.locator("h1").first).to_have_text(heading)
    page.wait_for_timeout(500)  # the dialog arrives with the navigation message, before the page's elements
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0
    assert urlsplit(page.url).path.strip("/") == path


def test_an_alias_keeps_the_query_parameters(browser, server):
    """/home?app_lang=中文&learner=… opens home in Chinese for that learner."""
    page = _open(browser, f"{server}/home?app_lang=中文&learner=calm-otter-0123456789", "en-US")
    expect(page.locator("h1").first).to_have_text("动手学工具调用")
    query = parse_qs(urlsplit(page.url).query)
    assert query["learner"] == ["calm-otter-0123456789"] and query["app_lang"] == ["中文"]
    page.context.close()
    page.context.close()
