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
