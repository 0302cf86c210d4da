"""ui.widgets.translated: each widget kind keeps its value (an option id) across a language switch
and shows the new language's labels, with no key list kept anywhere else."""

import pytest

from tests.app.conftest import fresh_app
from toolcall.exercises import load_exercises
from toolcall.i18n import t
from toolcall.wire import FORMATS


def _switch(at, lang: str):
    at.session_state["app_lang"] = lang
    return at.run()


def test_radio_keeps_its_choice_across_a_switch():
    at = fresh_app("en")
    at.switch_page("pages/playground.py").run()
    at.radio(key="playground_format").set_value("openai").run()
    _switch(at, "zh")
    radio = at.radio(key="playground_format")
    assert not at.exception
    assert radio.value == "openai"
    assert list(radio.options) == [t(f"playground.format.{fmt}", "zh") for fmt in FORMATS]


def test_selectbox_keeps_its_choice_across_a_switch():
    at = fresh_app("en")
    at.switch_page("pages/playground.py").run()
    at.selectbox(key="playground_preset").set_value("enum_removed").run()
    _switch(at, "zh")
    box = at.selectbox(key="playground_preset")
    assert not at.exception
    assert box.value == "enum_removed"
    assert t("playground.preset.enum_removed", "zh") in box.options


@pytest.mark.parametrize("first, second", [("en", "zh"), ("zh", "en")])
def test_the_ordering_control_keeps_its_order_across_a_switch(first, second):
    at = fresh_app(first)
    at.switch_page("pages/walkthrough.py").run()
    at.button(key="exercises_wt_order_move_up_send").click().run()
    moved = at.session_state["exercises_wt_order_answer"]
    _switch(at, second)
    assert not at.exception
    assert at.session_state["exercises_wt_order_answer"] == moved
    text = load_exercises().by_id()["wt_order"].labels("steps")["send"][second]
    assert at.button(key="exercises_wt_order_move_up_send").label == t("exercises.order.move_up", second, step=text)
