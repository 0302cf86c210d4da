"""The validator follows Draft 2020-12 to the letter (issue 11): ECMA-262 patterns, format
as annotation or assertion, references resolved offline, nothing ever fetched."""

import json

import pytest

from toolcall.cli import main
from toolcall.fixtures import load_tool
from toolcall.validation import check_schema, validate

REFUND = load_tool().input_schema
GET_ORDER = json.load(open("fixtures/tools/get_order.json"))["input_schema"]
TOOL = "fixtures/tools/refund_order.json"


def order(order_id):
    return {"order_id": order_id, "amount_cents": 1999, "reason": "damaged"}


# --- ECMA-262 patterns ------------------------------------------------------------------

@pytest.mark.parametrize("schema", [REFUND, GET_ORDER], ids=["refund_order", "get_order"])
@pytest.mark.parametrize("order_id", ["ORD-20260917\n", "ORD-٢٠٢٦٠٩١٧", "ORD-2026091７"])
def test_reference_schemas_refuse_trailing_newline_and_non_ascii_digits(schema, order_id):
    errors, _ = validate(order(order_id) if schema is REFUND else {"order_id": order_id}, schema)
    assert [(e.pointer, e.keyword) for e in errors] == [("/order_id", "pattern")]


def test_ecma_digit_class_is_ascii_only():
    schema = {"properties": {"order_id": {"type": "string", "pattern": "^ORD-\\d{8}$"}}}
    assert validate({"order_id": "ORD-20260917"}, schema)[0] == []
    errors, _ = validate({"order_id": "ORD-٢٠٢٦٠٩١٧"}, schema)
    assert [(e.keyword, e.expected) for e in errors] == [("pattern", "a string matching ^ORD-\\d{8}$")]


def test_ecma_control_escape_is_a_valid_pattern():
    schema = {"properties": {"c": {"type": "string", "pattern": "^\\cC$"}}}
    assert check_schema(json.dumps(schema)).ok
    assert validate({"c": "\x03"}, schema)[0] == []
    assert [e.keyword for e in validate({"c": "C"}, schema)[0]] == ["pattern"]


@pytest.mark.parametrize("pattern, cause", [("(?P<name>x)", "invalid group at offset 2"),
                                            ("(?i)abc", "invalid group modifier at offset 4")])
def test_python_only_syntax_is_refused_with_the_engine_reason(pattern, cause):
    checked = check_schema(json.dumps({"properties": {"a": {"type": "string", "pattern": pattern}}}))
    assert (checked.ok, checked.code, checked.path) == (False, "SCHEMA_INVALID", "/properties/a/pattern")
    assert f"{pattern} is not a usable regular expression" in checked.message and cause in checked.message


def test_format_regex_is_checked_as_ecma_when_asserted():
    schema = {"properties": {"p": {"type": "string", "format": "regex"}}}
    assert validate({"p": "^\\cC$"}, schema, assert_format=True)[0] == []
    assert [e.keyword for e in validate({"p": "(?P<x>a)"}, schema, assert_format=True)[0]] == ["format"]


# --- format: annotation by default, assertion on request --------------------------------

EMAIL = {"type": "object", "properties": {"contact_email": {"type": "string", "format": "email"}}}


def test_format_is_an_annotation_by_default_and_the_note_says_so():
    errors, notes = validate({"contact_email": "not an email"}, EMAIL)
    assert errors == []
    assert notes == ['This schema uses "format" (email) and it was not checked: by default format is only an '
                     "annotation (Draft 2020-12 Validation §7.2). Turn on format assertion to check it."]
    _, notes = validate({"contact_email": "x"}, EMAIL, "zh")
    assert notes == ['这个 schema 用了 "format"（email），但这次没有检查它：默认情况下 format 只是注解'
                     "（Draft 2020-12 Validation §7.2）。打开“检查 format”才会校验。"]


def test_format_asserted_rejects_and_explains():
    errors, notes = validate({"contact_email": "not an email"}, EMAIL, assert_format=True)
    assert notes == []
    assert [(e.pointer, e.keyword, e.expected, e.received) for e in errors] == [
        ("/contact_email", "format", 'a string in the format "email"', 'string "not an email"')]
    assert validate({"contact_email": "a@example.com"}, EMAIL, assert_format=True) == ([], [])


def test_format_inside_enum_data_is_not_a_keyword():
    assert validate("x", {"enum": [{"format": "email"}, "x"]})[1] == []


def test_cli_result_assert_format(tmp_path, capsys):
    schema = dict(REFUND, properties=dict(REFUND["properties"], note={"type": "string", "format": "email"}))
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema))
    raw = json.dumps(dict(order("ORD-20260917"), note="not an email"))
    assert main(["result", "--tool", TOOL, "--schema", str(path), "--input", raw, "--assert-format"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["is_error"] is True
    assert '- /note (format): expected a string in the format "email"; received string "not an email".' in out["content"]
    assert main(["result", "--tool", TOOL, "--schema", str(path), "--input", raw]) == 0
    assert "is_error" not in json.loads(capsys.readouterr().out)


def test_cli_result_trailing_newline_is_rejected(capsys):
    assert main(["result", "--tool", TOOL, "--input", json.dumps(order("ORD-20260917\n"))]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["is_error"] is True and "/order_id (pattern)" in out["content"]


# --- references, offline ----------------------------------------------------------------

EMBEDDED = {"$id": "https://shop.example/tools/refund_order", "type": "object",
            "$defs": {"cents": {"$id": "cents", "type": "integer", "minimum": 1}},
            "properties": {"amount_cents": {"$ref": "cents"}}}


@pytest.mark.parametrize("schema", [
    EMBEDDED,
    dict(EMBEDDED, properties={"amount_cents": {"$ref": "https://shop.example/tools/cents"}}),
    {"$defs": {"cents": {"$anchor": "cents", "type": "integer", "minimum": 1}},
     "properties": {"amount_cents": {"$ref": "#cents"}}},
    {"$defs": {"cents": {"type": "integer", "minimum": 1}}, "properties": {"amount_cents": {"$ref": "#/$defs/cents"}}},
    {"$defs": {"cents": {"$dynamicAnchor": "cents", "type": "integer", "minimum": 1}},
     "properties": {"amount_cents": {"$dynamicRef": "#cents"}}},
    {"$defs": {"cents": {"$id": "http://other.example/cents.json", "type": "integer", "minimum": 1}},
     "properties": {"amount_cents": {"$ref": "http://other.example/cents.json"}}},
], ids=["relative-id", "absolute-id", "anchor", "pointer", "dynamicRef", "embedded-other-host"])
def test_references_inside_the_document_resolve(schema):
    assert check_schema(json.dumps(schema)).ok
    assert validate({"amount_cents": 5}, schema)[0] == []
    errors, _ = validate({"amount_cents": 0}, schema)
    assert [(e.pointer, e.keyword, e.expected) for e in errors] == [("/amount_cents", "minimum", "a number ≥ 1")]


@pytest.mark.parametrize("ref, uri", [
    ("https://x.example/defs.json#/cents", "https://x.example/defs.json"),
    ("other", "https://shop.example/tools/other"),
    ("#/$defs/cents/../x", None),
])
def test_only_references_needing_the_network_are_refused_naming_the_uri(ref, uri):
    schema = dict(EMBEDDED, properties={"amount_cents": {"$ref": ref}})
    checked = check_schema(json.dumps(schema))
    if uri is None:  # same document: not remote (a dangling pointer is reported when validating)
        assert checked.ok
        return
    assert (checked.ok, checked.code, checked.keyword, checked.path) == (
        False, "SCHEMA_REMOTE_REF", "$ref", "/properties/amount_cents/$ref")
    assert checked.message == (f'At /properties/amount_cents/$ref, "$ref" points to {uri}, a document this schema '
                               "does not contain. It would have to be fetched, and nothing is ever fetched: put the "
                               "definition inside the schema (under $defs, with an $id or $anchor if you want to "
                               "name it).")


def test_a_ref_string_inside_const_is_data_not_a_reference():
    assert check_schema(json.dumps({"const": {"$ref": "https://x.example/a.json"}})).ok
