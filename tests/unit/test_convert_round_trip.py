"""The converter never says "nothing lost" when something was: for every pair of the five wire forms,
whenever convert() reports no loss, converting back gives the source's content again (toolcall.convert.faithful)
and the pairing checker says the same of it; a valid source with no loss converts to a valid transcript.
Cases: every shipped pairing example, hand-made transcripts for each kind of change (a value of the wrong
type, messages merged, a role renamed, a block the converter does not read), and, with hypothesis, the
shipped examples with one value replaced by another JSON value anywhere in them."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolcall.convert import Loss, convert, faithful
from toolcall.pairing import check_pairing, load_examples
from toolcall.wire import ANTHROPIC, FORMATS, GEMINI, MCP, OPENAI, RESPONSES

CALL = {"type": "tool_use", "id": "toolu_A", "name": "refund_order", "input": {"order_id": "ORD-20260917"}}
ASK = {"role": "user", "content": "Refund the cup."}

#: The newcomer's transcript: an object as a tool_result's content, a text block before the tool_result.
NEWCOMER = [ASK, {"role": "assistant", "content": [CALL, {**CALL, "id": "toolu_B", "name": "get_order"}]},
            {"role": "user", "content": [{"type": "text", "text": "Here you go:"},
                                         {"type": "tool_result", "tool_use_id": "toolu_A", "content": {"status": "ok"}},
                                         {"type": "tool_result", "tool_use_id": "toolu_B", "content": "shipped"}]}]


def _anthropic(result):
    return [ASK, {"role": "assistant", "content": [CALL]}, {"role": "user", "content": [result]}]


def _openai(**tool):
    return [{"role": "user", "content": "Refund the cup."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "refund_order", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok", **tool}]


#: (form, messages): one transcript for each kind of change a reading can make.
CONSTRUCTED = [
    (ANTHROPIC, NEWCOMER),
    (ANTHROPIC, _anthropic({"type": "tool_result", "tool_use_id": "toolu_A", "content": 42})),
    (ANTHROPIC, _anthropic({"type": "tool_result", "tool_use_id": "toolu_A", "content": [
        {"type": "text", "text": "chart:"}, {"type": "image", "source": {"type": "base64", "data": "AA=="}}]})),
    (ANTHROPIC, _anthropic({"type": "tool_result", "tool_use_id": "toolu_A", "content": "x", "is_error": "yes"})),
    (ANTHROPIC, _anthropic({"type": "tool_result", "tool_use_id": 7, "content": "x"})),
    (ANTHROPIC, [ASK, {"role": "assistant", "content": [{**CALL, "input": "{\"order_id\": 1}"}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "x"}]}]),
    (ANTHROPIC, [ASK, {"role": "assistant", "content": "Let me look."}, {"role": "assistant", "content": [CALL]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "x"}]}]),
    (ANTHROPIC, [ASK, {"role": "system", "content": "Be brief."}]),
    (OPENAI, _openai()),
    (OPENAI, _openai(content={"status": "ok"})),
    (OPENAI, [{"role": "system", "content": "Be brief."}, *_openai()]),
    (OPENAI, [{"role": "user", "content": "a"}, {"role": "assistant", "content": "Let me check."},
              *_openai()[1:]]),
    (OPENAI, [*_openai()[:2], {"role": "tool", "tool_call_id": "c1", "content": [{"type": "image_url"}]}]),
    (RESPONSES, [{"role": "user", "content": "a"},
                 {"type": "function_call", "call_id": "c1", "name": "refund_order", "arguments": "{}"},
                 {"type": "function_call_output", "call_id": "c1", "output": {"status": "ok"}}]),
    (RESPONSES, [{"type": "reasoning", "summary": []},
                 {"type": "function_call", "call_id": "c1", "name": "refund_order", "arguments": "{}"},
                 {"type": "function_call_output", "call_id": "c1", "output": "ok"}]),
    (MCP, [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_order", "arguments": {}}},
           {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "image", "data": "AA=="}], "isError": False}}]),
    (MCP, [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_order", "arguments": {}}},
           {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"}], "isError": "no"}}]),
    (GEMINI, [{"role": "user", "parts": [{"text": "a"}]},
              {"role": "model", "parts": [{"functionCall": {"name": "get_order", "args": {}}}]},
              {"role": "user", "parts": [{"functionResponse": {"name": "get_order", "response": {"output": 5}}}]}]),
    (GEMINI, [{"role": "user", "parts": [{"text": "a"}, "not a part"]}]),
    (GEMINI, [{"role": "user", "parts": [{"text": "a"}]}, {"role": "user", "parts": [{"text": "b"}]}]),
]


def _cases():
    shipped = [(e.fmt, json.loads(e.text["en"]), e.id) for e in load_examples()]
    return shipped + [(fmt, messages, f"constructed_{i}") for i, (fmt, messages) in enumerate(CONSTRUCTED)]


def _rules(messages, fmt):
    report = check_pairing(json.dumps(messages, ensure_ascii=False), fmt)
    assert report.error is None, report.error
    return [v.rule for v in report.violations]


def _holds(source, messages, target):
    """The property for one source and target; returns the losses (for the tests that need them)."""
    converted, losses = convert(copy.deepcopy(messages), source, target)
    if not losses:
        back, _ = convert(converted, target, source)
        assert [faithful(source, m) for m in back] == [faithful(source, m) for m in messages], (source, target)
        assert _rules(back, source) == _rules(messages, source), (source, target)
        if not _rules(messages, source):
            assert _rules(converted, target) == [], (source, target, converted)
    return losses


@pytest.mark.parametrize("target", FORMATS)
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[2])
def test_nothing_lost_means_the_same_content_back(case, target):
    source, messages, _ = case
    if source != target:
        _holds(source, messages, target)


def test_every_constructed_change_is_listed_for_every_target():
    """Each hand-made transcript is built to change on reading: every target hears of it."""
    for source, messages in CONSTRUCTED[1:]:
        if messages == _openai():
            continue
        for target in FORMATS:
            if target != source:
                assert _holds(source, messages, target), (source, messages, target)


def test_the_newcomers_transcript_exact():
    """Both changes are listed, each naming messages[2] of the source: the object content (only text is
    carried) and the text block, written after the tool messages so that Chat Completions accepts it."""
    converted, losses = convert(NEWCOMER, ANTHROPIC, OPENAI)
    assert losses == [Loss("text_moved", 3), Loss("content_not_text", 4)]
    assert [x.message for x in losses] == [2, 2]
    assert converted[2:] == [{"role": "tool", "tool_call_id": "toolu_A", "content": ""},
                             {"role": "tool", "tool_call_id": "toolu_B", "content": "shipped"},
                             {"role": "user", "content": "Here you go:"}]
    assert _rules(NEWCOMER, ANTHROPIC) == ["wrong_content_type", "text_before_tool_result"]
    assert _rules(converted, OPENAI) == []


def test_merged_messages_and_renamed_roles_are_listed_exact():
    merged = CONSTRUCTED[6][1]  # two assistant messages in a row
    assert [(x.code, x.message) for x in convert(merged, ANTHROPIC, OPENAI)[1]] == [("changed", 2)]
    system = CONSTRUCTED[10][1]
    assert [(x.code, x.message) for x in convert(system, OPENAI, ANTHROPIC)[1]] == [("changed", 0)]


# --- hypothesis: one value anywhere in a shipped example replaced by another ----------------------------------

json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=4)),
                           lambda inner: st.one_of(st.lists(inner, max_size=2),
                                                   st.dictionaries(st.sampled_from(["type", "text", "id"]), inner,
                                                                   max_size=2)), max_leaves=4)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([(e.fmt, json.loads(e.text["en"])) for e in load_examples()]), st.data(),
       st.sampled_from(FORMATS))
def test_nothing_lost_holds_for_any_one_value_changed(example, data, target):
    source, messages = example
    paths = [p for p in _paths(messages) if p]
    path = data.draw(st.sampled_from(paths))
    mutated = copy.deepcopy(messages)
    node = mutated
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = data.draw(json_values)
    if source != target and check_pairing(json.dumps(mutated), source).error is None:
        _holds(source, mutated, target)


def test_a_tool_result_list_holding_a_non_object_is_flagged_not_a_crash():
    """Found by the property above: check_pairing raised AttributeError for ``content: [null]``."""
    report = check_pairing(json.dumps(_anthropic({"type": "tool_result", "tool_use_id": "toolu_A", "content": [None]})))
    assert [v.rule for v in report.violations] == ["wrong_content_type"]
