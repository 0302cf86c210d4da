"""The converter reads a Chat Completions or Responses message whose ``tool_calls`` is not a list, or a call whose
``function`` is not an object, as a message it skips and says so (the ``not_a_turn`` loss), never as a traceback
(issue 13, break-it pass brk12web2: ``"tool_calls": 5`` raised TypeError and ``[{"function": "get"}]``
AttributeError out of the pairing page's converter; ``["x"]`` became a call with id and name "None")."""

import json

import pytest

from ui.pairing_checks import _convert

SKIPPED = {"en": "messages[1]: A message or item this converter does not read (an image, a reasoning item, …) was "
                 "skipped.",
           "zh": "messages[1]：跳过了这个转换器不读的消息或条目（图片、reasoning 条目等）。"}
USER = {"role": "user", "content": [{"type": "text", "text": "hi"}]}


def transcript(tool_calls):
    return json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": None,
                                                           "tool_calls": tool_calls}])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("source", ["openai", "responses"])
@pytest.mark.parametrize("tool_calls", [5, 1e308, "abc", {"a": 1}, ["x"], [None], [{"function": "get"}],
                                        [{"id": "c1", "function": ["get"]}]])
def test_odd_tool_calls_are_skipped_and_said(tool_calls, source, lang):
    converted, losses, error, problems, unchecked = _convert(transcript(tool_calls), source, "anthropic", lang)
    assert (converted, losses, error, problems, unchecked) == ([USER], [SKIPPED[lang]], None, 0, None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_calls_beside_an_odd_one_are_converted(lang):
    text = transcript([{"id": "c1", "function": {"name": "get", "arguments": "{}"}}, 7])
    converted, losses, error, problems, _ = _convert(text, "openai", "anthropic", lang)
    assert converted == [USER, {"role": "assistant",
                                "content": [{"type": "tool_use", "id": "c1", "name": "get", "input": {}}]}]
    assert (losses, error, problems) == ([SKIPPED[lang]], None, 1)
