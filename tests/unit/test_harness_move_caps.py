"""A wrong JSON move in the harness lab lists a bounded number of faults and says how many it left out, those
past the pairing checker's own cap included; the lab's two reads of the last grade per rerun grade a move once
(a 20 000-character move runs the pairing checker over its whole request). Cases derived from MAX_MOVE_CHARS."""

import json
import pickle

import pytest

import toolcall.harness_grading as grading
from toolcall.harness import load_scenarios, starter
from toolcall.harness_grading import MAX_LISTED_FINDINGS, MAX_MOVE_CHARS, new_run, play

SCENARIO = next(s for s in load_scenarios().scenarios if s.id == "plain_call")
STEP_INDEX, STEP = next((i, s) for i, s in enumerate(SCENARIO.steps_for("anthropic")) if s.kind != "choice")


def flood(block_per_message: bool) -> str:
    """A move as long as the box reads, full of results that answer no call."""
    move = json.loads(starter(SCENARIO, STEP, "anthropic", "en"))
    i = 0
    while len(json.dumps(move, separators=(",", ":"))) < MAX_MOVE_CHARS - 200:
        block = {"type": "tool_result", "tool_use_id": f"x{i}"}
        if block_per_message:
            move["messages"].append({"role": "user", "content": [block]})
        else:
            move["messages"][-1].setdefault("content", [])
            if isinstance(move["messages"][-1]["content"], str):
                move["messages"].append({"role": "user", "content": []})
            move["messages"][-1]["content"].append(block)
        i += 1
    return json.dumps(move, separators=(",", ":"))


@pytest.mark.parametrize("block_per_message", [True, False])
def test_a_flooded_move_lists_at_most_the_cap_and_counts_the_rest(block_per_message):
    grade = grading.grade_move(SCENARIO, STEP, "anthropic", flood(block_per_message), "en")
    listed, more = grade.listed()
    assert not grade.correct and len(grade.shown) > MAX_LISTED_FINDINGS
    assert len(listed) == MAX_LISTED_FINDINGS and more == len(grade.shown) - MAX_LISTED_FINDINGS + grade.more


def test_the_last_grade_is_graded_once_per_move_and_language(monkeypatch):
    calls = []
    real = grading.grade_move
    monkeypatch.setattr(grading, "grade_move", lambda *a, **k: calls.append(a) or real(*a, **k))
    grading._regraded.clear()
    run = new_run(SCENARIO, "anthropic")
    run.step = STEP_INDEX
    play(SCENARIO, run, flood(True), "en")
    copy = pickle.loads(pickle.dumps(SCENARIO))  # st.cache_data hands each rerun a copy
    for scenario in (SCENARIO, copy, SCENARIO):
        assert run.last_grade(scenario, "en").codes == run.last.codes
    assert len(calls) == 2  # play, then the first read; the copy and the second read are cache hits
    run.last_grade(SCENARIO, "zh")
    assert len(calls) == 3


def test_faults_past_the_pairing_checkers_cap_are_counted_too():
    findings = tuple(grading.Finding(f"pairing:x{i}", f"fault {i}", True) for i in range(5))
    assert grading.MoveGrade(False, findings, more=7).listed(2) == (findings[:2], 3 + 7)
