"""The selection lab's exercises agree with the shipped data they talk about."""

import math

from toolcall import FIXTURES_DIR
from toolcall.eval_import import read_native
from toolcall.evaluation import analyse
from toolcall.exercises import load_exercises
from toolcall.selection import check_set, SelectionCase, load_tool_schemas


def exercise(eid):
    return load_exercises(FIXTURES_DIR / "exercises").by_id()[eid]


def test_pass3_answer_is_the_recorded_runs():
    for lang in ("en", "zh"):
        log = read_native((FIXTURES_DIR / "eval_runs" / f"shop_vague.{lang}.jsonl").read_bytes())
        case = next(c for c in analyse(log, 3).cases if c.case_id == "ro_wrong_item")
        assert (case.n, case.c) == (10, 6)
        assert math.isclose(exercise("ev_pass3").answer, case.pass_hat_k, abs_tol=1e-6)


def test_the_ungradable_row_is_refused_by_the_set_check():
    schemas = load_tool_schemas(["refund_order"], FIXTURES_DIR / "tools")
    row = SelectionCase("x", "refund", "refund_order", {"order_id": ("ORD-20260917",), "amount_cents": ("19.99",),
                                                        "reason": ("damaged",)})
    assert [p.code for p in check_set([row], schemas, [])] == ["invalid_value"]
    assert exercise("ev_ungradable").answer == ["yuan"]


def test_description_fix_is_what_the_good_version_says():
    import json

    first = json.loads((FIXTURES_DIR / "eval_runs" / "shop_good.en.jsonl").read_text().split("\n", 1)[0])
    refund = next(t for t in first["tools"] if t["name"] == "refund_order")
    assert "If the order has not shipped yet, use cancel_order instead." in refund["description"]
