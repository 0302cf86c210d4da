"""Loading exercise files: a broken file or exercise is reported with file and JSON path,
and everything else still loads."""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from toolcall import FIXTURES_DIR
from toolcall.check import check_exercises
from toolcall.exercises import COMMON_FIELDS, TYPE_FIELDS, load_exercises

GOOD = {"id": "ok_one", "page": "exercises", "type": "number", "tolerance": 0.01, "answer": 0.5,
        "title": {"en": "T", "zh": "题"}, "prompt": {"en": "P", "zh": "问"}, "hints": [],
        "explanation": {"en": "E", "zh": "解"}}


def write(folder: Path, name: str, data) -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def messages(loaded) -> list[tuple[str, str, str]]:
    return [(Path(p.file).name, p.path, p.message) for p in loaded.problems]


def test_a_broken_exercise_is_dropped_alone_with_its_json_path(tmp_path):
    no_zh = dict(GOOD, id="no_zh", prompt={"en": "P"})
    write(tmp_path, "a.yaml", {"schema_version": 1, "exercises": [GOOD, no_zh]})
    loaded = load_exercises(tmp_path)
    assert [ex.id for ex in loaded.exercises] == ["ok_one"]
    assert messages(loaded) == [("a.yaml", "$.exercises[1].prompt", "'zh' is a required property")]


def test_a_malformed_file_is_reported_while_other_files_load(tmp_path):
    write(tmp_path, "a.yaml", "schema_version: 1\nexercises:\n  - id: [unclosed\n")
    write(tmp_path, "b.yaml", {"schema_version": 1, "exercises": [GOOD]})
    write(tmp_path, "c.yaml", {"schema_version": 2, "exercises": [dict(GOOD, id="v2")]})
    loaded = load_exercises(tmp_path)
    assert [ex.id for ex in loaded.exercises] == ["ok_one"]
    found = messages(loaded)
    assert found[0][:2] == ("a.yaml", "$") and found[0][2].startswith("not YAML: line 4 column 1")
    assert found[1] == ("c.yaml", "$.schema_version", "1 was expected")


def test_type_specific_fields_and_consistency(tmp_path):
    choice = dict(GOOD, id="c", type="choice", multiple=False, answer=["x", "y"],
                  options=[{"id": "x", "text": {"en": "X", "zh": "甲"}}, {"id": "y", "text": {"en": "Y", "zh": "乙"}}])
    del choice["tolerance"]
    order = dict(GOOD, id="o", type="order", answer=["a", "a"],
                 steps=[{"id": "a", "text": {"en": "A", "zh": "甲"}}, {"id": "b", "text": {"en": "B", "zh": "乙"}}])
    number = dict(GOOD, id="n")
    del number["tolerance"]
    write(tmp_path, "a.yaml", {"schema_version": 1, "exercises": [choice, order, number, dict(GOOD, id="c")]})
    loaded = load_exercises(tmp_path)
    assert [ex.id for ex in loaded.exercises] == ["c"]  # the last one: the broken "c" never registered its id
    assert messages(loaded) == [
        ("a.yaml", "$.exercises[2]", "'tolerance' is a required property"),
        ("a.yaml", "$.exercises[0].answer", "a single-choice exercise needs exactly one correct option"),
        ("a.yaml", "$.exercises[1].answer", "the answer must list every step id exactly once"),
    ]


def test_an_ordering_exercise_listing_its_steps_in_the_answers_order_is_refused(tmp_path):
    """The ordering widget starts from the listed order and never grades it unchanged, so that order
    must not be the answer (else the right answer could never be submitted)."""
    steps = [{"id": "a", "text": {"en": "A", "zh": "甲"}}, {"id": "b", "text": {"en": "B", "zh": "乙"}}]
    listed = dict(GOOD, id="listed", type="order", answer=["a", "b"], steps=steps)
    shuffled = dict(GOOD, id="shuffled", type="order", answer=["b", "a"], steps=steps)
    for entry in (listed, shuffled):
        del entry["tolerance"]
    write(tmp_path, "a.yaml", {"schema_version": 1, "exercises": [listed, shuffled]})
    loaded = load_exercises(tmp_path)
    assert [ex.id for ex in loaded.exercises] == ["shuffled"]
    assert messages(loaded) == [("a.yaml", "$.exercises[0].steps", "the steps are listed in the answer's order; "
                                 "list them shuffled: the page starts from this order and does not grade it unchanged")]


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, "a.yaml", {"schema_version": 1, "exercises": [GOOD]})
    write(tmp_path, "b.yaml", {"schema_version": 1, "exercises": [dict(GOOD, answer=0.25), dict(GOOD, id="two")]})
    loaded = load_exercises(tmp_path)
    assert [ex.id for ex in loaded.exercises] == ["ok_one", "two"]
    assert messages(loaded) == [("b.yaml", "$.exercises[0].id", "duplicate exercise id 'ok_one' (first in "
                                 f"{loaded.exercises[0].file})")]


def test_check_grades_reference_and_wrong_answers(tmp_path):
    """`python -m toolcall check` fails a reference answer that is not full marks and a
    listed wrong answer that is."""
    shutil.copytree(FIXTURES_DIR, tmp_path / "fixtures")
    folder = tmp_path / "fixtures" / "exercises"
    for path in folder.glob("*.yaml"):
        path.unlink()
    bad = dict(GOOD, answer=0.5, wrong_answers=[{"answer": 0.505, "feedback": {"en": "f", "zh": "反馈"}}])
    off = dict(GOOD, id="off", page="exercises", type="choice", multiple=True, answer=["x"],
               title={"en": "Off", "zh": "偏"},  # a title of its own: two of one page reading "T" are a problem too
               options=[{"id": "x", "text": {"en": "X", "zh": "甲"}}, {"id": "y", "text": {"en": "Y", "zh": "乙"}}],
               wrong_answers=[{"answer": ["x"], "feedback": {"en": "f", "zh": "反馈"}}])
    del off["tolerance"]
    write(folder, "x.yaml", {"schema_version": 1, "exercises": [bad, off]})
    found = [(Path(p.file).name, p.path, p.message) for p in check_exercises(tmp_path)]
    assert found == [("x.yaml", "$.exercises[0].wrong_answers[0].answer", "this wrong answer earns full marks"),
                     ("x.yaml", "$.exercises[1].wrong_answers[0].answer", "this wrong answer earns full marks")]
    typo = dict(off, id="typo", wrong_answers=[{"answer": ["modle"], "feedback": {"en": "f", "zh": "反馈"}}])
    write(folder, "x.yaml", {"schema_version": 1, "exercises": [typo]})
    assert [(p.path, p.message) for p in check_exercises(tmp_path)] == [
        ("$.exercises[0].wrong_answers[0].answer", 'no student can give this wrong answer (There is no option '
         '"modle".), so its feedback is never shown')]
    write(folder, "x.yaml", {"schema_version": 1, "exercises": [dict(GOOD, answer=0.5, tolerance=-1)]})
    assert [(p.path, p.message) for p in check_exercises(tmp_path)] == [
        ("$.exercises[0].tolerance", "-1 is less than the minimum of 0")]


# A field of another exercise type passes the schema (which lists every type's fields) and the app never reads it.
TWO = [{"id": "a", "text": {"en": "A", "zh": "甲"}}, {"id": "b", "text": {"en": "B", "zh": "乙"}}]
SAMPLE_FIELDS = {"multiple": True, "options": TWO, "tolerance": 0.1, "starter": "{}", "schema": {"type": "object"},
                 "tool": "get_order", "starter_preset": "remove_description", "steps": TWO, "categories": TWO,
                 "items": TWO}


def _shipped(kind: str) -> tuple[Path, int, dict]:
    """(file, index, item) of the first shipped exercise of type ``kind``."""
    for path in sorted((FIXTURES_DIR / "exercises").glob("*.yaml")):
        for i, item in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))["exercises"]):
            if item["type"] == kind:
                return path, i, item
    raise LookupError(kind)


def _with_field(tmp_path: Path, kind: str, field: str):
    path, i, item = _shipped(kind)
    write(tmp_path, "x.yaml", {"schema_version": 1, "exercises": [dict(item, **{field: SAMPLE_FIELDS[field]})]})
    return load_exercises(tmp_path), item["id"]


def test_a_schema_on_a_schema_fix_exercise_is_reported_and_the_exercise_still_loads(tmp_path):
    loaded, ex_id = _with_field(tmp_path, "schema_fix", "schema")
    assert [ex.id for ex in loaded.exercises] == [ex_id]
    assert messages(loaded) == [("x.yaml", "$.exercises[0].schema", "a schema_fix exercise never reads 'schema' (it "
                                 "reads starter_preset, tool besides the common fields): remove it, or change the type")]


def test_every_field_of_the_schema_is_common_or_read_by_a_type():
    schema = json.loads((FIXTURES_DIR / "schemas" / "exercise.schema.json").read_text(encoding="utf-8"))
    item = schema["properties"]["exercises"]["items"]
    assert set(item["properties"]) == COMMON_FIELDS | set(SAMPLE_FIELDS)
    assert set().union(*TYPE_FIELDS.values()) == set(SAMPLE_FIELDS)
    assert set(TYPE_FIELDS) == set(item["properties"]["type"]["enum"])
    for rule in item["allOf"]:
        kind = rule["if"]["properties"]["type"]["const"]
        assert set(rule["then"].get("required", [])) <= TYPE_FIELDS[kind], kind


@pytest.mark.parametrize("kind, field", [(k, f) for k in sorted(TYPE_FIELDS) for f in sorted(SAMPLE_FIELDS)
                                         if f not in TYPE_FIELDS[k]])
def test_every_field_of_another_type_is_reported(tmp_path, kind, field):
    try:
        loaded, _ = _with_field(tmp_path, kind, field)
    except LookupError:
        pytest.skip(f"no shipped {kind} exercise")
    assert (("x.yaml", f"$.exercises[0].{field}") in [m[:2] for m in messages(loaded)])
