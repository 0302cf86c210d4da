"""An instructor's listed wrong answer that no grader can read (nested 5 000 deep, a number of 5 000 digits,
the wrong shape) is skipped when a student's answer is graded, for every exercise type: it used to end the
student's grading in a RecursionError (schema_fix read it with json.loads). Cases: every shipped exercise (one
per type at least), each given each odd listed answer."""

import dataclasses

import pytest

from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs

EXERCISES = load_exercises().exercises
ODD = ["[" * 5000 + "]" * 5000, "9" * 5000, {"a": [[[]]]}, ["x"] * 3, 7]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: f"{e.type}-{e.id}")
def test_an_unreadable_listed_wrong_answer_is_skipped(exercise):
    odd = dataclasses.replace(exercise, wrong_answers=tuple({"answer": a, "feedback": {"en": "x", "zh": "x"}}
                                                           for a in ODD))
    inputs = grading_inputs(odd)
    for answer in ("{}", "[]", "0.5", '["a"]', "x"):
        result = grade(odd, answer, inputs)
        assert result.score <= result.max_score
