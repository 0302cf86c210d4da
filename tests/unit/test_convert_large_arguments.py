"""A transcript whose call arguments are one valid JSON object larger than one model output (MAX_INPUT_CHARS,
100 000 characters) but inside the pairing checker's own cap (MAX_CHARS) converts between every pair of wire
forms and is checked without a false note.

Before: convert() re-parsed each call's argument text with the one-output cap; past it the object became
``{"_raw_arguments": …}`` (a false "arguments are not an object" loss), and writing it into Anthropic, MCP or
Gemini raised ValueError out of convert(): the converter on the pairing page ended in a traceback. The pairing
checker noted such arguments as "not one JSON object: TOO_LARGE". Cases: every (source, target) of FORMATS, and
numbers whose compact form is longer than their text (``1e9`` → ``1000000000.0``), so the converted arguments
outgrow even the transcript's cap."""

import json

import pytest

from toolcall.convert import convert
from toolcall.pairing import MAX_CHARS, check_pairing, read_transcript
from toolcall.parsing import MAX_INPUT_CHARS
from toolcall.wire import ANTHROPIC, FORMATS


def _anthropic(items: int, number: str) -> str:
    """A plain call and its result, with ``items`` copies of ``number`` as the call's one argument."""
    arguments = '{"ids": [' + ", ".join([number] * items) + "]}"
    assert MAX_INPUT_CHARS < len(arguments) < MAX_CHARS // 2
    return ('[{"role": "user", "content": "refund all of these"}, {"role": "assistant", "content": [{"type": '
            '"tool_use", "id": "toolu_01", "name": "refund_order", "input": ' + arguments + '}]}, {"role": '
            '"user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "done"}]}]')


SOURCES = {"plain": _anthropic(40_000, "7"), "growing_numbers": _anthropic(40_000, "1e9")}


def _in(form: str, text: str) -> list:
    messages, error = read_transcript(text, "en")
    assert error is None, error
    return messages if form == ANTHROPIC else convert(messages, ANTHROPIC, form)[0]


@pytest.mark.parametrize("name", sorted(SOURCES))
@pytest.mark.parametrize("source", FORMATS)
def test_large_object_arguments_convert_to_every_form(name, source):
    messages = _in(source, SOURCES[name])
    for target in FORMATS:
        if target == source:
            continue
        converted, losses = convert(messages, source, target)
        assert "arguments_not_object" not in [loss.code for loss in losses], (source, target)
        text = json.dumps(converted)
        if len(text) <= MAX_CHARS:  # what the checker can read: no note about the arguments
            report = check_pairing(text, target, "en")
            assert (report.error, report.violations, report.notes) == (None, [], []), (source, target)


def test_the_arguments_survive_the_round_trip():
    messages = _in(ANTHROPIC, SOURCES["plain"])
    for target in FORMATS:
        if target == ANTHROPIC:
            continue
        back, _ = convert(convert(messages, ANTHROPIC, target)[0], target, ANTHROPIC)
        calls = [block for m in back for block in (m["content"] if isinstance(m["content"], list) else [])
                 if block.get("type") == "tool_use"]
        assert calls[0]["input"] == {"ids": [7] * 40_000}, target
