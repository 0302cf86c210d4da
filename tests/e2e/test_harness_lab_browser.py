"""Real browser: a whole harness-lab scenario (plain_call, Anthropic), with one wrong move on the way,
on a laptop-sized window; each step's response, question and button fit on one screen."""

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from toolcall.harness import load_scenarios, move_text, reference_move

pytestmark = pytest.mark.e2e
playwright = pytest.importorskip("playwright.sync_api")

READY = '[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
LAPTOP = {"width": 1366, "height": 768}
SCENARIO = load_scenarios().by_id("plain_call")


@pytest.fixture(scope="module")
def page(server):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport=LAPTOP, locale="en-US")
        pg.set_default_timeout(30_000)
        pg.goto(server + "/")
        pg.wait_for_selector(READY)
        yield pg
        browser.close()


def step_height(page, step_id: str) -> float:
    """Pixels from the step's progress bar to the bottom of its submit button."""
    top = page.locator("[data-testid=stProgress]").first.bounding_box()["y"]
    button = page.locator(f".st-key-harness_submit_plain_call_anthropic_{step_id}_en button").bounding_box()
    return button["y"] + button["height"] - top


def test_a_whole_scenario_in_the_browser(page, server):
    page.goto(server + "/harness_lab?learner=e2e-harness")
    page.wait_for_selector(READY)
    page.get_by_role("heading", name="Be the loop: a harness lab").wait_for()
    first = SCENARIO.steps[0]
    assert step_height(page, first.id) < LAPTOP["height"]

    box = page.locator(f".st-key-harness_choice_plain_call_anthropic_{first.id}")
    box.get_by_text("Tell the customer").click()
    page.locator(f".st-key-harness_submit_plain_call_anthropic_{first.id}_en button").click()
    page.get_by_text("The customer is told something false.").wait_for()
    page.get_by_text("Step 1 of 3").wait_for()
    # newcomer session 7: the consequence was drawn under the model's response, ~400 px below the screen;
    # it is under the button now, its headline on screen where the student clicked, and a toast says it too
    alert = page.locator('[data-testid="stAlertContentError"]').first.bounding_box()
    assert alert["y"] + 40 < LAPTOP["height"], alert
    page.locator('[data-testid="stToast"]').get_by_text("The customer is told something false").wait_for()

    box.get_by_text("Validate the input, run refund_order yourself").click()
    page.locator(f".st-key-harness_submit_plain_call_anthropic_{first.id}_en button").click()
    page.get_by_text("Step 2 of 3").wait_for()
    assert step_height(page, "write_followup") < LAPTOP["height"]

    editor = page.locator(".st-key-harness_json_plain_call_anthropic_write_followup textarea")
    editor.fill(move_text(SCENARIO.steps[1], reference_move(SCENARIO, SCENARIO.steps[1], "anthropic", "en")))
    editor.press("Tab")  # the keyboard way to the form's button (Ctrl+Enter no longer submits: test_form_submit.py)
    page.keyboard.press("Enter")
    page.get_by_text("Step 3 of 3").wait_for()

    # the keyboard alone: Space picks the focused option (the first, the right one here), Tab, Enter
    page.locator(".st-key-harness_choice_plain_call_anthropic_end_turn input[type=radio]").first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.get_by_text("Scenario finished: 2.5 of 3 points. Saved to your progress; the progress you download on the "
                     "Exercises page lists it as harness:plain_call.").wait_for()
    page.get_by_text("Step 1 of 3: right after one wrong move · 0.5 of 1 point").wait_for()
    page.locator(".st-key-harness_next_plain_call_anthropic_en button").click()
    page.get_by_text("Step 1 of 3").wait_for()
