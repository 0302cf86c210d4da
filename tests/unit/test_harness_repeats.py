"""Be the loop: a model turn keeps its ids wherever it is shown, and a wrong JSON move gets one bullet per
fault (a pairing rule and the step's expectation of the same thing were two bullets)."""

import json

import pytest

from toolcall.harness import echo, load_scenarios, model_response, reference_move, scenario_call_id, wrong_moves
from toolcall.harness_grading import grade_move
from toolcall.i18n import LANGS
from toolcall.wire import HARNESS_FORMATS as FORMATS

SCENARIOS = load_scenarios().scenarios
CASES = [(s, fmt, lang) for s in SCENARIOS for fmt in FORMATS for lang in LANGS]


@pytest.mark.parametrize("scenario,fmt,lang", CASES, ids=lambda v: getattr(v, "id", v))
def test_a_turn_shown_at_two_steps_is_the_same_response_with_the_same_ids(scenario, fmt, lang):
    steps = [s for s in scenario.steps_for(fmt) if s.model is not None]
    for i, a in enumerate(steps):
        for b in steps[i + 1:]:
            if a.model == b.model:  # the same turn shown again (plain_call: steps 1 and 2)
                assert model_response(scenario, a, fmt, lang) == model_response(scenario, b, fmt, lang), (a.id, b.id)
            else:  # really different turns (retries_cap's three calls, each "a") keep different ids
                refs = {c["id"] for c in a.model.get("calls", [])} & {c["id"] for c in b.model.get("calls", [])}
                for ref in refs:
                    assert scenario_call_id(scenario, a, ref, fmt) != scenario_call_id(scenario, b, ref, fmt)


def test_the_echo_the_follow_up_asks_for_is_the_response_of_the_step_before():
    scenario = next(s for s in SCENARIOS if s.id == "plain_call")
    first, second = scenario.steps[0], scenario.steps[1]
    for fmt in FORMATS:
        shown = model_response(scenario, first, fmt, "en")
        answer = reference_move(scenario, second, fmt, "en")
        assert answer["messages"][1] == echo(scenario, first, fmt, "en")
        text = json.dumps(shown)
        assert scenario_call_id(scenario, second, "a", fmt) in text
    assert model_response(scenario, first, "anthropic", "en")["id"] == model_response(scenario, second, "anthropic",
                                                                                      "en")["id"]


def _newcomer_move(scenario, step):
    """The newcomer's move: the echo, then a text block before a result for a made-up id."""
    move = reference_move(scenario, step, "anthropic", "en")
    move["messages"][2]["content"] = [{"type": "text", "text": "Here."},
                                      {"type": "tool_result", "tool_use_id": "toolu_WRONG", "content": "{}"}]
    return json.dumps(move)


def test_the_newcomers_move_reads_one_bullet_per_fault():
    scenario = next(s for s in SCENARIOS if s.id == "plain_call")
    step = scenario.steps[1]
    g = grade_move(scenario, step, "anthropic", _newcomer_move(scenario, step), "en")
    assert g.codes == ("pairing:text_before_tool_result", "pairing:id_mismatch", "pairing:tool_use_without_result",
                       "expect:result", "expect:result_first")
    assert [f.code for f in g.shown] == ["pairing:text_before_tool_result", "pairing:id_mismatch",
                                         "pairing:tool_use_without_result"]
    assert [f.repeats for f in g.findings[3:]] == ["pairing:tool_use_without_result", "pairing:text_before_tool_result"]


@pytest.mark.parametrize("scenario,fmt,lang", CASES, ids=lambda v: getattr(v, "id", v))
def test_no_wrong_move_shows_a_rule_and_its_expectation_together(scenario, fmt, lang):
    """Derived from every listed wrong move: a shown expect:result / expect:result_first never sits beside the
    pairing rule that says the same thing; a left-out finding always names a finding that is shown."""
    for step in scenario.steps_for(fmt):
        if step.kind != "json":
            continue
        for move, _ in wrong_moves(scenario, step, fmt, lang):
            g = grade_move(scenario, step, fmt, json.dumps(move), lang)
            shown = {f.code for f in g.shown}
            assert not {"expect:result_first", "pairing:text_before_tool_result"} <= shown, (step.id, g.codes)
            assert all(f.repeats in shown for f in g.findings if f.repeats)
            if "pairing:tool_use_without_result" in shown and "expect:result" in shown:
                ids = [c["id"] for c in step.model.get("calls", [])]
                wanted = {scenario_call_id(scenario, step, ref, fmt) for ref in ids}
                answered_by_rule = [f.message for f in g.shown if f.code == "pairing:tool_use_without_result"]
                missing = [f.message for f in g.shown if f.code == "expect:result"]
                assert not any(cid in a and cid in m for cid in wanted for a in answered_by_rule for m in missing)
