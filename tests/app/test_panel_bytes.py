"""What each playground panel sends per rerun is bounded by what the student typed (issue 13, memory kind): a
schema of thousands of properties made the design review draw a bullet per finding (3 000 empty properties,
153 KB typed: 1.07 MB of warning and error boxes on every rerun; 450 of them, 23 KB: 192 KB). The sweep below
opens every panel of ui.playground_pick.PANELS and the strict panel with each hostile schema, so a panel added
later, or a list in one left uncapped, is caught here."""

import json
import re

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import open_panel
from tests.app.test_pairing_page import _element_bytes
from toolcall.i18n import t
from toolcall.lint import SEVERITIES
from toolcall.validation import MAX_SCHEMA_CHARS, MAX_SCHEMA_PARTS
from toolcall.text import escape_invisible
from toolcall.tokens import wire_json
from ui.common import MAX_ESCAPE_GROWTH
from ui.playground_pick import MODEL, PANELS, REVIEW
from ui.tool_editor import MAX_SHOWN_FINDINGS, checked_definition

STRICT = "strict"


def empty_properties(count: int, width: int = 15) -> dict:
    """An object schema of ``count`` required properties with no type or description (names ``width`` + 6 wide)."""
    names = [f"{i:06d}" + "W" * width for i in range(count)]
    return {"type": "object", "properties": {"order_id": {"type": "string"}, **{n: {} for n in names}},
            "required": names}


#: The largest schemas of each shape under toolcall.validation.MAX_SCHEMA_PARTS (a part: a subschema or a required
#: name): before that cap, 3 000 empty properties (153 KB) drew 1.07 MB of review boxes.
HOSTILE = {"240 empty properties": empty_properties(240),
           "240 properties with 190-character names": empty_properties(240, 184),
           "498 required names": {"type": "object", "properties": {"order_id": {"type": "string"}},
                                  "required": [f"r{i:06d}" for i in range(MAX_SCHEMA_PARTS - 2)]}}


def _open(lang: str, panel: str, text: str):
    at = fresh_app(lang, page="pages/playground.py")
    if panel == STRICT:
        at.toggle(key="playground_strict_open").set_value(True)
    else:
        open_panel(at, panel)
    base = sum(_element_bytes(at).values())
    at.text_area(key="schema_editor").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, base


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("panel", [*PANELS, STRICT])
def test_every_panel_sends_at_most_three_times_the_schema(panel, name):
    """Three times: the definition panel shows the schema in its code block and again in its edit box."""
    text = json.dumps(HOSTILE[name], separators=(",", ":"))
    assert len(text) <= MAX_SCHEMA_CHARS
    at, base = _open("en", panel, text)
    assert sum(_element_bytes(at).values()) <= base + 3 * len(text) + 30_000


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_review_lists_forty_findings_per_severity_and_counts_the_rest(lang):
    schema = empty_properties(240)
    at, _ = _open(lang, REVIEW, json.dumps(schema, separators=(",", ":")))
    score_line = next(m.value for m in at.markdown if m.value.startswith("**") and "/100" in m.value)
    _score, _hundred, *totals = map(int, re.findall(r"\d+", score_line))
    boxes = {"error": at.error, "warning": at.warning, "info": at.info}
    capped = 0
    for severity, total in zip(SEVERITIES, totals):
        if total == 0:
            continue
        head = f"**{t(f'workbench.severity.{severity}', lang)}**"
        box = next(b.value for b in boxes[severity] if b.value.startswith(head))
        bullets = box.split("\n- ")[1:]
        if total <= MAX_SHOWN_FINDINGS:
            assert len(bullets) == total
            continue
        capped += 1
        assert len(bullets) == MAX_SHOWN_FINDINGS + 1
        assert bullets[-1] == t("workbench.review_more", lang, count=total - MAX_SHOWN_FINDINGS)
    assert capped == 2  # 240 properties with no type (an error) and no description (a warning)


def hidden_description(char: str) -> dict:
    """The refund fields with a description of ``char`` repeated to just under MAX_SCHEMA_CHARS characters."""
    return {"type": "object", "properties": {"order_id": {"type": "string", "description": char * (MAX_SCHEMA_CHARS - 200)}},
            "required": ["order_id"]}


#: Characters a code block shows as escapes (toolcall.text.HIDDEN): 6 characters for a zero-width space, 12 for a
#: tag character above U+FFFF. Escaped whole, a 190 000-character schema of tag characters (760 KB typed) made "What
#: the model sees" send 4.84 MB and the full definition 3.24 MB on every edit (break-it pass brk13web).
HIDDEN_FILLS = {"zero-width spaces": "\u200b", "tag characters": "\U000e0041"}


@pytest.mark.parametrize("name", list(HIDDEN_FILLS))
@pytest.mark.parametrize("panel", [*PANELS, STRICT])
def test_escapes_of_hidden_characters_do_not_multiply_what_a_panel_sends(panel, name):
    """At most three times what was typed, counted in UTF-8 bytes as it travels (the box's own text is one of them);
    the code blocks cut what their escapes add past ui.common.MAX_ESCAPE_GROWTH and say so."""
    text = json.dumps(hidden_description(HIDDEN_FILLS[name]), ensure_ascii=False, separators=(",", ":"))
    assert len(text) <= MAX_SCHEMA_CHARS
    at, base = _open("en", panel, text)
    assert sum(_element_bytes(at).values()) <= base + 3 * len(text.encode()) + 30_000


ESCAPES_CUT = {
    "en": "Only the first {limit} of {total} characters are shown here: each hidden character is written as its escape "
          "(\\uXXXX, 6 or 12 characters), which made this text much longer than what was typed.",
    "zh": "这里只显示 {total} 个字符中的前 {limit} 个：每个隐藏字符都写成了转义（\\uXXXX，6 或 12 个字符），这段文本因此比输入的长得多。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_code_block_cut_for_its_escapes_says_what_it_shows(lang):
    text = json.dumps(hidden_description(HIDDEN_FILLS["tag characters"]), ensure_ascii=False)
    at, _ = _open(lang, MODEL, text)
    wire = wire_json(checked_definition(*at.session_state["playground_last_good"]).tool, "anthropic")
    limit, total = len(wire) + MAX_ESCAPE_GROWTH, len(escape_invisible(wire))
    assert total > limit
    assert ESCAPES_CUT[lang].format(limit=f"{limit:,}", total=f"{total:,}") in [c.value for c in at.caption]
    block = next(c.value for c in at.code if c.value.startswith('{"name":"refund_order"'))
    assert block == escape_invisible(wire)[:limit]


def long_names(char: str, count: int = 40, width: int = 4_400) -> dict:
    """``count`` untyped, undescribed properties whose names are ``width`` characters of ``char``: each name is the
    path of several review findings, and quoted in their reasons."""
    return {"type": "object", "properties": {f"n{i:02d}" + char * width: {} for i in range(count)}}


#: Long property names, plain, invisible and look-alike (Cyrillic а). The design review wrote each finding's path
#: and the name its reason quotes whole: 40 names of 4 404 characters (176 KB typed) drew 706 KB of review boxes on
#: every rerun, 4.53 MB with zero-width spaces or Cyrillic letters (528 KB and 352 KB typed), each escaped to 6
#: characters (break-it pass brk14web). The other panels sent at most twice what was typed.
LONG_NAMES = {"plain": "q", "zero-width spaces": "\u200b", "Cyrillic а": "\u0430"}


@pytest.mark.parametrize("name", list(LONG_NAMES))
@pytest.mark.parametrize("panel", [*PANELS, STRICT])
def test_long_property_names_do_not_multiply_what_a_panel_sends(panel, name):
    """At most three times what was typed (UTF-8 bytes), whatever a panel quotes the names in."""
    text = json.dumps(long_names(LONG_NAMES[name]), ensure_ascii=False, separators=(",", ":"))
    assert len(text) <= MAX_SCHEMA_CHARS
    at, base = _open("en", panel, text)
    assert sum(_element_bytes(at).values()) <= base + 3 * len(text.encode()) + 30_000
