"""Deterministic work counting for scaling tests: no clock is read, so a busy machine cannot decide a test.

Timings belong to benchmarks under bench/ (DEVELOPERS.md: "Performance is measured by benchmarks ... not by
timed tests"). A test that must show that some code is linear, or that a second call does no work, counts
the Python lines that code executes instead: the same code on the same input always executes the same
lines, whatever else runs on the machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def lines_run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, int]:
    """Call ``fn(*args, **kwargs)`` and count the Python lines it executed, in this thread.

    Returns ``(result, lines)`` where ``lines`` is the number of ``sys.settrace`` "line" events (a line
    started, or a loop jumped back to one), over every Python frame the call entered, libraries included.
    Work done inside C (``str.join``, ``dict`` lookups, ``re`` matching) is not counted: pair a line count
    with an assertion on sizes when the suspect work is in C. Exceptions from ``fn`` propagate; the
    previous trace function is restored either way.
    """
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.settrace(previous)
    return result, count


def growth(fn: Callable[[int], Any], small: int, factor: int = 4) -> float:
    """Lines run by ``fn(small * factor)`` over lines run by ``fn(small)``: about ``factor`` when ``fn`` is
    linear in its argument, ``factor ** 2`` when it is quadratic. ``fn(small)`` runs once first, uncounted,
    so that first-call work (imports, compiled patterns, filled caches) is counted on neither side.
    Raises ZeroDivisionError when ``fn(small)`` runs no Python line."""
    fn(small)
    return lines_run(fn, small * factor)[1] / lines_run(fn, small)[1]


def calls_made(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, int]:
    """Call ``fn(*args, **kwargs)`` and count the Python and C function calls it made (``sys.setprofile``
    "call" and "c_call" events), in this thread: ``(result, calls)``. Unlike :func:`lines_run` it sees work done
    by C functions called many times (one jsonschema error object per missing name). Exceptions from ``fn``
    propagate; the profile function is removed either way."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return result, count
