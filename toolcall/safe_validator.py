"""A Draft 2020-12 validator that a student's schema cannot use to stall or crash the server.

jsonschema is the validator; this module only closes the ways an edited schema can make
it hang or raise:

- regular expressions (``pattern``, ``patternProperties``, and the property matching behind
  ``additionalProperties`` / ``unevaluatedProperties``) run on the ``regex`` engine with a
  REGEX_TIMEOUT per search, and a pattern is refused before compiling when it is longer
  than MAX_PATTERN_CHARS or repeats more than MAX_REPEAT times (``(?:x{65535}){200}``
  would take gigabytes to compile);
- a whole validation has a time budget (VALIDATION_BUDGET) checked at every subschema, so
  a ``$ref`` / ``allOf`` fan-out that is exponential in a 1 KB schema ends in a clear error;
- ``uniqueItems`` is linear (hashing) instead of quadratic; ``multipleOf`` uses exact
  fractions, so a 999-digit integer cannot raise OverflowError;
- no ``$ref`` is ever fetched: the registry's retrieve function refuses every URI.
"""

from __future__ import annotations

import re
import threading
import time
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterator

import regex
from jsonschema import Draft202012Validator, FormatChecker, _utils, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import Unresolvable

#: Seconds one regular-expression search may take before the value is refused.
REGEX_TIMEOUT = 0.05
#: Seconds one whole validation may take before the schema is declared too expensive.
VALIDATION_BUDGET = 0.5
#: Longest pattern compiled, in characters, and the largest total repetition it may ask for.
MAX_PATTERN_CHARS = 1000
MAX_REPEAT = 10_000

_REPEAT = re.compile(r"\{(\d+)(?:,(\d*))?\}")


class UnsafePattern(ValueError):
    """A pattern refused before compiling: too long, or it repeats too much."""


class RegexTimeout(ValidationError):
    """A pattern search that exceeded REGEX_TIMEOUT; the value is refused (fail closed)."""


class BudgetExceeded(Exception):
    """Raised inside a validation that ran past VALIDATION_BUDGET seconds."""


def check_pattern(pattern: str) -> None:
    """Refuse a pattern that is too costly to compile. Raises UnsafePattern with the reason.

    The product of every ``{n}`` / ``{n,m}`` bound bounds how far nested counted repeats
    can multiply; it over-estimates for sibling repeats, which is the safe side.
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafePattern(f"pattern is {len(pattern)} characters; the limit is {MAX_PATTERN_CHARS}")
    total = 1
    for low, high in _REPEAT.findall(pattern):
        bound = max(int(low), int(high) if high else 0)
        if bound > 1:
            total *= bound
        if total > MAX_REPEAT:
            raise UnsafePattern(f"pattern repeats more than {MAX_REPEAT} times in total")


@lru_cache(maxsize=128)
def compile_pattern(pattern: str) -> "regex.Pattern[str]":
    """Compile with the ``regex`` engine after check_pattern. Raises UnsafePattern or regex.error."""
    check_pattern(pattern)
    return regex.compile(pattern)


def search(pattern: str, text: str) -> bool:
    """``regex.search`` with REGEX_TIMEOUT. Raises TimeoutError when it is exceeded, and
    UnsafePattern / regex.error for a pattern that cannot be compiled safely."""
    _tick()
    return compile_pattern(pattern).search(text, timeout=REGEX_TIMEOUT) is not None


# --- the time budget ---------------------------------------------------------------------

_budget = threading.local()


def _tick() -> None:
    deadline = getattr(_budget, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded()


class budget:
    """Context manager: validations inside may take at most ``seconds`` (per thread)."""

    def __init__(self, seconds: float = VALIDATION_BUDGET):
        self.seconds = seconds

    def __enter__(self) -> "budget":
        _budget.deadline = time.monotonic() + self.seconds
        return self

    def __exit__(self, *exc: object) -> None:
        _budget.deadline = None


class _SafeRe:
    """Stands in for the ``re`` module inside jsonschema._utils, whose helpers for
    unevaluatedProperties and additionalProperties call ``re.search`` on schema patterns."""

    @staticmethod
    def search(pattern: str, string: str):
        try:
            return search(pattern, string) or None
        except TimeoutError as exc:
            raise RegexTimeout(f"pattern {pattern!r} took longer than {REGEX_TIMEOUT}s") from exc


_utils.re = _SafeRe  # type: ignore[attr-defined]


# --- keywords -----------------------------------------------------------------------------

def _timeout(pattern: str) -> RegexTimeout:
    return RegexTimeout(f"pattern {pattern!r} took longer than {REGEX_TIMEOUT}s")


def _pattern(validator, patrn, instance, schema) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        matched = search(patrn, instance)
    except TimeoutError:
        yield _timeout(patrn)
        return
    if not matched:
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def extra_properties(instance: dict, schema: dict) -> tuple[list[str], list[str]]:
    """Names not covered by ``properties`` or ``patternProperties``, and the patterns that
    timed out while deciding (their names are neither allowed nor counted as extra)."""
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras, timed_out = [], []
    for name in instance:
        if name in properties:
            continue
        try:
            if any(search(p, name) for p in patterns):
                continue
        except TimeoutError:
            timed_out.append(name)
            continue
        extras.append(name)
    return extras, timed_out


def _additional_properties(validator, aP, instance, schema) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras, timed_out = extra_properties(instance, schema)
    for name in timed_out:
        error = _timeout(next(iter(schema.get("patternProperties", {})), ""))
        error.path.appendleft(name)
        yield error
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        yield ValidationError(f"Additional properties are not allowed ({', '.join(map(repr, extras))})")


def _pattern_properties(validator, patternProperties, instance, schema) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for patrn, subschema in patternProperties.items():
        for k, v in instance.items():
            try:
                hit = search(patrn, k)
            except TimeoutError:
                error = _timeout(patrn)
                error.path.appendleft(k)
                yield error
                continue
            if hit:
                yield from validator.descend(v, subschema, path=k, schema_path=patrn)


def _frozen(value: Any) -> Any:
    """A hashable stand-in with JSON Schema equality: 1 == 1.0, but true != 1."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, dict):
        return ("object", frozenset((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("array", tuple(_frozen(v) for v in value))
    return value


def _unique_items(validator, uI, instance, schema) -> Iterator[ValidationError]:
    if not (uI and validator.is_type(instance, "array")):
        return
    seen: set = set()
    for item in instance:
        key = _frozen(item)
        if key in seen:
            yield ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


def _exact(number: Any) -> Fraction:
    return Fraction(number) if isinstance(number, int) else Fraction(repr(number))


def _multiple_of(validator, dB, instance, schema) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "number"):
        return
    if _exact(instance) % _exact(dB) != 0:
        yield ValidationError(f"{instance!r} is not a multiple of {dB}")


SafeValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties,
     "uniqueItems": _unique_items, "multipleOf": _multiple_of},
)

_descend = SafeValidator.descend


def _descend_checked(self, instance, schema, path=None, schema_path=None, resolver=None):
    """Every subschema checks the time budget; and jsonschema 4.26 drops ``path`` on errors
    from a ``false`` subschema, so it is put back."""
    _tick()
    for error in _descend(self, instance, schema, path, schema_path, resolver):
        if schema is False and path is not None and not error.relative_path:
            error.relative_path.appendleft(path)
        yield error


SafeValidator.descend = _descend_checked

#: Checks ``format: regex`` in the meta-schema (the patterns a schema contains) with the same
#: engine and limits used for matching, so a pattern that passes here also compiles there.
META_FORMATS = FormatChecker(formats=())


@META_FORMATS.checks("regex", raises=(regex.error, UnsafePattern, RecursionError, OverflowError, ValueError))
def _is_regex(instance: Any) -> bool:
    if isinstance(instance, str):
        compile_pattern(instance)
    return True


def _no_fetch(uri: str):
    raise Unresolvable(ref=uri)


#: A registry that knows no documents and fetches none: every remote ``$ref`` is unresolvable.
REGISTRY: Registry = Registry(retrieve=_no_fetch)  # type: ignore[call-arg]
