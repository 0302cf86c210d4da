"""schema_fix: a text area seeded with the tool's input_schema, in the student's language, after the exercise's
starter preset."""

from __future__ import annotations

from typing import Any

from toolcall.exercises import Exercise
from toolcall.presets import apply_preset, schema_text
from ui.common import lang, load, show_json
from ui.exercise_inputs.base import ExerciseInput, answer_text, seed_text, starter_untouched, text_area


def _starter(ex: Exercise, language: str) -> str:
    """The schema to start from, its descriptions in ``language`` (the session's, as the playground's editor shows
    them: a Chinese student read the English ones here). Descriptions are annotations: the grade is the same."""
    tool = load("tool", f"tools/{ex.spec['tool']}.json")
    return schema_text(apply_preset(tool.input_schema_for(language), ex.spec["starter_preset"]))


def _seed(ex: Exercise, value: Any) -> None:
    seed_text(ex, _starter(ex, lang()) if value is None else value)


INPUT = ExerciseInput("schema_fix", _seed, text_area("exercises.schema_label", 360), answer_text,
                      lambda ex: show_json(ex.answer), untouched=starter_untouched(_starter))
