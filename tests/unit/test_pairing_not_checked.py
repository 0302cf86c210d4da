"""An item, block, part or tool call of a type the checker does not read is named (pass fix19left): an unknown
OpenAI Responses item type (a custom_tool_call, a misspelt function_cal) was passed over without a word, and a
transcript holding nothing else got the green "No pairing problems". Now each such type gets one not_checked note
at its first place, with its count, the type escaped as ids are; a type that holds nothing to pair (text, an image,
reasoning) stays quiet. The types each form knows come from the SDKs the tests pin (the last test)."""

from __future__ import annotations

import json
import re
import typing

import pytest

from toolcall.pairing import CHECKED_TYPES, OPENAI_PARTS, QUIET_TYPES, check_pairing
from toolcall.wire import ANTHROPIC, GEMINI, MCP, OPENAI, RESPONSES

EN_DETAIL = "Type {type} is not checked here ({count} in this transcript, the first here): this checker knows no " \
            "pairing rule for it."
EN_ADVICE = "Check it by hand against the provider's documentation; if the type is misspelt, write one the checker " \
            "reads ({known})."
ZH_DETAIL = "这里不检查类型 {type}（这段记录里共 {count} 处，这是第一处）：检查器不知道它的配对规则。"
ZH_ADVICE = "请对照服务商的文档自己检查；如果类型拼错了，改成检查器认识的类型（{known}）。"

CALL = {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "a", "output": "ok"}

CASES = [
    (RESPONSES, [CALL, OUTPUT, {"type": "custom_tool_call", "call_id": "b", "name": "g", "input": "x"},
                 {"role": "user", "content": "and?"}, {"type": "custom_tool_call", "call_id": "c", "name": "g",
                                                       "input": "y"}],
     [(2, None, "custom_tool_call", 2, "function_call, function_call_output, message")]),
    (RESPONSES, [{"type": "function_cal", "call_id": "a", "name": "f", "arguments": "{}"},
                 {"type": "reasoning", "summary": []}, {"type": "message", "role": "user", "content": "hi"}],
     [(0, None, "function_cal", 1, "function_call, function_call_output, message")]),
    (RESPONSES, [{"type": "func\u200btion_call", "call_id": "a"}, {"type": "7"}],
     [(0, None, "func\\u200btion_call", 1, "function_call, function_call_output, message"),
      (1, None, "7", 1, "function_call, function_call_output, message")]),
    (ANTHROPIC, [{"role": "user", "content": [{"type": "text", "text": "x"}, {"type": "image", "source": {}}]},
                 {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "s"},
                                                   {"type": "server_tool_use", "id": "s", "name": "web_search",
                                                    "input": {}},
                                                   {"type": "web_search_tool_result", "tool_use_id": "s",
                                                    "content": []}]}],
     [(1, 1, "server_tool_use", 1, "tool_use, tool_result, text"),
      (1, 2, "web_search_tool_result", 1, "tool_use, tool_result, text")]),
    (OPENAI, [{"role": "user", "content": [{"type": "text", "text": "x"}, {"type": "image_url", "image_url": {}},
                                           {"type": "video"}]},
              {"role": "assistant", "tool_calls": [
                  {"id": "c1", "type": "custom", "custom": {"name": "g", "input": "x"}},
                  {"id": "c2", "type": "web", "web": {}}]},
              {"role": "tool", "tool_call_id": "c1", "content": "ok"},
              {"role": "tool", "tool_call_id": "c2", "content": "ok"}],
     [(0, 2, "video", 1, "text"), (1, 1, "web", 1, "function, custom")]),
    (MCP, [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "arguments": {}}},
           {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"},
                                                              {"type": "<b>html</b>"}]}}],
     [(1, 1, "<b>html</b>", 1, "text, image, audio, resource_link, resource")]),
    (GEMINI, [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}, {"toolCall": {}},
                                          {"text": "x", "thoughtSignature": "s"}]},
              {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}},
                                         {"function_response": {}}]}],
     [(0, 1, "toolCall", 1, "functionCall, functionResponse, text"),
      (1, 1, "function_response", 1, "functionCall, functionResponse, text")]),
]


@pytest.mark.parametrize("fmt, messages, expected", CASES, ids=[f"{c[0]}:{c[2][0][2][:12]}" for c in CASES])
def test_a_type_not_checked_is_named_once(fmt, messages, expected):
    for lang, detail, advice in (("en", EN_DETAIL, EN_ADVICE), ("zh", ZH_DETAIL, ZH_ADVICE)):
        report = check_pairing(json.dumps(messages), fmt, lang)
        assert report.error is None and report.violations == [], lang
        assert [(n.rule, n.message_index, n.block_index, n.detail, n.advice) for n in report.notes] == [
            ("not_checked", msg, block, detail.format(type=kind, count=count), advice.format(known=known))
            for msg, block, kind, count, known in expected], lang


@pytest.mark.parametrize("fmt, wrap", [
    (OPENAI, lambda parts: [{"role": "user", "content": [{"type": "text", "text": "x"}, *parts]}]),
    (MCP, lambda parts: [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "f"}},
                         {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x"}, *parts]}}]),
])
def test_a_type_that_is_no_string_or_none_is_not_named_as_the_string_it_looks_like(fmt, wrap):
    """"null", null and no type at all were one note, "Type null is not checked here (3 in this transcript …)", and
    7 and "7" one "Type 7" (break-it pass brk20new): each is its own note, and says what it is."""
    parts = [{"type": "7"}, {"type": 7}, {"type": "null"}, {"type": None}, {"x": 1}, {"type": 7}]
    msg = 0 if fmt == OPENAI else 1
    known = ", ".join(CHECKED_TYPES[OPENAI_PARTS if fmt == OPENAI else fmt])
    en = check_pairing(json.dumps(wrap(parts)), fmt, "en")
    assert en.violations == []
    assert [(n.key, n.message_index, n.block_index, n.detail, n.advice) for n in en.notes] == [
        ("not_checked", msg, 1, EN_DETAIL.format(type="7", count=1), EN_ADVICE.format(known=known)),
        ("not_checked_not_string", msg, 2, "Type 7 is not a string but a number: it is not checked here (2 in this "
         "transcript, the first here).", f"Write the type as a string, one the checker reads ({known}): the "
         "provider's API refuses a type that is not a string."),
        ("not_checked", msg, 3, EN_DETAIL.format(type="null", count=1), EN_ADVICE.format(known=known)),
        ("not_checked_not_string", msg, 4, "Type null is not a string but null: it is not checked here (1 in this "
         "transcript, the first here).", f"Write the type as a string, one the checker reads ({known}): the "
         "provider's API refuses a type that is not a string."),
        ("not_checked_missing", msg, 5, "This has no type, so it is not checked here (1 in this transcript without "
         "one, the first here).", f"Add its type, one the checker reads ({known}): the provider's API refuses an "
         "entry without one.")]
    zh = check_pairing(json.dumps(wrap(parts)), fmt, "zh")
    assert [(n.key, n.detail) for n in zh.notes][1:] == [
        ("not_checked_not_string", "类型 7 不是字符串，而是数字：这里不检查（这段记录里共 2 处，这是第一处）。"),
        ("not_checked", ZH_DETAIL.format(type="null", count=1)),
        ("not_checked_not_string", "类型 null 不是字符串，而是 null：这里不检查（这段记录里共 1 处，这是第一处）。"),
        ("not_checked_missing", "这里没有写类型，所以不检查（这段记录里没有类型的共 1 处，这是第一处）。")]


def test_a_responses_item_without_a_type_or_role_is_named():
    report = check_pairing(json.dumps([CALL, OUTPUT, {"call_id": "a", "output": "again"}]), RESPONSES)
    assert [(v.key, v.message_index, v.detail) for v in report.violations] == [
        ("wrong_content_type_missing", 2, "type is missing: it must be a string.")]


def test_a_call_of_a_type_not_checked_still_pairs_by_its_id():
    """A Chat Completions custom tool call is paired by its id (its input is free text); a call of a type the
    checker does not know is noted, and the tool message answering it is not told it answers nothing."""
    messages = [{"role": "user", "content": "x"},
                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "custom", "custom": {"name": "g"}},
                                                     {"id": "c2", "type": "web", "web": {}}]}]
    report = check_pairing(json.dumps(messages), OPENAI)
    assert [(v.key, v.params["id"]) for v in report.violations] == [("tool_call_without_result", "c1"),
                                                                    ("tool_call_without_result", "c2")]


def _literals(module: str, alias: str) -> set[str]:
    """The ``type`` literals of the TypedDicts in the SDK union ``module.alias`` (read from their source)."""
    import importlib
    import inspect

    found = set()
    for member in typing.get_args(getattr(importlib.import_module(module), alias)):
        while typing.get_origin(member) is typing.Annotated:
            member = typing.get_args(member)[0]
        source = inspect.getsource(importlib.import_module(member.__module__))
        block = re.search(rf"class {member.__name__}\(TypedDict.*?(?=\nclass |\Z)", source, re.S)
        literal = block and re.search(r"\n    type: (?:Required\[)?Literal\[([^\]]*)\]", block.group(0))
        if literal:
            found |= set(re.findall(r'"(\w+)"', literal.group(1)))
    return found


def test_the_types_each_form_knows_are_the_sdks():
    """Every type the pinned SDKs define is either checked, quiet, or deliberately noted; and every checked or quiet
    type is one the SDK defines (a misspelt entry here would pass a misspelt transcript)."""
    from google.genai import types as genai
    import mcp.types

    anthropic = _literals("anthropic.types.content_block_param", "ContentBlockParam")
    parts = _literals("openai.types.chat.chat_completion_content_part_param", "ChatCompletionContentPartParam") \
        | _literals("openai.types.chat.chat_completion_assistant_message_param", "ContentArrayOfContentPart")
    calls = _literals("openai.types.chat.chat_completion_message_tool_call_union_param",
                      "ChatCompletionMessageToolCallUnionParam")
    responses = _literals("openai.types.responses.response_input_item_param", "ResponseInputItemParam")
    gemini = {field.alias for field in genai.Part.model_fields.values()}
    blocks = {typing.get_args(c.model_fields["type"].annotation)[0] for c in typing.get_args(mcp.types.ContentBlock)}
    for form, sdk in ((ANTHROPIC, anthropic), (OPENAI_PARTS, parts), (OPENAI, calls), (MCP, blocks),
                      (GEMINI, gemini)):
        assert set(CHECKED_TYPES[form]) | QUIET_TYPES[form] <= sdk, form
    assert {"function_call_output", "message", "reasoning", "compaction"} <= responses  # function_call: a class
    assert set(CHECKED_TYPES[RESPONSES]) | QUIET_TYPES[RESPONSES] <= responses | {"function_call"}
    assert {"text", "image_url", "input_audio", "file", "refusal"} == parts  # refusal: an assistant message's part
    assert {"server_tool_use", "web_search_tool_result", "container_upload"} <= anthropic
    assert {"toolCall", "toolResponse"} <= gemini - set(CHECKED_TYPES[GEMINI]) - QUIET_TYPES[GEMINI]
