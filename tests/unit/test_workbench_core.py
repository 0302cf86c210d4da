"""The whole-definition core: description points and the pass^k they give (exact values), the
definition reader (both forms, every refusal), definition presets, the share token, token counts."""

import base64
import json
import zlib

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import Tool, load_tool
from toolcall.numfmt import percent
from toolcall.passk import pass_k
from toolcall.points import (LIMIT, PURPOSE, SIDE_EFFECTS, TEMPLATE_POINTS, UNIT, WHEN_NOT, WHEN_TO_USE,
                             description_points, missing_points, stated)
from toolcall.presets import apply_definition_preset
from toolcall.tokens import O200K, count, tool_count_zone, wire_json
from toolcall.tooldef import (MAX_DESCRIPTION_CHARS, MAX_SHARE_CHARS, OPENAI_FORM, from_fields, parse_definition,
                              parse_tool_list, read_share_token, render, share_token)

REFUND = load_tool()
ZH_REFUND = ("给已签收的订单发起全额或部分退款。只在用户明确要求退款、并给出订单号时调用。取消未发货的订单请用 cancel_order。"
             "金额单位是分：19.99 元写作 1999。退款金额不能超过实付金额。")


@pytest.mark.parametrize("text", [REFUND.description, ZH_REFUND], ids=["en", "zh"])
def test_reference_description_states_five_points_one_per_sentence(text):
    sentences = description_points(text)
    assert [sorted(s.points) for s in sentences] == [[PURPOSE], [WHEN_TO_USE], [WHEN_NOT], [UNIT], [LIMIT]]


def test_course_figures_come_out_of_the_reference_description():
    """m = 3 left by the reference (the course's example) + 0 missing points: 8.0 % and 72.9 % at q = 0.9, k = 8."""
    sentences = description_points(REFUND.description)
    expected = stated(sentences)
    m = 3 + len(missing_points(expected, sentences))
    assert m == 3
    assert percent(pass_k(0.9, m, 8, 0.0)) == "8.0%" and percent(pass_k(0.9, m, 8, 1.0)) == "72.9%"


def test_removing_when_not_to_use_costs_one_ambiguity_exactly():
    expected = stated(description_points(REFUND.description))
    _, cut = apply_definition_preset(REFUND.name, REFUND.description, "no_when_not_to_use")
    assert cut == ("Refund a delivered order, in full or in part. Call it only when the customer explicitly asks for "
                   "a refund and gives an order number. amount_cents is in cents: 19.99 yuan is 1999. The amount can "
                   "never exceed what the customer paid for the order.")
    assert missing_points(expected, description_points(cut)) == (WHEN_NOT,)
    assert pass_k(0.9, 4, 8, 0.0) == pytest.approx(0.9 ** 32)          # 3.4 %
    assert percent(pass_k(0.9, 4, 8, 0.0)) == "3.4%" and percent(pass_k(0.9, 4, 8, 1.0)) == "65.6%"


def test_unticking_sentences_and_a_sentence_with_two_points():
    sentences = description_points(REFUND.description)
    expected = stated(sentences)
    assert missing_points(expected, sentences, [True, False, True, True, False]) == (WHEN_TO_USE, LIMIT)
    get_order = description_points(load_tool(FIXTURES_DIR / "tools" / "get_order.json").description)
    assert get_order[2].points == {WHEN_TO_USE, WHEN_NOT}
    assert get_order[1].points == {SIDE_EFFECTS}
    # a pasted tool is held to the course's template
    assert missing_points(TEMPLATE_POINTS, description_points("Handles order-related operations.")) == (
        WHEN_TO_USE, WHEN_NOT, "returns", SIDE_EFFECTS)
    assert description_points("") == []


def test_definition_presets():
    assert apply_definition_preset("refund_order", "x.", "description_removed") == ("refund_order", "")
    assert apply_definition_preset("refund_order", "x.", "vague_name") == ("do_stuff", "x.")
    assert apply_definition_preset("r", ZH_REFUND, "no_when_not_to_use")[1] == ZH_REFUND.replace(
        "取消未发货的订单请用 cancel_order。", "")
    with pytest.raises(ValueError):
        apply_definition_preset("r", "x", "nope")


def test_from_fields_checks_name_then_description_then_schema():
    schema = json.dumps(REFUND.input_schema)
    ok = from_fields(" refund_now ", "d", schema)
    assert ok.ok and ok.tool == Tool("refund_now", "d", REFUND.input_schema)
    assert from_fields("", "d", schema).code == "NAME_EMPTY"
    long = from_fields("a" * 65, "d", schema)
    assert (long.code, long.path, long.message) == ("NAME_TOO_LONG", "$.name",
                                                    "The tool name has 65 characters; providers accept at most 64.")
    assert from_fields("a" * 64, "d", schema).ok
    dotted = from_fields("orders.search", "d", schema, "zh")
    assert (dotted.code, dotted.message) == ("NAME_CHARS", "工具名里有 '.' (U+002E)：只能用英文字母、数字、下划线 _ 和连字符 -。")
    huge = from_fields("ok", "x" * 5_000_000, schema)
    assert (huge.code, huge.path) == ("DESCRIPTION_TOO_LONG", "$.description")
    assert from_fields("ok", "x" * MAX_DESCRIPTION_CHARS, schema).ok
    bad = from_fields("ok", "d", '{"type": "object", "properties": {"a": {"maxLength": "2"}}}')
    assert (bad.code, bad.path) == ("SCHEMA_INVALID", "$.input_schema.properties.a.maxLength")
    # one notation in the path: check_schema's JSON Pointer (escapes undone, indexes in brackets) read as JSONPath,
    # where it was "$.input_schema/properties/a~1b/anyOf/1/type"
    slash = from_fields("ok", "d", '{"type": "object", "properties": {"a/b": {"anyOf": [{}, {"type": 7}]}}}')
    assert (slash.code, slash.path) == ("SCHEMA_INVALID", "$.input_schema.properties.a/b.anyOf[1].type")


def test_parse_definition_in_both_forms_and_every_refusal():
    course, openai = render(REFUND), render(REFUND, OPENAI_FORM)
    assert json.loads(openai)["function"]["parameters"] == REFUND.input_schema
    assert parse_definition(course).tool == REFUND and parse_definition(openai).tool == REFUND
    bare = json.dumps({"name": "x_y", "parameters": {"type": "object"}})
    assert parse_definition(bare).tool == Tool("x_y", "", {"type": "object"})
    cases = {"{": "DEFINITION_NOT_JSON", "[1]": "DEFINITION_NOT_OBJECT",
             '{"name": "get_order", "description": "x"}': "DEFINITION_NO_SCHEMA",
             '{"name": 3, "input_schema": {}}': "DEFINITION_FIELD_TYPE",
             '{"name": "a b", "input_schema": {}}': "NAME_CHARS",
             '{"type": "function", "function": {"name": "ok", "parameters": []}}': "DEFINITION_FIELD_TYPE",
             " " * 200_001: "DEFINITION_TOO_LARGE"}
    for text, code in cases.items():
        assert parse_definition(text).code == code, text[:40]
    assert parse_definition("[1]").message == "The definition must be a JSON object with name, description and " \
                                              "input_schema; this is a JSON array."
    assert parse_definition('{"type": "function", "function": {"name": "ok", "parameters": []}}').path == \
        "$.function.parameters"
    tools, problem = parse_tool_list(json.dumps([json.loads(course), json.loads(openai)]))
    assert problem is None and tools == [REFUND, REFUND]
    tools, problem = parse_tool_list('[{"name": "ok", "input_schema": {}}, {"name": "", "input_schema": {}}]')
    assert tools == [] and (problem.code, problem.path) == ("NAME_EMPTY", "$[1].name")


def test_share_token_round_trip_and_refusals():
    token = share_token(REFUND)
    assert token and set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert read_share_token(token).tool == REFUND
    assert read_share_token(token[:-20]).code == "SHARE_CORRUPT"
    assert read_share_token("!!!").code == "SHARE_CORRUPT"
    assert read_share_token("A" * (MAX_SHARE_CHARS + 1)).code == "SHARE_TOO_LONG"
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 4_000_000, 9)).decode().rstrip("=")
    assert len(bomb) < MAX_SHARE_CHARS and read_share_token(bomb).code == "SHARE_CORRUPT"
    not_def = base64.urlsafe_b64encode(zlib.compress(b"[]")).decode().rstrip("=")
    assert read_share_token(not_def).code == "DEFINITION_NOT_OBJECT"
    noisy = Tool("x", "".join(chr(0x4e00 + (i * 7919) % 20000) for i in range(9000)), {"type": "object"})
    assert share_token(noisy) is None


def test_token_counts_are_o200k_and_exact_for_the_text():
    assert count("hello world") == count("hello world") and count("hello world").method == O200K
    assert count("hello world").tokens == 2
    assert count(wire_json(REFUND, "openai")).tokens == 237
    assert count(wire_json(REFUND, "anthropic")).tokens == 231
    assert [tool_count_zone(n) for n in (1, 5, 15, 16, 20, 21)] == [
        "few", "comfortable", "comfortable", "crowded", "crowded", "regroup"]
