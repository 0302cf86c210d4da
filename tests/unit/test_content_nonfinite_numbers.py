"""A number in a JSON content file that is not finite (``1e999``, ``NaN``, ``-Infinity``) is named at its own key:
the tool check re-encoded input_schema and said only ``$.input_schema: Not JSON: Infinity is not valid JSON``
(issue 13, break-it pass brk12cli)."""

import json

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import FixtureError, load_tool

TAIL = " is not a finite number (JSON has no NaN or Infinity, and a number must be within ±1.7976931348623157e308)"


@pytest.mark.parametrize("written", ["1e999", "NaN", "-Infinity", "-1E+400"])
def test_a_non_finite_number_is_named_at_its_key(tmp_path, written):
    tool = json.loads((FIXTURES_DIR / "tools" / "refund_order.json").read_text(encoding="utf-8"))
    first = next(iter(tool["input_schema"]["properties"]))
    tool["input_schema"]["properties"][first]["maximum"] = "MARK"
    path = tmp_path / "refund_order.json"
    path.write_text(json.dumps(tool).replace('"MARK"', written), encoding="utf-8")
    with pytest.raises(FixtureError) as refused:
        load_tool(path)
    [problem] = refused.value.problems
    assert (problem.path, problem.message) == (f"$.input_schema.properties.{first}.maximum",
                                               f"not JSON: {written}{TAIL}")


@pytest.mark.parametrize("written, shown", [(".inf", "inf"), ("-.Inf", "-inf"), (".nan", "nan")])
def test_a_yaml_inf_or_nan_is_named_at_its_key(tmp_path, written, shown):
    """JSON Schema's "number" accepts them: a tolerance of .nan passed check (every answer then graded wrong), and
    an answer of .inf was reported only as "the reference answer scores 0 of 1"."""
    from toolcall.fixtures import read_data

    path = tmp_path / "x.yaml"
    path.write_text(f"exercises:\n  - id: a\n    tolerance: 0.1\n  - id: b\n    tolerance: {written}\n", encoding="utf-8")
    with pytest.raises(FixtureError) as refused:
        read_data(path)
    [problem] = refused.value.problems
    assert (problem.path, problem.message) == ("$.exercises[1].tolerance", f"{shown} is not a finite number (YAML's "
                                               ".inf and .nan are no number a student or JSON can write): write a number")
