"""Issue 21: the same call and its result in five wire forms, with exact values, and every message we
build checked against the providers' own SDK types where they install (openai, mcp, google-genai; no
network). Cases come from the shipped canned outputs and business cases."""

import json

import pytest
from pydantic import TypeAdapter

from toolcall import FIXTURES_DIR
from toolcall.backend import RefundBackend
from toolcall.cli import main
from toolcall.fixtures import load_orders, load_outputs, load_tool
from toolcall.forms import CHOICES, arguments_text, call_message, tool_choice, tool_definition
from toolcall.judge import evaluate, unknown_tool_message
from toolcall.results import LANDINGS, call_id, jsonrpc_error, landing, result_text, tool_result_message
from toolcall.wire import FORMATS, GEMINI, MCP, PAIRING_CHOICES, RESPONSES

TOOL = load_tool(FIXTURES_DIR / "tools" / "refund_order.json")
FIXTURE = load_outputs(FIXTURES_DIR / "outputs" / "refund_order.yaml")
BOOK = load_orders()
GOOD = '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}'


def judge(raw, fmt, lang="en", output_schema=None):
    return evaluate(raw, TOOL.input_schema, TOOL.name, lang, fmt, "id_1", RefundBackend(BOOK),
                    output_schema=output_schema)


def test_the_forms_are_named_once():
    assert FORMATS == ("anthropic", "openai", "responses", "mcp", "gemini")
    assert PAIRING_CHOICES == ("auto", *FORMATS)


def test_tool_result_in_each_form_exact():
    assert tool_result_message(RESPONSES, "call_1", "boom", True) == {
        "type": "function_call_output", "call_id": "call_1", "output": "boom"}
    assert tool_result_message(MCP, 7, "boom", True) == {
        "jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "boom"}], "isError": True}}
    assert tool_result_message(MCP, "r", '{"a": 1}', False, structured={"a": 1})["result"] == {
        "content": [{"type": "text", "text": '{"a": 1}'}], "structuredContent": {"a": 1}, "isError": False}
    assert tool_result_message(GEMINI, "c", '{"error": {"code": "X"}}', True, "refund_order") == {
        "functionResponse": {"id": "c", "name": "refund_order", "response": {"error": {"code": "X"}}}}
    assert tool_result_message(GEMINI, "c", "plain text", False, "t")["functionResponse"]["response"] == {
        "output": "plain text"}
    assert jsonrpc_error(3, "Unknown tool: x") == {"jsonrpc": "2.0", "id": 3,
                                                   "error": {"code": -32602, "message": "Unknown tool: x"}}
    with pytest.raises(ValueError):
        tool_result_message("bedrock", "c", "x", False)


def test_call_ids_per_form():
    assert call_id("s", MCP).startswith("req_") and len(call_id("s", MCP)) == 20
    assert call_id("s", RESPONSES) == call_id("s", "openai")


@pytest.mark.parametrize("out", FIXTURE.outputs, ids=lambda o: o.id)
def test_each_canned_output_lands_where_its_form_puts_it(out):
    """Not a JSON object: MCP cannot even send it (JSON-RPC -32602); schema-refused: a CallToolResult
    with isError (SEP-1303); Gemini: an object under "error"; Responses: only the text says it."""
    cards = {fmt: judge(out.raw, fmt) for fmt in FORMATS}
    rejected = out.expected == "rejected"
    refused = rejected or cards["anthropic"].is_error
    not_object = cards["anthropic"].parse is not None and not cards["anthropic"].parse.ok
    assert cards[MCP].lands == ("mcp_jsonrpc_error" if not_object else "mcp_is_error" if refused else "mcp_ok")
    assert cards[GEMINI].lands == ("gemini_error" if refused else "gemini_output")
    assert cards[RESPONSES].lands == ("responses_error_text" if refused else "responses_ok")
    assert cards["anthropic"].lands == ("anthropic_is_error" if refused else "anthropic_ok")
    assert {c.lands for c in cards.values()} <= set(LANDINGS)
    # the text the model reads is the same in every form that hands it to the model
    text = cards["anthropic"].tool_result["content"]
    assert result_text("openai", cards["openai"].tool_result) == text
    assert result_text(RESPONSES, cards[RESPONSES].tool_result) == text
    if not not_object:
        assert result_text(MCP, cards[MCP].tool_result) == text
    assert isinstance(cards[GEMINI].tool_result["functionResponse"]["response"], dict)


def test_truncated_json_is_a_protocol_error_in_mcp_exact():
    card = judge('{"order_id": "ORD-20260917", "amount_cents": 19', MCP)
    error = card.tool_result["error"]
    assert (error["code"], error["message"]) == (-32602, "Invalid params: arguments for refund_order must be a JSON object")
    assert error["data"]["error"] == "INVALID_JSON"
    assert card.lands == "mcp_jsonrpc_error"
    assert judge('{"order_id": "ORD-20260917", "amount_cents": 19', MCP, "zh").tool_result["error"]["message"] == (
        "参数无效：refund_order 的 arguments 必须是 JSON 对象")


def test_unknown_tool_exact():
    assert unknown_tool_message("refund_everything", "r1", MCP, ["refund_order"]) == {
        "jsonrpc": "2.0", "id": "r1", "error": {"code": -32602, "message":
                                                "Unknown tool: refund_everything. Tools you can call: refund_order."}}
    assert unknown_tool_message("x", "c", RESPONSES, ["a", "b"]) == {
        "type": "function_call_output", "call_id": "c", "output": "Unknown tool: x. Tools you can call: a, b."}


def test_structured_content_is_checked_against_the_output_schema():
    schema = {"type": "object", "required": ["refund_id"], "properties": {"refund_id": {"type": "integer"}}}
    card = judge(GOOD, MCP, output_schema=schema)
    result = card.tool_result["result"]
    assert result["isError"] is False
    assert result["structuredContent"] == json.loads(result["content"][0]["text"])
    assert [(e.pointer, e.keyword) for e in card.output_errors] == [("/refund_id", "type")]
    good = {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}}
    assert judge(GOOD, MCP, output_schema=good).output_errors == []
    assert "structuredContent" not in judge(GOOD, MCP).tool_result["result"]


def test_calls_definitions_and_tool_choice_exact():
    assert call_message(RESPONSES, "call_1", "refund_order", GOOD) == {
        "type": "function_call", "call_id": "call_1", "name": "refund_order", "arguments": GOOD}
    assert call_message(MCP, 1, "refund_order", GOOD)["params"] == {"name": "refund_order",
                                                                    "arguments": json.loads(GOOD)}
    assert call_message(GEMINI, "c", "refund_order", GOOD) == {
        "functionCall": {"id": "c", "name": "refund_order", "args": json.loads(GOOD)}}
    with pytest.raises(ValueError, match="not a JSON object"):
        call_message(GEMINI, "c", "refund_order", '{"order_id": ')
    for fmt in FORMATS:
        assert json.loads(arguments_text(fmt, call_message(fmt, "c", "refund_order", GOOD))) == json.loads(GOOD)
    assert tool_definition(MCP, TOOL) == {"name": "refund_order", "description": TOOL.description,
                                          "inputSchema": TOOL.input_schema}
    responses = tool_definition(RESPONSES, TOOL)
    assert (responses["type"], responses["name"], responses["strict"]) == ("function", "refund_order", False)
    declaration = tool_definition(GEMINI, TOOL)["functionDeclarations"][0]
    # additionalProperties is outside Gemini's OpenAPI subset: the whole schema goes in parametersJsonSchema
    assert set(declaration) == {"name", "description", "parametersJsonSchema"}
    assert [tool_choice(f, "required") for f in FORMATS] == [
        {"type": "any"}, "required", "required", None, {"functionCallingConfig": {"mode": "ANY"}}]
    assert tool_choice(RESPONSES, "named", "refund_order") == {"type": "function", "name": "refund_order"}
    assert tool_choice(GEMINI, "named", "refund_order") == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["refund_order"]}}
    with pytest.raises(ValueError):
        tool_choice(RESPONSES, "named")


def test_landing_of_a_built_message():
    assert landing(MCP, jsonrpc_error(1, "x"), True) == "mcp_jsonrpc_error"
    assert landing("openai", {}, True) == "openai_error_text"


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_result_speaks_every_form(fmt, capsys):
    assert main(["result", "--tool", str(FIXTURES_DIR / "tools" / "refund_order.json"), "--input", '{"order_id": 5}',
                 "--format", fmt, "--id", "id_9"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == judge('{"order_id": 5}', fmt).tool_result | (
        {"id": "id_9"} if fmt == MCP else {"call_id": "id_9"} if fmt == RESPONSES else
        {"functionResponse": {**judge('{"order_id": 5}', fmt).tool_result["functionResponse"], "id": "id_9"}}
        if fmt == GEMINI else {"tool_call_id": "id_9"} if fmt == "openai" else {"tool_use_id": "id_9"})


# --- SDK oracles --------------------------------------------------------------------------------

def test_responses_messages_match_the_openai_sdk():
    pytest.importorskip("openai.types.responses")
    from openai.types.responses import FunctionToolParam, ResponseInputItemParam, ToolChoiceFunctionParam

    items = TypeAdapter(ResponseInputItemParam)
    for out in FIXTURE.outputs:
        items.validate_python(judge(out.raw, RESPONSES).tool_result)
        items.validate_python(call_message(RESPONSES, "call_1", "refund_order", out.raw))
    TypeAdapter(FunctionToolParam).validate_python(tool_definition(RESPONSES, TOOL))
    TypeAdapter(ToolChoiceFunctionParam).validate_python(tool_choice(RESPONSES, "named", "refund_order"))


def test_mcp_messages_match_the_mcp_sdk():
    types = pytest.importorskip("mcp.types")
    for out in FIXTURE.outputs:
        message = judge(out.raw, MCP).tool_result
        parsed = types.jsonrpc_message_adapter.validate_python(message)
        if "result" in message:
            result = types.CallToolResult.model_validate(message["result"])
            # mcp 2.x follows spec 2026-07-28, which adds resultType ("complete" by default); we build 2025-11-25
            assert result.model_dump(by_alias=True, exclude_none=True, exclude={"result_type"}) == message["result"]
        else:
            assert isinstance(parsed, types.JSONRPCError)
        if not message.get("error"):
            request = call_message(MCP, 1, "refund_order", out.raw)
            assert types.CallToolRequest.model_validate(request).params.name == "refund_order"
    tool = types.Tool.model_validate(tool_definition(MCP, TOOL, {"type": "object"}))
    assert tool.model_dump(by_alias=True, exclude_none=True) == tool_definition(MCP, TOOL, {"type": "object"})


def test_gemini_messages_match_the_google_genai_sdk():
    genai = pytest.importorskip("google.genai.types")
    for out in FIXTURE.outputs + tuple(FIXTURE.business_cases):
        part = genai.Part.model_validate(judge(out.raw, GEMINI).tool_result)  # extra="forbid": no unknown field
        assert isinstance(part.function_response.response, dict)
    assert genai.Part.model_validate(call_message(GEMINI, "c", "refund_order", GOOD)).function_call.args == json.loads(GOOD)
    genai.Tool.model_validate(tool_definition(GEMINI, TOOL))
    for intent in CHOICES:
        genai.ToolConfig.model_validate(tool_choice(GEMINI, intent, "refund_order"))


@pytest.mark.parametrize("fmt", [RESPONSES, MCP, GEMINI])
def test_cli_pairing_checks_each_new_form(fmt, tmp_path, capsys):
    from toolcall.pairing import load_examples

    for example in [e for e in load_examples() if e.fmt == fmt]:
        path = tmp_path / f"{example.id}.json"
        path.write_text(example.text["en"], encoding="utf-8")
        assert main(["pairing", str(path), "--format", fmt]) == (1 if example.expect else 0)
        printed = json.loads(capsys.readouterr().out)
        assert (printed["format"], [v["rule"] for v in printed["violations"]]) == (fmt, list(example.expect))
