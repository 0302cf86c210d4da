"""schema_fix: a text area seeded with the tool's input_schema after the exercise's starter preset."""

from __future__ import annotations

from typing import Any

from toolcall.exercises import Exercise
from toolcall.presets import apply_preset, schema_text
from ui.common import load, show_json
from ui.exercise_inputs.base import ExerciseInput, answer_text, seed_text, starter_untouched, text_area


def _starter(ex: Exercise) -> str:
    tool = load("tool", f"tools/{ex.spec['tool']}.json")
    return schema_text(apply_preset(tool.input_schema, ex.spec["starter_preset"]))


def _seed(ex: Exercise, value: Any) -> None:
    seed_text(ex, _starter(ex) if value is None else value)


INPUT = ExerciseInput("schema_fix", _seed, text_area("exercises.schema_label", 360), answer_text,
                      lambda ex: show_json(ex.answer), untouched=starter_untouched(_starter))
