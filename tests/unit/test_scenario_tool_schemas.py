"""A scenario's tools are checked as fixtures/tools files are: each input_schema must be a valid Draft 2020-12 schema.

scenario.schema.json asks only for an object, so ``required: -1`` or ``type: strin`` (a hurried edit) passed
``check`` and went into every request the harness page shows as what it sends; a provider refuses such a tool.
"""

from pathlib import Path

import pytest
import yaml

from toolcall.check import run_checks
from toolcall.harness_grading import check_scenarios

REPO = Path(__file__).resolve().parents[2]


def _root(tmp_path, key, value, tool=0):
    folder = tmp_path / "fixtures" / "scenarios"
    folder.mkdir(parents=True)
    data = yaml.safe_load((REPO / "fixtures" / "scenarios" / "01-plain-call.yaml").read_text(encoding="utf-8"))
    data["tools"][tool]["input_schema"][key] = value
    (folder / "01-plain-call.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("key, value, path, message", [
    ("required", -1, "$.tools[0].input_schema.required",
     'Not a valid Draft 2020-12 schema: at /required, keyword "required": expected type array; received integer -1'),
    ("type", "strin", "$.tools[0].input_schema.type",
     'Not a valid Draft 2020-12 schema: at /type, keyword "type": expected one of "array", "boolean", "integer", '
     '"null", "number", "object", "string"; received string "strin"'),
    ("required", [1], "$.tools[0].input_schema.required[0]",
     'Not a valid Draft 2020-12 schema: at /required/0, keyword "required": expected type string; received integer 1'),
    ("properties", [], "$.tools[0].input_schema.properties",
     'Not a valid Draft 2020-12 schema: at /properties, keyword "properties": expected type object; received array '
     '[]'),
])
def test_an_invalid_scenario_tool_schema_is_named_with_its_path(tmp_path, key, value, path, message):
    root = _root(tmp_path, key, value)
    assert [(p.path, p.message) for p in check_scenarios(root)] == [(path, message)]


def test_check_names_the_scenario_file(tmp_path):
    root = _root(tmp_path, "type", [])
    problems = [p for p in run_checks(root) if p.path.startswith("$.tools[0].input_schema")]
    assert [(Path(p.file).name, p.path) for p in problems] == [("01-plain-call.yaml", "$.tools[0].input_schema.type")]


def test_every_shipped_scenario_tool_schema_is_valid():
    assert check_scenarios(REPO) == []
