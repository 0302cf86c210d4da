"""Running out of memory while reading typed JSON is a message where it was typed, never a traceback
(issue 13, memory kind): toolcall.parsing.strict_loads, which every box of typed JSON reads through (the free
box and canned outputs, the pairing checker and converter, the harness lab's moves, the definition box, JSON
exercise answers), turns a MemoryError into a TOO_LARGE refusal with its own sentence in en and zh.

Before: the MemoryError left each of these as a traceback. The parametrized boundaries are the next member's
test: a new reader of typed JSON that does not go through strict_loads, or that drops its refusal, fails here.
"""

import json

import pytest

import toolcall.parsing as parsing
from toolcall.harness_grading import parse_move
from toolcall.pairing import check_pairing, read_transcript
from toolcall.parsing import TOO_LARGE, parse_tool_input
from toolcall.tooldef import parse_definition

EN = "The server ran out of memory reading this JSON; send a smaller one."
ZH = "服务器读这段 JSON 时内存不够了，请发一段小一些的。"


@pytest.fixture
def no_memory(monkeypatch):
    real = json.loads

    def loads(text, *args, **kwargs):
        if kwargs.get("object_pairs_hook") is not None:  # strict_loads' own call
            raise MemoryError
        return real(text, *args, **kwargs)

    monkeypatch.setattr(parsing.json, "loads", loads)


TEXT = '{"messages": [{"role": "user", "content": "x"}]}'


@pytest.mark.parametrize("lang, sentence", [("en", EN), ("zh", ZH)])
def test_every_reader_of_typed_json_says_it_ran_out_of_memory(no_memory, lang, sentence):
    parsed = parse_tool_input(TEXT)
    assert (parsed.ok, parsed.code, parsed.hints) == (False, TOO_LARGE, [])
    assert parsing.localized_detail(parsed, lang) == sentence
    assert check_pairing(TEXT, lang=lang).error == sentence  # not "Not JSON: …": it may well be JSON
    assert read_transcript(TEXT, lang) == (None, sentence)
    value, finding = parse_move(TEXT, lang)
    assert (value, finding.code, finding.message) == (None, "parse:TOO_LARGE", sentence)
    checked = parse_definition(TEXT, lang)
    assert (checked.ok, checked.code, checked.message) == (False, "DEFINITION_TOO_LARGE", sentence)
