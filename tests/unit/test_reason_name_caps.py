"""Messages under the playground's editor and in its design review list a dozen of the names a student wrote, then
count the rest, with look-alike letters escaped (issue 13: at most a dozen ids per message). A ring of 480 "$defs" made
the editor's loop message 6 857 characters on every rerun (about 100 000 with long names), and 400 boolean properties
one "Several booleans" reason of 3 959 characters (break-it pass brk13web)."""

from __future__ import annotations

import json

import pytest

from toolcall.fixtures import Tool
from toolcall.lint import MAX_REASON_NAMES, lint_tool
from toolcall.validation import MAX_LISTED, check_schema, validate

RING = 480
#: The ring's first definition is "dо" with a Cyrillic о: it must not read as "do".
NAMES = ["d\u043e", *(f"d{i}" for i in range(1, RING))]


def ring() -> str:
    defs = {name: {"$ref": f"#/$defs/{NAMES[(i + 1) % RING]}"} for i, name in enumerate(NAMES)}
    return json.dumps({"type": "object", "$defs": defs, "properties": {"a": {"$ref": f"#/$defs/{NAMES[0]}"}}},
                      ensure_ascii=False)


LOOP = {
    "en": "At /$defs/d\\u043e the schema loops: in {places} … (+469 more), each one applies the one after it to the same "
          "value (through \"$ref\", allOf, anyOf, oneOf, not, if/then/else), so checking any value would never end. "
          "Break the loop: let one of them check something else.",
    "zh": "/$defs/d\\u043e 处的 schema 形成了循环：{places} ……（另有 469 个） 依次把下一个套用到同一个值上（经由 \"$ref\"、"
          "allOf、anyOf、oneOf、not、if/then/else），所以检查任何值都永远结束不了。请打破这个循环：让其中一个去检查别的东西。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_ref_loop_names_a_dozen_places_escaped(lang):
    checked = check_schema(ring(), lang)
    assert (checked.ok, checked.code, checked.path) == (False, "SCHEMA_REF_LOOP", "/$defs/d\u043e")
    places = " → ".join(["/$defs/d\\u043e", *(f"/$defs/d{i}" for i in range(1, MAX_LISTED))])
    assert checked.message == LOOP[lang].format(places=places)


BOOLEANS = {
    "en": "Several booleans ({names} … (+388 more)) that together encode a mode: one enum says it once.",
    "zh": "几个布尔参数（{names} ……（另有 388 个））合起来表示一种模式：用一个 enum 说清楚。",
}


@pytest.mark.parametrize(("lang", "sep"), [("en", ", "), ("zh", "、")])
def test_a_reason_about_many_properties_names_a_dozen_escaped(lang, sep):
    names = ["fl\u0430g", *(f"flag_{i}" for i in range(1, 400))]  # Cyrillic а
    tool = Tool("refund_order", "Refund an order. Call it when asked.",
                {"type": "object", "properties": {n: {"type": "boolean", "description": "x"} for n in names}})
    finding = next(f for f in lint_tool(tool) if f.rule == "param_boolean_mode")
    shown = sep.join(["fl\\u0430g", *names[1:MAX_REASON_NAMES]])
    assert finding.reason(lang) == BOOLEANS[lang].format(names=shown)


@pytest.mark.parametrize(("lang", "received"), [
    ("en", 'string "x", which matches alternatives 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 … (+468 more)'),
    ("zh", '字符串 "x"，同时满足了备选 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 ……（另有 468 个）')])
def test_a_value_matching_many_one_of_branches_names_a_dozen(lang, received):
    """480 identical oneOf branches: a card's error listed all 480 numbers."""
    schema = {"type": "object", "properties": {"order_id": {"oneOf": [{"type": "string"}] * 480}}}
    errors, _ = validate({"order_id": "x"}, schema, lang)
    assert [e.received for e in errors] == [received]


#: One untyped property whose name is 4 400 characters of ``char`` after "n": what the review shows of it.
LONG_NAME_UNTYPED = {"en": 'Parameter "{name}" has no type.', "zh": "参数“{name}”没有类型。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("char", "escaped"), [("q", "q"), ("\u200b", "\\u200b"), ("\u0430", "\\u0430")])
def test_a_long_name_is_cut_in_the_reason_and_the_shown_path(lang, char, escaped):
    """A reason quotes at most MAX_SHOWN_NAME_CHARS characters of a name and the review's path at most
    MAX_SHOWN_PATH_CHARS, then "…", as drawn, escapes included; the Finding keeps the whole path (the CLI's JSON). Written
    whole, 40 such names made the review 706 KB per rerun, 4.53 MB escaped (break-it pass brk14web)."""
    from toolcall.lint import MAX_SHOWN_NAME_CHARS, MAX_SHOWN_PATH_CHARS, shown_path

    name = "n" + char * 4_400
    tool = Tool("refund_order", "Refund an order.", {"type": "object", "properties": {name: {}}})
    finding = next(f for f in lint_tool(tool) if f.rule == "param_untyped")
    assert finding.path == "$.input_schema.properties." + name
    quoted = "n" + escaped * ((MAX_SHOWN_NAME_CHARS - 1) // len(escaped)) + "…"  # 63 q, or 10 escapes
    assert finding.reason(lang) == LONG_NAME_UNTYPED[lang].format(name=quoted)
    assert shown_path(finding.path) == "$.input_schema.properties.n" + escaped * ((MAX_SHOWN_PATH_CHARS - 27) // len(escaped)) + "…"
    assert (MAX_SHOWN_NAME_CHARS, MAX_SHOWN_PATH_CHARS) == (64, 96)


def test_a_short_name_is_shown_whole():
    from toolcall.lint import shown_path

    assert shown_path("$.input_schema.properties.\u043erder_id") == "$.input_schema.properties.\\u043erder_id"
