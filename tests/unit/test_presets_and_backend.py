"""Presets that loosen the schema (each leaks exactly what it should) and the backend's business rules."""

import pytest

from toolcall.backend import RefundBackend
from toolcall.judge import evaluate, evaluate_canned, summarize
from toolcall.presets import PRESETS, apply_preset

#: What each shipped output must leak under each preset (pinned by id; an added output is
#: judged by DROPS below, so adding a fixture entry needs no change here).
LEAKS = {
    "reference": (),
    "no_additional_properties": ("extra_field",),
    "nothing_required": ("missing_required",),
    "enum_removed": ("enum_violation",),
    "integer_loosened": ("wrong_type", "yuan_not_cents"),
    "all_constraints_stripped": ("missing_required", "wrong_type", "yuan_not_cents", "enum_violation",
                                 "extra_field", "trailing_newline"),
}
#: The keywords each preset removes: an output can only leak if its ``catches`` is among them.
DROPS = {
    "reference": set(),
    "no_additional_properties": {"additionalProperties"},
    "nothing_required": {"required"},
    "enum_removed": {"enum"},
    "integer_loosened": {"type"},
    "all_constraints_stripped": {"required", "additionalProperties", "type", "enum", "pattern", "minimum",
                                 "maximum", "maxLength", "minLength", "format", "const", "multipleOf"},
}
SHIPPED = {"valid", "missing_required", "wrong_type", "yuan_not_cents", "enum_violation", "extra_field",
           "trailing_newline", "truncated"}


@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_leaks_exactly_its_lesson(preset, outputs, schema, tool, book):
    summary = summarize(evaluate_canned(outputs.outputs, apply_preset(schema, preset), tool.name, book))
    assert tuple(i for i in summary.leaked if i in SHIPPED) == LEAKS[preset]
    by_id = {o.id: o for o in outputs.outputs}
    assert all(by_id[i].catches in DROPS[preset] for i in summary.leaked), summary.leaked
    assert summary.matched == len(outputs.outputs) - len(summary.leaked)
    assert summary.unexpected_rejections == ()


def test_loosening_the_amount_to_number_lets_yuan_through(outputs, schema, tool, book):
    """The course's point: 19.99 sent where cents are expected. Under integer it is refused;
    as soon as amount_cents is a number it passes and would refund 19.99 cents."""
    loosened = {**schema, "properties": {**schema["properties"],
                                         "amount_cents": {**schema["properties"]["amount_cents"], "type": "number"}}}
    yuan = [o for o in outputs.outputs if o.id == "yuan_not_cents"]
    assert summarize(evaluate_canned(yuan, schema, tool.name, book)).leaked == ()
    assert summarize(evaluate_canned(yuan, loosened, tool.name, book)).leaked == ("yuan_not_cents",)


def test_presets_never_mutate_the_reference(schema):
    before = repr(schema)
    for preset in PRESETS:
        apply_preset(schema, preset)
    assert repr(schema) == before


def test_unknown_preset_is_refused(schema):
    with pytest.raises(ValueError, match="unknown preset 'tighter'"):
        apply_preset(schema, "tighter")


@pytest.mark.parametrize("case_id, code", [("over_paid", "AMOUNT_EXCEEDS_PAID"), ("no_such_order", "ORDER_NOT_FOUND"),
                                           ("unshipped", "ORDER_NOT_DELIVERED"), ("other_customer", "ORDER_NOT_OWNED")])
def test_schema_valid_calls_the_backend_refuses(case_id, code, outputs, schema, tool, book):
    case = next(c for c in outputs.business_cases if c.id == case_id)
    card = evaluate(case.raw, schema, tool.name, tool_use_id="toolu_01X", backend=RefundBackend(book))
    assert card.verdict == "accepted" and card.is_error
    assert card.tool_result["is_error"] is True
    assert card.backend.error["code"] == code
    assert card.backend.error["retryable"] is False


def test_amount_error_message_is_actionable(book):
    result = RefundBackend(book).refund({"order_id": "ORD-20260705", "amount_cents": 150000, "reason": "other"})
    assert result.error == {"code": "AMOUNT_EXCEEDS_PAID", "retryable": False, "message":
                            "Refund of 150000 cents exceeds what is left to refund on ORD-20260705: "
                            "1500 cents of 1500 paid. Ask the customer to confirm the amount."}


def test_unshipped_order_points_to_cancel_order(book):
    result = RefundBackend(book).refund({"order_id": "ORD-20261102", "amount_cents": 100, "reason": "other"}, lang="zh")
    assert result.error["message"] == ("订单 ORD-20261102 的状态是 unshipped，还没有签收，退款只适用于已签收的订单。"
                                       "请改用 cancel_order。")


def test_replayed_refund_returns_the_first_refund_never_a_second(book):
    backend = RefundBackend(book)
    args = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
    first = backend.refund(args, tool_use_id="toolu_01A")
    again = backend.refund(dict(args), tool_use_id="toolu_01A")
    assert first.data == {"refund_id": "RF-20260917-001", "status": "submitted", "order_id": "ORD-20260917",
                          "amount_cents": 1999}
    assert again.data == {**first.data, "replayed": True}
    assert backend.refunded == {"ORD-20260917": 1999}


def test_same_explicit_key_different_arguments_is_a_conflict(book):
    backend = RefundBackend(book)
    backend.refund({"order_id": "ORD-20260917", "amount_cents": 1999, "idempotency_key": "k"})
    result = backend.refund({"order_id": "ORD-20260917", "amount_cents": 500, "idempotency_key": "k"})
    assert result.error == {"code": "IDEMPOTENCY_CONFLICT", "retryable": False,
                            "message": "Idempotency key idem:k was already used with different arguments."}
    assert backend.refunded == {"ORD-20260917": 1999}


def test_partial_refunds_add_up_to_what_was_paid(book):
    backend = RefundBackend(book)
    assert backend.refund({"order_id": "ORD-20260917", "amount_cents": 2000, "reason": "damaged"}).ok
    second = backend.refund({"order_id": "ORD-20260917", "amount_cents": 600, "reason": "damaged"})
    assert second.error["code"] == "AMOUNT_EXCEEDS_PAID"
    assert backend.refund({"order_id": "ORD-20260917", "amount_cents": 599, "reason": "damaged"}).ok
    assert backend.refunded == {"ORD-20260917": 2599}


def test_loosened_schema_lets_unreadable_arguments_reach_the_backend(tool, book):
    """With all constraints stripped, {} is schema-valid; the backend must answer, not crash."""
    card = evaluate("{}", apply_preset(tool.input_schema, "all_constraints_stripped"), tool.name, tool_use_id="c",
                    backend=RefundBackend(book))
    assert card.verdict == "accepted" and card.backend.error["code"] == "BAD_ARGUMENTS"
    card = evaluate('{"order_id": 5, "amount_cents": "x"}', apply_preset(tool.input_schema, "all_constraints_stripped"),
                    tool.name, tool_use_id="c", backend=RefundBackend(book))
    assert card.backend.error["code"] == "BAD_ARGUMENTS"
