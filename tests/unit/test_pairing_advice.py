"""Issue 12 item 4 and issue 13 (floods): every piece of pairing advice can be followed, and the
checker stays linear and bounded.

The advice test applies what each violation's advice says (``FIXES``: one function per advice
key, written from the advice text) to the transcript and checks the violation is gone. It runs
over every example in fixtures/pairing/examples.yaml and a set of hand-made transcripts, so a
rule whose advice does not fix it fails here.
"""

import copy
import json

import pytest

from tests.transcript_builders import INPUT, USER, assistant, call, calls, result, tool, use, user
from tests.workcount import growth
from toolcall.cli import main
from toolcall.i18n import catalogue
from toolcall.pairing import MAX_IDS, MAX_VIOLATIONS, check_pairing, load_examples


# --- following the advice ----------------------------------------------------------------------

def _blocks(m):
    if isinstance(m["content"], str):
        m["content"] = [{"type": "text", "text": m["content"]}]
    return m["content"]


def _drop_empty(ms):
    return [m for m in ms if not (isinstance(m, dict) and m.get("content") == [] and "tool_calls" not in m)]


def _tool_use_without_result(ms, v):  # first in messages[next], added if missing
    nxt, block = v.params["next"], result(v.params["id"])
    if nxt < len(ms) and ms[nxt].get("role") == "user":
        _blocks(ms[nxt]).insert(0, block)
    else:
        ms.insert(nxt, user(block))
    return ms


def _split(ms, v):  # move the block into messages[expected], drop the emptied message
    block = _blocks(ms[v.message_index]).pop(v.block_index)
    target = _blocks(ms[v.params["expected"]])
    last = max((k for k, b in enumerate(target) if b.get("type") == "tool_result"), default=-1)
    target.insert(last + 1, block)
    return _drop_empty(ms)


def _text_first(ms, v):  # move this block after the last tool_result
    content = _blocks(ms[v.message_index])
    content.append(content.pop(v.block_index))
    return ms


def _message_between(ms, v):  # assistant: merge into messages[call]; user: text after the results
    call, res = v.params["call"], v.params["result"]
    for k in range(call + 1, res):
        moved = _blocks(ms[k])
        _blocks(ms[call] if ms[k].get("role") == "assistant" else ms[res]).extend(moved)
        ms[k]["content"] = []
    return _drop_empty(ms)


def _set_id(field):
    def fix(ms, v):
        taken = {b.get("tool_use_id") for m in ms if isinstance(m.get("content"), list) for b in m["content"]
                 if isinstance(b, dict)} | {m.get("tool_call_id") for m in ms}
        free = sorted(set(v.params["ids"]) - taken)
        target = ms[v.message_index] if v.block_index is None else ms[v.message_index]["content"][v.block_index]
        target[field] = free[0]
        return ms
    return fix


def _delete(ms, v):
    if v.block_index is None:
        del ms[v.message_index]
        return ms
    del _blocks(ms[v.message_index])[v.block_index]
    return _drop_empty(ms)


def _wrong_type(ms, v):  # make the field the expected type
    what, m = v.params["what"], ms[v.message_index]
    value = {"object": {}, "string": "ok", "boolean": True, '"2.0"': "2.0", '"user" / "assistant"': "user",
             '"system" / "user" / "assistant" / "tool"': "user"}.get(v.params["expected"], "ok")
    if "." in what:
        m["content"][v.block_index][what.split(".")[1]] = value
    else:
        m[what] = value
    return ms


def _block_to(role):
    """Move the block into the message its role belongs in: a tool_use into the assistant message before (a new one
    when there is none), a tool_result into the user message right after; a message left empty goes."""
    def fix(ms, v):
        i = v.message_index
        block = ms[i]["content"].pop(v.block_index)
        near = i - 1 if role == "assistant" else i + 1
        if 0 <= near < len(ms) and ms[near].get("role") == role and isinstance(ms[near].get("content"), list):
            ms[near]["content"].insert(len(ms[near]["content"]) if role == "assistant" else 0, block)
        else:
            ms.insert(i if role == "assistant" else i + 1, {"role": role, "content": [block]})
            i += role == "assistant"
        if not ms[i]["content"]:
            ms.pop(i)
        return ms
    return fix


def _error_content(ms, v):
    ms[v.message_index]["content"][v.block_index]["content"] = "refund service unavailable; try again later"
    return ms


def _move_message(ms, v):  # move this message after messages[after]
    m = ms.pop(v.message_index)
    ms.insert(v.params["after"], m)
    return ms


def _openai_answer(ms, v):  # a tool message right after messages[call] and its other tool messages
    k = v.params["call"] + 1
    while k < len(ms) and ms[k].get("role") == "tool":
        k += 1
    ms.insert(k, tool(v.params["id"]))
    return ms


def _move_up(ms, v):  # right after messages[call] and its tool messages
    m = ms.pop(v.message_index)
    return _openai_answer(ms, type(v)(v.rule, None, None, "", params={"call": v.params["call"], "id": m["tool_call_id"]}))


def _dumps_arguments(ms, v):
    fn = ms[v.message_index]["tool_calls"][v.block_index]["function"]
    fn["arguments"] = json.dumps(fn["arguments"])
    return ms


# --- the three forms of issue 21 ---------------------------------------------------------------

def _responses_answer(ms, v):  # a function_call_output right after items[call]
    ms.insert(v.params["call"] + 1, {"type": "function_call_output", "call_id": v.params["id"], "output": "ok"})
    return ms


def _responses_move(ms, v):  # right after the function_call in items[call]
    item = ms.pop(v.message_index)
    ms.insert(v.params["call"], item)  # the call moved up one place when this item (before it) left
    return ms


def _responses_dump(ms, v):
    ms[v.message_index]["arguments"] = json.dumps(ms[v.message_index]["arguments"])
    return ms


def _mcp_respond(ms, v):
    ms.append({"jsonrpc": "2.0", "id": v.params["rid"], "result": {"content": [{"type": "text", "text": "ok"}],
                                                                   "isError": False}})
    return ms


def _mcp_keep_result(ms, v):
    ms[v.message_index].pop("error")
    return ms


def _mcp_add_result(ms, v):
    ms[v.message_index]["result"] = {"content": [{"type": "text", "text": "ok"}], "isError": False}
    return ms


def _gemini_answer(ms, v):
    response = {"name": v.params["name"], "response": {"output": "ok"}}
    if v.params["id"] != "-":
        response["id"] = v.params["id"]
    nxt = v.params["next"]
    if nxt < len(ms) and ms[nxt].get("role") == "user":
        ms[nxt]["parts"].insert(0, {"functionResponse": response})
    else:
        ms.insert(nxt, {"role": "user", "parts": [{"functionResponse": response}]})
    return ms


def _gemini_delete(ms, v):
    del ms[v.message_index]["parts"][v.block_index]
    return [m for m in ms if m.get("parts") != []]


def _gemini_rename(ms, v):
    fr = ms[v.message_index]["parts"][v.block_index]["functionResponse"]
    fr["name"] = v.params["fix_name"]
    if v.params["fix_id"] is not None:
        fr["id"] = v.params["fix_id"]
    return ms


def _gemini_wrap(ms, v):
    fr = ms[v.message_index]["parts"][v.block_index]["functionResponse"]
    fr["response"] = {"output": fr.get("response")}
    return ms


def _add_arguments(ms, v):  # "{}": the tool takes none
    fn = ms[v.message_index]["tool_calls"][v.block_index]["function"]
    fn["arguments"] = "{}"
    return ms


def _responses_add_arguments(ms, v):
    ms[v.message_index]["arguments"] = "{}"
    return ms


def _gemini_add_response(ms, v):
    ms[v.message_index]["parts"][v.block_index]["functionResponse"]["response"] = {"output": "ok"}
    return ms


FIXES = {
    "wrong_content_type_missing": _wrong_type, "arguments_not_string_missing": _add_arguments,
    "function_call_arguments_not_string_missing": _responses_add_arguments,
    "response_not_object_missing": _gemini_add_response, "message_between_no_role": _message_between,
    "text_before_tool_message_no_role": _move_message,
    "function_call_without_output": _responses_answer, "duplicate_output": _delete, "output_before_call": _responses_move,
    "unknown_call_id": _delete, "function_call_arguments_not_string": _responses_dump,
    "request_without_response": _mcp_respond, "duplicate_response": _delete, "response_id_unknown": _delete,
    "result_and_error": _mcp_keep_result, "neither_result_nor_error": _mcp_add_result,
    "function_call_without_response": _gemini_answer, "function_call_without_response_at_end": _gemini_answer, "orphan_function_response": _gemini_delete,
    "duplicate_function_response": _gemini_delete, "name_mismatch": _gemini_rename, "response_not_object": _gemini_wrap,
    "tool_use_without_result": _tool_use_without_result, "tool_use_without_result_at_end": _tool_use_without_result, "results_split_across_messages": _split,
    "text_before_tool_result": _text_first, "message_between": _message_between,
    "id_mismatch": _set_id("tool_use_id"), "orphan_result": _delete, "duplicate_result": _delete,
    "wrong_content_type": _wrong_type, "empty_error_result": _error_content, "empty_text_block": _delete,
    "text_before_tool_message": _move_message, "tool_call_without_result": _openai_answer,
    "id_mismatch_openai": _set_id("tool_call_id"), "tool_without_tool_calls": _delete,
    "tool_without_tool_calls_late": _move_up, "missing_tool_call_id": _set_id("tool_call_id"),
    "missing_tool_call_id_no_call": _delete, "arguments_not_string": _dumps_arguments,
    "tool_use_in_user": _block_to("assistant"), "tool_result_in_assistant": _block_to("user"),
}

HAND_MADE = [
    [USER, assistant(use()), {"role": "assistant", "content": "one moment"}, user(result())],  # the issue's case
    [USER, assistant(use()), {"role": "user", "content": "hurry"}, user(result())],
    [USER, assistant(use("a"), use("b")), {"role": "assistant", "content": "x"}, user(result("a")), user(result("b"))],
    [USER, assistant(use("a"), use("b")), user(result("a")), user(result("b"))],
    [USER, assistant(use()), user({"type": "text", "text": "here"}, result())],
    [USER, assistant(use("a"), use("b")), user(result("a"), result("z"))],
    [USER, assistant(use()), user(result(is_error=True, content=""))],
    [USER, assistant(use()), user(result(is_error=True, content=[]))],
    [USER, assistant({"type": "text", "text": ""}, use()), user(result())],
    [USER, assistant(use()), {"role": "user", "content": "well?"}],
    [USER, assistant(use())],
    [USER, calls(call("a"), call("b")), tool("a")],
    [USER, calls(call()), {"role": "user", "content": "hurry"}, tool()],
    [USER, calls(call("a"), call("b")), tool("a"), tool("z")],
    [USER, calls(call()), {"role": "tool", "content": "ok"}],
    [USER, {"role": "tool", "content": "ok"}],
    [USER, calls(call(args=INPUT)), tool()],
    [USER, assistant(use("a")), user(result("a"), use("b")), user(result("b"))],  # a tool_use in a user message
    [USER, assistant(use(), result())],  # a tool_result in the assistant message
    # Responses, MCP, Gemini
    [{"type": "function_call", "call_id": "a", "name": "f", "arguments": {}},
     {"type": "function_call_output", "call_id": "a", "output": 3}],
    [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "f", "arguments": {}}},
     {"jsonrpc": "2.0", "id": 1}, {"jsonrpc": "1.0", "id": 2, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "result": {}}],
    [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}, {"functionCall": {"name": "g", "args": {}}}]},
     {"role": "user", "parts": [{"functionResponse": {"name": "g", "response": []}}]}],
    # a field missing, not null (pass fix19left): each advice adds it
    [USER, assistant({"type": "tool_use", "id": "toolu_A", "name": "refund_order"}), user(result())],
    [USER, {"role": "assistant", "tool_calls": [{"id": "call_A", "type": "function", "function": {"name": "f"}}]},
     tool("call_A")],
    [{"type": "function_call", "call_id": "a", "name": "f"}, {"type": "function_call_output", "call_id": "a", "output": "ok"}],
    [{"id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 1, "result": {}}],
    [USER, assistant(use()), {"content": "one moment"}, user(result())],
    [USER, calls(call()), {"content": "hm"}, tool()],
    [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
     {"role": "user", "parts": [{"functionResponse": {"name": "f"}}]}],
]


def _cases():
    for example in load_examples():
        yield pytest.param(json.loads(example.text["en"]), example.fmt, id=example.id)
    for k, messages in enumerate(HAND_MADE):
        yield pytest.param(messages, "auto", id=f"hand_made_{k}")


def _key(v):
    return (v.rule, v.key, v.message_index, v.block_index)


@pytest.mark.parametrize("messages, fmt", list(_cases()))
def test_following_each_advice_removes_that_violation(messages, fmt):
    report = check_pairing(json.dumps(messages), fmt)
    assert report.error is None
    for v in report.violations:
        assert v.advice and v.key in FIXES, v
        fixed = FIXES[v.key](copy.deepcopy(messages), v)
        after = check_pairing(json.dumps(fixed), fmt)
        assert after.error is None
        assert not [w for w in after.violations if w.key == v.key and w.params.get("id") == v.params.get("id")
                    and (w.message_index, w.block_index) == (v.message_index, v.block_index)], (v.advice, fixed)
        assert len(after.violations) < len(report.violations), (v.advice, after.violations)


def test_every_advice_key_has_a_fix_and_text_in_both_languages():
    keys = {k.split(".", 2)[2] for k in catalogue("en") if k.startswith("pairing.advice.")}
    assert keys - {"arguments_invalid_json", "lookalike_key", "not_checked", "not_checked_not_string",
                   "not_checked_missing"} == set(FIXES)  # notes: no error to fix
    assert keys == {k.split(".", 2)[2] for k in catalogue("zh") if k.startswith("pairing.advice.")}


# --- the issue's examples ---------------------------------------------------------------------

def test_an_assistant_message_in_the_way_is_named_with_the_rule_and_what_to_do():
    """Issue 12 item 4: user, tool_use, assistant text, tool_result once said the result "belongs
    in messages[2], one user message" (messages[2] is the assistant message; nothing is split)."""
    report = check_pairing(json.dumps(HAND_MADE[0]))
    assert [(v.rule, v.message_index) for v in report.violations] == [("text_before_tool_result", 2)]
    v = report.violations[0]
    assert v.detail == ("messages[2] (assistant) sits between the tool_use toolu_A in messages[1] and its "
                        "tool_result in messages[3]; a tool_result must be in the user message right after its "
                        "tool_use.")
    assert "merge an assistant message into messages[1]" in v.advice
    assert "belongs in" not in v.detail


@pytest.mark.parametrize("block, rule", [(result(is_error=True, content=""), "empty_error_result"),
                                         (result(content=[{"type": "text", "text": ""}]), "empty_text_block")])
def test_content_the_api_rejects_as_empty_is_flagged(block, rule):
    assert [(v.rule, v.message_index, v.block_index)
            for v in check_pairing(json.dumps([USER, assistant(use()), user(block)])).violations] == [(rule, 2, 0)]


def test_an_anthropic_transcript_checked_as_openai_is_never_green(tmp_path, capsys):
    """Issue 12 item 4: an Anthropic transcript with two real errors, format set to OpenAI, once
    gave "No pairing problems" and exit 0."""
    text = json.dumps([USER, assistant(use("a")), user(result("z"))])
    report = check_pairing(text, "openai")
    assert not report.ok
    assert report.error == ("This transcript does not look like OpenAI: it looks like Anthropic. "
                            "Choose Anthropic (or Detect) and check again.")
    assert report.looks == "anthropic"  # what the page's converter reads it as (issue 14)
    assert "不像 OpenAI 格式，更像 Anthropic" in check_pairing(text, "openai", "zh").error
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    assert main(["pairing", str(path), "--format", "openai"]) == 2
    assert capsys.readouterr().err == f"FILE {path}: {report.error}\n"
    openai = json.dumps([USER, calls(call()), tool()])
    assert "does not look like Anthropic: it looks like OpenAI" in check_pairing(openai, "anthropic").error


def test_the_truncated_arguments_example_is_correct_and_only_noted():
    """Issue 12 item 5: answering broken arguments with INVALID_JSON is what the course prescribes."""
    example = next(e for e in load_examples() if e.id == "openai_arguments_truncated")
    report = check_pairing(example.text["en"], "openai")
    assert report.ok and [n.rule for n in report.notes] == ["arguments_invalid_json"]
    assert example.expect == () and example.notes == ("arguments_invalid_json",)


# --- floods ---------------------------------------------------------------------------------------

def _flood(n_calls: int, n_results: int) -> str:
    """One assistant turn with n_calls tool_use blocks, then n_results results matching none."""
    uses = [{"type": "tool_use", "id": f"toolu_{k:05d}", "name": "f", "input": {}} for k in range(n_calls)]
    results = [{"type": "tool_result", "tool_use_id": f"x{k:05d}"} for k in range(n_results)]
    return json.dumps([USER, assistant(*uses), user(*results)], separators=(",", ":"))


def test_a_flood_of_mismatched_ids_is_fast_and_small():
    """Issue 13: 10 000 tool_use blocks and 7 000 results matching none took 10.6 s and each detail
    joined every id. Now: details list at most MAX_IDS ids, nothing is built past the cap."""
    text = _flood(10_000, 7_000)
    assert len(text) < 1_000_000
    report = check_pairing(text)
    assert len(report.violations) == MAX_VIOLATIONS and report.more == 17_000 - MAX_VIOLATIONS
    mismatch = report.violations[0]
    assert mismatch.rule == "id_mismatch"
    assert mismatch.detail.count("toolu_") == MAX_IDS and mismatch.detail.endswith(" … and 9988 more.")
    assert max(len(v.detail) + len(v.advice) for v in report.violations) < 2000
    # linear: 4x the blocks runs about 4x the lines (tests/workcount.py; seconds: bench/pairing_scaling.py)
    floods = {n: _flood(n, n * 7 // 10) for n in (2_500, 10_000)}
    ratio = growth(lambda n: check_pairing(floods[n]), 2_500)
    assert 3.5 < ratio < 4.5, ratio


def test_openai_never_rescans_the_rest_of_the_transcript():
    """Each assistant turn followed by a user message once rescanned every later message."""
    def transcript(n: int) -> str:
        turns = []
        for k in range(n):
            turns += [calls(call(f"c{k}")), {"role": "user", "content": "x"}]
        return json.dumps(turns + [tool(f"c{k}") for k in range(n)])

    texts = {n: transcript(n) for n in (750, 3000)}
    assert check_pairing(texts[3000], "openai").violations[0].rule == "text_before_tool_result"
    ratio = growth(lambda n: check_pairing(texts[n], "openai"), 750)  # lines run: tests/workcount.py
    assert 3.5 < ratio < 4.5, ratio


def test_a_long_id_is_cut_in_the_detail():
    long_id = "toolu_" + "x" * 100_000
    v = check_pairing(json.dumps([USER, user(result(long_id))])).violations[0]
    assert v.rule == "orphan_result" and len(v.detail) < 300 and "…" in v.detail
    assert v.params["id"] == long_id
