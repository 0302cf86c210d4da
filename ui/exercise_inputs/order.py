"""order: a multiselect, in the order picked."""

from __future__ import annotations

import json

import streamlit as st

from toolcall.exercises import Exercise
from ui.common import tr
from ui.exercise_inputs.base import ExerciseInput, key, numbered, setdefault, shown
from ui.widgets import translated


def _draw(ex: Exercise) -> None:
    steps = shown(ex.labels("steps"))
    translated("multiselect", tr("exercises.order_label"), steps, steps, key=key(ex, "answer"))


INPUT = ExerciseInput("order", lambda ex, value: setdefault(ex, "answer", value or []), _draw,
                      lambda ex: json.dumps(st.session_state.get(key(ex, "answer")) or []), numbered("steps"))
