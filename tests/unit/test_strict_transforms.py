"""Our ports of the SDK strict-mode helpers give exactly the SDK functions' output (no network)."""

import copy
import json

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_tool
from toolcall.presets import PRESETS, apply_preset
from toolcall.strict import leak_matrix, openai_fix, report
from toolcall.strict.transforms import TransformError, anthropic_transform, openai_transform

sdk_anthropic = pytest.importorskip("anthropic.lib._parse._transform")
sdk_openai = pytest.importorskip("openai.lib._pydantic")

REFERENCE = load_tool().input_schema

#: Hand-written schemas that reach every branch of both helpers.
CORPUS = {
    "nested": {"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "integer", "maximum": 9, "multipleOf": 3}},
              "additionalProperties": True},
        "c": {"type": "array", "items": {"type": "string", "format": "email", "minLength": 2}, "minItems": 1},
        "d": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 5, "uniqueItems": True},
        "e": {"type": "array", "minItems": 0}}, "required": ["a"]},
    "unions": {"type": "object", "properties": {
        "u": {"oneOf": [{"type": "string", "pattern": "^a"}, {"type": "integer"}], "description": "u"},
        "v": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "w": {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}]},
        "z": {"allOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}}},
    "literals": {"type": "object", "properties": {
        "e": {"type": "string", "enum": ["a", "b", None], "title": "E"},
        "k": {"const": 3, "description": "three"},
        "o": {"type": "object", "enum": [{"a": 1}], "properties": {}},
        "c": {"type": "string", "const": "x", "default": "x", "examples": ["x"]}}},
    "refs": {"type": "object", "$defs": {"Item": {"type": "object", "properties": {"n": {"type": "integer"}}}},
             "properties": {"i": {"$ref": "#/$defs/Item", "description": "an item"},
                            "j": {"$ref": "#/$defs/Item"}}},
    "root_ref": {"$ref": "#/$defs/R", "$defs": {"R": {"type": "object", "properties": {"s": {"type": "string"}}}}},
    "formats": {"type": "object", "properties": {
        "f1": {"type": "string", "format": "date"}, "f2": {"type": "string", "format": "ipv4", "pattern": "1"},
        "f3": {"type": "string", "format": "regex"}, "f4": {"type": "string", "format": ""},
        "f5": {"type": "integer", "format": "int32"}}},
    "misc": {"type": "object", "properties": {"p": {"type": "object", "patternProperties": {"^x": {"type": "string"}},
                                                    "minProperties": 1}},
             "not": {"required": ["q"]}, "if": {"required": ["p"]}, "then": {"required": ["p"]}},
    "empty_object": {"type": "object"},
    "type_list": {"type": "object", "properties": {"n": {"type": ["string", "null"]}}},
    "no_type": {"type": "object", "properties": {"n": {"description": "anything"}}},
    "unknown_type": {"type": "object", "properties": {"n": {"type": "float"}}},
    "bool_schema": {"type": "object", "properties": {"n": True}},
    "empty_enum": {"type": "object", "properties": {"n": {"enum": []}}},
}


def corpus():
    cases = dict(CORPUS)
    for preset in PRESETS:
        cases[f"preset_{preset}"] = apply_preset(REFERENCE, preset)
    for path in sorted((FIXTURES_DIR / "tools").glob("*.json")):
        cases[f"tool_{path.stem}"] = json.loads(path.read_text("utf-8"))["input_schema"]
    return cases


CASES = corpus()


def _sdk(fn, schema):
    try:
        return fn(copy.deepcopy(schema)), None
    except (ValueError, AssertionError, TypeError, KeyError, AttributeError) as exc:
        return None, exc


@pytest.mark.parametrize("name", sorted(CASES))
def test_anthropic_transform_equals_sdk(name):
    """Same dict (and the same key order, so the same JSON text) as anthropic's transform_schema."""
    schema = CASES[name]
    before = json.dumps(schema)
    expected, error = _sdk(sdk_anthropic.transform_schema, schema)
    if error is not None:
        with pytest.raises(TransformError):
            anthropic_transform(schema)
    else:
        ours, _ = anthropic_transform(schema)
        assert json.dumps(ours) == json.dumps(expected)
    assert json.dumps(schema) == before  # input untouched


@pytest.mark.parametrize("name", sorted(CASES))
def test_openai_transform_equals_sdk(name):
    """Same output as openai's _ensure_strict_json_schema (the body of to_strict_json_schema)."""
    schema = CASES[name]
    root = copy.deepcopy(schema)
    expected, error = _sdk(lambda s: sdk_openai._ensure_strict_json_schema(s, path=(), root=s), root)
    if error is not None:
        with pytest.raises(TransformError):
            openai_transform(schema)
    else:
        ours, _ = openai_transform(schema)
        assert json.dumps(ours) == json.dumps(expected)


def test_the_corpus_reaches_the_error_branches():
    """A corpus where the SDK never fails would not test our TransformError paths."""
    failing = {n for n in CASES if _sdk(sdk_anthropic.transform_schema, CASES[n])[1] is not None}
    assert {"type_list", "no_type", "unknown_type", "bool_schema", "empty_enum"} <= failing


def test_reference_transforms_exact_values():
    """refund_order: Anthropic moves minimum, maxLength and pattern into descriptions; OpenAI requires note."""
    ours, moved = anthropic_transform(REFERENCE)
    assert {(m.path, m.into) for m in moved} == {("/properties/order_id/pattern", "description"),
                                                 ("/properties/amount_cents/minimum", "description"),
                                                 ("/properties/note/maxLength", "description"),
                                                 ("/properties/reason/type", "dropped")}  # enum stands alone
    assert ours["properties"]["amount_cents"] == {
        "type": "integer", "description": "Amount to refund, in cents (19.99 yuan is 1999).\n\n{minimum: 1}"}
    assert ours["properties"]["reason"] == {"enum": ["damaged", "not_received", "wrong_item", "other"],
                                            "description": "Why the customer wants the refund."}
    strict, _ = openai_transform(REFERENCE)
    assert strict["required"] == ["order_id", "amount_cents", "reason", "note"]
    assert strict["properties"]["note"] == REFERENCE["properties"]["note"]


def test_leak_matrix_amount_zero_leaks_under_anthropic_and_is_caught_locally():
    from toolcall.fixtures import load_outputs
    matrix = leak_matrix(REFERENCE, load_outputs().outputs)
    row = next(r for r in matrix.rows if r.id == "probe:/properties/amount_cents/minimum")
    assert json.loads(row.raw)["amount_cents"] == 0 and row.label == "amount_cents: 0"
    assert row.verdicts["original"].accepted is False and row.verdicts["original"].keywords == ("minimum",)
    assert row.verdicts["anthropic"].accepted is True
    assert row.leaks == ["anthropic"]  # OpenAI supports minimum: still enforced there
    note = next(r for r in matrix.rows if r.id == "probe:/properties/note/maxLength")
    assert note.leaks == ["anthropic", "openai_fix"] and len(json.loads(note.raw)["note"]) == 201


def test_canned_outputs_keep_their_verdicts_except_valid_under_openai():
    """Every canned output's verdict is the same under each transform, except the valid call
    (no note) which OpenAI's schemas reject (note is now required) and an output caught only by a
    keyword Anthropic's helper moves into the description (the trailing newline: pattern)."""
    from toolcall.fixtures import load_outputs
    outputs = load_outputs().outputs
    matrix = leak_matrix(REFERENCE, outputs)
    moved = {"anthropic": {m.keyword for m in anthropic_transform(REFERENCE)[1] if m.into == "description"}}
    for output in outputs:
        row = next(r for r in matrix.rows if r.id == output.id)
        assert row.verdicts["original"].accepted is (output.expected == "accepted")
        # an output caught only by a keyword a transform moves into the description leaks there
        assert row.leaks == [c for c, keywords in moved.items() if output.catches in keywords], output.id
        expected_over = ["openai", "openai_fix"] if output.expected == "accepted" else []
        assert row.overrejects == expected_over
        if output.expected == "accepted":
            assert row.verdicts["openai_fix"].keywords == ("required",)
    assert next(r for r in matrix.rows if r.id == "trailing_newline").leaks == ["anthropic"]  # shipped: pattern


def test_openai_fix_is_accepted_and_the_valid_call_needs_note_null():
    fixed = openai_fix(REFERENCE)
    assert fixed.made_nullable == ["/properties/note"]
    assert fixed.schema["properties"]["note"]["type"] == ["string", "null"]
    assert fixed.schema["required"] == ["order_id", "amount_cents", "reason", "note"]
    assert [f for f in report(fixed.schema, "openai").findings] == []
    assert '+    "note"' in fixed.diff and '-      "maxLength": 200,' in fixed.diff
    from toolcall.validation import validate
    call = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
    assert [e.keyword for e in validate(call, fixed.schema)[0]] == ["required"]
    assert validate({**call, "note": None}, fixed.schema)[0] == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_openai_fix_leaves_no_refusal(name):
    """Whatever the schema, the fixed one trips no OpenAI rule with effect 400 except the root rule."""
    schema = CASES[name]
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    fixed = openai_fix(schema).schema
    left = [f for f in report(fixed, "openai").findings if f.effect == "400" and f.rule != "openai.root"]
    assert left == []


def test_a_schema_too_long_to_diff_is_not_diffed():
    """Issue 13 (quadratic work): difflib on a 200 000-character schema with 2 000 nested objects
    took 4 s per diff on every edit of the strict panel; past MAX_DIFF_LINES the diff is None."""
    from toolcall.strict import openai_fix, schema_diff
    from toolcall.strict.transforms import MAX_DIFF_LINES

    small = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert schema_diff(small, small) == ""
    assert schema_diff(small, {**small, "additionalProperties": False}).startswith("--- original")
    big = {"type": "object", "properties": {f"p{i}": {"type": "object", "properties": {"a": {"type": "string"}}}
                                            for i in range(MAX_DIFF_LINES // 4)}}
    assert schema_diff(big, big) == ""
    assert schema_diff(big, {**big, "additionalProperties": False}) is None
    assert openai_fix(big).diff is None


def _reordered(node):
    """``node`` with the keys of every object in reverse order (values equal)."""
    if isinstance(node, dict):
        return {k: _reordered(node[k]) for k in reversed(list(node))}
    if isinstance(node, list):
        return [_reordered(v) for v in node]
    return node


def test_schema_diff_ignores_key_order_but_shows_a_moved_keyword():
    """Issue 14: the panel's diff showed `additionalProperties` removed and re-added only because
    transform_schema rebuilds each object in its own key order. Derived from the shipped tools: a
    reordered copy diffs as equal, and each keyword transform_schema moves into the description shows
    as a removed line."""
    from toolcall.strict import schema_diff

    moved_any = False
    for path in sorted((FIXTURES_DIR / "tools").glob("*.json")):
        schema = load_tool(path).input_schema
        assert schema_diff(schema, _reordered(schema)) == "", path.name
        try:
            transformed, moved = anthropic_transform(schema)
        except TransformError:
            continue
        diff = schema_diff(schema, transformed, ("original", "anthropic"))
        assert diff == schema_diff(_reordered(schema), transformed, ("original", "anthropic")), path.name
        removed = [line.lstrip("- ") for line in (diff or "").splitlines()
                   if line.startswith("-") and not line.startswith("---")]
        for m in moved:
            if m.into == "description":
                moved_any = True
                assert any(line.startswith(f'"{m.keyword}":') for line in removed), (path.name, m.keyword)
    assert moved_any
    reference = load_tool().input_schema
    diff = schema_diff(reference, anthropic_transform(reference)[0], ("original", "anthropic"))
    assert "additionalProperties" not in diff  # unchanged (false before and after): no longer removed and re-added
    assert '-      "minimum": 1,' in diff.splitlines() and '-      "maxLength": 200,' in diff.splitlines()
