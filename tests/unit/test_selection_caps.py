"""A selection set's checks are bounded by the set's size, not by what a cell holds (issue 13,
work driven by student input): 500 table rows with 2 500 acceptable values each took 79 s of CPU
and made 247 293 problems on every edit; a should_not_call cell of a million names made a million
problems (409 MB)."""

import re

import pytest

import toolcall.selection as selection
from toolcall import FIXTURES_DIR
from toolcall.selection import (MAX_CASES, MAX_CELL_CHARS, MAX_NAMES_PER_CASE, MAX_VALUES_PER_PARAMETER, check_set,
                                from_rows, load_tool_schemas)

SCHEMAS = load_tool_schemas(["refund_order", "get_order", "search_orders", "cancel_order", "update_shipping"],
                            FIXTURES_DIR / "tools")


def _row(i: int, values: int) -> dict:
    reasons = ", ".join(f'"r{j}"' for j in range(values))
    return {"id": f"c{i}", "request": f"refund order {i}", "expected_tool": "refund_order",
            "expected_arguments": f'{{"order_id": ["ORD-20260917"], "amount_cents": [100], "reason": [{reasons}]}}',
            "should_not_call": ""}


def test_validations_are_bounded_per_case_however_many_values_a_cell_lists(monkeypatch):
    calls = []
    real = selection.validate
    monkeypatch.setattr(selection, "validate", lambda *a, **k: calls.append(1) or real(*a, **k))
    cases, problems = from_rows([_row(i, 2000) for i in range(MAX_CASES)])
    assert problems == []
    found = check_set(cases, SCHEMAS)
    params = 3  # order_id, amount_cents, reason
    assert len(calls) <= MAX_CASES * params * MAX_VALUES_PER_PARAMETER
    too_many = [p for p in found if p.code == "too_many_values"]
    assert len(too_many) == MAX_CASES and too_many[0].params == {"case": "c0", "param": "reason", "count": 2000,
                                                                 "limit": MAX_VALUES_PER_PARAMETER}
    assert len(found) <= MAX_CASES * (1 + params * MAX_VALUES_PER_PARAMETER)


def test_a_huge_should_not_call_cell_is_read_only_so_far():
    cell = ",".join(f"tool_{i}" for i in range(1_000_000))
    cases, _ = from_rows([{"id": "c", "request": "hello", "expected_tool": "", "expected_arguments": "",
                           "should_not_call": cell}])
    assert len(",".join(cases[0].should_not_call)) <= MAX_CELL_CHARS
    found = check_set(cases, SCHEMAS)
    assert [p.code for p in found if p.case == "c"].count("too_many_names") == 1
    assert sum(p.code == "unknown_tool" for p in found) <= MAX_NAMES_PER_CASE


@pytest.mark.parametrize("code, params", [
    ("too_many_values", {"case": "c1", "param": "reason", "count": 2000, "limit": MAX_VALUES_PER_PARAMETER}),
    ("too_many_names", {"case": "c1", "count": 300, "limit": MAX_NAMES_PER_CASE})])
def test_the_new_problems_read_in_both_languages(code, params):
    problem = selection.SetProblem(code, "c1", params)
    en, zh = problem.message("en"), problem.message("zh")
    assert all(str(v) in en and str(v) in zh for v in params.values())
    assert re.search(r"[\u4e00-\u9fff]", zh) and zh != en
