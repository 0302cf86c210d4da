"""choice: single or multiple choice. Answer text: a JSON list of option ids (``["a", "c"]``) or one
id (``"b"`` or ``b``); the widgets hold the list of ids."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from toolcall.text import escaped_head  # ids quoted from the answer: a look-alike shows escaped
from toolcall.exercise_types.base import (ERROR, INFO, OK, WRONG, ExerciseType, Fault, Grade, Malformed, both,
                                          duplicate_ids, fail, fb, ids, json_text, json_value, known_wrong, reader,
                                          simple, texts_of)
from toolcall.i18n import t

if TYPE_CHECKING:
    from toolcall.exercises import Exercise


def check(item: dict[str, Any]) -> list[Fault]:
    """Unique option ids; the answer names known options, exactly one unless ``multiple``."""
    found = duplicate_ids(item, "options")
    unknown = sorted(set(item["answer"]) - set(ids(item["options"])))
    if unknown:
        found.append((["answer"], f"unknown option ids {unknown}"))
    if not item["multiple"] and len(item["answer"]) != 1:
        found.append((["answer"], "a single-choice exercise needs exactly one correct option"))
    return found


def choice_ids(exercise: Exercise, text: str) -> list[str]:
    """The chosen option ids, without repeats; Malformed for anything else."""
    stripped = text.strip()
    if re.fullmatch(r"[a-z][a-z0-9_]*", stripped):
        value: Any = [stripped]
    else:
        value = json_value(text, "exercises.format.choice")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Malformed(fb(ERROR, "wrong_shape", expected=both("exercises.format.choice")))
    options = exercise.labels("options")
    unknown = [v for v in value if v not in options]
    if unknown:
        raise Malformed(*(fb(ERROR, "unknown_option", option=escaped_head(str(u), 40)) for u in unknown))
    if not value:
        raise Malformed(fb(ERROR, "empty"))
    if not exercise.spec["multiple"] and len(set(value)) != 1:
        raise Malformed(fb(ERROR, "single_only"))
    return list(dict.fromkeys(value))


def grade_choice(exercise: Exercise, text: str) -> Grade:
    """Single or multiple choice: full marks (1) for exactly the correct set of options.
    Feedback explains every chosen option and counts the correct ones left out."""
    try:
        chosen = choice_ids(exercise, text)
    except Malformed as exc:
        return fail(*exc.items)
    right = set(exercise.answer)
    opts = {o["id"]: o for o in exercise.spec["options"]}
    items = []
    for oid in chosen:
        level = OK if oid in right else WRONG
        note = opts[oid].get("explanation")
        items.append(fb(level, "option_right" if level == OK else "option_wrong", option=opts[oid]["text"])
                     if note is None else
                     fb(level, "option_note_right" if level == OK else "option_note_wrong",
                        option=opts[oid]["text"], note=note))
    missed = len(right - set(chosen))
    if missed and exercise.spec["multiple"]:
        items.append(fb(INFO, "missed", count=missed))
    correct = set(chosen) == right
    items = known_wrong(exercise, lambda a: set(choice_ids(exercise, json.dumps(a))) == set(chosen)) + items
    return Grade(1 if correct else 0, 1, tuple(items))


def show(exercise: Exercise, chosen: list[str], lang: str) -> str:
    """The chosen options' texts, in the order chosen ("Wrong tool; Missing argument")."""
    return t("word.list_sep", lang).join(texts_of(exercise, "options", chosen, lang))


TYPE = ExerciseType("choice", simple(grade_choice), json_text, reader(choice_ids), check, show=show)
