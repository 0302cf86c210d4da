"""A control character typed into an exercise's box is shown escaped in its feedback (issue 13, invisible kind;
break-it pass brk10web): '"12<ESC>" is not a number' read as '"12" is not a number' in the browser, which draws
the escape as nothing. tests/unit/test_control_characters.py holds every display helper to the same."""

import pytest

from tests.app.test_exercise_comfort import run_page
from toolcall.exercises import load_exercises
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.text import CONTROLS

NUMBER = [ex for ex in load_exercises().exercises if ex.type == "number"]


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    return data_dir


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_number_answer_with_control_characters_is_quoted_with_them_escaped(lang):
    ex = NUMBER[0]
    typed = "12\x1b[31m\x00\x7f\x9b"
    at = run_page(ex.page, "controls", lang)
    at.text_input(key=f"exercises_{ex.id}_answer").input(typed)
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert not at.exception
    line = plain(t("exercises.fb.not_number", lang, text=typed))
    assert "12\\\\u001b\\[31m\\\\u0000\\\\u007f\\\\u009b" in line  # Markdown for 12\u001b[31m\u0000…
    boxes = [e.value for e in [*at.error, *at.warning, *at.success, *at.info]]
    assert boxes.count(line) == 1, boxes
    assert not any(CONTROLS & set(box) for box in boxes)
