"""Tool descriptions and order items in both languages (issue 12, "Chinese without English left in"):
the definition shown is the session's language, the wire shape never carries ``x-i18n``."""

import json

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import FixtureError, load_orders, load_tool
from toolcall.i18n import LANGS
from toolcall.passk import split_sentences
from toolcall.backend import lookup_order
from toolcall.transcripts import build_transcript, load_tools, load_walkthrough
from toolcall.validation import validate

TOOLS = sorted((FIXTURES_DIR / "tools").glob("*.json"))


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: p.stem)
def test_every_shipped_tool_is_translated_and_the_wire_shape_has_no_translations(path):
    tool = load_tool(path)
    assert not _has_cjk(tool.description) and _has_cjk(tool.description_for("zh"))
    described = [n for n, spec in tool.input_schema.get("properties", {}).items() if "description" in spec]
    for name in described:  # a property the tool leaves undescribed (do_stuff's bad example) has nothing to translate
        assert _has_cjk(tool.input_schema_for("zh")["properties"][name]["description"]), name
    for lang in LANGS:
        shown = tool.for_lang(lang)
        assert shown.input_schema_for(lang) == shown.input_schema  # nothing left to translate
        for wire in (shown.as_anthropic(), shown.as_openai()):
            assert "x-i18n" not in json.dumps(wire) and json.loads(json.dumps(wire)) == wire
    assert tool.for_lang("en").as_anthropic() == tool.as_anthropic()


def test_refund_order_in_chinese_keeps_five_sentences_and_its_constraints():
    tool = load_tool()
    assert split_sentences(tool.description_for("zh")) == [
        "给已签收的订单发起全额或部分退款。", "只在用户明确要求退款、并给出订单号时调用。", "取消未发货的订单请用 cancel_order。",
        "金额单位是分：19.99 元写作 1999。", "退款金额不能超过实付金额。"]
    zh = tool.input_schema_for("zh")
    assert zh["properties"]["amount_cents"] == {"type": "integer", "minimum": 1,
                                                "description": "退款金额，单位是分（19.99 元写作 1999）。"}
    assert [e.keyword for e in validate({"order_id": "ORD-20260917", "amount_cents": "19.99", "reason": "damaged"}, zh)[0]] \
        == ["type"]


def test_a_translation_for_a_property_that_does_not_exist_is_reported(tmp_path):
    path = tmp_path / "refund_order.json"
    data = json.loads((FIXTURES_DIR / "tools" / "refund_order.json").read_text("utf-8"))
    data["x-i18n"]["zh"]["properties"]["amount"] = "金额"
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    with pytest.raises(FixtureError) as info:
        load_tool(path)
    assert [str(p) for p in info.value.problems] == [
        f"{path}: $.x-i18n.zh.properties.amount: 'amount' is not a property of input_schema"]


def test_get_order_results_name_the_item_in_the_session_language():
    book = load_orders()
    assert lookup_order(book, {"order_id": "ORD-20260705"}, "zh").data == {
        "order_id": "ORD-20260705", "status": "delivered", "item": "笔记本", "paid_cents": 1500}
    assert lookup_order(book, {"order_id": "ORD-20260705"}, "en").data["item"] == "Notebook"
    for order in book.orders:
        assert order.item_for("en") and _has_cjk(order.item_for("zh")), order.order_id


@pytest.mark.parametrize("fmt", ["anthropic", "openai"])
def test_the_walkthrough_request_carries_the_english_wire_definition_in_every_language(fmt):
    """README: tool definitions are English wire text; ``x-i18n.zh`` is shown, never sent (issue 14)."""
    fx = load_walkthrough()
    tools = load_tools(fx.tools)
    first = build_transcript(fx, fx.variants[0].id, fmt, tools, load_orders(), "zh").of_kind("request")[0]
    descriptions = [t["description"] if fmt == "anthropic" else t["function"]["description"] for t in first["tools"]]
    assert descriptions == [tools[n].description for n in fx.tools]
    assert not any(_has_cjk(d) for d in descriptions)


def test_names_are_listed_as_each_language_lists_them():
    """Newcomer session 7: the strict panel's note read "（maxLength, minimum）" in Chinese."""
    from toolcall.i18n import name_list

    assert name_list(["maxLength", "minimum"], "en") == "maxLength, minimum"
    assert name_list(("maxLength", "minimum"), "zh") == "maxLength、minimum"
    assert name_list([], "zh") == "" and name_list(iter(["a"]), "zh") == "a"
