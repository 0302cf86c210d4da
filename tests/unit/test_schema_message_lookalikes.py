"""A schema the editor refuses is named with look-alike letters of other scripts escaped in what the message quotes
(issue 13): "at /properties/оrder_id/type" (Cyrillic о) beside a property order_id typed "string" read as a fault in
order_id. The check's path field keeps the schema's own names (it is a pointer, not prose)."""

import json

import pytest

from toolcall.validation import check_schema

SCHEMA = {"type": "object", "properties": {"order_id": {"type": "string"}, "\u043erder_id": {"type": "strin"}}}
MESSAGES = {
    "en": 'Not a valid Draft 2020-12 schema: at /properties/\\u043erder_id/type, keyword "type": expected one of '
          '"array", "boolean", "integer", "null", "number", "object", "string"; received string "strin"',
    "zh": '不是合法的 Draft 2020-12 schema：位置 /properties/\\u043erder_id/type，关键字 "type"：期望：以下取值之一：'
          '"array", "boolean", "integer", "null", "number", "object", "string"；实际：字符串 "strin"',
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_schema_quotes_a_lookalike_name_escaped(lang):
    checked = check_schema(json.dumps(SCHEMA), lang)
    assert not checked.ok and checked.message == MESSAGES[lang]
    assert checked.path == "/properties/\u043erder_id/type"


def test_a_lookalike_value_the_message_quotes_is_escaped_too():
    checked = check_schema(json.dumps({"type": "object", "required": ["a", "\u0430", "\u0430"]}), "en")
    assert checked.message.endswith('received array ["a", "\\u0430", "\\u0430"]: items 1 and 2 are equal')
