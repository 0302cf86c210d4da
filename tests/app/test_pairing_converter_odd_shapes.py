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
