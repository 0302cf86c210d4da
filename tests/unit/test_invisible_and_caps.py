"""Issue 13, small ones and floods: invisible characters are shown escaped wherever a value is
quoted (cards, errors, the message sent back); the message sent back for thousands of errors
is capped with a count of what was left out."""

import json

import pytest

from toolcall.fixtures import load_tool
from toolcall.judge import evaluate
from toolcall.results import MAX_ERROR_LINES
from toolcall.text import HIDDEN, escape_invisible, visible_json

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200f", "\u061c"]


@pytest.mark.parametrize("ch", INVISIBLE)
def test_each_invisible_character_is_escaped(ch):
    assert ch in HIDDEN
    assert escape_invisible(f"damaged{ch}") == f"damaged\\u{ord(ch):04x}"
    assert json.loads(visible_json({"reason": f"damaged{ch}"})) == {"reason": f"damaged{ch}"}  # same JSON value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_expected_damaged_received_damaged_cannot_happen(lang):
    """A zero-width space after "damaged" fails the enum; the message sent back shows it."""
    tool = load_tool()
    raw = json.dumps({"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged\u200b"}, ensure_ascii=False)
    card = evaluate(raw, tool.input_schema, tool.name, lang)
    content = card.tool_result["content"]
    assert "damaged\\u200b" in content and "\u200b" not in content


def test_the_page_escapes_invisible_characters_from_the_core_set():
    from toolcall.markdown import plain
    for ch in INVISIBLE:
        assert plain(f"a{ch}b") == f"a\\\\u{ord(ch):04x}b"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_thousands_of_extra_keys_give_a_short_message_with_a_count(lang):
    """9 000 extra keys once made a 2.15 MB message to send back."""
    tool = load_tool()
    data = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
    data.update({str(k): 0 for k in range(9000)})
    card = evaluate(json.dumps(data, separators=(",", ":")), tool.input_schema, tool.name, lang)
    assert len(card.errors) == 9000
    content = card.tool_result["content"]
    assert len(content) < 8000
    assert content.count("additionalProperties") >= MAX_ERROR_LINES
    left = 9000 - MAX_ERROR_LINES
    assert (f"… and {left} more errors not listed" if lang == "en" else f"另外还有 {left} 个错误没有列出") in content
