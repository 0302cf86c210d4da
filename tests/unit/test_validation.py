"""Schema checking and per-field explanations, including the arguments students have with validators."""

import json
import socket

import pytest

from toolcall.validation import check_schema, validate

REFUND = json.load(open("fixtures/tools/refund_order.json"))["input_schema"]


def _ok(**overrides):
    base = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
    base.update(overrides)
    return base


# --- the schema editor's text --------------------------------------------------------

def test_not_json_points_at_line_and_column():
    checked = check_schema('{\n  "type": "object",\n  "properties": {,}\n}')
    assert (checked.ok, checked.code, checked.line, checked.column) == (False, "SCHEMA_NOT_JSON", 3, 18)
    assert checked.message == ('Not JSON: A key is expected at line 3, column 18: "properties": {, — a key is text in '
                               'double quotes, like "name". (Parser\'s message: Expecting property name enclosed in '
                               'double quotes).')


@pytest.mark.parametrize("text, type_name", [("[]", "array"), ("true", "boolean"), ('"x"', "string"),
                                             ("null", "null")])
def test_not_an_object(text, type_name):
    checked = check_schema(text)
    assert (checked.code, checked.message) == (
        "SCHEMA_NOT_OBJECT", f"An input_schema must be a JSON object; this is a JSON {type_name}.")


@pytest.mark.parametrize("text, keyword, path", [
    ('{"type": "objekt"}', "type", "/type"),
    ('{"type": "object", "required": "order_id"}', "required", "/required"),
    ('{"properties": {"note": {"maxLength": -1}}}', "maxLength", "/properties/note/maxLength"),
    ('{"properties": {"order_id": {"pattern": "[unclosed"}}}', "pattern", "/properties/order_id/pattern"),
])
def test_invalid_schema_names_keyword_and_path(text, keyword, path):
    checked = check_schema(text)
    assert (checked.code, checked.keyword, checked.path) == ("SCHEMA_INVALID", keyword, path)
    assert checked.message.startswith(f'Not a valid Draft 2020-12 schema: at {path}, keyword "{keyword}": ')


def test_invalid_type_lists_the_json_types():
    assert check_schema('{"type": "objekt"}').message == (
        'Not a valid Draft 2020-12 schema: at /type, keyword "type": expected one of "array", "boolean", '
        '"integer", "null", "number", "object", "string"; received string "objekt"')
    assert check_schema('{"type": "objekt"}', "zh").message == (
        '不是合法的 Draft 2020-12 schema：位置 /type，关键字 "type"：期望：以下取值之一："array", "boolean", '
        '"integer", "null", "number", "object", "string"；实际：字符串 "objekt"')


def test_pathological_regex_in_schema_does_not_raise_recursion_error():
    checked = check_schema(json.dumps({"properties": {"a": {"pattern": "(" * 5000 + ")" * 5000}}}))
    assert (checked.ok, checked.keyword, checked.path) == (False, "pattern", "/properties/a/pattern")


def test_schema_nested_too_deep_is_refused():
    checked = check_schema('{"not": ' * 500 + "{}" + "}" * 500)
    assert checked.code == "SCHEMA_NOT_JSON"
    assert checked.message == "Not JSON: nested 501 levels deep; the limit is 64."


def test_remote_ref_is_refused_and_never_fetched(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("a network connection was attempted")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    checked = check_schema('{"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}')
    assert (checked.code, checked.path) == ("SCHEMA_REMOTE_REF", "/properties/a/$ref")
    errors, _ = validate({"a": 1}, {"properties": {"a": {"$ref": "https://example.com/a.json"}}})
    assert [e.keyword for e in errors] == ["$ref"]


def test_reference_schema_is_valid():
    assert check_schema(json.dumps(REFUND)).ok


# --- explanations --------------------------------------------------------------------

def test_every_error_is_reported_not_only_the_first():
    errors, _ = validate({"order_id": "ord-1", "amount_cents": 0, "extra": 1, "other": 2}, REFUND)
    assert [(e.pointer, e.keyword) for e in errors] == [
        ("/amount_cents", "minimum"), ("/extra", "additionalProperties"), ("/order_id", "pattern"),
        ("/other", "additionalProperties"), ("/reason", "required")]
    assert errors[0].expected == "a number ≥ 1" and errors[0].received == "integer 0"
    assert errors[2].expected == "a string matching ^ORD-[0-9]{8}$"


def test_required_names_the_missing_fields_themselves():
    errors, _ = validate({"note": "x"}, REFUND)
    assert [(e.pointer, e.field) for e in errors] == [
        ("/amount_cents", "amount_cents"), ("/order_id", "order_id"), ("/reason", "reason")]
    assert {e.received for e in errors} == {"nothing: the field is missing"}


def test_integral_float_is_an_integer_and_the_card_says_so():
    errors, notes = validate(_ok(amount_cents=1999.0), REFUND)
    assert errors == []
    assert notes == ['/amount_cents is 1999.0: JSON Schema counts a number with no fractional part as an integer, '
                     'so this passes "type": "integer".']


@pytest.mark.parametrize("value, received, hint", [
    (True, "boolean true", "true is a boolean. Python treats True as 1, but JSON Schema keeps booleans and numbers apart."),
    ("1999", 'string "1999"', '"1999" is a string. JSON Schema never converts strings to numbers: "1999" is not the integer 1999.'),
    (19.99, "number 19.99", "19.99 has a fractional part, so it is not an integer (1999.0 would be)."),
])
def test_numbers_as_json_schema_sees_them(value, received, hint):
    errors, _ = validate(_ok(amount_cents=value), REFUND)
    assert [(e.keyword, e.expected, e.received, e.hints) for e in errors] == [
        ("type", "type integer", received, [hint])]


def test_enum_case_drift_gets_a_hint():
    errors, _ = validate(_ok(reason="Damaged"), REFUND)
    assert errors[0].hints == ['Only the case differs: the allowed value is "damaged". Enum matching is case-sensitive.']


def test_any_of_reasons_are_expanded_from_context():
    schema = {"properties": {"note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
    errors, _ = validate({"note": 5}, schema)
    assert errors[0].expected == "a value matching at least one of 2 alternatives"
    assert [(r.expected, r.received) for r in errors[0].reasons] == [
        ("alternative 1: type string", "integer 5"), ("alternative 2: type null", "integer 5")]


def test_one_of_matching_several_says_so():
    schema = {"properties": {"n": {"oneOf": [{"type": "integer"}, {"minimum": 0}]}}}
    errors, _ = validate({"n": 5}, schema)
    assert errors[0].received == "integer 5, which matches alternatives 1, 2"


def test_hostile_pattern_is_bounded_and_reported():
    """^(a|a)*\\1$ against 40 a's and a b backtracks exponentially (the backreference defeats
    the ECMA-262 engine's memoisation, which decides plain ^(a|a)*$ at once: see below)."""
    schema = {"properties": {"order_id": {"type": "string", "pattern": "^(a|a)*\\1$"}}}
    errors, _ = validate({"order_id": "a" * 40 + "b"}, schema)
    assert [e.keyword for e in errors] == ["pattern"]
    assert "took longer than 50 ms" in errors[0].hints[0]


def test_classic_redos_pattern_is_now_decided_not_timed_out():
    """Decided, not cut off: a search stopped at its 50 ms bound says "took longer than 50 ms" (above);
    this one names the pattern the string fails and says nothing of time."""
    schema = {"properties": {"order_id": {"type": "string", "pattern": "^(a|a)*$"}}}
    errors, _ = validate({"order_id": "a" * 40 + "b"}, schema)
    assert [(e.keyword, e.expected) for e in errors] == [("pattern", "a string matching ^(a|a)*$")]
    assert not any("longer than" in hint for hint in errors[0].hints)


def test_self_referencing_schema_becomes_one_error():
    errors, _ = validate({"a": 1}, {"$ref": "#"})
    assert [(e.keyword, e.received) for e in errors] == [("$ref", "the schema refers to itself without end")]


def test_false_subschema():
    errors, _ = validate({"a": 1}, {"properties": {"a": False}})
    assert [(e.pointer, e.keyword, e.expected) for e in errors] == [
        ("/a", "false", "nothing: the schema allows no value here")]


def test_chinese_explanations():
    errors, _ = validate(_ok(reason="Damaged"), REFUND, "zh")
    assert errors[0].expected == '以下取值之一："damaged", "not_received", "wrong_item", "other"'
    assert errors[0].received == '字符串 "Damaged"'


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_schema_typed_half_way_is_called_unfinished(lang):
    """The newcomer typed {"type": "object", "properties": { and read only "Expecting property name enclosed in
    double quotes": where it breaks, not why. A finished but wrong text gets no such sentence."""
    from toolcall.i18n import t
    half = check_schema('{"type": "object", "properties": {', lang)
    # the place to fix is the last character typed (json_explain: the text ends early), the parser says column 35
    assert half.code == "SCHEMA_NOT_JSON" and (half.line, half.column) == (1, 34)
    assert half.message.endswith(("" if lang == "zh" else " ") + t("schema.unfinished", lang))
    wrong = check_schema('{"type": "object",, "properties": {}}', lang)
    assert wrong.code == "SCHEMA_NOT_JSON" and t("schema.unfinished", lang) not in wrong.message


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n"])
def test_an_empty_schema_box_says_it_is_empty_not_cut_off(text):
    """A newcomer's pass: clearing the box read "The text stops at line 1, column 1 … it was cut off"."""
    for lang, message in (("en", 'The schema is empty. An input_schema is a JSON object: the smallest is '
                                 '{"type": "object"}, a tool without arguments.'),
                          ("zh", 'schema 是空的。input_schema 是一个 JSON 对象，最简单的是 {"type": "object"}，'
                                 '也就是没有参数的工具。')):
        checked = check_schema(text, lang)
        assert (checked.ok, checked.code, checked.message) == (False, "SCHEMA_NOT_JSON", message)
