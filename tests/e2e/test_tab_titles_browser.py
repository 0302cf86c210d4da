"""Real browser (newcomer session 7): the tab reads "<page title> · <app title>" in the page's language (item 5), and
the sidebar's learner id is not covered by Streamlit's copy button (item 6: on hover the button hid its last
characters at 1366 px)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t
from toolcall.progress import _ADJECTIVES, _NOUNS
from ui.learner import LEARNER_BOX_KEY

pytestmark = pytest.mark.e2e

#: The longest id new_learner_id makes: its longest adjective and noun, 10 hex digits (clever-dolphin-…, 25 characters).
LEARNER_ID = f"{max(_ADJECTIVES, key=len)}-{max(_NOUNS, key=len)}-2fbe03be6d"


def _open(browser, url: str):
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    wait_connected(page)
    page.locator("h1").first.wait_for()
    return page


@pytest.mark.parametrize("lang, path, key", [("zh", "passk_lab", "passk.nav"), ("en", "harness_lab", "harness.nav")])
def test_the_tab_names_the_page(browser, server, lang, path, key):
    page = _open(browser, f"{server}/{path}?lang={lang}")
    expect(page).to_have_title(f"{t(key, lang)} · {t('app.title', lang)}")
    page.context.close()


def test_the_copy_button_leaves_the_learner_id_readable(browser, server):
    page = _open(browser, f"{server}/?lang=zh&learner={LEARNER_ID}")
    box = page.locator(f".st-key-{LEARNER_BOX_KEY}")
    button, code = box.locator("button"), box.locator("pre code")
    expect(code).to_have_text(LEARNER_ID)  # the sidebar's last rerun has drawn the box: a hover now stays on it
    for _ in range(4):  # under load a rerun can redraw the box under the pointer and drop the hover: hover again
        box.hover()
        try:
            expect(button).to_be_visible(timeout=3_000)
            break
        except AssertionError:
            page.mouse.move(0, 0)
    expect(button).to_be_visible()
    right = code.evaluate("e => { const r = document.createRange(); r.selectNodeContents(e); "
                          "return Math.max(...[...r.getClientRects()].map(c => c.right)); }")
    assert right <= button.bounding_box()["x"]
    assert code.inner_text().strip() == LEARNER_ID
    lines = code.evaluate("e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
    assert lines == 1
    page.context.close()

