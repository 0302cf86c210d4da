"""Real browser: the playground's share link is a full address on the app's own host (st.context.url,
which AppTest cannot give), and opening it shows the shared definition."""

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang, locale", [("en", "en-US"), ("zh", "zh-CN")])
def test_the_share_link_is_a_full_address_that_opens_the_definition(browser, server, lang, locale):
    context = browser.new_context(viewport={"width": 1400, "height": 2400}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(server + "/playground")
        wait_connected(page)
        page.locator(".st-key-tool_name input").fill("refund_it")
        page.locator(".st-key-tool_name input").press("Enter")
        page.locator(".st-key-playground_panel button", has_text=t("workbench.tab_definition", lang)).click()
        page.get_by_text(t("share_link.caption", lang)).wait_for()
        link = page.locator("code", has_text="?tool=").first.inner_text().replace("\n", "")
        assert link.startswith(server + "/playground?tool=")
        page.goto(link)
        wait_connected(page)
        page.wait_for_function("document.querySelector('.st-key-tool_name input')?.value === 'refund_it'")
    finally:
        context.close()
