"""A result message with a wrong role is named for its role, not as a message in the way (break-it pass brk18fresh).

Before: an Anthropic tool_result right after its tool_use, in a message whose role is "User", "tool" or missing,
got a second finding "messages[2–1] (User) sits between the tool_use toolu_1 in messages[1] and its tool_result in
messages[2]": a backwards span of no messages, blaming a message for sitting between itself and its call; a
missing role read "(None)", Python's word, where the role finding says null. A role quoted as JSON was cut at 40
characters before escaping: '"uuu…\\u0.' (an escape cut in half, no "…")."""

import json

import pytest

from toolcall.pairing import MAX_SHOWN, check_pairing
from toolcall.text import escaped_head

CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_order", "input": {}}]}
RESULT = [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]


def _found(messages, lang="en"):
    return [(v.rule, v.message_index, v.detail, v.advice) for v in check_pairing(json.dumps(messages), lang=lang).violations]


@pytest.mark.parametrize("role, got_en, got_zh", [
    ("User", '"User"', '"User"'), ("tool", '"tool"', '"tool"'), (None, "null", "null"), (7, "7", "7")])
def test_a_result_right_after_its_call_with_a_wrong_role_is_named_once(role, got_en, got_zh):
    result = {"role": role, "content": RESULT}  # None: written as null (a missing role: the test below)
    messages = [{"role": "user", "content": "Where is order 7?"}, CALL, result]
    assert _found(messages) == [("wrong_content_type", 2, f'role must be "user" / "assistant", not {got_en}.',
                                 'Change role so that it is "user" / "assistant".')]
    assert _found(messages, "zh") == [("wrong_content_type", 2, f'role 应该是 "user" / "assistant"，而不是 {got_zh}。',
                                       '把 role 改成 "user" / "assistant"。')]


def test_a_result_right_after_its_call_without_a_role_is_named_missing_once():
    """Missing, not null (pass fix19left): "role must be … not null" was said of a message with no role at all."""
    messages = [{"role": "user", "content": "Where is order 7?"}, CALL, {"content": RESULT}]
    assert _found(messages) == [("wrong_content_type", 2, 'role is missing: it must be "user" / "assistant".',
                                 'Add role: "user" / "assistant".')]
    assert _found(messages, "zh") == [("wrong_content_type", 2, '缺少 role：它应该是 "user" / "assistant"。',
                                       '补上 role，写成 "user" / "assistant"。')]


def test_a_message_in_the_way_with_no_role_is_named_missing():
    messages = [CALL, {"content": "one moment"}, {"role": "user", "content": RESULT}]
    assert [d for _, _, d, _ in _found(messages)] == [
        'role is missing: it must be "user" / "assistant".',
        "messages[1] (no role) sits between the tool_use toolu_1 in messages[0] and its tool_result in "
        "messages[2]; a tool_result must be in the user message right after its tool_use."]
    assert [d for _, _, d, _ in _found([CALL, {"role": None, "content": "one moment"},
                                        {"role": "user", "content": RESULT}])] == [
        'role must be "user" / "assistant", not null.',
        "messages[1] (null) sits between the tool_use toolu_1 in messages[0] and its tool_result in messages[2]; "
        "a tool_result must be in the user message right after its tool_use."]
    assert [d for _, _, d, _ in _found(messages, "zh")][1].startswith("messages[1]（没有 role）夹在")


def test_an_openai_message_in_the_way_with_no_role_is_named_missing():
    messages = [{"role": "user", "content": "x"},
                {"role": "assistant", "tool_calls": [{"id": "call_A", "type": "function",
                                                      "function": {"name": "f", "arguments": "{}"}}]},
                {"content": "hm"}, {"role": "tool", "tool_call_id": "call_A", "content": "ok"}]
    found = check_pairing(json.dumps(messages), "openai").violations
    assert [v.detail for v in found if v.rule == "text_before_tool_result"] == [
        "A message without a role sits between the tool_calls of messages[1] and the tool messages answering them."]


def test_no_span_runs_backwards():
    """The next member: over every role a result message may carry, and 0 to 2 messages between, a span names
    messages strictly between the call and its result."""
    for role in ("user", "User", "assistant", "tool", None, 5):
        for between in range(3):
            middle = [{"role": "assistant", "content": "thinking"}] * between
            result = {"content": RESULT} if role is None else {"role": role, "content": RESULT}
            for v in check_pairing(json.dumps([CALL, *middle, result])).violations:
                assert "–" not in v.detail or between == 2, v.detail
                if v.key == "message_between":
                    assert v.message_index == 1 and between >= 1
                assert "None" not in v.detail


@pytest.mark.parametrize("form, messages, detail_start", [
    ("anthropic", [{"role": "u" * 30 + "\u0001\u0002" + "x" * 80, "content": RESULT}], 'role must be "user" / "assistant", not '),
    ("mcp", [{"jsonrpc": "2" * 30 + "\u0001\u0002" + "x" * 80, "id": 1, "method": "tools/call",
              "params": {"name": "x", "arguments": {}}}], 'jsonrpc must be "2.0", not '),
])
def test_a_long_quoted_value_is_cut_as_drawn(form, messages, detail_start):
    [v] = [v for v in check_pairing(json.dumps(messages), form).violations if v.rule == "wrong_content_type"]
    value = messages[0].get("role") or messages[0].get("jsonrpc")
    shown = escaped_head(json.dumps(value[:MAX_SHOWN + 1], ensure_ascii=False), MAX_SHOWN)
    assert v.detail == f"{detail_start}{shown}."
    assert shown.endswith("…") and "\\u0001\\u0002" in shown


GEMINI_CALL = {"role": "model", "parts": [{"functionCall": {"name": "get_order", "args": {}}}]}
GEMINI_ANSWER = {"role": "user", "parts": [{"functionResponse": {"name": "get_order", "response": {"ok": True}}}]}


@pytest.mark.parametrize("at, role", [(2, "User"), (1, "Model"), (2, "tool"), (1, "assistant"), (2, 3)])
def test_a_gemini_turn_with_a_wrong_role_is_named_for_its_role_only(at, role):
    """Before: no role was checked; a "User" turn answering a call was told "functionResponse get_order, but the
    turn before it holds no functionCall" (it held one), and a "Model" turn's call was never paired."""
    contents = [{"role": "user", "parts": [{"text": "Where is order 7?"}]}, dict(GEMINI_CALL), dict(GEMINI_ANSWER)]
    contents[at] = {**contents[at], "role": role}
    got = json.dumps(role)
    assert _found(contents) == [("wrong_content_type", at, f'role must be "user" / "model", not {got}.',
                                 'Change role so that it is "user" / "model".')]
    assert _found(contents, "zh") == [("wrong_content_type", at, f'role 应该是 "user" / "model"，而不是 {got}。',
                                       '把 role 改成 "user" / "model"。')]


@pytest.mark.parametrize("role", ["function", None])
def test_gemini_roles_the_api_takes_are_not_named(role):
    answer = {**GEMINI_ANSWER, "role": role}
    assert _found([{"role": "user", "parts": [{"text": "hi"}]}, GEMINI_CALL, answer]) == []


def test_a_tool_result_in_an_assistant_message_is_not_told_to_come_first_there():
    """Before: beside "A tool_result block belongs in a user message", a second finding told the student to move the
    tool_use after the tool_result in the same assistant message ("tool_result blocks must come first")."""
    call = CALL["content"][0]
    found = _found([{"role": "user", "content": "hi"}, {"role": "assistant", "content": [call, *RESULT]}])
    assert [(rule, at, detail) for rule, at, detail, _ in found] == [
        ("wrong_content_type", 1, "A tool_result block belongs in a user message; this one is in an assistant message."),
        ("tool_use_without_result", 1,
         "Call toolu_1 gets no result. The transcript ends at messages[1]; the next user message must answer it.")]
