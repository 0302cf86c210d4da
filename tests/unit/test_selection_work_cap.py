"""Checking a selection set costs a bounded number of validations however large the table, and the page does
not pay it again on a rerun that did not change the table.

Before: each case was capped (10 values per parameter) but the set was not: 500 rows × 4 parameters × 10 values
were 20 000 validations, about 4 s of CPU on every rerun of the selection lab (any click), holding the process
every student of it shares. Work is counted (calls to validate), never timed. The largest table is derived from
the caps themselves (MAX_CASES rows, every parameter of the tool, MAX_VALUES_PER_PARAMETER values each)."""

import json

import pytest

import toolcall.selection as selection
from toolcall import FIXTURES_DIR
from toolcall.selection import (MAX_CASES, MAX_CHECKED_VALUES, MAX_VALUES_PER_PARAMETER, check_set, from_rows,
                                load_set, load_tool_schemas)

SET = load_set(FIXTURES_DIR / "selection" / "shop.en.yaml")
SCHEMAS = load_tool_schemas(SET.tools, FIXTURES_DIR / "tools")


def _largest_table(tool: str) -> list[dict]:
    args = {param: [f"v{i}" for i in range(MAX_VALUES_PER_PARAMETER)] for param in SCHEMAS[tool]["properties"]}
    return [{"id": f"c{i}", "expected_tool": tool, "request": f"request {i}", "expected_arguments": json.dumps(args),
             "should_not_call": ""} for i in range(MAX_CASES)]


@pytest.fixture
def validations(monkeypatch):
    calls = []
    real = selection.validate
    monkeypatch.setattr(selection, "validate", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


@pytest.mark.parametrize("tool", SET.tools)
def test_the_largest_table_costs_at_most_the_set_cap(validations, tool):
    rows = _largest_table(tool)
    cases, problems = from_rows(rows)
    problems += check_set(cases, SCHEMAS, SET.tools)
    offered = MAX_CASES * len(SCHEMAS[tool]["properties"]) * MAX_VALUES_PER_PARAMETER
    assert len(validations) == min(offered, MAX_CHECKED_VALUES)
    unchecked = [p for p in problems if p.code == "values_unchecked"]
    if offered > MAX_CHECKED_VALUES:
        assert [p.params for p in unchecked] == [{"count": offered - MAX_CHECKED_VALUES, "limit": MAX_CHECKED_VALUES}]
        assert "were not checked" in unchecked[0].message("en") and "没有按 schema 校验" in unchecked[0].message("zh")
    else:
        assert unchecked == []


def test_the_shipped_sets_are_far_below_the_cap(validations):
    for lang in ("en", "zh"):
        sset = load_set(FIXTURES_DIR / "selection" / f"shop.{lang}.yaml")
        assert check_set(sset.cases, SCHEMAS, sset.tools) == []
    assert 0 < len(validations) < MAX_CHECKED_VALUES // 4
