"""schema_fix: a text area seeded with the tool's input_schema, in the student's language, after the exercise's
starter preset."""

from __future__ import annotations

from typing import Any

import streamlit as st

from toolcall.exercises import Exercise
from toolcall.i18n import LANGS
from toolcall.presets import apply_preset, schema_text
from ui.common import lang, load, show_json
from ui.exercise_inputs.base import ExerciseInput, answer_text, key, seed_text, starter_untouched, text_area


def _starter(ex: Exercise, language: str) -> str:
    """The schema to start from, its descriptions in ``language`` (the session's, as the playground's editor shows
    them: a Chinese student read the English ones here). Descriptions are annotations: the grade is the same."""
    tool = load("tool", f"tools/{ex.spec['tool']}.json")
    return schema_text(apply_preset(tool.input_schema_for(language), ex.spec["starter_preset"]))


def _seed(ex: Exercise, value: Any) -> None:
    here = lang()
    box = key(ex, "answer")
    # a starter left as it was is the page's: after a language switch its descriptions are in the language the
    # page now shows, as in the playground's editor (newcomer session 14); an edited box is the student's
    if value is None and st.session_state.get(box) in {_starter(ex, other) for other in LANGS if other != here}:
        st.session_state[box] = _starter(ex, here)
    seed_text(ex, _starter(ex, here) if value is None else value)


INPUT = ExerciseInput("schema_fix", _seed, text_area("exercises.schema_label", 360), answer_text,
                      lambda ex: show_json(ex.answer), untouched=starter_untouched(_starter))
