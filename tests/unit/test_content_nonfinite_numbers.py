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
