"""json: a text area for the JSON object."""

from __future__ import annotations

from ui.common import show_json
from ui.exercise_inputs.base import ExerciseInput, answer_text, seed_text, starter_untouched, text_area

INPUT = ExerciseInput("json", seed_text, text_area("exercises.json_label", 220), answer_text,
                      lambda ex: show_json(ex.answer),
                      untouched=starter_untouched(lambda ex, language: ex.spec.get("starter", "")))
