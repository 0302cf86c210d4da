"""Raw model output that is not a clean JSON object: each gets a code, the parser's words and a hint."""

import sys

import pytest

from toolcall.parsing import MAX_DEPTH, MAX_INPUT_CHARS, ends_open, max_depth, parse_tool_input


@pytest.mark.parametrize("raw, code, detail, hint", [
    ("", "INVALID_JSON", "empty input: expected a JSON object", "empty"),
    ("   \n", "INVALID_JSON", "empty input: expected a JSON object", "empty"),
    ("42", "NOT_AN_OBJECT", "expected a JSON object, got a JSON integer", "not_an_object"),
    ("[1, 2]", "NOT_AN_OBJECT", "expected a JSON object, got a JSON array", "not_an_object"),
    ('"{\\"order_id\\": \\"ORD-20260917\\"}"', "NOT_AN_OBJECT", "expected a JSON object, got a JSON string",
     "double_encoded"),
    ("{'order_id': 'ORD-20260917', 'urgent': True}", "INVALID_JSON",
     "Expecting property name enclosed in double quotes", "python_dict"),
    ('{"amount_cents": 1999,}', "INVALID_JSON", "Expecting property name enclosed in double quotes", "trailing_comma"),
    ('```json\n{"amount_cents": 1999}\n```', "INVALID_JSON", "Expecting value", "code_fence"),
    ('\ufeff{"amount_cents": 1999}', "INVALID_JSON", "Unexpected UTF-8 BOM (decode using utf-8-sig)", "bom"),
    ('{"amount_cents": NaN}', "INVALID_JSON", "NaN is not valid JSON", "not_a_json_number"),
    ('{"amount_cents": -Infinity}', "INVALID_JSON", "-Infinity is not valid JSON", "not_a_json_number"),
    ('{"amount_cents": 1e400}', "INVALID_JSON", "number 1e400 overflows a double", "float_overflow"),
    ('{"reason": "damaged", "reason": "other"}', "DUPLICATE_KEYS", "duplicate keys: reason", "duplicate_keys"),
    ('{"amount_cents": ' + "9" * 5000 + "}", "INVALID_JSON", "integer with 5000 digits exceeds the 1000-digit limit",
     "huge_integer"),
])
def test_refused_with_code_detail_and_hint(raw, code, detail, hint):
    parsed = parse_tool_input(raw)
    assert (parsed.ok, parsed.code, parsed.detail) == (False, code, detail)
    assert hint in [h.key for h in parsed.hints]


def test_trailing_comma_position_is_reported():
    parsed = parse_tool_input('{"amount_cents": 1999,}')
    # Python 3.11's json module points just past the comma, at the closing brace (pos); the place to fix
    # is the comma itself (line, column: json_explain)
    assert (parsed.line, parsed.column, parsed.pos) == (1, 22, 22)


@pytest.mark.parametrize("raw, hints", [
    # newcomer pass, session 11: a student's answer whose string never ends got "JSON allows no comma before a
    # closing } or ]" too, for the ",}" inside that string
    ('{"type": "tool_result", "content": "amount_cents must be an integer,}', ["truncated"]),
    ('{"note": "it is True, as promised", "amount_cents": 1999', ["truncated"]),
    ('{"note": "a,}", "amount_cents": 1999,}', ["trailing_comma"]),
    ("{'note': \"a\", 'urgent': True}", ["python_dict"]),
])
def test_syntax_hints_read_only_what_is_outside_strings(raw, hints):
    """A comma, a bracket or a Python keyword inside a JSON string is text, not syntax: no hint about it."""
    assert [h.key for h in parse_tool_input(raw).hints] == hints


def test_truncated_output_is_reported_not_repaired():
    """The course's example: cut mid-key; never turned into a valid-looking object."""
    raw = '{"order_id": "ORD-20260917", "amount_cents": 1999, "rea'
    parsed = parse_tool_input(raw)
    assert (parsed.ok, parsed.value, parsed.code) == (False, None, "INVALID_JSON")
    assert (parsed.detail, parsed.line, parsed.column, parsed.pos) == ("Unterminated string starting at", 1, 52, 51)
    assert [h.key for h in parsed.hints] == ["truncated"]


def test_nesting_100000_deep_is_refused_without_recursion():
    """The depth is counted to the end without recursing: a recursive count would stop at the interpreter's
    limit with RecursionError, far below 100 000."""
    assert sys.getrecursionlimit() < 100_000
    parsed = parse_tool_input("[" * 100_000)
    assert parsed.code == "TOO_DEEP"
    assert parsed.detail == f"nested 100000 levels deep; the limit is {MAX_DEPTH}"


def test_five_megabyte_paste_is_capped():
    parsed = parse_tool_input('{"note": "' + "x" * 5_000_000 + '"}')
    assert parsed.code == "TOO_LARGE"
    assert parsed.detail == f"input is 5,000,012 characters; the limit is {MAX_INPUT_CHARS:,}"


def test_brackets_inside_strings_do_not_count():
    assert max_depth('{"note": "[[[[{{{{"}') == 1
    assert max_depth('{"a": "\\"[["}') == 1
    assert ends_open('{"a": "x') and ends_open('{"a": [1') and not ends_open('{"a": "}"}')


def test_valid_object_parses():
    parsed = parse_tool_input('{"order_id": "ORD-20260917", "amount_cents": 1999.0}')
    assert parsed.ok and parsed.value == {"order_id": "ORD-20260917", "amount_cents": 1999.0}


def test_non_string_raw_is_a_programming_error():
    with pytest.raises(TypeError):
        parse_tool_input(b"{}")  # type: ignore[arg-type]
