"""Issue 12 item 2: a refund is keyed by its business parameters (or an explicit idempotency_key), so the
model re-sending it with a NEW tool_use id gets the first refund back; a key by tool_use id pays twice."""

import json

import pytest

from toolcall.backend import KEY_BY_BUSINESS, KEY_BY_CALL_ID, RefundBackend, refund_key
from toolcall.judge import REPLAY_KINDS, replay_demo

ARGS = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
FIRST = {"refund_id": "RF-20260917-001", "status": "submitted", "order_id": "ORD-20260917", "amount_cents": 1999}


def test_the_key_comes_from_order_id_and_amount_or_the_explicit_key():
    assert refund_key(ARGS) == "refund:ORD-20260917:1999"
    assert refund_key({**ARGS, "note": "again", "reason": "other"}) == "refund:ORD-20260917:1999"
    assert refund_key({**ARGS, "idempotency_key": "req-7"}) == "idem:req-7"


def test_a_model_re_issue_with_a_new_id_gets_the_first_refund_back(book):
    backend = RefundBackend(book)
    first = backend.refund(ARGS, tool_use_id="toolu_01First")
    reissued = backend.refund(dict(ARGS), tool_use_id="toolu_01Second")
    assert first.data == FIRST and reissued.data == {**FIRST, "replayed": True}
    assert backend.refunded == {"ORD-20260917": 1999} and backend.issued == 1


def test_keyed_by_the_tool_use_id_the_re_issue_pays_twice(book):
    """The mistake, kept for the demo: the re-sent call's new id is a new key (1000 of 2599 fits twice)."""
    backend = RefundBackend(book, key_by=KEY_BY_CALL_ID)
    args = {**ARGS, "amount_cents": 1000}
    backend.refund(args, tool_use_id="toolu_01First")
    assert backend.refund(dict(args), tool_use_id="toolu_01First").data["replayed"] is True
    second = backend.refund(dict(args), tool_use_id="toolu_01Second")
    assert second.data == {**FIRST, "amount_cents": 1000, "refund_id": "RF-20260917-002"}
    assert backend.refunded == {"ORD-20260917": 2000} and backend.issued == 2


def test_different_amounts_are_different_refunds(book):
    backend = RefundBackend(book)
    assert backend.refund(ARGS).data == FIRST
    assert backend.refund({**ARGS, "amount_cents": 600}).data["refund_id"] == "RF-20260917-002"
    assert backend.refunded == {"ORD-20260917": 2599}


def test_explicit_keys_tell_two_genuine_refunds_of_the_same_amount_apart(book):
    backend = RefundBackend(book)
    assert backend.refund({"order_id": "ORD-20260705", "amount_cents": 500, "idempotency_key": "a"}).ok
    assert backend.refund({"order_id": "ORD-20260705", "amount_cents": 500, "idempotency_key": "b"}).ok
    again = backend.refund({"order_id": "ORD-20260705", "amount_cents": 500, "idempotency_key": "a"})
    assert again.data["replayed"] is True and again.data["refund_id"] == "RF-20260705-001"
    assert backend.refunded == {"ORD-20260705": 1000}


def test_a_refused_refund_is_not_remembered(book):
    backend = RefundBackend(book)
    assert backend.refund({**ARGS, "amount_cents": 3000}).error["code"] == "AMOUNT_EXCEEDS_PAID"
    assert backend.by_key == {} and backend.refunded == {}


@pytest.mark.parametrize("fmt", ["anthropic", "openai"])
def test_replay_demo_shows_the_difference(outputs, schema, tool, book, fmt):
    """The shipped demo refund (looked up in the fixture): 1000 cents on ORD-20260917."""
    assert json.loads(outputs.replay_raw) == {**ARGS, "amount_cents": 1000}
    by_id, by_business = replay_demo(outputs.replay_raw, schema, tool.name, book, "en", fmt)
    assert (by_id.key_by, by_business.key_by) == (KEY_BY_CALL_ID, KEY_BY_BUSINESS)
    assert [k for k, _ in by_id.calls] == list(REPLAY_KINDS) == ["first", "same_id_replay", "model_reissue"]
    ids = [card.tool_use_id for _, card in by_id.calls]
    assert ids[0] == ids[1] != ids[2]
    assert [card.tool_use_id for _, card in by_business.calls] == ids
    first = {**FIRST, "amount_cents": 1000}
    assert [c.backend.data for _, c in by_id.calls] == [first, {**first, "replayed": True},
                                                         {**first, "refund_id": "RF-20260917-002"}]
    assert (by_id.paid, by_id.refunded_cents) == (2, 2000)
    assert [c.backend.data for _, c in by_business.calls] == [first, {**first, "replayed": True},
                                                               {**first, "replayed": True}]
    assert (by_business.paid, by_business.refunded_cents) == (1, 1000)
    assert by_business.calls[2][1].tool_result["content"] == json.dumps({**first, "replayed": True})


def test_the_canned_full_refund_is_refused_the_second_time_even_keyed_by_id(outputs, schema, tool, book):
    """Why the demo uses a partial refund: 1999 of 2599 cannot be paid twice, so the amount rule, not the
    key, would stop the re-issue and hide the mistake."""
    valid = next(o for o in outputs.outputs if o.id == "valid")
    by_id, _ = replay_demo(valid.raw, schema, tool.name, book)
    assert by_id.calls[2][1].backend.error["code"] == "AMOUNT_EXCEEDS_PAID" and by_id.paid == 1
