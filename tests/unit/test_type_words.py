"""A JSON value's type named in a message: in the reader's language, and read as English in English.

Round 9 of issue 13, measured on main: the pairing checker told a Chinese reader "需要 messages 列表（JSON 数组）或请求对象，
这里是 string。" and the selection lab's failure detail read "参数是 array，不是对象" (the English type names the rest of
the app shows as 字符串 and 数组); in English five messages read "this is array", "got array", "Your answer is
string", "arguments are array". Each now says "a JSON array" in English and the translated name in Chinese."""

from __future__ import annotations

import json

import pytest

from toolcall.evaluation import Call, grade_run
from toolcall.i18n import catalogue
from toolcall.pairing import check_pairing
from toolcall.parsing import localized_detail, parse_tool_input, render_hint
from toolcall.tooldef import parse_definition
from toolcall.validation import check_schema

SCHEMAS = {"get_order": {"type": "object", "properties": {"order_id": {"type": "string"}}}}
EXPECTED = [{"name": "get_order", "arguments": {"order_id": ["ORD-1"]}}]
#: A value of each JSON type but object, as JSON text.
VALUES = {"array": "[1]", "string": '"x"', "integer": "5", "number": "1.5", "boolean": "true", "null": "null"}


def test_the_pairing_checker_names_the_type_in_chinese():
    assert check_pairing('"hello"', "auto", "zh").error == "需要 messages 列表（JSON 数组）或请求对象，这里收到的是字符串。"
    assert check_pairing('"hello"', "auto", "en").error == \
        "Expected a messages list (a JSON array) or a request object; this is a JSON string."


def test_a_selection_run_whose_arguments_are_a_list_says_so_in_chinese():
    verdict = grade_run(EXPECTED, [Call("get_order", arguments=[1])], SCHEMAS)
    assert verdict.text("zh") == "参数是数组，不是对象"
    assert verdict.text("en") == "arguments are a JSON array, not an object"


def _messages(kind: str, text: str, lang: str) -> list[str]:
    value = json.loads(text)
    parsed = parse_tool_input(text)
    return [check_pairing(text, "auto", lang).error or "",
            grade_run(EXPECTED, [Call("get_order", arguments=value)], SCHEMAS).text(lang),
            localized_detail(parsed, lang), *[render_hint(h, lang) for h in parsed.hints],
            check_schema(text, lang).message, parse_definition(text, lang).message]


@pytest.mark.parametrize("kind", sorted(VALUES))
def test_no_chinese_message_names_a_json_type_in_english(kind):
    """The next "这里是 string": every message that names a value's type, for a value of each type."""
    shown = [m for m in _messages(kind, VALUES[kind], "zh") if m]
    assert len(shown) >= 5
    assert [m for m in shown if kind in m.replace("JSON", "")] == ([] if kind != "null" else
                                                                  [m for m in shown if "null" in m])
    assert all(catalogue("zh")[f"type.{kind}"] in m for m in shown if "这里" in m or "参数是" in m), shown


@pytest.mark.parametrize("kind", sorted(VALUES))
def test_every_english_message_reads_a_json_type_with_its_article(kind):
    shown = [m for m in _messages(kind, VALUES[kind], "en") if m]
    assert len(shown) >= 5
    assert [m for m in shown if f" {kind}" in m and f"a JSON {kind}" not in m] == [], shown



@pytest.mark.parametrize("text, lang, path, message", [
    ('{"model": "m", "tools": [{"name": "a"}, {"name": "b"}]}', "en", "$.tools",
     'This object is not a tool definition: it holds a "tools" list of 2 definitions, as a request does. Give one '
     "definition from that list (where a list is read, as by python -m toolcall lint, give the list itself)."),
    ('{"functionDeclarations": [{"name": "a"}]}', "en", "$.functionDeclarations",
     'This object is not a tool definition: it holds a "functionDeclarations" list of 1 definition, as a request '
     "does. Give one definition from that list (where a list is read, as by python -m toolcall lint, give the list "
     "itself)."),
    ('{"tools": []}', "zh", "$.tools",
     '这个对象不是工具定义：它像请求那样带着一个 "tools" 列表，里面有 0 个定义。请从列表里取出一个定义（能读列表的地方，'
     "比如 python -m toolcall lint，直接给整个列表）。"),
])
def test_a_request_given_as_a_definition_is_named_as_one(text, lang, path, message):
    """On main a request body ({"tools": [...]}) given to the playground's definition box or to `lint` was told
    "The definition has no input_schema (OpenAI's form calls it parameters).", a field the student had no reason
    to add: the text named the wrong problem."""
    checked = parse_definition(text, lang)
    assert (checked.code, checked.path, checked.message) == ("DEFINITION_IS_REQUEST", path, message)
    assert parse_definition('{"name": "a"}', "en").message == \
        "The definition has no input_schema (OpenAI's form calls it parameters)."
