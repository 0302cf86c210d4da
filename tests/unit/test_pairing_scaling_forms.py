"""The pairing checker is linear in every wire form, not only the one the first flood test used
(issue 13, quadratic work in checkers): Gemini matched each functionResponse against every call
of the turn, so 4 000 calls and responses cost 16 times 1 000. Cases: every wire form of
toolcall.wire, each transcript converted from one Anthropic transcript; answered and unanswered."""

import json

import pytest

from tests.workcount import growth

from toolcall.convert import convert
from toolcall.pairing import check_pairing
from toolcall.wire import ANTHROPIC, FORMATS


def _transcript(n: int, fmt: str, answered: bool) -> str:
    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{k}", "name": f"tool_{k % 7}",
                                                   "input": {"k": k}} for k in range(n)]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{k + (0 if answered else n)}",
                                              "content": "ok"} for k in range(n)]}]
    return json.dumps(messages if fmt == ANTHROPIC else convert(messages, ANTHROPIC, fmt)[0], separators=(",", ":"))


def _check(text: str, fmt: str) -> None:
    report = check_pairing(text, fmt)
    assert report.error is None


@pytest.mark.parametrize("answered", [True, False], ids=["answered", "unanswered"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_checking_is_linear_in_the_number_of_calls(fmt, answered):
    """Lines run, not seconds (tests/workcount.py): about 4 when linear, 16 when every response scans
    every call. Transcripts are built outside the count."""
    texts = {n: _transcript(n, fmt, answered) for n in (250, 1000)}
    ratio = growth(lambda n: _check(texts[n], fmt), 250)
    assert 3.5 < ratio < 4.5, ratio


def _answered_then_without_ids(n: int) -> str:
    """One Chat Completions turn of ``n`` calls, all answered, then ``n`` tool messages with no tool_call_id."""
    messages = [{"role": "assistant", "content": None,
                 "tool_calls": [{"id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                                for k in range(n)]}]
    messages += [{"role": "tool", "tool_call_id": f"call_{k}", "content": "ok"} for k in range(n)]
    messages += [{"role": "tool", "content": "ok"} for _ in range(n)]
    return json.dumps(messages, separators=(",", ":"))


def test_tool_messages_without_an_id_do_not_rescan_the_turn():
    """Each tool message without tool_call_id asked whether any call of the turn was still unanswered by
    scanning every call: 5.3 times the lines for 4 times the calls at 250 → 1 000 (8.0 at 1 000 → 4 000), and
    4.3 s CPU for a 916 KB paste of 5 500 (0.17 s now). The turn now counts its unanswered calls as they
    change."""
    texts = {n: _answered_then_without_ids(n) for n in (250, 1000)}
    report = check_pairing(texts[250], "openai")
    assert [v.rule for v in report.violations] == ["missing_tool_call_id"] * 250
    assert {v.key for v in report.violations} == {"missing_tool_call_id_no_call"}
    ratio = growth(lambda n: _check(texts[n], "openai"), 250)
    assert 3.5 < ratio < 4.5, ratio


def _use(k: int, cid: str | None = None) -> dict:
    return {"type": "tool_use", "id": cid or f"toolu_{k}", "name": f"tool_{k % 7}", "input": {}}


def _result(cid: str) -> dict:
    return {"type": "tool_result", "tool_use_id": cid, "content": "ok"}


#: Shapes that once made one checker or another rescan (the next member of the kind shows in one of them):
#: ids shared by every call, a text between every call and its result, results long after their turn,
#: every result answering one of three calls, results naming no call, non-message items among the turns.
SHAPES = {
    "same_ids": lambda n: [{"role": "assistant", "content": [_use(k, "same") for k in range(n)]},
                           {"role": "user", "content": [_result("same") for _ in range(n)]}],
    "text_between_each": lambda n: [m for k in range(n) for m in (
        {"role": "assistant", "content": [_use(k)]}, {"role": "user", "content": "between"},
        {"role": "user", "content": [_result(f"toolu_{k}")]})],
    "results_at_the_end": lambda n: [m for k in range(n) for m in (
        {"role": "assistant", "content": [_use(k)]}, {"role": "user", "content": "x"})]
        + [{"role": "user", "content": [_result(f"toolu_{k}") for k in range(n)]}],
    "three_calls_answered_n_times": lambda n: [{"role": "assistant", "content": [_use(k) for k in range(n)]},
                                               {"role": "user", "content": [_result(f"toolu_{k % 3}")
                                                                            for k in range(n)]}],
    "orphans": lambda n: [m for k in range(n) for m in (
        {"role": "assistant", "content": [_use(k)]}, {"role": "user", "content": [_result(f"other_{k}")]})],
    "texts_between_one_turn": lambda n: [{"role": "assistant", "content": [_use(k) for k in range(n)]}]
        + [{"role": "user" if k % 2 else "assistant", "content": "t"} for k in range(n)]
        + [{"role": "user", "content": [_result(f"toolu_{k}") for k in range(n)]}],
}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_checking_is_linear_in_every_shape(fmt, shape):
    """Lines run for 4x the calls: about 4x whatever the transcript's shape, in every wire form."""
    build = SHAPES[shape]
    texts = {n: json.dumps(build(n) if fmt == ANTHROPIC else convert(build(n), ANTHROPIC, fmt)[0],
                           separators=(",", ":")) for n in (100, 400)}
    ratio = growth(lambda n: check_pairing(texts[n], fmt), 100)
    assert 3.5 < ratio < 4.5, ratio
