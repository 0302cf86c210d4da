"""A tool's description states the same points in English and in Chinese (brk10web3: the design review and the
pass^k lab read the course's points from the description by cue words, and two shipped translations were read
differently: a Chinese student's review of cancel_order said "when to use" was missing, an English student's said
"when not to use" was). Derived from the shipped tools: an instructor's new translated tool is held to it too."""

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_tool
from toolcall.points import WHEN_NOT, WHEN_TO_USE, description_points, stated

TOOLS = [tool for tool in (load_tool(p) for p in sorted((FIXTURES_DIR / "tools").glob("*.json")))
         if getattr(tool, "for_lang", None) and tool.for_lang("zh").description != tool.for_lang("en").description]


def test_some_tools_are_translated():
    assert len(TOOLS) >= 2


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_both_languages_state_the_same_points(tool):
    en, zh = (stated(description_points(tool.for_lang(lang).description)) for lang in ("en", "zh"))
    assert sorted(en) == sorted(zh)


@pytest.mark.parametrize("sentence,point", [
    ("只有客户明确要求取消并给出订单号时才调用。", WHEN_TO_USE),          # 时才调用: 才 between 时 and 调用
    ("只有客户要求做这项修改并给出订单号时才使用。", WHEN_TO_USE),
    ("An order that has shipped cannot be cancelled: for money back on a delivered order, use refund_order.", WHEN_NOT),
])
def test_the_sentences_read_differently_before(sentence, point):
    assert point in description_points(sentence)[0].points


@pytest.mark.parametrize("sentence", ["Use it to look up an order.", "Pass the order_id you were given.",
                                      "Useful when the customer is angry_ish."])
def test_naming_no_other_tool_is_not_when_not_to_use(sentence):
    assert WHEN_NOT not in description_points(sentence)[0].points
