"""In a real Chromium: cut the "when not to use" sentence on the playground and see a design-review
finding and a lower pass^k on the lab; the playground fits a laptop and a phone, in both languages
(screenshots saved to tests/e2e/screenshots/ and looked at)."""

from pathlib import Path

import pytest

from tests.e2e.conftest import open_output, open_panel, wait_connected

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parent / "screenshots"
WHEN_NOT = " If the order has not shipped yet, use cancel_order instead."


def test_cutting_when_not_to_use_shows_a_finding_and_lowers_pass_k(server, page):
    page.goto(server + "/playground")
    wait_connected(page)
    box = page.locator(".st-key-tool_description textarea")
    page.wait_for_function("() => document.querySelector('.st-key-tool_description textarea')?.value.length > 0")
    text = box.input_value()
    assert WHEN_NOT in text
    box.fill(text.replace(WHEN_NOT, ""))
    box.press("Control+Enter")
    open_panel(page, "Design review")
    page.get_by_text("does not say when NOT to use it").wait_for()
    page.get_by_role("link", name="pass^k lab").first.click()
    page.get_by_text("Here is the description from the playground's editor").wait_for()
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="m, ambiguities now")
    metric.get_by_text("4", exact=True).wait_for()
    page.get_by_text("lies between 3.4% (independent runs) and 65.6% (fully correlated)").wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_playground_fits_a_laptop_and_stacks_on_a_phone(server, browser, lang):
    """1366×768: the editor's name field, the summary and the open card's verdict are all inside the
    first screen. 390×844: one column, nothing wider than the screen, no "left/right" wording."""
    SHOTS.mkdir(exist_ok=True)
    locale = "zh-CN" if lang == "zh" else "en-US"
    for width, height in ((1366, 768), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            page.goto(server + "/playground")
            wait_connected(page)
            page.locator(".st-key-playground_summary").wait_for()
            if width > 1000:
                # scroll the editor's top into view, as a student does after reading the intro
                page.locator(".st-key-playground_tool").evaluate("e => e.scrollIntoView({block: 'start'})")
                open_output(page, "Extra field" if lang == "en" else "多出")
                for key in ("tool_name", "playground_summary", "playground_card_extra_field"):
                    box = page.locator(f".st-key-{key}").bounding_box()
                    assert box and 0 <= box["y"] < height, (key, box)
            else:
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0
                name, summary = (page.locator(f".st-key-{k}").bounding_box() for k in ("tool_name", "playground_summary"))
                assert summary["y"] > name["y"] and abs(summary["x"] - name["x"]) < 40   # stacked
            body = page.locator("main").inner_text()
            assert "on the left" not in body and "on the right" not in body and "左边" not in body and "右边" not in body
            page.wait_for_timeout(1500)
            page.screenshot(path=str(SHOTS / f"playground-{lang}-{width}x{height}.png"))
            assert page.locator('[data-testid="stException"]').count() == 0
        finally:
            context.close()


def test_a_cut_on_the_lab_survives_a_language_switch_in_the_browser(server, page):
    """Newcomer session 14: a sentence unticked on the lab stayed drawn unticked after a switch to Chinese while
    the page said every point was there (m 3). The cut is kept, drawn and counted alike; a new description
    (edited on the playground) then draws every box ticked."""
    page.goto(server + "/passk_lab")
    wait_connected(page)
    boxes = page.locator('[data-testid="stCheckbox"] input')
    boxes.nth(4).wait_for(state="attached")
    page.locator('[data-testid="stCheckbox"]').nth(2).locator("label").click()
    page.locator('[data-testid="stMetric"]').filter(has_text="m, ambiguities now").get_by_text(
        "4", exact=True).wait_for()
    page.locator(".st-key-app_lang input").click()
    page.get_by_role("option", name="中文").click()
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="现在的歧义数 m")
    metric.get_by_text("4", exact=True).wait_for()
    page.get_by_text("取消未发货的订单请用 cancel_order。").wait_for()
    assert [boxes.nth(i).is_checked() for i in range(5)] == [True, True, False, True, True]
    page.get_by_text("保留的句子里都没说到的点（每点算一处歧义）：何时不要使用。").wait_for()

    page.get_by_role("link", name="Schema 练习场").first.click()
    box = page.locator(".st-key-tool_description textarea")
    box.wait_for()
    box.fill("给订单退款。只在顾客要求时调用。未发货请用 cancel_order。")
    box.press("Control+Enter")
    page.get_by_text("给订单退款。只在顾客要求时调用。未发货请用 cancel_order。").first.wait_for(state="attached")
    page.get_by_role("link", name="pass^k 实验室").first.click()
    page.get_by_text("只在顾客要求时调用。", exact=True).wait_for()
    assert boxes.count() == 3 and [boxes.nth(i).is_checked() for i in range(3)] == [True, True, True]
    assert page.locator('[data-testid="stException"]').count() == 0
