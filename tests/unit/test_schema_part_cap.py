"""A schema may hold at most MAX_SCHEMA_PARTS parts: subschemas plus the names its ``required`` and
``dependentRequired`` lists name (issue 13, time kind).

The playground checks an edited schema against the meta-schema (about 0.3 ms per subschema) and judges each of
its eight canned outputs against it (an error per missing required name): 3 000 empty required properties
(153 KB) cost 2.0 s of CPU per edit, and 16 000 required names 2.7 s, while every other student of the process
waited. The refusal names the first part over the cap and validates nothing; every schema position counts
(derived from the walker's keyword lists, so a new position is covered), and every surface that checks a
schema gets it.
"""

import json

import pytest

from toolcall.i18n import t
from toolcall.judge import evaluate_canned
from toolcall.tooldef import from_fields
from toolcall.validation import _ARRAYS, _IN_PLACE, _MAPS, MAX_SCHEMA_CHARS, MAX_SCHEMA_PARTS, check_schema

CAP = MAX_SCHEMA_PARTS


def _names(n: int) -> list[str]:
    return [f"r{i:06d}" for i in range(n)]


def test_sixteen_thousand_required_names_are_refused_at_the_first_over_the_cap():
    text = json.dumps({"type": "object", "required": _names(16_000)}, separators=(",", ":"))
    assert len(text) <= MAX_SCHEMA_CHARS
    checked = check_schema(text, "en")
    # the root is the first part, its required names the next ones
    assert (checked.ok, checked.code, checked.path) == (False, "SCHEMA_TOO_MANY_PARTS", f"/required/{CAP - 1}")
    assert checked.message == (
        f'The schema has 16001 parts (subschemas, and names in "required" and "dependentRequired" lists); the '
        f"limit is {CAP}, and /required/{CAP - 1} is the first one over it. Every model output is checked against "
        "each part on every edit: keep the parameters the tool needs.")


def test_three_thousand_empty_properties_are_refused_in_chinese():
    names = [f"{i:06d}" + "W" * 15 for i in range(3000)]
    schema = {"type": "object", "properties": {n: {} for n in names}}
    checked = check_schema(json.dumps(schema, separators=(",", ":")), "zh")
    assert (checked.code, checked.path) == ("SCHEMA_TOO_MANY_PARTS", f"/properties/{names[CAP - 1]}")
    assert checked.message == t("schema.too_many_parts", "zh", count=3001, limit=CAP, path=checked.path)
    assert checked.message.startswith("这个 schema 有 3001 个组成部分")


def test_dependent_required_names_count():
    schema = {"type": "object", "dependentRequired": {"a": _names(CAP // 2), "b": _names(CAP // 2)}}
    checked = check_schema(json.dumps(schema), "en")
    assert (checked.code, checked.path) == ("SCHEMA_TOO_MANY_PARTS", f"/dependentRequired/b/{CAP // 2 - 1}")


def _holder(keyword: str) -> tuple[dict, str]:
    """A schema with one subschema ``{}`` under ``keyword``, and that subschema's pointer."""
    if keyword in _IN_PLACE:
        return {keyword: {}}, f"/{keyword}"
    if keyword in _ARRAYS:
        return {keyword: [{}]}, f"/{keyword}/0"
    return {keyword: {"k": {}}}, f"/{keyword}/k"


@pytest.mark.parametrize("keyword", _IN_PLACE + _ARRAYS + _MAPS)
def test_a_subschema_in_any_schema_position_counts(keyword):
    """The root, allOf/0, its CAP - 3 required names and allOf/1 fill the cap; the subschema under ``keyword``
    is the first part over it. One required name fewer: accepted."""
    extra, where = _holder(keyword)
    checked = check_schema(json.dumps({"allOf": [{"required": _names(CAP - 3)}, extra]}), "en")
    assert (checked.ok, checked.code, checked.path) == (False, "SCHEMA_TOO_MANY_PARTS", "/allOf/1" + where)
    assert check_schema(json.dumps({"allOf": [{"required": _names(CAP - 4)}, extra]}), "en").ok


def test_a_schema_at_the_cap_is_accepted_and_the_canned_judging_stays_bounded():
    """At the cap, each canned output gets one error per required name (one output is no JSON object): the work
    the cap bounds, counted (16 000 names were 16 000 explained errors per output)."""
    from toolcall import FIXTURES_DIR
    from toolcall.fixtures import load_outputs

    schema = {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": _names(CAP - 2)}
    assert check_schema(json.dumps(schema), "en").ok
    outputs = load_outputs(FIXTURES_DIR / "outputs" / "refund_order.yaml").outputs
    cards = evaluate_canned(outputs, schema, "refund_order", None)
    assert sorted(len(c.card.errors) for c in cards) == [0] + [CAP - 2] * (len(outputs) - 1)


def test_the_playground_definition_gets_the_refusal():
    text = json.dumps({"type": "object", "required": _names(CAP)})
    checked = from_fields("refund_order", "Refund an order.", text, "zh")
    assert (checked.ok, checked.code, checked.path) == (False, "SCHEMA_TOO_MANY_PARTS", f"$.input_schema.required[{CAP - 1}]")
