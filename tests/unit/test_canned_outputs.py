"""The canned outputs under the reference schema: exact verdicts and exact messages, both wire formats."""

import json

import pytest

from toolcall.judge import evaluate_canned, summarize

HEADER = "Tool input failed validation against the refund_order input_schema (errors: 1):\n"
FOOTER = "\nFix the arguments and call refund_order again."

EXPECTED_CONTENT = {
    "valid": json.dumps({"refund_id": "RF-20260917-001", "status": "submitted",
                         "order_id": "ORD-20260917", "amount_cents": 1999}),
    "missing_required": HEADER + "- /reason (required): expected this required field; "
                                 "received nothing: the field is missing." + FOOTER,
    "wrong_type": HEADER + '- /amount_cents (type): expected type integer; received string "19.99". '
                           '"19.99" is a string. JSON Schema never converts strings to numbers: '
                           '"1999" is not the integer 1999.' + FOOTER,
    "enum_violation": HEADER + '- /reason (enum): expected one of "damaged", "not_received", "wrong_item", '
                               '"other"; received string "broken".' + FOOTER,
    "extra_field": HEADER + "- /refund_shipping (additionalProperties): expected no field by this name "
                            "(allowed: order_id, amount_cents, reason, note); received boolean true. "
                            "The schema sets additionalProperties to false, so unknown fields are refused "
                            "instead of silently ignored." + FOOTER,
    # ECMA-262: $ does not match before a final newline, so the id with "\n" is refused.
    "trailing_newline": HEADER + '- /order_id (pattern): expected a string matching ^ORD-[0-9]{8}$; '
                                 'received string "ORD-20260917\\n".' + FOOTER,
}

TRUNCATED = {
    "error": "INVALID_JSON",
    # where to fix, in plain words, then the parser's own message (toolcall/json_explain.py)
    "detail": 'The string that starts at line 1, column 52 never ends: "rea — the text stops inside it: it was cut '
              'off, or its closing " is missing. (Parser\'s message: Unterminated string)',
    "line": 1, "column": 52, "position": 51,
    "raw": '{"order_id": "ORD-20260917", "amount_cents": 1999, "rea',
    # addressed to the model: the developer's advice (raise max_tokens) is on the card, never in the content
    "hints": ["The JSON stops before it is complete: the text ends inside a string or with a bracket left open."],
    "advice": "The arguments could not be read as a JSON object, so refund_order was not run. "
              "Send the complete arguments as one JSON object.",
}

IDS = {"valid": "XNghr50mJASEhjbyYiAHTJ", "missing_required": "eP99dZdnBjoJUopshdYIYa",
       "wrong_type": "mieHSkhZP7g2B4BH4gJDyb", "enum_violation": "ViAhQ9cTafpaEHBZJcG2uu",
       "extra_field": "QDStu0a21PbTWpSpKjfOmn", "truncated": "koZAzfjzX5o8WkRoMavnMz",
       "trailing_newline": "VrrYQ3EvsC6fM2TrTjmk59"}


@pytest.fixture(scope="module", params=["anthropic", "openai"])
def cards(request, outputs, schema, tool, book):
    return request.param, {c.output.id: c for c in evaluate_canned(outputs.outputs, schema, tool.name, book,
                                                                      "en", request.param)}


def test_pinned_canned_outputs_are_shipped_in_fixture_order(outputs):
    ids = [o.id for o in outputs.outputs]
    pinned = ["valid", "missing_required", "wrong_type", "enum_violation", "extra_field", "trailing_newline",
              "truncated"]
    assert [i for i in ids if i in pinned] == pinned


@pytest.mark.parametrize("output_id", list(EXPECTED_CONTENT) + ["truncated"])
def test_exact_tool_result(cards, output_id):
    """The whole message, field for field, as the model would receive it."""
    fmt, by_id = cards
    card = by_id[output_id].card
    is_error = output_id != "valid"
    if output_id == "truncated":
        assert json.loads(card.tool_result["content"]) == TRUNCATED
        content = card.tool_result["content"]
    else:
        content = EXPECTED_CONTENT[output_id]
    if fmt == "anthropic":
        expected = {"type": "tool_result", "tool_use_id": "toolu_01" + IDS[output_id]}
        if is_error:
            expected["is_error"] = True
        expected["content"] = content
    else:
        expected = {"role": "tool", "tool_call_id": "call_" + IDS[output_id], "content": content}
    assert card.tool_result == expected


def test_verdicts_and_keywords(cards, outputs):
    _, by_id = cards
    assert {k: c.card.verdict for k, c in by_id.items()} == {o.id: o.expected for o in outputs.outputs}
    assert [(e.pointer, e.keyword) for e in by_id["missing_required"].card.errors] == [("/reason", "required")]
    assert [(e.pointer, e.keyword) for e in by_id["extra_field"].card.errors] == [
        ("/refund_shipping", "additionalProperties")]
    assert by_id["truncated"].card.parse.code == "INVALID_JSON"
    assert summarize(list(by_id.values())).matched == len(outputs.outputs)


def test_chinese_content_names_field_expected_and_received(outputs, schema, tool, book):
    by_id = {c.output.id: c for c in evaluate_canned(outputs.outputs, schema, tool.name, book, "zh")}
    assert by_id["wrong_type"].card.tool_result["content"] == (
        "工具参数没有通过 refund_order 的 input_schema 校验（1 处错误）：\n"
        '- /amount_cents（type）：期望：类型为整数；实际收到：字符串 "19.99"。'
        '"19.99" 是字符串。JSON Schema 不会把字符串转换成数字："1999" 不等于整数 1999。\n'
        "请修正参数后重新调用 refund_order。")
