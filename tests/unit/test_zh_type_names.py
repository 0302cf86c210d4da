"""A JSON type named in feedback is in the reader's language (issue 13, English leaking into
Chinese): a json exercise answered with a non-object said "这里收到的是array". Cases: every JSON
type the parser can name, through every json-type exercise."""

import json

import pytest

from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.i18n import catalogue, t

#: One JSON text of each type that is not an object, by type name (the locale's type.* keys).
NOT_OBJECTS = {"array": "[1]", "string": '"x"', "integer": "7", "number": "7.5", "boolean": "true", "null": "null"}
JSON_EXERCISES = [e for e in load_exercises().exercises if e.type == "json"]


def test_the_cases_cover_every_type_name():
    assert {k.split(".", 1)[1] for k in catalogue("en") if k.startswith("type.")} - set(NOT_OBJECTS) == {"object"}


@pytest.mark.parametrize("exercise", JSON_EXERCISES, ids=[e.id for e in JSON_EXERCISES])
@pytest.mark.parametrize("type_name", NOT_OBJECTS)
def test_a_non_object_answer_names_its_type_in_the_readers_language(exercise, type_name):
    g = grade(exercise, NOT_OBJECTS[type_name], grading_inputs(exercise))
    assert g.malformed
    zh = " ".join(item.render("zh") for item in g.feedback)
    assert t(f"type.{type_name}", "zh") in zh
    if t(f"type.{type_name}", "zh") != type_name:  # null is null in Chinese too
        assert type_name not in zh.replace(json.dumps(type_name), "")
