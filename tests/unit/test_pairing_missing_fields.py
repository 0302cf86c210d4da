"""A field that is not there at all is named missing (pass fix19left): the pairing checker said "tool_use.id must be
a string, not null" of a tool_use without an id, "arguments must be a JSON string, not null" of a call without
arguments, and named a Gemini call or response without a name "None" (Python's word) in every line about it. A
field written as null is still "not null"."""

from __future__ import annotations

import json

import pytest

from tests.transcript_builders import USER, assistant, result, tool, user
from toolcall.pairing import check_pairing

CASES = [
    ("anthropic", [USER, assistant({"type": "tool_use", "name": "f", "input": {}})], 1, 0,
     "tool_use.id is missing: it must be a string.", "Add tool_use.id: a string.",
     "缺少 tool_use.id：它应该是字符串。", "补上 tool_use.id，写成字符串。"),
    ("anthropic", [USER, assistant({"type": "tool_use", "id": "toolu_A", "name": "f"}), user(result())], 1, 0,
     "tool_use.input is missing: it must be an object.", "Add tool_use.input: an object.",
     "缺少 tool_use.input：它应该是对象。", "补上 tool_use.input，写成对象。"),
    ("anthropic", [USER, assistant({"type": "tool_use", "id": "toolu_A", "name": "f", "input": {}}),
                   user({"type": "tool_result", "content": "ok"})], 2, 0,
     "tool_result.tool_use_id is missing: it must be a string.", "Add tool_result.tool_use_id: a string.",
     "缺少 tool_result.tool_use_id：它应该是字符串。", "补上 tool_result.tool_use_id，写成字符串。"),
    ("anthropic", [{"content": "hi"}], 0, None,
     'role is missing: it must be "user" / "assistant".', 'Add role: "user" / "assistant".',
     '缺少 role：它应该是 "user" / "assistant"。', '补上 role，写成 "user" / "assistant"。'),
    ("anthropic", [{"role": "user"}], 0, None,
     "content is missing: it must be a string or an array.", "Add content: a string or an array.",
     "缺少 content：它应该是字符串或数组。", "补上 content，写成字符串或数组。"),
    ("openai", [USER, {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "f"}}]}], 1, 0,
     "tool_calls[].id is missing: it must be a string.", "Add tool_calls[].id: a string.",
     "缺少 tool_calls[].id：它应该是字符串。", "补上 tool_calls[].id，写成字符串。"),
    ("openai", [USER, {"role": "assistant", "tool_calls": [{"id": "call_A", "type": "function"}]}], 1, 0,
     "tool_calls[].function is missing: it must be an object.", "Add tool_calls[].function: an object.",
     "缺少 tool_calls[].function：它应该是对象。", "补上 tool_calls[].function，写成对象。"),
    ("openai", [USER, {"role": "assistant", "tool_calls": [{"id": "call_A", "type": "function",
                                                             "function": {"name": "f"}}]}, tool()], 1, 0,
     "function.arguments is missing: it must be a JSON string.",
     "Add arguments as a JSON string (json.dumps of the object; \"{}\" when the tool takes none).",
     "缺少 function.arguments：它必须是 JSON 字符串。",
     "补上 arguments，以 JSON 字符串发送（对对象做 json.dumps；工具不带参数时写 \"{}\"）。"),
    ("openai", [USER, {"role": "assistant", "tool_calls": [{"id": "call_A", "type": "function",
                                                             "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "call_A"}], 2, None,
     "content is missing: it must be a string or an array of text parts.",
     "Add content: a string or an array of text parts.",
     "缺少 content：它应该是字符串或文本片段数组。", "补上 content，写成字符串或文本片段数组。"),
    ("responses", [{"type": "function_call", "call_id": "a", "name": "f"},
                   {"type": "function_call_output", "call_id": "a", "output": "ok"}], 0, None,
     "arguments is missing: it must be a JSON string.",
     "Add arguments as a JSON string (json.dumps of the object; \"{}\" when the tool takes none).",
     "缺少 arguments：它必须是 JSON 字符串。",
     "补上 arguments，以 JSON 字符串发送（对对象做 json.dumps；工具不带参数时写 \"{}\"）。"),
    ("responses", [{"type": "function_call_output", "output": "ok"}], 0, None,
     "call_id is missing: it must be a string.", "Add call_id: a string.",
     "缺少 call_id：它应该是字符串。", "补上 call_id，写成字符串。"),
    ("responses", [{"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"},
                   {"type": "function_call_output", "call_id": "a"}], 1, None,
     "output is missing: it must be a string.", "Add output: a string.",
     "缺少 output：它应该是字符串。", "补上 output，写成字符串。"),
    ("mcp", [{"id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 1, "result": {}}], 0, None,
     'jsonrpc is missing: it must be "2.0".', 'Add jsonrpc: "2.0".',
     '缺少 jsonrpc：它应该是 "2.0"。', '补上 jsonrpc，写成 "2.0"。'),
    ("mcp", [{"jsonrpc": "2.0", "result": {}}], 0, None,
     "id is missing: it must be a string or a number.", "Add id: a string or a number.",
     "缺少 id：它应该是字符串或数字。", "补上 id，写成字符串或数字。"),
    ("gemini", [{"role": "user"}], 0, None,
     "parts is missing: it must be an array.", "Add parts: an array.",
     "缺少 parts：它应该是数组。", "补上 parts，写成数组。"),
    ("gemini", [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "f"}}]}], 1, 0,
     "response is missing: it must be a JSON object (for example {\"output\": …}).",
     "Add response as an object: {\"output\": …} for a result, {\"error\": …} for a failure.",
     "缺少 response：它必须是 JSON 对象（例如 {\"output\": …}）。",
     "补上 response，写成对象：成功时写 {\"output\": …}，失败时写 {\"error\": …}。"),
]


@pytest.mark.parametrize("fmt, messages, msg, block, en_detail, en_advice, zh_detail, zh_advice", CASES,
                         ids=[f"{c[0]}:{c[4].split(' ')[0]}" for c in CASES])
def test_a_missing_field_is_named_missing(fmt, messages, msg, block, en_detail, en_advice, zh_detail, zh_advice):
    for lang, detail, advice in (("en", en_detail, en_advice), ("zh", zh_detail, zh_advice)):
        report = check_pairing(json.dumps(messages), fmt, lang)
        assert report.error is None
        missing = [(v.message_index, v.block_index, v.detail, v.advice) for v in report.violations
                   if v.key.endswith("_missing")]
        assert missing == [(msg, block, detail, advice)], lang
        assert not [v for v in report.violations if "null" in v.detail], lang


def test_a_field_written_as_null_is_still_named_null():
    report = check_pairing(json.dumps([USER, assistant({"type": "tool_use", "id": None, "name": "f", "input": {}})]),
                           "anthropic")
    assert [v.detail for v in report.violations if v.rule == "wrong_content_type"] == [
        "tool_use.id must be a string, not null."]


def test_a_gemini_call_or_response_without_a_name_is_named_once_not_none():
    """A functionCall and a functionResponse without a name: each named missing, and no line calls either "None"
    (an id-less response was "(id None)" too)."""
    messages = [{"role": "model", "parts": [{"functionCall": {"args": {}}}, {"functionCall": {"name": "f", "args": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"response": {}}},
                                           {"functionResponse": {"name": "g", "response": {}}}]}]
    report = check_pairing(json.dumps(messages), "gemini")
    assert [(v.key, v.message_index, v.block_index, v.detail) for v in report.violations] == [
        ("wrong_content_type_missing", 0, 0, "functionCall.name is missing: it must be a string."),
        ("wrong_content_type_missing", 1, 0, "functionResponse.name is missing: it must be a string."),
        ("name_mismatch", 1, 1, "functionResponse g (id -) matches none of the calls of the turn before: ?, f."),
        ("function_call_without_response", 0, 0,
         "functionCall ? (id -) gets no functionResponse in the turn after it."),
        ("function_call_without_response", 0, 1,
         "functionCall f (id -) gets no functionResponse in the turn after it."),
    ]
    assert not [v for v in report.violations if "None" in v.detail + v.advice]


def test_a_gemini_id_that_is_no_string_is_named_not_drawn_as_python_wrote_it():
    """A functionCall's or functionResponse's id is a string: an array or object id was drawn as Python writes it,
    "f ([1])", "(id {'a': 1})", and the number 5 read as the string "5" (break-it pass brk20new). Each is named
    once; the two then pair by name."""
    messages = [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}, "id": [1]}},
                                            {"functionCall": {"name": "g", "args": {}, "id": 5}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}, "id": {"a": 1}}},
                                           {"functionResponse": {"name": "g", "response": {}, "id": 5}}]}]
    for lang, details in (("en", ["functionCall.id must be a string, not an array.",
                                  "functionCall.id must be a string, not a number.",
                                  "functionResponse.id must be a string, not an object.",
                                  "functionResponse.id must be a string, not a number."]),
                          ("zh", ["functionCall.id 应该是字符串，而不是数组。", "functionCall.id 应该是字符串，而不是数字。",
                                  "functionResponse.id 应该是字符串，而不是对象。",
                                  "functionResponse.id 应该是字符串，而不是数字。"])):
        report = check_pairing(json.dumps(messages), "gemini", lang)
        assert [(v.key, v.message_index, v.block_index, v.detail) for v in report.violations] == [
            ("wrong_content_type", m, b, d) for (m, b), d in zip([(0, 0), (0, 1), (1, 0), (1, 1)], details)]
