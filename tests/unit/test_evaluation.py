"""BFCL-style grading, the failure taxonomy and per-case pass^k on hand-computed cases."""

import json
from fractions import Fraction

import pytest

from toolcall.eval_import import read_native
from toolcall.evaluation import (TAXONOMY, Call, analyse, grade_run, normalize_string, summary_rates, type_matches,
                                 values_equal)
from toolcall.fixtures import load_tool
from toolcall.selection import NO_TOOL

REFUND = load_tool().input_schema
SCHEMAS = {"refund_order": REFUND, "cancel_order": load_tool(
    __import__("toolcall").FIXTURES_DIR / "tools" / "cancel_order.json").input_schema}
EXPECTED = [{"name": "refund_order", "arguments": {"order_id": ["ORD-20260917"], "amount_cents": [1999],
                                                   "reason": ["damaged"]}}]


def refund(raw: str) -> Call:
    return Call("refund_order", raw_arguments=raw)


GOOD = '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}'


@pytest.mark.parametrize("calls, error_type, taxonomy", [
    ([refund(GOOD)], None, None),
    ([], "did_not_call", "did_not_call"),
    ([Call("cancel_order", raw_arguments='{"order_id": "ORD-20260917"}')], "wrong_tool_name", "wrong_tool"),
    ([refund(GOOD), refund(GOOD)], "wrong_count", "wrong_tool"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 19')], "unparsable_arguments", "arguments_invalid"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": "19.99", "reason": "damaged"}')], "wrong_type",
     "arguments_invalid"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 1999}')], "missing_required", "arguments_invalid"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 0, "reason": "damaged"}')], "wrong_value",
     "arguments_invalid"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "Damaged"}')], "schema_invalid",
     "arguments_invalid"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 199900, "reason": "damaged"}')], "wrong_value",
     "wrong_value"),
    ([refund('{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "note": "box"}')],
     "unexpected_parameter", "wrong_value"),
])
def test_should_call_grades(calls, error_type, taxonomy):
    """Each miss gets its BFCL-style error type and its taxonomy class (arguments invalid
    means our validator rejects them; a schema-valid miss is a wrong value)."""
    g = grade_run(EXPECTED, calls, SCHEMAS)
    assert (g.passed, g.error_type, g.taxonomy) == (error_type is None, error_type, taxonomy)
    assert g.expected_tool == "refund_order"
    assert g.chosen_tool == (calls[0].name if calls else NO_TOOL)


def test_should_not_call_grades():
    """No call is correctly declined; any call is called anyway."""
    assert grade_run([], [], SCHEMAS).error_type == "correctly_declined"
    g = grade_run([], [refund(GOOD)], SCHEMAS)
    assert (g.passed, g.error_type, g.taxonomy, g.chosen_tool) == (False, "called_anyway", "called_when_should_not",
                                                                   "refund_order")


def test_missing_optional_and_omittable():
    """An expected optional parameter without "" must be given (BFCL missing_optional); with "" it may be left out."""
    want = [{"name": "refund_order", "arguments": {**EXPECTED[0]["arguments"], "note": ["box crushed"]}}]
    assert grade_run(want, [refund(GOOD)], SCHEMAS).error_type == "missing_optional"
    want[0]["arguments"]["note"] = ["", "box crushed"]
    assert grade_run(want, [refund(GOOD)], SCHEMAS).passed
    given = '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "note": "Box  crushed."}'
    assert grade_run(want, [refund(given)], SCHEMAS).passed  # BFCL normalisation: spaces, '.' and case


def test_validation_lines_name_the_field():
    g = grade_run(EXPECTED, [refund('{"order_id": "ORD-20260917", "amount_cents": "19.99", "reason": "damaged"}')],
                  SCHEMAS)
    assert g.param == "amount_cents"
    assert g.validation[0].startswith("/amount_cents type:")


def test_inspect_parse_error_is_unparsable():
    g = grade_run(EXPECTED, [Call("refund_order", arguments={}, parse_error="Expecting value")], SCHEMAS)
    assert (g.error_type, g.taxonomy) == ("unparsable_arguments", "arguments_invalid")


def test_normalisation_is_bfcl_standardize_string():
    assert normalize_string("12 Garden Road, Hangzhou") == "12gardenroadhangzhou"
    assert normalize_string("It's ORD-2026_09*17^") == 'it"sord20260917'
    assert values_equal(1999, 1999.0) and not values_equal(True, 1) and not values_equal("1999", 1999)
    assert values_equal(["A b", 2], ["ab", 2.0]) and not values_equal(["a"], ["a", "b"])
    assert type_matches(1999.0, {"type": "integer"}) and type_matches(3, {"type": "number"})
    assert not type_matches(True, {"type": "integer"}) and type_matches("x", {})


def _line(case, run, calls, expected=EXPECTED, tools=True, passed=None):
    rec = {"case_id": case, "run": run, "model": "m", "expected_calls": expected, "actual_calls": calls}
    if tools:
        rec["tools"] = [{"name": "refund_order", "input_schema": REFUND}]
    if passed is not None:
        rec["passed"] = passed
    return json.dumps(rec)


def _log():
    good, bad = [{"name": "refund_order", "raw_arguments": GOOD}], []
    lines = [_line("a", r, good if r <= 3 else bad, tools=(r == 1)) for r in range(1, 6)]
    lines += [_line("b", r, bad, expected=[], passed=False) for r in (1, 2)]  # declined twice: logged verdict wrong
    return read_native("\n".join(lines).encode())


def test_pass_k_per_case_hand_computed():
    """Case a: n = 5, c = 3, k = 2 gives pass^2 = C(3,2)/C(5,2) = 3/10, pass@2 = 1 - C(2,2)/C(5,2)
    = 9/10, naive (3/5)^2 = 9/25. Case b has 2 runs: k = 2 works, k = 3 is refused."""
    result = analyse(_log(), 2)
    a, b = result.cases
    assert (a.case_id, a.n, a.c) == ("a", 5, 3)
    assert a.pass_hat_k == pytest.approx(0.3) and a.pass_at_k == pytest.approx(0.9) and a.naive == pytest.approx(0.36)
    assert (b.n, b.c, b.pass_hat_k, b.expected_tool) == (2, 2, 1.0, NO_TOOL)
    assert result.disagreements == 2
    assert summary_rates(result.cases)["pass^k"] == pytest.approx((0.3 + 1.0) / 2)
    refused = analyse(_log(), 3).cases[1]
    assert refused.pass_hat_k is None and refused.refused.startswith("k = 3 is larger than n = 2")
    assert float(Fraction(3, 10)) == analyse(_log(), 2).cases[0].pass_hat_k


def test_confusion_and_taxonomy_counts():
    result = analyse(_log(), 1)
    assert list(result.confusion.index) == ["refund_order", NO_TOOL]
    assert result.confusion.loc["refund_order", "refund_order"] == 3
    assert result.confusion.loc["refund_order", NO_TOOL] == 2
    assert result.confusion.loc[NO_TOOL, NO_TOOL] == 2
    assert list(result.taxonomy) == list(TAXONOMY)
    assert result.taxonomy == {"called_when_should_not": 0, "did_not_call": 2, "wrong_tool": 0,
                               "arguments_invalid": 0, "wrong_value": 0}


def test_expectations_override_regrades():
    """A student's expectation for a case replaces the log's: declining case a becomes right."""
    result = analyse(_log(), 1, {"a": ()})
    assert result.cases[0].c == 2 and result.confusion.loc[NO_TOOL, "refund_order"] == 3


def test_k_must_be_positive():
    with pytest.raises(ValueError):
        analyse(_log(), 0)


def test_deeply_nested_values_do_not_crash():
    deep = "x"
    for _ in range(3000):
        deep = [deep]
    want = [{"name": "refund_order", "arguments": {**EXPECTED[0]["arguments"], "note": [deep]}}]
    g = grade_run(want, [Call("refund_order", arguments={"order_id": "ORD-20260917", "amount_cents": 1999,
                                                         "reason": "damaged", "note": deep})], SCHEMAS)
    assert not g.passed


def test_grading_stops_when_the_logs_time_budget_is_spent(monkeypatch):
    """Past ANALYSIS_BUDGET no new call is graded: those runs are counted in not_graded and
    pass only by the log's own verdict (here none, so they fail), not by our grade."""
    import toolcall.evaluation as ev
    from toolcall.evaluation import Call, Run, RunLog

    clock = iter([0.0, 0.0, 99.0, 99.0])
    monkeypatch.setattr(ev, "_clock", lambda: next(clock))
    monkeypatch.setattr(ev, "ANALYSIS_BUDGET", 10.0)
    want = ({"name": "t", "arguments": {"x": [1, 2, 3]}},)
    runs = [Run("c", i, "m", want, (Call("t", {"x": i}),), 0, None, i) for i in (1, 2, 3)]
    result = ev.analyse(RunLog(runs, tool_sets=[{"t": {"type": "object", "properties": {"x": {"type": "integer"}}}}]), 1)
    assert result.not_graded == 2
    assert list(result.graded["passed"]) == [True, False, False]
    assert list(result.graded["detail"])[1:] == ["not graded: the time budget was spent"] * 2
    assert result.taxonomy == {name: 0 for name in ev.TAXONOMY}


def test_progress_is_reported_every_5000_runs_up_to_done():
    """The lab's upload shows a progress bar fed by analyse: fractions every 5 000 runs, the
    last one 1.0 when the count is a multiple of 5 000."""
    from toolcall import FIXTURES_DIR

    log = read_native((FIXTURES_DIR / "eval_runs" / "shop_vague.en.jsonl").read_bytes())
    log.runs = (log.runs * 33)[:10_000]
    seen = []
    analyse(log, 3, progress=seen.append)
    assert seen == [0.5, 1.0]
