"""The strict panel's work per edit is bounded (issue 13: no student can slow the others down), counted, not timed.

Streamlit runs every session of a process on one GIL, so the CPU of one student's edit is everyone's wait. With
the panel open, an edit of a schema near the editor's 200 000-character cap cost 9.7 s of server CPU (2 800
constrained properties) and 18 s (190 properties requiring 15 000 names: every one of ~76 leak-matrix validations
explained each missing name in a sentence nobody read). Now the panel checks schemas within MAX_PANEL_SUBSCHEMAS
subschemas and MAX_PANEL_CHARS characters, says so past them (en, zh), and a leak-matrix verdict explains no
error (rejected_keywords): the worst shape at the caps costs about 0.45 s (bench/worst_edit.py).
"""

import json

import pytest

from tests.workcount import calls_made, lines_run
from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_outputs, load_tool
from toolcall.parsing import parse_tool_input
from toolcall.strict import (MAX_PANEL_CHARS, MAX_PANEL_SUBSCHEMAS, leak_matrix, openai_fix, panel_too_large,
                             report)
from toolcall.validation import rejected_keywords, validate


def constrained(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"type": "integer", "minimum": i, "maximum": i + 9}
                                             for i in range(n)}, "required": [f"p{i}" for i in range(n)]}


def many_required(n: int) -> dict:
    """A few properties, ``n`` required names that none of them is: each validation reports every one missing."""
    return {"type": "object", "properties": {f"p{i}": {"type": "string", "minLength": 1} for i in range(10)},
            "required": [f"r{i}" for i in range(n)]}


def ring(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"$ref": f"#/$defs/d{i}"} for i in range(n)},
            "$defs": {f"d{i}": {"type": "object", "properties": {"q": {"$ref": f"#/$defs/d{(i + 1) % n}"}}}
                      for i in range(n)}}


def big_enum(n: int) -> dict:
    return {"type": "object", "properties": {"a": {"type": "string", "enum": [f"v{i}" for i in range(n)]}},
            "required": ["a"]}


FAMILIES = {"constrained": constrained, "many_required": many_required, "ring": ring, "big_enum": big_enum}


def largest_shown(build) -> dict:
    """``build(n)`` for the largest n the panel still checks."""
    n = 1
    while not panel_too_large(build(n * 2)):
        n *= 2
    step = n
    while step > 1:
        step //= 2
        if not panel_too_large(build(n + step)):
            n += step
    return build(n)


def panel_calls(schema: dict) -> int:
    """Python and C function calls of what the open panel computes for one schema: three reports, the leak matrix,
    the OpenAI fix (sys.setprofile; the same code on the same schema makes the same calls)."""
    outputs = load_outputs().outputs

    def compute():
        for provider in ("anthropic", "openai", "gemini"):
            report(schema, provider, "tool", "Does one thing.")
        leak_matrix(schema, outputs)
        openai_fix(schema)

    return calls_made(compute)[1]


@pytest.mark.parametrize("family", FAMILIES)
def test_what_the_panel_computes_at_its_caps_is_bounded(family):
    """The largest schema of each family the panel checks costs at most 1 million calls plus 75 000 per canned output
    the leak matrix validates (1.6 million for the 8 shipped refund_order outputs; the worst, 10 properties requiring
    ~1 300 names, 1.52 million, about 0.4 s of CPU; each added output costs it about 73 000 more, so the budget grows
    with the instructor's content, not with what a student types). With verdicts explained as before, the same
    schemas made 1.80 million (199 constrained properties) and 5.01 million (the required names); with no panel cap,
    2 800 constrained properties made over 30 million."""
    schema = largest_shown(FAMILIES[family])
    assert not panel_too_large(schema)
    assert panel_calls(schema) < 1_000_000 + 75_000 * len(load_outputs().outputs), family


def test_the_caps_in_subschemas_and_characters():
    assert not panel_too_large(constrained(MAX_PANEL_SUBSCHEMAS - 1))  # the root and 199 properties
    assert panel_too_large(constrained(MAX_PANEL_SUBSCHEMAS))
    text_cap = many_required(2000)
    assert len(json.dumps(text_cap, ensure_ascii=False)) > MAX_PANEL_CHARS and panel_too_large(text_cap)
    assert not panel_too_large(load_tool(FIXTURES_DIR / "tools" / "refund_order.json").input_schema)


def test_deciding_too_large_stops_counting_at_the_cap():
    """Counting subschemas stops at the first past the cap: 2 800 properties run well under twice the lines of 201
    (the root's children are listed once; a walk of every subschema runs ~14 times as many)."""
    small = lines_run(panel_too_large, constrained(MAX_PANEL_SUBSCHEMAS + 1))
    large = lines_run(panel_too_large, constrained(2800))
    assert small[0] is large[0] is True
    assert large[1] < 2 * small[1], (small[1], large[1])


def test_a_verdict_names_the_keywords_validate_explains():
    """rejected_keywords is validate's keyword set without the sentences, for every canned output of every
    course tool and the hostile shapes above."""
    outputs = load_outputs().outputs
    schemas = [load_tool(FIXTURES_DIR / "tools" / f"{name}.json").input_schema for name in ("refund_order", "get_order", "cancel_order",
                                                         "search_orders", "update_shipping")]
    schemas += [build(30) for build in FAMILIES.values()] + [{"type": "object", "properties": {"a": False}}]
    instances = [parse_tool_input(o.raw).value for o in outputs if parse_tool_input(o.raw).ok]
    instances += [{"a": 1}, {}, {"p0": 0, "q": "x"}, [], "text"]
    checked = 0
    for schema in schemas:
        for instance in instances:
            explained = tuple(sorted({e.keyword for e in validate(instance, schema)[0]}))
            assert rejected_keywords(instance, schema) == explained, (schema, instance)
            checked += 1
    assert checked == len(schemas) * len(instances)
    assert rejected_keywords({"a": 1}, {"type": "object", "properties": {"a": False}}) == ("false",)
    assert rejected_keywords({"p0": "x"}, constrained(2)) == ("required", "type")
