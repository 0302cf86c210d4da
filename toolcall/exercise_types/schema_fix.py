"""schema_fix: the student edits a tool's input_schema until its canned outputs get their expected
verdicts. Answer text: the edited input_schema as JSON text; the widget holds that text."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from toolcall.exercise_types.base import (ERROR, INFO, OK, WRONG, ExerciseType, Fault, FeedbackItem, Grade,
                                          GradingInputs, Loader, Malformed, as_text, check_size, fail, fb, json_trouble,
                                          known_wrong, text_as_is)
from toolcall.fixtures import OutputsFixture, Tool
from toolcall.i18n import LANGS
from toolcall.judge import evaluate_canned
from toolcall.presets import PRESETS
from toolcall.validation import check_schema

if TYPE_CHECKING:
    from toolcall.exercises import Exercise


def check(item: dict[str, Any]) -> list[Fault]:
    """The ``starter_preset`` is a known preset (toolcall.presets)."""
    if item["starter_preset"] not in PRESETS:
        return [(["starter_preset"], f"unknown preset; expected one of {list(PRESETS)}")]
    return []


def grade_schema_fix(exercise: Exercise, text: str, tool: Tool, outputs: OutputsFixture) -> Grade:
    """The answer is an edited input_schema for ``tool``. Each canned output scores 1 when
    the schema gives it its expected verdict (bad ones rejected, the valid one accepted),
    exactly as the playground judges it (``judge.evaluate_canned``)."""
    total = len(outputs.outputs)
    try:
        check_size(text)
    except Malformed as exc:
        return fail(*exc.items, max_score=total)
    checks = {lang: check_schema(text, lang) for lang in LANGS}
    if not checks["en"].ok:
        return fail(FeedbackItem(ERROR, text={lang: c.message for lang, c in checks.items()}), *json_trouble(text),
                    max_score=total)
    cards = evaluate_canned(outputs.outputs, checks["en"].schema, tool.name, None)
    items = []
    for card in cards:
        if card.not_checked:
            items.append(fb(WRONG, "not_checked", label=card.output.label))
        elif card.leaked:
            items.append(fb(WRONG, "leaked", label=card.output.label))
        elif not card.matches:
            items.append(fb(WRONG, "overrejected", label=card.output.label))
    matched = sum(c.matches for c in cards)
    items.insert(0, fb(OK if matched == total else INFO, "canned_count", matched=matched, total=total))
    if matched < total:
        schema = checks["en"].schema
        items += known_wrong(exercise, lambda a: (a if isinstance(a, dict) else json.loads(a)) == schema)
    return Grade(matched, total, tuple(items))


def _grade(exercise: Exercise, text: str, inputs: GradingInputs) -> Grade:
    if inputs.tool is None or inputs.outputs is None:
        raise ValueError(f"{exercise.id}: schema_fix needs the tool and its outputs (grading_inputs)")
    return grade_schema_fix(exercise, text, inputs.tool, inputs.outputs)


def _inputs(exercise: Exercise, load: Loader) -> GradingInputs:
    name = exercise.spec["tool"]
    return GradingInputs(load("tool", f"tools/{name}.json"), load("outputs", f"outputs/{name}.yaml"))


TYPE = ExerciseType("schema_fix", _grade, text_as_is, as_text, check, _inputs)
