"""A content schema's ``pattern`` means what JSON Schema says (ECMA-262), not what Python's ``re`` says: ``$``
there also matches before a final line break, so ``id: "pk_pass3\\n"`` (what a YAML block scalar ``id: |`` gives)
passed ``^[a-z][a-z0-9_]{0,63}$``, loaded as a second exercise reading ``pk_pass3`` next to the real one
(check passed, the duplicate check compares exactly), and a tool named ``refund_order\\n`` loaded for
``result`` and ``strict``. Cases: every pattern of every content schema (fixtures/schemas), so a new one is
covered; then one file per kind through its loader."""

import json
import re

import pytest
import yaml

from toolcall import CONTENT_ROOT
from toolcall.exercises import load_exercise_file
from toolcall.fixtures import FixtureError, content_validator, load_tool

SCHEMAS = sorted((CONTENT_ROOT / "fixtures" / "schemas").glob("*.schema.json"))
#: Values tried against each pattern: the first one Python's re accepts is the sample.
SAMPLES = ["a", "ORD-12345678", "https://example.org", "f(x)", "parse:x"]


def _walk(node, pointer: str = ""):
    """(JSON pointer, pattern) of every ``pattern`` keyword under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield pointer, value
            else:
                yield from _walk(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{pointer}/{i}")


def _patterns():
    for path in SCHEMAS:
        for pointer, pattern in _walk(json.loads(path.read_text(encoding="utf-8"))):
            yield pytest.param(pattern, id=f"{path.name}{pointer}")


@pytest.mark.parametrize("pattern", list(_patterns()))
def test_a_trailing_line_break_does_not_pass_an_anchored_pattern(pattern):
    sample = next((s for s in SAMPLES if re.search(pattern, s)), None)
    assert sample is not None, f"add a value matching {pattern!r} to SAMPLES"
    validator = content_validator({"type": "string", "pattern": pattern})
    assert validator.is_valid(sample)
    if pattern.endswith("$"):
        assert re.search(pattern, sample + "\n")  # what the old check let through
        assert not validator.is_valid(sample + "\n")


def test_an_exercise_id_with_a_line_break_is_refused(tmp_path):
    data = yaml.safe_load((CONTENT_ROOT / "fixtures" / "exercises" / "passk_lab.yaml").read_text(encoding="utf-8"))
    data["exercises"] = [dict(data["exercises"][0], id=data["exercises"][0]["id"] + "\n")]
    path = tmp_path / "zz.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    exercises, problems = load_exercise_file(path)
    assert exercises == []
    assert [(p.path, p.message) for p in problems] == [
        ("$.exercises[0].id", f"{data['exercises'][0]['id']!r} does not match '^[a-z][a-z0-9_]{{0,63}}$'")]


def test_a_tool_name_with_a_line_break_is_refused(tmp_path):
    tool = json.loads((CONTENT_ROOT / "fixtures" / "tools" / "refund_order.json").read_text(encoding="utf-8"))
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**tool, "name": "refund_order\n"}), encoding="utf-8")
    with pytest.raises(FixtureError) as exc:
        load_tool(path)
    assert [p.path for p in exc.value.problems] == ["$.name"]
