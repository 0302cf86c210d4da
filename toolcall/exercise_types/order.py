"""order: put steps in order. Answer text: a JSON list of every step id, first step first; the
widget holds the list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolcall.exercise_types.base import (ERROR, INFO, OK, WRONG, ExerciseType, Fault, Grade, Malformed, both,
                                          duplicate_ids, fail, fb, ids, json_text, json_value, known_wrong, reader,
                                          simple, texts_of)

if TYPE_CHECKING:
    from toolcall.exercises import Exercise


def check(item: dict[str, Any]) -> list[Fault]:
    """Unique step ids; the answer lists every step id exactly once, in an order other than the
    one the steps are listed in (the order the widget starts from, which is never an answer)."""
    found = duplicate_ids(item, "steps")
    if sorted(item["answer"]) != sorted(ids(item["steps"])):
        found.append((["answer"], "the answer must list every step id exactly once"))
    elif list(item["answer"]) == ids(item["steps"]):
        found.append((["steps"], "the steps are listed in the answer's order; list them shuffled: "
                                 "the page starts from this order and does not grade it unchanged"))
    return found


def listed_order(exercise: Exercise) -> list[str]:
    """The step ids in the order the exercise file lists them: where the ordering widget starts."""
    return list(exercise.labels("steps"))


def step_ids(exercise: Exercise, text: str) -> list[str]:
    """The step ids in the order given; Malformed unless they are every step once."""
    value = json_value(text, "exercises.format.order")
    steps = exercise.labels("steps")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Malformed(fb(ERROR, "wrong_shape", expected=both("exercises.format.order")))
    if sorted(value) != sorted(steps):
        raise Malformed(fb(ERROR, "not_permutation", count=len(steps)))
    return value


def grade_order(exercise: Exercise, text: str) -> Grade:
    """One point per step in its reference position (max = number of steps)."""
    try:
        chosen = step_ids(exercise, text)
    except Malformed as exc:
        return fail(*exc.items)
    steps = exercise.labels("steps")
    right = sum(a == b for a, b in zip(chosen, exercise.answer))
    items = [fb(OK if right == len(steps) else INFO, "order_count", right=right, total=len(steps))]
    items += [fb(WRONG, "order_misplaced", position=i + 1, step=steps[a])
              for i, (a, b) in enumerate(zip(chosen, exercise.answer)) if a != b]
    items = known_wrong(exercise, lambda a: list(a) == chosen) + items
    return Grade(right, len(steps), tuple(items))


def show(exercise: Exercise, order: list[str], lang: str) -> str:
    """The steps' texts, first step first, joined by arrows."""
    return " → ".join(texts_of(exercise, "steps", order, lang))


TYPE = ExerciseType("order", simple(grade_order), json_text, reader(step_ids), check, show=show)
