"""Issue 12 item 1: a max_tokens stop sends no tool_result and re-requests with a larger max_tokens;
broken JSON for any other reason gets an is_error tool_result quoting the raw text, addressed to the model."""

import json
import subprocess
import sys

import pytest

from toolcall import REPO_ROOT
from toolcall.backend import backend_for
from toolcall.judge import (RE_REQUEST, STOP_MAX_TOKENS, STOP_TOOL_USE, HarnessAction, evaluate, evaluate_canned,
                           harness_action_for)

TRUNCATED_RAW = '{"order_id": "ORD-20260917", "amount_cents": 1999, "rea'
#: the explanation of the truncated text (toolcall/json_explain.py), as the canned-output test pins it
TRUNCATED_DETAIL = ('The string that starts at line 1, column 52 never ends: "rea — the text stops inside it: it was cut '
                    'off, or its closing " is missing. (Parser\'s message: Unterminated string)')
VALID_RAW = '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}'
#: What the model reads when the JSON is broken and the stop reason is tool_use (the course: is_error,
#: the raw text quoted back, built with a JSON library). No word about max_tokens: that is the harness's job.
OTHER_REASON_CONTENT = json.dumps({
    "error": "INVALID_JSON", "detail": TRUNCATED_DETAIL,
    "line": 1, "column": 52, "position": 51, "raw": TRUNCATED_RAW,
    "hints": ["The JSON stops before it is complete: the text ends inside a string or with a bracket left open."],
    "advice": "The arguments could not be read as a JSON object, so refund_order was not run. "
              "Send the complete arguments as one JSON object."}, ensure_ascii=False)


def test_the_shipped_truncated_card_re_requests_with_the_numbers(outputs, schema, tool, book):
    """The canned "Truncated JSON" output stopped with max_tokens 64: no tool_result, the same request with 128."""
    assert outputs.max_tokens == 64
    truncated = next(o for o in outputs.outputs if o.id == "truncated")
    assert truncated.stop_reason == STOP_MAX_TOKENS
    card = next(c.card for c in evaluate_canned(outputs.outputs, schema, tool.name, book, max_tokens=64)
                if c.output.id == "truncated")
    assert card.harness_action == HarnessAction(RE_REQUEST, "max_tokens", 64, 128)
    assert card.sends_tool_result is False
    assert card.harness_action.request_fields("anthropic") == {"max_tokens": 128}
    assert card.harness_action.request_fields("openai") == {"max_completion_tokens": 128}
    # shown only as "what would be sent had it stopped with tool_use"
    assert card.tool_result["is_error"] is True and card.tool_result["content"] == OTHER_REASON_CONTENT
    # the developer's advice stays on the card, for the student
    assert any("raise max_tokens" in h for h in card.hints)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_broken_json_for_another_reason_is_sent_back_is_error_without_developer_advice(schema, tool, lang):
    card = evaluate(TRUNCATED_RAW, schema, tool.name, lang, "anthropic", "toolu_01A", stop_reason=STOP_TOOL_USE)
    assert card.harness_action is None and card.sends_tool_result
    assert card.tool_result["is_error"] is True
    body = json.loads(card.tool_result["content"])
    assert body["raw"] == TRUNCATED_RAW and body["error"] == "INVALID_JSON"
    assert "max_tokens" not in card.tool_result["content"]
    if lang == "en":
        assert card.tool_result["content"] == OTHER_REASON_CONTENT


def test_every_canned_max_tokens_output_never_runs_and_sends_nothing(outputs, schema, tool, book):
    """Derived from the fixture: whatever parses, a cut-off call never reaches the backend."""
    for canned in evaluate_canned(outputs.outputs, schema, tool.name, book, max_tokens=outputs.max_tokens):
        if canned.output.stop_reason == STOP_MAX_TOKENS:
            assert canned.card.backend is None and not canned.card.sends_tool_result, canned.output.id
            assert canned.card.harness_action.next_max_tokens == 2 * outputs.max_tokens
        else:
            assert canned.card.harness_action is None and canned.card.sends_tool_result, canned.output.id


def test_a_call_that_parses_is_still_not_run_after_a_max_tokens_stop(schema, tool, book):
    backend = backend_for(tool.name, book)
    card = evaluate(VALID_RAW, schema, tool.name, "en", "openai", "call_1", backend, stop_reason="max_tokens",
                    max_tokens=300)
    assert card.verdict == "accepted" and card.backend is None and card.tool_result == {}
    assert card.harness_action.request_fields("openai") == {"max_completion_tokens": 600}
    assert backend.refunded == {}


@pytest.mark.parametrize("stop, limit", [("end_turn", 64), ("max_tokens", 0), ("max_tokens", True)])
def test_unknown_stop_reasons_and_limits_are_refused(stop, limit):
    with pytest.raises(ValueError):
        harness_action_for(stop, limit)


def test_cli_prints_the_re_request_not_a_tool_result():
    out = subprocess.run([sys.executable, "-m", "toolcall", "result", "--tool", "fixtures/tools/refund_order.json",
                          "--input", TRUNCATED_RAW, "--stop-reason", "max_tokens", "--max-tokens", "64", "--id", "t1"],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "stop_reason": "max_tokens", "tool_result": None,
        "harness_action": {"action": "re_request", "max_tokens": 64, "next_max_tokens": 128,
                           "request_fields": {"max_tokens": 128}},
        "tool_result_if_stop_reason_tool_use": {"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                                "content": OTHER_REASON_CONTENT}}


@pytest.mark.parametrize("value, shown", [("0", "0"), ("1000001", "1000001"),
                                          ("999999999999999999999999999999999", "a number of 33 digits")])
def test_cli_max_tokens_is_held_to_the_course_limit(capsys, value, shown):
    """``--max-tokens 10**33 - 1`` was taken, and its re-request printed max_tokens 2 × 10**33 (past 2⁶⁴ − 1, which
    no API takes); the scenarios' and the walkthrough's max_tokens had no maximum either (issue 13, round 6)."""
    from toolcall.cli import main
    from toolcall.fixtures import content_schema
    from toolcall.judge import MAX_TOKENS_LIMIT

    assert main(["result", "--tool", str(REPO_ROOT / "fixtures/tools/get_order.json"), "--input", "{}",
                 "--stop-reason", "max_tokens", "--max-tokens", value]) == 2
    assert capsys.readouterr() == ("", f"--max-tokens must be from 1 to 1,000,000, not {shown}\n")
    schemas = REPO_ROOT / "fixtures" / "schemas"
    assert [content_schema(schemas / f"{kind}.schema.json")["properties"]["max_tokens"]["maximum"]
            for kind in ("outputs", "scenario", "walkthrough")] == [MAX_TOKENS_LIMIT] * 3 == [1_000_000] * 3
