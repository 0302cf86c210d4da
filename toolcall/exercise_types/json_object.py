"""json: the answer is a JSON object checked against the exercise's JSON Schema. Answer text: the
JSON text itself; the widget holds that text."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from toolcall.exercise_types.base import (ERROR, OK, WRONG, ExerciseType, Fault, FeedbackItem, Grade, Malformed,
                                          answer_hints, as_text, check_size, fail, fb, known_wrong, simple, text_as_is,
                                          where_it_breaks)
from toolcall.i18n import LANGS, t
from toolcall.parsing import localized_detail, names_place, parse_tool_input
from toolcall.text import escape_lookalikes
from toolcall.validation import check_schema, validate

if TYPE_CHECKING:
    from toolcall.exercises import Exercise


def check(item: dict[str, Any]) -> list[Fault]:
    """The exercise's ``schema`` is a usable JSON Schema."""
    checked = check_schema(json.dumps(item["schema"]))
    return [] if checked.ok else [(["schema"], checked.message)]


def _json_object(text: str) -> dict[str, Any]:
    check_size(text)
    parsed = parse_tool_input(text)
    if parsed.ok:
        return parsed.value
    if names_place(parsed):  # the explanation says where to fix and quotes the text there
        raise Malformed(FeedbackItem(ERROR, text={lang: t("exercises.fb.json_explained", lang,
                                                          detail=localized_detail(parsed, lang)) for lang in LANGS}),
                        *answer_hints(parsed.hints))
    items = [FeedbackItem(ERROR, text={lang: t("exercises.fb.json_parse", lang, code=parsed.code,
                                               detail=localized_detail(parsed, lang)[:200]) for lang in LANGS})]
    raise Malformed(*items, *where_it_breaks(text, parsed.line, parsed.column), *answer_hints(parsed.hints))


def grade_json(exercise: Exercise, text: str) -> Grade:
    """The answer must be a JSON object satisfying the exercise's ``schema``; full marks (1)
    when it does. Otherwise each failing path is one feedback item (pointer, expected,
    received), from ``validation.validate`` so students read the playground's wording."""
    try:
        value = _json_object(text)
    except Malformed as exc:
        return fail(*exc.items)
    errors = {lang: validate(value, exercise.spec["schema"], lang)[0] for lang in LANGS}
    known = known_wrong(exercise, lambda a: _json_object(a if isinstance(a, str) else json.dumps(a)) == value)
    if not errors["en"]:
        return Grade(1, 1, (fb(OK, "json_ok"),))
    # look-alike letters escaped: "/is_\u0435rror: no field by this name" next to "/is_error: missing"
    items = [FeedbackItem(WRONG, text={lang: t("exercises.fb.json_field", lang,
                                                pointer=escape_lookalikes(errs[i].pointer or "/"),
                                                expected=escape_lookalikes(errs[i].expected),
                                                received=escape_lookalikes(errs[i].received))
                                       for lang, errs in errors.items()})
             for i in range(len(errors["en"]))]
    return Grade(0, 1, tuple(known + items))


TYPE = ExerciseType("json", simple(grade_json), text_as_is, as_text, check)
