"""An exercise's feedback is capped like a playground card's error list (issue 13): an answer with thousands
of problems (a JSON object with 8 000 extra fields, a choice naming 9 000 unknown options) made one feedback
line each, every one an element the page sent to the browser on every rerun (2.4 MB through ``grade``).

Cases come from the shipped exercises: every json exercise whose schema refuses extra fields, every choice and
classify exercise. Each answer stays under MAX_ANSWER_CHARS, so it is graded, not refused for its size.
"""

from __future__ import annotations

import json

import pytest

from toolcall.exercise_types.base import INFO, MAX_FEEDBACK
from toolcall.exercises import load_exercises
from toolcall.grading import MAX_ANSWER_CHARS, grade, grading_inputs
from toolcall.validation import validate

SHIPPED = load_exercises().exercises
MANY = 5_000


def _ids(kind: str, keep=lambda ex: True) -> list:
    found = [ex for ex in SHIPPED if ex.type == kind and keep(ex)]
    assert found, f"no shipped {kind} exercise to derive the case from"
    return found


def _capped(result, problems: int) -> None:
    assert problems > MAX_FEEDBACK + 1  # the case really has more problems than the cap
    assert len(result.feedback) == MAX_FEEDBACK + 1
    last = result.feedback[-1]
    assert (last.level, last.key, last.params) == (INFO, "exercises.fb.more_feedback",
                                                   {"count": problems - MAX_FEEDBACK})
    assert last.render("en") == (f"… and {problems - MAX_FEEDBACK} more problems of the same answer, "
                                 "not listed here. Fix the ones above first.")
    assert last.render("zh") == f"……这份答案还有 {problems - MAX_FEEDBACK} 处问题，这里不再列出。先改好上面这些。"
    assert len(json.dumps(result.to_dict(), ensure_ascii=False)) < 40_000


@pytest.mark.parametrize("ex", _ids("json", lambda ex: ex.spec["schema"].get("additionalProperties") is False),
                         ids=lambda ex: ex.id)
def test_json_answer_with_thousands_of_extra_fields(ex):
    value = {f"zz{i}": 1 for i in range(MANY)}
    text = json.dumps(value)
    assert len(text) < MAX_ANSWER_CHARS
    result = grade(ex, text, grading_inputs(ex))
    _capped(result, len(validate(value, ex.spec["schema"])[0]))


@pytest.mark.parametrize("ex", _ids("choice"), ids=lambda ex: ex.id)
def test_choice_answer_naming_thousands_of_unknown_options(ex):
    text = json.dumps([f"zz{i}" for i in range(MANY)])
    assert len(text) < MAX_ANSWER_CHARS
    result = grade(ex, text, grading_inputs(ex))
    assert result.malformed
    _capped(result, MANY)


@pytest.mark.parametrize("ex", _ids("classify"), ids=lambda ex: ex.id)
def test_classify_answer_with_thousands_of_unknown_items(ex):
    text = json.dumps({f"zz{i}": "zz" for i in range(MANY)})
    assert len(text) < MAX_ANSWER_CHARS
    result = grade(ex, text, grading_inputs(ex))
    assert result.malformed
    # each unknown item, its unknown category, and every real item left unsorted
    _capped(result, 2 * MANY + len(ex.spec["items"]))


def test_short_feedback_is_kept_whole():
    from toolcall.exercise_types.base import WRONG, FeedbackItem, Grade

    items = tuple(FeedbackItem(WRONG, text={"en": str(i), "zh": str(i)}) for i in range(MAX_FEEDBACK))
    assert Grade(0, 1, items).feedback == items
    assert Grade(0, 1, list(items)).feedback == items  # a list is stored as the tuple the type promises
