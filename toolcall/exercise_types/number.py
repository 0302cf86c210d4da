"""number: a numeric answer within a tolerance. Answer text: a decimal (``0.7``), a fraction
(``84/120``) or a percentage (``70%``); the widget holds that text."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from toolcall import numfmt
from toolcall.text import clip, fold_full_width
from toolcall.exercise_types.base import (ERROR, WRONG, ExerciseType, Grade, Malformed, as_text, check_size, fail,
                                          fb, known_wrong, simple)

if TYPE_CHECKING:
    from toolcall.exercises import Exercise

#: ASCII digits only (after fold_full_width): ``\d`` is every Unicode digit, and Arabic-Indic or mathematical bold
#: digits were read and graded while the docstring and the pass^k boxes refuse them (break-it pass brk21probe).
_NUMBER = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")


#: Longest number answer read, in characters as typed (after stripping).
MAX_NUMBER_CHARS = 200

#: Characters of an unreadable answer its message quotes; a longer one is cut and ends in "…".
MAX_QUOTED_CHARS = 40


class NumberError(ValueError):
    """An answer that is not a usable number: ``code`` (``not_number``, ``number_too_long``,
    ``number_too_large``, ``number_zero_denominator``: keys under ``exercises.fb``) and ``params``."""

    def __init__(self, code: str, text: str, **params: Any):
        super().__init__(text)
        self.code, self.params = code, params


def parse_number(text: str) -> float:
    """Read ``0.7``, ``.7``, ``7e-1``, ``84/120`` or ``70%`` as a float, typed in ASCII or in full-width
    forms (``０．７``, ``８４／１２０``, ``７０％``, ``－１``: a Chinese input method's full-width mode;
    fold_full_width folds them, and only them: NFKC read ``0.7²`` as 0.72 and ``8⁴/120`` as 84/120, brk20new)
    or with the minus sign U+2212 (``−1``, what a word processor or a formula writes).
    Raises NumberError (a ValueError) saying why for anything else: over MAX_NUMBER_CHARS
    characters as typed (stripped; its ``length`` is that count, never the folded one), a zero
    denominator, a number beyond float range (``1e400``), NaN, infinity, or not a number at all."""
    # full-width digits alone were read (float() takes any Unicode digit), so "８４/120" passed and "０．７" was
    # "not a number": fold every full-width form, and the minus sign
    # the limit is on the answer as typed: counted after folding, 12 typed characters of U+FDFA were "216 characters
    # long; … at most 200" (break-it pass brk18fresh). Folded only when short (the folding keeps the length).
    s = text.strip()
    if len(s) > MAX_NUMBER_CHARS:
        raise NumberError("number_too_long", text[:40], length=len(s), limit=MAX_NUMBER_CHARS)
    s = fold_full_width(s).strip().replace("\u2212", "-")
    if s.endswith("%") and _NUMBER.fullmatch(s[:-1].strip()):
        value = float(s[:-1]) / 100
    elif "/" in s:
        top, _, bottom = s.partition("/")
        if not (_NUMBER.fullmatch(top.strip()) and _NUMBER.fullmatch(bottom.strip())):
            raise _not_a_number(s, text)
        if float(bottom) == 0:
            raise NumberError("number_zero_denominator", text)
        value = float(top) / float(bottom)
    elif _NUMBER.fullmatch(s):
        value = float(s)
    else:
        raise _not_a_number(s, text)
    if not math.isfinite(value):  # the syntax is a number's: it is out of float range
        raise NumberError("number_too_large", text)
    return value


#: What a number may hold for a decimal point or between its thousands in other conventions, that this box does not
#: read: a comma (0,7; 1,000; the full-width ，), the Chinese full stop (0。7, typed in Chinese punctuation mode), the
#: Arabic decimal separator, the enumeration comma, a middle dot, an apostrophe, an underscore, white space (1 000).
_SEPARATOR = re.compile(r"[,，。٫、·'_\s]")


#: A decimal digit of another script than ASCII (full-width ones are folded before): Arabic-Indic, Devanagari,
#: mathematical bold…
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


def _not_a_number(s: str, text: str) -> NumberError:
    """Why ``s`` (``text`` normalised) is not a number: ``number_digit`` naming the first digit of another script
    (``٠.٧``: a student who typed digits is told which one is not read); ``number_separator`` when it would be one
    without its
    separators (``0,7``, ``0。7``, ``1 000``), naming the first; else ``not_number``. The separator got "is not a
    number. Write a decimal (0.7)…", to a student who saw a decimal in "0。7" (break-it pass brk13text)."""
    digit = _OTHER_DIGIT.search(s)  # named first: a separator beside it would be named for a number still unread
    if digit is not None:
        ch = digit.group()
        return NumberError("number_digit", text, char=ch, point=f"U+{ord(ch):04X}")
    sep = _SEPARATOR.search(text.strip())  # named as typed: the full-width ， and a no-break space, not NFKC's
    if sep is not None and _NUMBER.fullmatch(_SEPARATOR.sub("", s.removesuffix("%"))):
        ch = sep.group()
        return NumberError("number_separator", text, char=" " if ch.isspace() else ch, point=f"U+{ord(ch):04X}")
    return NumberError("not_number", text)


def _number(text: str) -> float:
    check_size(text)
    try:
        return parse_number(text)
    except NumberError as exc:
        # quoted with "…" when cut: the first 40 characters of a longer answer were quoted as if they were all of it
        raise Malformed(fb(ERROR, exc.code, text=clip(text.strip(), MAX_QUOTED_CHARS), **exc.params)) from None


def grade_number(exercise: Exercise, text: str) -> Grade:
    """Full marks (1) within ``tolerance`` (absolute) of the reference; a listed wrong answer
    within the same tolerance gets its targeted feedback."""
    try:
        value = _number(text)
    except Malformed as exc:
        return fail(*exc.items)
    tol = float(exercise.spec["tolerance"])
    if abs(value - float(exercise.answer)) <= tol + 1e-12:
        return Grade(1, 1)  # the page says "Correct: 1 of 1."; a "Correct." line under it said it twice
    known = known_wrong(exercise, lambda a: abs(float(a) - value) <= tol + 1e-12)
    return Grade(0, 1, tuple(known or [fb(WRONG, "number_off", value=shown_number(value))]))


#: Magnitudes shown as plain decimals in feedback; outside them, scientific notation.
PLAIN_RANGE = (1e-12, 1e10)


def shown_number(value: float) -> str:
    """A student's number as feedback quotes it: a plain decimal of up to 10 significant digits (numfmt.number) for
    magnitudes in PLAIN_RANGE and zero, else scientific notation with as many (``1e+308``, ``1.23456789e+29``). Plain
    decimals only, "1e308" (5 characters typed) came back as 309 digits and 5e-324 as 324 zeros, and
    123456789012345678901234567890 as 123456789000000000000000000000, a number the student never typed."""
    if value == 0 or PLAIN_RANGE[0] <= abs(value) < PLAIN_RANGE[1]:
        return numfmt.number(value)
    return f"{value:.10g}"


def _number_text(exercise: Exercise, value: Any) -> str:
    return value if isinstance(value, str) else repr(float(value))


TYPE = ExerciseType("number", simple(grade_number), _number_text, as_text)
