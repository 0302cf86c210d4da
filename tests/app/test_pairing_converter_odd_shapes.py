"""The pairing page's converter with a Chat Completions transcript whose tool_calls is a number: the page names the
skipped message under the converter instead of a traceback (break-it pass brk12web2)."""

import json

import pytest
from tests.app.conftest import fresh_app

from toolcall.i18n import t
from toolcall.markdown import plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_number_for_tool_calls_is_a_loss_not_a_traceback(lang):
    at = fresh_app(lang, page="pages/pairing.py")
    text = json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": 5}])
    at.radio(key="pairing_format").set_value("openai").run()
    at.text_area(key="pairing_input").input(text).run()
    assert not at.exception
    assert at.text_area(key="convert_input").value == text
    line = t("convert.loss_line", lang, message=1, text=t("convert.loss.not_a_turn", lang))
    assert [w.value for w in at.warning] == [t("convert.losses_title", lang) + "\n\n" + plain(line)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lookalike_key_is_named_under_the_box(lang):
    """The pairing page lists the look-alike key's note under the verdict, titled as a note (not "not errors": the
    key is the cause of the errors in the table; break-it pass brk12web2)."""
    at = fresh_app(lang, page="pages/pairing.py")
    at.text_area(key="pairing_input").input(json.dumps([{"rоle": "user", "content": "hi"}], ensure_ascii=False)).run()
    assert not at.exception
    detail = t("pairing.rule_detail.lookalike_key", lang, written="r\\u043ele", word="role")
    advice = t("pairing.advice.lookalike_key", lang, word="role")
    title = {"en": "Notes:", "zh": "提示："}[lang]
    assert [i.value for i in at.info] == [title + "\n\n" + plain(f"messages[0]: {detail} {advice}")]
