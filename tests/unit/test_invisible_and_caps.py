"""Issue 13, small ones and floods: invisible characters are shown escaped wherever a value is
quoted (cards, errors, the message sent back); the message sent back for thousands of errors
is capped with a count of what was left out."""

import json

import pytest

from toolcall.fixtures import load_tool
from toolcall.judge import evaluate
from toolcall.results import MAX_ERROR_LINES
from toolcall.text import HIDDEN, escape_invisible, visible_json
from toolcall.text import INVISIBLE as INVISIBLE_SET

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200f", "\u061c"]
#: Members the break-it pass of session 4 found shown as nothing: invisible operators, Mongolian vowel
#: separator, combining grapheme joiner, Hangul filler, variation selectors, a tag character
#: (tags can spell a hidden ASCII text), the line separator.
MORE_INVISIBLE = ["\u2061", "\u2064", "\u180e", "\u034f", "\u3164", "\ufe0f", "\U000e0001", "\U000e0041",
                  "\U000e0100", "\u2028"]


def _json_escape(ch: str) -> str:
    return json.dumps(ch)[1:-1]  # \\uXXXX, or a surrogate pair above U+FFFF


@pytest.mark.parametrize("ch", INVISIBLE + MORE_INVISIBLE)
def test_each_invisible_character_is_escaped(ch):
    assert ch in HIDDEN
    assert escape_invisible(f"damaged{ch}") == f"damaged{_json_escape(ch)}"
    assert json.loads(visible_json({"reason": f"damaged{ch}"})) == {"reason": f"damaged{ch}"}  # same JSON value


def test_the_set_is_unicodes_default_ignorable_code_points():
    """Derived, not listed: every Default_Ignorable_Code_Point (as the regex module knows it) is
    hidden, plus the line and paragraph separators."""
    regex = pytest.importorskip("regex")
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    derived = {chr(c) for c in range(0x110000) if ignorable.match(chr(c))}
    assert INVISIBLE_SET - derived == {"\u2028", "\u2029"} and derived <= HIDDEN


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ch", MORE_INVISIBLE)
def test_expected_damaged_received_damaged_cannot_happen_with_the_new_members(lang, ch):
    tool = load_tool()
    raw = json.dumps({"order_id": "ORD-20260917", "amount_cents": 1999, "reason": f"damaged{ch}"}, ensure_ascii=False)
    content = evaluate(raw, tool.input_schema, tool.name, lang).tool_result["content"]
    assert f"damaged{_json_escape(ch)}" in content and ch not in content


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
    for ch in INVISIBLE + MORE_INVISIBLE:
        assert plain(f"a{ch}b") == "a" + _json_escape(ch).replace("\\", "\\\\") + "b"


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
