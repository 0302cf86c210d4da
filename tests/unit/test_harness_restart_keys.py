"""Restarting a harness-lab scenario clears its own picks and JSON editors, and no other scenario's (break-it pass
brk16content): the keys were cleared by prefix, so a new scenario ``plain`` (a correct id) wiped the JSON drafts of
``plain_call`` in both formats when the student restarted ``plain``."""

import dataclasses
from pathlib import Path

import streamlit as st

import ui.harness_lab as lab
from toolcall.harness import load_scenarios
from toolcall.wire import HARNESS_FORMATS


def _state_of_every_scenario(scenarios) -> dict:
    state = {}
    for s in scenarios:
        for fmt in HARNESS_FORMATS:
            for step in s.steps:
                state[lab.json_key(s.id, fmt, step.id)] = f"draft {s.id} {fmt} {step.id}"
                state[lab.choice_key(s.id, fmt, step.id)] = "picked"
    return state


def test_a_restart_clears_exactly_its_own_keys(monkeypatch):
    shipped = load_scenarios().scenarios
    plain_call = next(s for s in shipped if s.id == "plain_call")
    plain = dataclasses.replace(plain_call, id="plain")  # an instructor's new scenario: its id starts plain_call's
    for scenario in (*shipped, plain):
        state = _state_of_every_scenario((*shipped, plain))
        monkeypatch.setattr(st, "session_state", state)
        lab._restart(scenario, HARNESS_FORMATS[0])
        cleared = set(_state_of_every_scenario((*shipped, plain))) - set(state) - {lab.RUNS_KEY}
        assert cleared == {lab.json_key(scenario.id, f, step.id) for f in HARNESS_FORMATS for step in scenario.steps} \
            | {lab.choice_key(scenario.id, HARNESS_FORMATS[0], step.id) for step in scenario.steps}, scenario.id
    assert len({lab.json_key(s.id, f, st_.id) for s in (*shipped, plain) for f in HARNESS_FORMATS
                for st_ in s.steps}) == sum(len(s.steps) for s in (*shipped, plain)) * len(HARNESS_FORMATS)


def test_the_page_draws_its_inputs_under_these_keys():
    """Every pick and editor key is built by choice_key / json_key, the names _restart clears."""
    text = Path(lab.__file__).read_text("utf-8")
    assert text.count('f"harness_json_') == 1 and text.count('f"harness_choice_') == 1
