"""The converter is linear in the transcript, for every pair of wire forms (issue 13, quadratic work in
checkers): its safety net (``changed``) found each message's first event with ``events.index``, a scan of
every event per message, so a 10 000-block Chat Completions transcript took 28.8 s to convert. Cases: one
transcript of many turns (texts, parallel calls, an error result, a user's text between a call and its
result, so that every reading, writing and moving path runs), converted from Anthropic into each source
form outside the count, then converted into every other form."""

import pytest

from tests.workcount import growth

from toolcall.convert import convert
from toolcall.wire import ANTHROPIC, FORMATS


def _anthropic(turns: int) -> list[dict]:
    """``turns`` rounds of 11 blocks in 5 messages; ids unique, texts repeated (equal events in many places)."""
    messages: list[dict] = [{"role": "user", "content": "go"}]
    for k in range(turns):
        a, b, c = f"toolu_{k}a", f"toolu_{k}b", f"toolu_{k}c"
        messages += [
            {"role": "assistant", "content": [{"type": "text", "text": "checking"},
                                              {"type": "tool_use", "id": a, "name": "get_order", "input": {"k": k}},
                                              {"type": "tool_use", "id": b, "name": "get_user", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": a, "content": "ok"},
                                         {"type": "tool_result", "tool_use_id": b, "content": "no", "is_error": True},
                                         {"type": "text", "text": "and now?"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": c, "name": "refund", "input": {}}]},
            {"role": "user", "content": "wait"},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c, "content": "done"}]}]
    return messages


def _one_turn(turns: int) -> list[dict]:
    """The same calls in one assistant message, every result in the next: a scan per event, not per message,
    shows here."""
    calls = [{"type": "tool_use", "id": f"toolu_{k}", "name": f"tool_{k % 7}", "input": {"k": k}}
             for k in range(3 * turns)]
    results = [{"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": "ok", "is_error": k % 2 == 0}
               for k in range(3 * turns)]
    return [{"role": "user", "content": "go"}, {"role": "assistant", "content": [{"type": "text", "text": "x"}, *calls]},
            {"role": "user", "content": [*results, {"type": "text", "text": "and now?"}]}]


PAIRS = [(s, t) for s in FORMATS for t in FORMATS if s != t]


@pytest.mark.parametrize("build", [_anthropic, _one_turn], ids=["many_turns", "one_turn"])
@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{s}-{t}" for s, t in PAIRS])
def test_converting_is_linear_in_the_number_of_messages(source, target, build):
    """Lines run, not seconds (tests/workcount.py): 4x the turns is about 4x the lines when linear; the
    scan per message made it 6x to 9.5x at these sizes (many turns), growing with the size."""
    sources = {n: build(n) if source == ANTHROPIC else convert(build(n), ANTHROPIC, source)[0] for n in (25, 100)}
    ratio = growth(lambda n: convert(sources[n], source, target), 25)
    assert 3.5 < ratio < 4.5, ratio


def test_a_changed_message_names_its_own_first_event_not_an_equal_earlier_one():
    """``events.index`` also named the first *equal* event: the fourth message's text, equal to the first's,
    was reported at event 0 (message 0's)."""
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yes"},
                {"role": "user", "content": "hi"}, {"role": "user", "content": "hi"}]
    _, losses = convert(messages, ANTHROPIC, "openai")
    assert [(x.code, x.index, x.message) for x in losses] == [("changed", 3, 3)]
