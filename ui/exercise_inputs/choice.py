"""choice: checkboxes when several options are right, else a radio."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from toolcall.exercises import Exercise
from ui.common import PERSIST, tr
from ui.exercise_inputs.base import ExerciseInput, key, numbered, setdefault, shown
from ui.widgets import translated


def _seed(ex: Exercise, value: Any) -> None:
    if ex.spec["multiple"]:
        for opt in ex.spec["options"]:
            setdefault(ex, "opt_" + opt["id"], bool(value and opt["id"] in value))
    else:
        setdefault(ex, "answer", value[0] if value else None)


def _draw(ex: Exercise) -> None:
    options = shown(ex.labels("options"))
    if ex.spec["multiple"]:
        st.caption(tr("exercises.choose_many"))
        for oid, text in options.items():
            st.checkbox(text, key=key(ex, "opt_" + oid), **PERSIST)
    else:
        translated("radio", tr("exercises.choose_one"), options, options, key=key(ex, "answer"))


def _answer(ex: Exercise) -> str:
    s = st.session_state
    if ex.spec["multiple"]:
        return json.dumps([o["id"] for o in ex.spec["options"] if s.get(key(ex, "opt_" + o["id"]))])
    return json.dumps([s[key(ex, "answer")]] if s.get(key(ex, "answer")) else [])


INPUT = ExerciseInput("choice", _seed, _draw, _answer, numbered("options"))
