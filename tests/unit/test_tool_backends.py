"""Issue 12, "every tool runs its own backend": each tool is answered by the backend registered for its
name, a tool without one gets a schema verdict only, and an unknown tool name is reported as such."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolcall import FIXTURES_DIR, REPO_ROOT
from toolcall.backend import BACKENDS, backend_for
from toolcall.fixtures import Tool, load_tool
from toolcall.judge import evaluate, judge_call
from toolcall.transcripts import build_transcript, load_tools, load_walkthrough

TOOL_FILES = sorted((FIXTURES_DIR / "tools").glob("*.json"))


def _example(schema: dict) -> dict:
    """A small input valid against ``schema``: every property given, from its pattern, enum, bounds or type
    (order ids name the customer's unshipped order, so every shop tool has something to act on)."""
    out = {}
    for name, prop in schema.get("properties", {}).items():
        if "enum" in prop:
            out[name] = prop["enum"][-1]
        elif prop.get("pattern", "").startswith("^ORD-"):
            out[name] = "ORD-20261102"
        elif prop.get("type") == "integer":
            out[name] = prop.get("minimum", 1)
        elif prop.get("type") == "string":
            out[name] = "1 Harbour Road, Dalian"[: prop.get("maxLength", 100)]
    return out


@pytest.mark.parametrize("path", TOOL_FILES, ids=lambda p: p.stem)
def test_each_shipped_tool_is_answered_by_its_own_backend(path, book):
    tool = load_tool(path)
    args = _example(tool.input_schema)
    card = evaluate(json.dumps(args), tool.input_schema, tool.name, "en", "anthropic", "toolu_01T",
                    backend_for(tool.name, book))
    assert card.verdict == "accepted", card.errors
    if tool.name not in BACKENDS:
        assert card.no_backend and card.tool_result == {} and card.backend is None
        return
    assert card.backend == BACKENDS[tool.name](book).run(args, "toolu_01T", "en")
    body = json.loads(card.tool_result["content"])
    if tool.name != "refund_order":  # never the refund service's answer
        assert "amount_cents" not in card.tool_result["content"] and "RF-" not in card.tool_result["content"], body


@pytest.mark.parametrize("tool_name, args, expected", [
    ("get_order", {"order_id": "ORD-20260917"},
     {"order_id": "ORD-20260917", "status": "delivered", "item": "Ceramic cup (with shipping)", "paid_cents": 2599}),
    ("search_orders", {"status": "delivered"},
     {"orders": [{"order_id": "ORD-20260917", "status": "delivered", "item": "Ceramic cup (with shipping)"},
                 {"order_id": "ORD-20260705", "status": "delivered", "item": "Notebook"}],
      "total": 2, "next_cursor": None}),
    ("search_orders", {"query": "LAMP", "limit": 1},
     {"orders": [{"order_id": "ORD-20261102", "status": "unshipped", "item": "Desk lamp"}], "total": 1,
      "next_cursor": None}),
    ("cancel_order", {"order_id": "ORD-20261102", "reason": "changed_mind"},
     {"order_id": "ORD-20261102", "status": "cancelled", "charged_cents": 0}),
    ("update_shipping", {"order_id": "ORD-20261102", "speed": "express"},
     {"order_id": "ORD-20261102", "status": "updated", "speed": "express"}),
])
def test_shipped_backends_answer_exactly(tool_name, args, expected, book):
    result = backend_for(tool_name, book).run(args)
    assert result.ok and result.data == expected


@pytest.mark.parametrize("tool_name, args, code, message", [
    ("cancel_order", {"order_id": "ORD-20260917"}, "ORDER_ALREADY_SHIPPED",
     "Order ORD-20260917 is delivered: only an unshipped order can be changed or cancelled. "
     "For money back on a delivered order, use refund_order."),
    ("update_shipping", {"order_id": "ORD-20261102"}, "NOTHING_TO_CHANGE",
     "Nothing to change on ORD-20261102: give a new address, a new speed, or both."),
    ("get_order", {"order_id": "ORD-20260811"}, "ORDER_NOT_OWNED",
     "Order ORD-20260811 does not belong to the signed-in customer. Do not retry with this order."),
    ("search_orders", {"limit": 0}, "BAD_ARGUMENTS",
     "The arguments passed the schema but the search cannot read them: status and query must be strings, "
     "limit a whole number from 1 to 20."),
])
def test_shipped_backends_refuse_exactly(tool_name, args, code, message, book):
    result = backend_for(tool_name, book).run(args)
    assert result.error == {"code": code, "message": message, "retryable": False}


def test_cancelling_twice_returns_the_first_cancellation(book):
    backend = backend_for("cancel_order", book)
    backend.run({"order_id": "ORD-20261102"})
    assert backend.run({"order_id": "ORD-20261102"}).data == {"order_id": "ORD-20261102", "status": "cancelled",
                                                                "charged_cents": 0, "replayed": True}


def test_a_tool_without_parameters_is_not_refused_for_an_empty_object(book):
    tool = Tool("ping_shop", "Check that the shop service answers.",
                {"type": "object", "properties": {}, "additionalProperties": False})
    card = evaluate("{}", tool.input_schema, tool.name, "en", "anthropic", "t", backend_for(tool.name, book))
    assert card.verdict == "accepted" and card.no_backend and card.tool_result == {} and not card.is_error


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolcall", "result", *argv], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=60)


def test_cli_get_order_reads_the_order_not_a_refund():
    out = _cli("--tool", "fixtures/tools/get_order.json", "--input", '{"order_id": "ORD-20260917"}', "--id", "t")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {"type": "tool_result", "tool_use_id": "t", "content": json.dumps(
        {"order_id": "ORD-20260917", "status": "delivered", "item": "Ceramic cup (with shipping)", "paid_cents": 2599})}


def test_cli_a_tool_without_backend_says_so(tmp_path: Path):
    path = tmp_path / "ping_shop.json"
    path.write_text(json.dumps({"name": "ping_shop", "description": "Check that the shop service answers.",
                                "input_schema": {"type": "object", "properties": {}}}))
    out = _cli("--tool", str(path), "--input", "{}")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "verdict": "accepted", "tool_result": None,
        "no_backend": "No backend: schema verdict only, no fake result. The playground has fake backends for "
                      "search_orders, get_order, cancel_order, refund_order, update_shipping; ping_shop is none of "
                      "them, so nothing ran and no tool_result is made up."}


def test_an_unknown_tool_name_is_reported_never_answered_by_another(book):
    tools = {"refund_order": load_tool(), "get_order": load_tool(FIXTURES_DIR / "tools" / "get_order.json")}
    card = judge_call("issue_refund", '{"order_id": "ORD-20260917", "amount_cents": 1999}', tools, book,
                      tool_use_id="toolu_01U")
    assert card.verdict == "rejected" and card.is_error
    assert card.tool_result == {"type": "tool_result", "tool_use_id": "toolu_01U", "is_error": True,
                                "content": json.dumps({"error": {
                                    "code": "UNKNOWN_TOOL",
                                    "message": "There is no tool named issue_refund. The tools are: get_order, "
                                               "refund_order. Call one of them.", "retryable": False}})}


def test_an_unknown_tool_in_a_walkthrough_step_is_reported(book):
    fx = load_walkthrough()
    basic = fx.variant("basic")
    call = dataclasses.replace(basic.attempts[0].calls[0], tool="issue_refund")
    attempt = dataclasses.replace(basic.attempts[0], calls=(call,))
    # the model keeps calling it: the loop stops at the retry cap, each round answered UNKNOWN_TOOL
    variant = dataclasses.replace(basic, attempts=(attempt,) * (fx.max_retries + 1), outcome="failed")
    fx = dataclasses.replace(fx, variants=(variant,))
    built = build_transcript(fx, "basic", "anthropic", load_tools(fx.tools), book)
    codes = [json.loads(c["tool_result"]["content"])["error"]["code"]
             for step in built.of_kind("validation") for c in step["calls"]]
    assert codes == ["UNKNOWN_TOOL"] * (fx.max_retries + 1)
