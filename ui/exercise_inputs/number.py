"""number: one text input."""

from __future__ import annotations

import streamlit as st

from toolcall.exercises import Exercise
from toolcall.exercise_types.number import MAX_NUMBER_CHARS
from toolcall.numfmt import number
from ui.common import PERSIST, box_chars, show_code, tr
from ui.exercise_inputs.base import ExerciseInput, answer_text, key, seed_text


def _draw(ex: Exercise) -> None:
    st.text_input(tr("exercises.number_label"), key=key(ex, "answer"), max_chars=box_chars(MAX_NUMBER_CHARS), **PERSIST)


INPUT = ExerciseInput("number", seed_text, _draw, answer_text, lambda ex: show_code(number(ex.answer), language=None))
