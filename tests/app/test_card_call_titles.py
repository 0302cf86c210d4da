"""The caption over a playground card's call JSON names who sends it, per wire format: the model's call
as the API returns it, except MCP's JSON-RPC tools/call, which the host (the MCP client) sends the tool
server. Derived from toolcall.wire.FORMATS: a new format needs its own title."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import in_order, show_output
from toolcall.fixtures import load_outputs
from toolcall.i18n import t
from toolcall.parsing import parse_tool_input
from toolcall.wire import FORMATS, MCP
from ui.cards import OBJECT_FORMATS

FIRST = load_outputs().outputs[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_format_titles_its_call_by_who_sends_it(lang):
    at = fresh_app(lang).switch_page("pages/playground.py").run()
    titles = {fmt: t(f"card_call.title.{fmt}", lang) for fmt in FORMATS}
    assert len(set(titles.values())) == len(FORMATS)
    for fmt in FORMATS:
        at.radio(key="playground_format").set_value(fmt).run()
        show_output(at, FIRST.id)
        assert not at.exception
        items = [e for e in in_order(at.main) if e.type in ("caption", "code")]
        after = [json.loads(b.value) for a, b in zip(items, items[1:])
                 if a.type == "caption" and a.value == titles[fmt] and b.type == "code"]
        assert len(after) == 1, fmt
        assert (after[0].get("method") == "tools/call") == (fmt == MCP)
    assert "model's call" not in titles[MCP] and "模型发来" not in titles[MCP]


NOT_OBJECTS = [o for o in load_outputs().outputs if not parse_tool_input(o.raw).ok]


def test_the_shipped_outputs_include_text_that_is_not_an_object():
    assert "truncated" in {o.id for o in NOT_OBJECTS}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_call_that_is_not_an_object_says_why_its_block_holds_null(lang):
    """Anthropic, Gemini and MCP carry the parsed object: for text that is not one the card shows null and
    says why; Chat Completions and Responses carry the text itself, so there is nothing to explain."""
    note = t("card_call.not_an_object", lang)
    at = fresh_app(lang).switch_page("pages/playground.py").run()
    for fmt in FORMATS:
        at.radio(key="playground_format").set_value(fmt).run()
        for output in (FIRST, *NOT_OBJECTS):
            show_output(at, output.id)
            assert not at.exception
            captions = [c.value for c in at.caption]
            expected = fmt in OBJECT_FORMATS and output in NOT_OBJECTS
            assert captions.count(note) == int(expected), (fmt, output.id)
            if expected:
                items = [e for e in in_order(at.main) if e.type in ("caption", "code")]
                title = t(f"card_call.title.{fmt}", lang)
                call = next(json.loads(b.value) for a, b in zip(items, items[1:])
                            if a.type == "caption" and a.value == title)
                arguments = {"anthropic": lambda c: c["input"], "mcp": lambda c: c["params"]["arguments"],
                             "gemini": lambda c: c["functionCall"]["args"]}[fmt](call)
                assert arguments is None, fmt
