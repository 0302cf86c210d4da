"""A listed wrong answer may be any JSON value to the exercise schema; one its exercise type cannot write as an
answer is a problem at ``$.exercises[i].wrong_answers[j].answer``, never a traceback from check (a number
exercise's ``[null]`` raised TypeError from float()). Cases: every course exercise, each given every value
below as a wrong answer, in one check."""

import shutil

import pytest
import yaml

from toolcall import CONTENT_ROOT
from toolcall.check import check_exercises

VALUES = [None, [None], {"a": 1}, [], {}, "", "x", True, 1e308, -1, [[[[[]]]]], {"": [None]}, "\u200b"]


@pytest.fixture(scope="module")
def problems(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    for path in sorted((root / "fixtures" / "exercises").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for ex in data["exercises"]:
            ex["wrong_answers"] = [{"answer": v, "feedback": {"en": f"w{i}", "zh": f"错{i}"}} for i, v in enumerate(VALUES)]
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return root, check_exercises(root)  # no traceback


def test_check_runs_and_names_each_problem_by_its_wrong_answer(problems):
    _, found = problems
    assert found and all(p.path.startswith("$.exercises[") for p in found), [str(p) for p in found[:5]]


def test_a_value_a_number_exercise_cannot_write_is_named(problems):
    root, found = problems
    for path in sorted((root / "fixtures" / "exercises").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, ex in enumerate(data["exercises"]):
            if ex["type"] == "number":
                at = {(p.path, p.message) for p in found if p.file.endswith(path.name)}
                assert any(where == f"$.exercises[{i}].wrong_answers[1].answer" and
                           message.startswith("not an answer to a number exercise") for where, message in at)
