"""number: a numeric answer within a tolerance. Answer text: a decimal (``0.7``), a fraction
(``84/120``) or a percentage (``70%``); the widget holds that text."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from toolcall import numfmt
from toolcall.exercise_types.base import (ERROR, OK, WRONG, ExerciseType, Grade, Malformed, as_text, check_size, fail,
                                          fb, known_wrong, simple)

if TYPE_CHECKING:
    from toolcall.exercises import Exercise

_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def parse_number(text: str) -> float:
    """Read ``0.7``, ``.7``, ``7e-1``, ``84/120`` or ``70%`` as a float.
    Raises ValueError for anything else, including a zero denominator, NaN and infinity."""
    s = text.strip().replace("％", "%")
    if len(s) > 200:
        raise ValueError(text[:40])
    if s.endswith("%") and _NUMBER.fullmatch(s[:-1].strip()):
        value = float(s[:-1]) / 100
    elif "/" in s:
        top, _, bottom = s.partition("/")
        if not (_NUMBER.fullmatch(top.strip()) and _NUMBER.fullmatch(bottom.strip())) or float(bottom) == 0:
            raise ValueError(text)
        value = float(top) / float(bottom)
    elif _NUMBER.fullmatch(s):
        value = float(s)
    else:
        raise ValueError(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _number(text: str) -> float:
    check_size(text)
    try:
        return parse_number(text)
    except ValueError:
        raise Malformed(fb(ERROR, "not_number", text=text.strip()[:40])) from None


def grade_number(exercise: Exercise, text: str) -> Grade:
    """Full marks (1) within ``tolerance`` (absolute) of the reference; a listed wrong answer
    within the same tolerance gets its targeted feedback."""
    try:
        value = _number(text)
    except Malformed as exc:
        return fail(*exc.items)
    tol = float(exercise.spec["tolerance"])
    if abs(value - float(exercise.answer)) <= tol + 1e-12:
        return Grade(1, 1, (fb(OK, "correct"),))
    known = known_wrong(exercise, lambda a: abs(float(a) - value) <= tol + 1e-12)
    return Grade(0, 1, tuple(known or [fb(WRONG, "number_off", value=numfmt.number(value))]))


def _number_text(exercise: Exercise, value: Any) -> str:
    return value if isinstance(value, str) else repr(float(value))


TYPE = ExerciseType("number", simple(grade_number), _number_text, as_text)
