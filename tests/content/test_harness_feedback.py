"""Harness-lab scenario texts, for every scenario fixture: what the page shows together says each
thing once (issue 14: the right move's feedback quoted the tool's answer that the next step's
"Meanwhile" box quotes again, in one scenario with different words in the JSON)."""

import json
import re

import pytest

from toolcall.harness import load_scenarios

SCENARIOS = load_scenarios().scenarios
LANGS = ("en", "zh")


def _objects(text: str) -> list[dict]:
    """The JSON objects quoted in a text (flat ones, as scenario texts quote tool answers)."""
    found = []
    for chunk in re.findall(r"\{[^{}]*\}", text):
        try:
            value = json.loads(chunk)
        except ValueError:
            continue
        if isinstance(value, dict) and value:
            found.append(value)
    return found


PAIRS = [(s, a, b) for s in SCENARIOS for a, b in zip(s.steps, s.steps[1:]) if b.world]


@pytest.mark.parametrize("scenario, step, following", PAIRS,
                         ids=[f"{s.id}:{a.id}" for s, a, _ in PAIRS])
def test_right_feedback_does_not_repeat_what_the_next_step_shows(scenario, step, following):
    """After a right move the page shows its feedback above the next step's "Meanwhile" box: the
    feedback must not quote a tool answer (a JSON object with the same keys) that the box quotes."""
    for lang in LANGS:
        shown = {tuple(sorted(o)) for o in _objects(following.world[lang])}
        for option in step.options or ():
            if option.correct:
                repeated = [o for o in _objects(option.feedback[lang]) if tuple(sorted(o)) in shown]
                assert not repeated, (scenario.id, step.id, lang, repeated)


def test_the_check_finds_a_repeat():
    """The check itself: the old plain_call feedback, against its next step's box."""
    old = 'Right. refund_order answered {"refund_id": "RF-1", "status": "submitted"}.'
    world = 'refund_order returned {"refund_id": "RF-1", "status": "submitted"}.'
    assert {tuple(sorted(o)) for o in _objects(old)} & {tuple(sorted(o)) for o in _objects(world)}


def test_the_plain_call_follow_up_names_which_message_the_result_leads():
    """The step said "放在该消息的最前面" with no message named before it ("first in its message" in English)."""
    step = next(s for s in next(sc for sc in SCENARIOS if sc.id == "plain_call").steps if s.id == "write_followup")
    assert step.prompt == {
        "en": "Write the follow-up request's fields. Keep the conversation so far, echo the assistant turn unchanged, "
              "then send the result paired with the call's id, first in the message that carries it.",
        "zh": "写出下一次请求的字段：保留已有对话，原样追加助手这一轮，再把结果按调用的 id 配对送回；结果要放在送回它的那条消息的"
              "最前面。"}
