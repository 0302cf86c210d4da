"""The walkthrough transcripts: exact shapes in both formats, and the capped retry loop."""

import json
from dataclasses import dataclass

import pytest

from toolcall.fixtures import load_orders
from toolcall.transcripts import (FAILED, SUCCEEDED, build_side_by_side, build_transcript, load_tools,
                                  load_walkthrough, retry_loop)
from toolcall.backend import lookup_order
from toolcall.wire import STEP_FORMATS

FIXTURE = load_walkthrough()
TOOLS = load_tools(FIXTURE.tools)
BOOK = load_orders()
SENTENCE = "My cup from order ORD-20260917 arrived broken, refund me 19.99."
REFUND = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
RAW = '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}'
SUBMITTED = '{"refund_id": "RF-20260917-001", "status": "submitted", "order_id": "ORD-20260917", "amount_cents": 1999}'


def build(variant, fmt, lang="en"):
    return build_transcript(FIXTURE, variant, fmt, TOOLS, BOOK, lang)


def test_basic_anthropic_walks_the_five_steps():
    """request → tool_use response → validation → request with the echoed content and the
    matching tool_result → end_turn answer."""
    t = build("basic", "anthropic")
    assert [s.code for s in t.steps] == ["request_first", "response_tool_use", "validation_accepted",
                                         "request_results", "response_end_turn"]
    first, response, check, second, final = (s.payload for s in t.steps)
    assert first["messages"] == [{"role": "user", "content": SENTENCE}]
    assert [tool["name"] for tool in first["tools"]] == ["refund_order", "get_order"]
    assert first["max_tokens"] == 1024 and first["model"] == "claude-sonnet-4-5"
    assert response["stop_reason"] == "tool_use"
    text, use = response["content"]
    assert text == {"type": "text", "text": "I'm sorry the cup arrived broken. I'll submit the refund now."}
    assert use["type"] == "tool_use" and use["name"] == "refund_order" and use["input"] == REFUND
    assert use["id"].startswith("toolu_01")
    assert check["calls"][0]["verdict"] == "accepted"
    assert check["calls"][0]["backend"]["data"]["refund_id"] == "RF-20260917-001"
    assert second["messages"][1] == {"role": "assistant", "content": response["content"]}
    assert second["messages"][2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": use["id"], "content": SUBMITTED}]}
    assert final["stop_reason"] == "end_turn"
    assert final["content"] == [{"type": "text", "text": "Done: a refund of 19.99 for the broken cup on order "
                                 "ORD-20260917 has been submitted (refund RF-20260917-001)."}]
    assert t.outcome == SUCCEEDED and t.retries == 0


def test_basic_openai_uses_an_arguments_string_and_a_tool_message():
    t = build("basic", "openai")
    first, response, _, second, final = (s.payload for s in t.steps)
    assert first["tools"][0] == {"type": "function", "function": {
        "name": "refund_order", "description": TOOLS["refund_order"].description,
        "parameters": TOOLS["refund_order"].input_schema}}
    choice = response["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    call = choice["message"]["tool_calls"][0]
    assert call["function"] == {"name": "refund_order", "arguments": RAW}
    assert isinstance(call["function"]["arguments"], str)
    assert second["messages"][1] == {"role": "assistant", "content": choice["message"]["content"],
                                     "tool_calls": choice["message"]["tool_calls"]}
    assert second["messages"][2] == {"role": "tool", "tool_call_id": call["id"], "content": SUBMITTED}
    assert final["choices"][0]["finish_reason"] == "stop"
    assert response["created"] == 1789603200 and response["object"] == "chat.completion"


def test_same_moment_same_ids_in_both_formats():
    """Side by side, step i is the same moment; the two ids share their random part."""
    pair = build_side_by_side(FIXTURE, "basic", TOOLS, BOOK)
    assert [(a.kind, a.code) for a, _ in pair.steps] == [(o.kind, o.code) for _, o in pair.steps]
    a_id = pair.anthropic.steps[1].payload["content"][1]["id"]
    o_id = pair.openai.steps[1].payload["choices"][0]["message"]["tool_calls"][0]["id"]
    assert a_id[len("toolu_01"):] == o_id[len("call_"):]


def test_parallel_anthropic_answers_both_calls_in_one_user_message():
    t = build("parallel", "anthropic")
    response = t.steps[1].payload
    ids = [b["id"] for b in response["content"] if b["type"] == "tool_use"]
    assert [b["name"] for b in response["content"]] == ["refund_order", "get_order"]
    results = t.steps[3].payload["messages"][-1]
    assert results["role"] == "user"
    assert [b["type"] for b in results["content"]] == ["tool_result", "tool_result"]
    assert [b["tool_use_id"] for b in results["content"]] == ids
    assert json.loads(results["content"][1]["content"]) == {"order_id": "ORD-20261102", "status": "unshipped",
                                                            "item": "Desk lamp", "paid_cents": 8900}


def test_parallel_openai_sends_one_tool_message_per_call():
    t = build("parallel", "openai")
    calls = t.steps[1].payload["choices"][0]["message"]["tool_calls"]
    tail = t.steps[3].payload["messages"][-2:]
    assert [m["role"] for m in tail] == ["tool", "tool"]
    assert [m["tool_call_id"] for m in tail] == [c["id"] for c in calls]


def test_correction_sends_is_error_then_succeeds():
    t = build("correction", "anthropic")
    assert [s.code for s in t.steps] == ["request_first", "response_tool_use", "validation_rejected",
                                         "request_retry", "response_tool_use", "validation_accepted",
                                         "request_results", "response_end_turn"]
    error = t.steps[3].payload["messages"][-1]["content"][0]
    assert error["is_error"] is True
    assert error["tool_use_id"] == t.steps[1].payload["content"][0]["id"]
    assert error["content"].splitlines()[1] == (
        '- /amount_cents (type): expected type integer; received string "19.99". "19.99" is a string. '
        'JSON Schema never converts strings to numbers: "1999" is not the integer 1999.')
    assert t.steps[2].payload["calls"][0]["errors"] == [
        {"pointer": "/amount_cents", "keyword": "type", "expected": "type integer", "received": 'string "19.99"'}]
    assert t.outcome == SUCCEEDED and t.retries == 1


def test_failure_stops_after_two_retries_and_sends_nothing_more():
    for fmt in ("anthropic", "openai"):
        t = build("failure", fmt)
        assert [s.code for s in t.steps][-4:] == ["request_retry", "response_tool_use", "validation_rejected",
                                                  "stopped"]
        assert len(t.of_kind("request")) == 3
        stopped = t.steps[-1].payload
        assert (stopped["outcome"], stopped["reason"], stopped["attempts"], stopped["max_retries"]) == (
            FAILED, "retry_cap_reached", 3, 2)
        assert stopped["trace"][-1]["role"] == "assistant"
        assert t.outcome == FAILED and t.retries == 2


def test_chinese_transcript_uses_the_chinese_sentence_and_errors():
    t = build("correction", "openai", "zh")
    assert t.steps[0].payload["messages"][0]["content"] == "订单 ORD-20260917 的杯子摔碎了，退我 19.99 元。"
    assert t.steps[3].payload["messages"][-1]["content"].startswith(
        "工具参数没有通过 refund_order 的 input_schema 校验（1 处错误）")


def test_unknown_format_and_non_object_raw_raise():
    with pytest.raises(ValueError):
        build("basic", "mcp")  # MCP is not a model API: no step-through
    with pytest.raises(KeyError):
        build("nope", "anthropic")


@dataclass
class R:
    is_error: bool


def test_retry_loop_stops_at_the_first_success():
    seen = []
    loop = retry_loop(["bad", "good", "never"], lambda a, i: seen.append((a, i)) or [R(a == "bad")], 2)
    assert loop.outcome == SUCCEEDED and loop.retries == 1 and seen == [("bad", 0), ("good", 1)]


def test_retry_loop_cap_never_judges_a_fourth_attempt():
    seen = []
    loop = retry_loop(["b1", "b2", "b3", "good"], lambda a, i: seen.append(a) or [R(a != "good")], 2)
    assert loop.outcome == FAILED and loop.retries == 2 and seen == ["b1", "b2", "b3"]


def test_retry_loop_needs_every_parallel_call_to_pass():
    loop = retry_loop([[True, False], [False, False]], lambda a, i: [R(x) for x in a], 2)
    assert loop.outcome == SUCCEEDED and len(loop.rounds) == 2


def test_retry_loop_zero_retries_and_bad_input():
    assert retry_loop(["b", "g"], lambda a, i: [R(a == "b")], 0).outcome == FAILED
    with pytest.raises(ValueError):
        retry_loop(["b"], lambda a, i: [R(True)], 2)
    with pytest.raises(ValueError):
        retry_loop(["g"], lambda a, i: [R(False)], -1)


def test_lookup_order_refuses_another_customers_order():
    assert lookup_order(BOOK, {"order_id": "ORD-20260811"}).error["code"] == "ORDER_NOT_OWNED"
    assert lookup_order(BOOK, {"order_id": "ORD-19990101"}).error["code"] == "ORDER_NOT_FOUND"
    assert lookup_order(BOOK, {"order_id": "ORD-20260705"}).data == {
        "order_id": "ORD-20260705", "status": "delivered", "item": "Notebook", "paid_cents": 1500}


@pytest.mark.parametrize("fmt", STEP_FORMATS)
@pytest.mark.parametrize("variant", [v.id for v in FIXTURE.variants])
def test_every_request_sends_the_english_wire_definitions_in_every_language(variant, fmt):
    """Issue 14: the zh walkthrough showed "description": "给已签收的订单…" inside tools, while the
    README says tool definitions are English wire text and the Chinese is shown, never sent."""
    en = build_transcript(FIXTURE, variant, fmt, TOOLS, BOOK, "en")
    zh = build_transcript(FIXTURE, variant, fmt, TOOLS, BOOK, "zh")
    requests = [(a.payload, b.payload) for a, b in zip(en.steps, zh.steps)
                if isinstance(a.payload, dict) and "tools" in a.payload]
    assert requests
    assert [(a["tools"], b["tools"]) for a, b in requests if a["tools"] != b["tools"]] == []
    text = json.dumps([a["tools"] for a, _ in requests], ensure_ascii=False)
    assert all(TOOLS[n].description in text or json.dumps(TOOLS[n].description)[1:-1] in text for n in FIXTURE.tools)
    assert not any(TOOLS[n].for_lang("zh").description in text for n in FIXTURE.tools)
