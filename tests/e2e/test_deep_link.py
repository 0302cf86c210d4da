"""A fresh server whose first visitor opens a deep link still runs app.py (sidebar, navigation)."""

import pytest

from tests.e2e.conftest import fresh_server, wait_connected

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("path, heading", [("playground", "Schema playground"), ("passk_lab", "pass^k lab"),
                                           ("walkthrough", "One tool call, step by step"), ("pairing", "Pairing checker"),
                                           ("lessons", "Lessons"), ("exercises", "Exercises"),
                                           ("harness_lab", "Be the loop: a harness lab"),
                                           ("home", "Tool calling, hands on")])
def test_first_visit_by_deep_link_gets_the_whole_app(browser, path, heading):
    """Streamlit's legacy pages/ mode would run the page alone, listing every file in pages/ as a page."""
    with fresh_server() as url:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        page.goto(f"{url}/{path}")
        wait_connected(page)
        page.get_by_role("heading", name=heading).first.wait_for(timeout=30_000)
        page.locator(".st-key-app_lang").wait_for(timeout=30_000)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "common" not in nav and "Schema playground" in nav
        assert page.get_by_text("Page not found").count() == 0  # issue 14: /home showed Streamlit's dialog
        context.close()
