"""classify: sort items into categories. Answer text: a JSON object mapping each item id to a
category id; the widgets hold that mapping."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolcall.text import escaped_head  # ids quoted from the answer: a look-alike shows escaped
from toolcall.exercise_types.base import (ERROR, INFO, OK, WRONG, ExerciseType, Fault, FeedbackItem, Grade, Malformed,
                                          both, duplicate_ids, fail, fb, ids, json_text, json_value, known_wrong,
                                          reader, simple, texts_of)
from toolcall.i18n import t

if TYPE_CHECKING:
    from toolcall.exercises import Exercise


def check(item: dict[str, Any]) -> list[Fault]:
    """Unique item and category ids; the answer sorts every item, and only those, into known categories."""
    answer = item["answer"]
    found = duplicate_ids(item, "items", "categories")
    if set(answer) != set(ids(item["items"])):
        found.append((["answer"], "the answer must sort every item, and only those"))
    bad = sorted(set(answer.values()) - set(ids(item["categories"])))
    if bad:
        found.append((["answer"], f"unknown category ids {bad}"))
    return found


def mapping(exercise: Exercise, text: str) -> dict[str, str]:
    """``{item id: category id}`` covering every item; Malformed otherwise."""
    value = json_value(text, "exercises.format.classify")
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Malformed(fb(ERROR, "wrong_shape", expected=both("exercises.format.classify")))
    items, cats = exercise.labels("items"), exercise.labels("categories")
    problems = [fb(ERROR, "unknown_item", item=escaped_head(k, 40)) for k in value if k not in items]
    problems += [fb(ERROR, "unknown_category", category=escaped_head(v, 40))
                 for v in value.values() if v not in cats]
    problems += [fb(ERROR, "unsorted", item=items[k]) for k in items if k not in value]
    if problems:
        raise Malformed(*problems)
    return value


def grade_classify(exercise: Exercise, text: str) -> Grade:
    """One point per item sorted into its reference category (max = number of items);
    each wrong item gets its own explanation when the file gives one."""
    try:
        chosen = mapping(exercise, text)
    except Malformed as exc:
        return fail(*exc.items)
    items = {i["id"]: i for i in exercise.spec["items"]}
    cats = exercise.labels("categories")
    right = sum(chosen[k] == v for k, v in exercise.answer.items())
    out = [fb(OK if right == len(items) else INFO, "classify_count", right=right, total=len(items))]
    for key, want in exercise.answer.items():
        if chosen[key] != want:
            out.append(fb(WRONG, "classify_wrong", item=items[key]["text"], category=cats[chosen[key]]))
            if "explanation" in items[key]:
                out.append(FeedbackItem(INFO, text=items[key]["explanation"]))
    out = known_wrong(exercise, lambda a: dict(a) == chosen) + out
    return Grade(right, len(items), tuple(out))


def show(exercise: Exercise, chosen: dict[str, str], lang: str) -> str:
    """Each item's text with the category's text it was sorted into ("item → category; …"), in answer order."""
    items = texts_of(exercise, "items", list(chosen), lang)
    cats = texts_of(exercise, "categories", list(chosen.values()), lang)
    return t("word.list_sep", lang).join(f"{i} → {c}" for i, c in zip(items, cats))


TYPE = ExerciseType("classify", simple(grade_classify), json_text, reader(mapping), check, show=show)
