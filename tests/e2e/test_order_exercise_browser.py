"""The ordering exercise in a real browser (issue 14): every step's full text wraps (nothing cut off),
the arrow buttons are named "Move up: <step>" for a screen reader and work from the keyboard, and an
unchanged listed order is not a try."""

from pathlib import Path

import pytest

from tests.e2e import test_exercises_browser as exercises_browser
from toolcall.exercises import load_exercises
from toolcall.i18n import t
from ui.common import LANG_LABELS

pytestmark = pytest.mark.e2e

EX = next(ex for ex in load_exercises().exercises if ex.type == "order")
BOX = f".st-key-exercises_{EX.id}_box"
server = exercises_browser.server  # a server of this module's own, progress in its own data dir
settle = exercises_browser.settle
SHOTS = Path(__file__).resolve().parent / "screenshots"


def open_page(page, server, learner, lang="en", width=1366):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server}/{EX.page}?learner={learner}&app_lang={LANG_LABELS[lang]}")
    page.wait_for_selector(f"{BOX} .st-key-exercises_{EX.id}_steps")
    settle(page)


def rows(page) -> list[str]:
    """Each row's text, top to bottom (the number and the step; the buttons' hidden names left out)."""
    found = page.locator(f"{BOX} [class*='st-key-exercises_{EX.id}_row_'] > div > [data-testid='stMarkdown']")
    return [r.inner_text().strip() for r in found.all()]


@pytest.mark.parametrize("lang,width", [("en", 1366), ("zh", 390)])
def test_full_step_texts_and_named_buttons_reorder_from_the_keyboard(page, server, lang, width):
    open_page(page, server, f"e2e-order-{lang}", lang, width)
    steps = list(EX.labels("steps"))
    texts = {s: EX.labels("steps")[s][lang] for s in steps}
    shown = rows(page)
    assert [r.split(None, 1)[1] for r in shown] == [texts[s] for s in steps]  # whole texts, in the listed order
    for step in steps:  # no row is cut off: its text is not wider than the space it is given
        text = page.locator(f"{BOX} .st-key-exercises_{EX.id}_row_{step} [data-testid='stMarkdownContainer']").first
        assert text.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), step
    up = page.get_by_role("button", name=t("exercises.order.move_up", lang, step=texts[steps[1]]), exact=True)
    assert up.is_visible()
    box = up.bounding_box()
    assert box["width"] < 80  # an arrow, the name is for the screen reader
    up.focus()
    page.keyboard.press("Enter")
    settle(page)
    # the rerun may land after settle() on a loaded machine: poll the first row (bounded)
    for _ in range(60):
        if rows(page)[0].endswith(texts[steps[1]]):
            break
        page.wait_for_timeout(250)
    assert rows(page)[0].endswith(texts[steps[1]]), rows(page)
    SHOTS.mkdir(exist_ok=True)
    page.locator(BOX).screenshot(path=str(SHOTS / f"order-exercise-{lang}-{width}.png"))


def test_submitting_the_listed_order_is_not_a_try(page, server):
    open_page(page, server, "e2e-order-lazy")
    page.locator(f".st-key-exercises_{EX.id}_submit button").click()
    settle(page)
    box = page.locator(BOX).inner_text()
    assert t("exercises.order.untouched", "en") in box
    assert "tries 1" not in box
