"""How many bytes a Python value keeps alive, estimated by a walk that stops at a cap (issue 13).

The caches (``toolcall.safe_validator.SizedCache``) charge each entry what this walk finds, so a cap named in
bytes is a cap on memory, not on some count of characters that can stand for 0.6 or 30 000 bytes each.

The walk follows what a value holds: the items of a dict, list, tuple, set or frozenset; an object's ``__dict__``
and ``__slots__``; the entries of rpds' persistent maps, sets and lists (jsonschema's ``referencing`` registries).
Each object is counted once, by ``sys.getsizeof``. It does not enter classes, modules, functions, methods or code
(shared by the whole process), enum members, or objects marked with :func:`mark_shared` (the process-wide schema
registries a validator refers to). It stops as soon as the running total passes the cap, so measuring a huge value
costs no more than measuring one of the cap's size.

What ``getsizeof`` cannot see is estimated: a compiled ECMA-262 pattern (``corvus_regex_ecma262.Regex``) holds its
program in Rust memory, :func:`regex_bytes`; an entry of an rpds collection costs RPDS_ENTRY_BYTES of trie node.
"""

from __future__ import annotations

import enum
import sys
import types
from dataclasses import dataclass
from typing import Any

import corvus_regex_ecma262 as ecma

#: A compiled pattern's Rust memory is at most REGEX_BASE_BYTES + REGEX_BYTES_PER_CHAR × its length in characters,
#: REGEX_PLAIN_BYTES_PER_CHAR for a pattern without a Unicode property escape (``\p{…}`` / ``\P{…}``).
#: Measured 2026-12-02 on corvus-regex-ecma262 0.2.2 (flags "u"): the growth of the process's RSS while holding
#: 150 to 1 000 compiled patterns of one shape, divided by their number. A 20-character literal holds 7.1 KB;
#: per character of pattern, a literal adds 42 bytes, ``[a-z]`` 57, ``.`` 189, ``.|`` 330 (the most of 30 shapes
#: without a property escape), ``[^\p{L}]`` 717, ``\P{L}`` 1 137 and ``\P{Lu}\P{Ll}`` (the worst shape found)
#: 1 326: 1.31 MB for 991 characters. The engine refuses a pattern whose program passes 1 MiB, so no accepted
#: pattern holds much more. ``python bench/cache_walk.py --patterns`` prints the measure against the estimate.
REGEX_BASE_BYTES = 8_192
REGEX_BYTES_PER_CHAR = 1_400
REGEX_PLAIN_BYTES_PER_CHAR = 600
#: One entry of an rpds HashTrieMap / HashTrieSet / List: its share of the trie's nodes (an Arc'd node with the
#: key's hash and two pointers), over what the key and value hold.
RPDS_ENTRY_BYTES = 64

_ATOMS = (str, bytes, bytearray, int, float, complex, range)
_SKIPPED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
            types.MethodWrapperType, types.WrapperDescriptorType, types.CodeType, types.FrameType, enum.Enum)
#: Objects every value may refer to for free, by id (the objects themselves are kept, so an id is not reused).
_shared: dict[int, Any] = {}


@dataclass(frozen=True)
class Measure:
    """A walk's result: ``bytes`` counted (more than the cap when ``complete`` is False: the walk stopped there),
    and ``objects``, how many objects it visited."""

    bytes: int
    objects: int
    complete: bool


def regex_bytes(pattern: str) -> int:
    """The estimated Rust memory of ``pattern`` compiled by corvus_regex_ecma262, in bytes: REGEX_BASE_BYTES +
    REGEX_BYTES_PER_CHAR × ``len(pattern)`` (REGEX_PLAIN_BYTES_PER_CHAR when it holds no ``\\p`` or ``\\P``): an
    upper bound for every shape measured, see there."""
    per_char = REGEX_BYTES_PER_CHAR if "\\p" in pattern or "\\P" in pattern else REGEX_PLAIN_BYTES_PER_CHAR
    return REGEX_BASE_BYTES + per_char * len(pattern)


def mark_shared(*objects: Any) -> None:
    """Count ``objects`` as free in every later walk: they live for the whole process whatever a cache holds
    (a module-level registry, a format checker). Their contents are not walked either."""
    for obj in objects:
        _shared[id(obj)] = obj


def _rpds_entries(obj: Any) -> list | None:
    """The keys and values of an rpds collection (None for any other object)."""
    if type(obj).__module__ != "rpds":
        return None
    items = getattr(obj, "items", None)
    if items is not None:
        return [x for pair in items() for x in pair]
    return list(obj)


def _walk_object(obj: Any, stack: list) -> int:
    """Push what ``obj`` holds (rpds entries, ``__dict__``, ``__slots__``) onto ``stack``; the bytes it holds
    beyond them (rpds trie nodes)."""
    extra = 0
    entries = _rpds_entries(obj)
    if entries is not None:
        extra = RPDS_ENTRY_BYTES * (len(entries) // 2 if hasattr(obj, "items") else len(entries))
        stack.extend(entries)
    attrs = getattr(obj, "__dict__", None)
    if isinstance(attrs, dict):
        stack.append(attrs)
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__"):
                stack.append(getattr(obj, name, None))
    return extra


def measure(value: Any, cap: int) -> Measure:
    """Walk ``value`` (see the module's docstring) until everything is counted or the count passes ``cap``
    bytes. Iterative: a deeply nested value cannot exhaust the stack. Never raises for any value."""
    seen: set[int] = set()
    stack = [value]
    total = objects = 0
    while stack:
        obj = stack.pop()
        key = id(obj)
        kind = type(obj)  # not isinstance: it asks the object's own __class__, which may raise
        if key in seen or key in _shared or obj is None or obj is True or obj is False or issubclass(kind, _SKIPPED):
            continue
        seen.add(key)
        objects += 1
        total += sys.getsizeof(obj, 64)
        if total > cap:
            return Measure(total, objects, False)
        if issubclass(kind, _ATOMS):
            continue
        try:
            if issubclass(kind, dict):
                stack.extend(obj.keys())
                stack.extend(obj.values())
            elif issubclass(kind, (list, tuple, set, frozenset)):
                stack.extend(obj)
            elif issubclass(kind, ecma.Regex):
                total += regex_bytes(obj.pattern)
            else:
                total += _walk_object(obj, stack)
        except Exception:  # noqa: BLE001 - an exotic object (a subclass) that refuses to be read: its own size only
            pass
        if total > cap:
            return Measure(total, objects, False)
    return Measure(total, objects, True)


def retained_bytes(value: Any, cap: int) -> int:
    """The bytes ``value`` keeps alive (:func:`measure`): exact up to ``cap``, and some number over ``cap`` when
    there are more (the walk stops there)."""
    return measure(value, cap).bytes
