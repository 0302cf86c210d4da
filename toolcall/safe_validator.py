"""A Draft 2020-12 validator that a student's schema cannot use to stall or crash the server.

jsonschema is the validator; this module only closes the ways an edited schema can make
it hang, raise or take memory, and makes its regular expressions those of ECMA-262:

- regular expressions (``pattern``, ``patternProperties``, ``format: regex``, and the property
  matching behind ``additionalProperties`` / ``unevaluatedProperties``) are ECMA-262
  (JavaScript ``new RegExp(pattern, "u")``), as Draft 2020-12 Validation §6.3.3 and Core §6.4
  ask, on the ``corvus-regex-ecma262`` engine: ``$`` does not match before a final newline,
  ``\\d`` is ``[0-9]``, ``\\cC`` is a control character, Python-only syntax such as
  ``(?P<name>…)`` or inline flags ``(?x)`` is a syntax error. Each match has REGEX_TIMEOUT,
  which also caps the engine's backtracking memory; counted repeats are not unrolled at
  compile time, so ``(?:x{65535}){65535}`` compiles in microseconds and a few bytes. Patterns
  longer than MAX_PATTERN_CHARS are refused; compiled patterns are cached up to
  PATTERN_CACHE_BYTES in total (a compiled pattern holds at most 8 KB + 600 bytes per character of
  its text on this engine, 1 400 with a ``\\p{…}`` property escape: measured in toolcall/memsize.py);
- a whole validation has a time budget (VALIDATION_BUDGET) checked at every subschema, so
  a ``$ref`` / ``allOf`` fan-out that is exponential in a 1 KB schema ends in a clear error;
- ``uniqueItems`` is linear (hashing) instead of quadratic; ``multipleOf`` uses exact
  fractions, so a 999-digit integer cannot raise OverflowError;
- no ``$ref`` is ever fetched: the registry's retrieve function refuses every URI; a reference
  into the same document (``#…``, ``$anchor``, an embedded ``$id``, ``$dynamicRef``) resolves
  as the specification says.

Why this engine (measured 2026-11-30; README, "The validator, measured against the
specification"): ``regress`` (Rust regress bindings) has ECMA-262 semantics but no match
timeout: ``^(a|a)*$`` against 40 a's and a "!" ran for more than 100 s; the ``regex`` module
needs a translation whose equivalence we would have to prove. corvus-regex-ecma262 decides that
input in under 0.1 ms, stops a backreference blow-up (``^(a|a)*\\1$``) at the 50 ms limit, and
passes the suite's ecmascript-regex tests (tests/unit/test_conformance.py).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from fractions import Fraction
from typing import Any, TypeVar
from collections.abc import Callable, Iterator

import corvus_regex_ecma262 as ecma
from jsonschema import Draft202012Validator, FormatChecker, _utils, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import Unresolvable
from jsonschema_specifications import REGISTRY as SPECIFICATIONS

from toolcall import memsize
from toolcall.text import quoted_head

#: Seconds one regular-expression search may take before the value is refused.
REGEX_TIMEOUT = 0.05
#: CPU seconds (of the validating thread) one whole validation may take before the schema is declared too
#: expensive.
VALIDATION_BUDGET = 0.5
#: Longest pattern compiled, in characters.
MAX_PATTERN_CHARS = 1000
#: Compiled patterns kept: at most this many, holding at most PATTERN_CACHE_BYTES (each charged its text and
#: memsize.regex_bytes: 8 KB to 1.4 MB).
PATTERN_CACHE_SIZE = 256
PATTERN_CACHE_BYTES = 16 * 1024 ** 2
#: What all the process's SizedCaches together may hold: the sum of their max_bytes stays within it (README,
#: "Caches, bounded in bytes"; tests/unit/test_cache_bytes.py adds them up). 136 MiB since the pairing page's two
#: caches (ui.pairing_checks, 4 MiB each) moved here from st.cache_data, where they were bounded by count only;
#: 138 MiB with the pass^k lab's simulations (toolcall.charts._simulations, 2 MiB), shared by its chart and metric;
#: 154 MiB with the playground's checked definitions (ui.tool_editor._definitions, 16 MiB), which each session kept
#: for itself before (6.2 MB for one 175 KB schema, kept after the student left the page: break-it pass brk14web).
CACHE_BUDGET_BYTES = 154 * 1024 ** 2
#: ECMA-262 flags every pattern is compiled with: u (Unicode code points, \p{…}), as JSON Schema asks.
FLAGS = "u"


class UnsafePattern(ValueError):
    """A pattern refused before compiling: too long."""


class RegexTimeout(ValidationError):
    """A pattern search that exceeded REGEX_TIMEOUT; the value is refused (fail closed)."""


class BudgetExceeded(Exception):
    """Raised inside a validation that ran past VALIDATION_BUDGET seconds."""


class SharedBudgetSpent(BudgetExceeded):
    """Raised inside a validation when the enclosing :class:`shared_budget` (one rerun's, spread over several
    validations) is spent: not this validation's own doing, so it is neither retried nor remembered as too
    expensive; what was not checked is shown as not checked."""


#: The engine's syntax error (an ``ValueError`` subclass), for callers that report it.
PatternError = ecma.error


class SizedCache:
    """A least-recently-used dict bounded by entry count AND by the bytes its entries keep alive, so a few huge
    entries cannot hold more than a few small ones. ``put`` charges each entry the bytes toolcall.memsize
    finds in its key and value (plus what the caller names as ``native``: memory the walk cannot see), so
    ``max_bytes`` is a cap on memory. Thread-safe; ``get``/``put`` never raise."""

    #: The cache's own bookkeeping per entry, charged with it: the (value, cost) tuple, the cost, the OrderedDict's
    #: node and hash-table slots (about 90 bytes measured by tracemalloc in tests/unit/test_cache_bytes.py).
    ENTRY_BYTES = 200

    def __init__(self, max_entries: int, max_bytes: int):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._cost = 0
        self._lock = threading.Lock()

    def get(self, key: Any, default: Any = None) -> Any:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return default
            self._data.move_to_end(key)
            return hit[0]

    def __contains__(self, key: Any) -> bool:
        with self._lock:
            return key in self._data

    def put(self, key: Any, value: Any, native: int = 0) -> int:
        """Keep ``value`` under ``key``, charged the bytes both keep alive (memsize.retained_bytes, the walk stopped
        at ``max_bytes``) plus ``native`` bytes and ENTRY_BYTES; evict the least recently used entries until both
        bounds hold. An entry over ``max_bytes`` on its own is not kept (recomputed each time instead). Returns the
        bytes charged (over ``max_bytes`` for an entry not kept)."""
        cost = self.ENTRY_BYTES + native + memsize.retained_bytes((key, value), self.max_bytes - native)
        if cost > self.max_bytes:
            return cost
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._cost -= old[1]
            self._data[key] = (value, cost)
            self._cost += cost
            while len(self._data) > self.max_entries or self._cost > self.max_bytes:
                _, (_, dropped) = self._data.popitem(last=False)
                self._cost -= dropped
        return cost

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._cost = 0

    @property
    def cost(self) -> int:
        """The bytes charged for what is held now (at most ``max_bytes``)."""
        return self._cost

    def __len__(self) -> int:
        return len(self._data)


_patterns = SizedCache(PATTERN_CACHE_SIZE, PATTERN_CACHE_BYTES)


def check_pattern(pattern: str) -> None:
    """Refuse a pattern longer than MAX_PATTERN_CHARS. Raises UnsafePattern with the reason."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafePattern(f"pattern is {len(pattern)} characters; the limit is {MAX_PATTERN_CHARS}")


def compile_pattern(pattern: str) -> ecma.Regex:
    """Compile as ECMA-262 ``new RegExp(pattern, "u")`` with REGEX_TIMEOUT per match.

    Raises UnsafePattern (too long), PatternError (not ECMA-262 syntax, or over the
    engine's size limit) or MemoryError."""
    compiled = _patterns.get(pattern)
    if compiled is None:
        check_pattern(pattern)
        compiled = ecma.compile(pattern, FLAGS, timeout=REGEX_TIMEOUT)
        _patterns.put(pattern, compiled)  # the walk charges memsize.regex_bytes for the compiled program
    return compiled


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches anywhere in ``text`` (ECMA-262 ``RegExp.prototype.test``).

    Raises TimeoutError when one match exceeds REGEX_TIMEOUT (or the engine's backtracking
    memory cap), and UnsafePattern / PatternError for a pattern that cannot be compiled."""
    _tick()
    try:
        return compile_pattern(pattern).test(text)
    except ecma.MatchLimitError as exc:
        raise TimeoutError(str(exc)) from exc


# --- the time budget ---------------------------------------------------------------------

_budget = threading.local()
T = TypeVar("T")
#: The budget's clock: CPU seconds of the calling thread. A wall clock counted the time a validation waited
#: for a core or for the GIL, so on a loaded server a shipped schema ran "past the budget" and, remembered as
#: too expensive (validation._too_expensive), was refused to every student of the process (a helper's
#: break-it pass saw it happen during a test run). CPU time is what one student's schema takes from the others.
_clock = time.thread_time


def _tick() -> None:
    deadline = getattr(_budget, "deadline", None)
    if deadline is not None:
        now = _clock()
        if now > deadline:
            shared = getattr(_budget, "shared", None)
            raise SharedBudgetSpent() if shared is not None and now > shared else BudgetExceeded()


class budget:
    """Context manager: validations inside may take at most ``seconds`` of this thread's CPU time."""

    def __init__(self, seconds: float = VALIDATION_BUDGET):
        self.seconds = seconds
        self._outer: float | None = None

    def __enter__(self) -> budget:
        # Nested budgets never extend an enclosing one, and leaving one restores it.
        self._outer = getattr(_budget, "deadline", None)
        mine = _clock() + self.seconds
        _budget.deadline = mine if self._outer is None else min(mine, self._outer)
        return self

    def __exit__(self, *exc: object) -> None:
        _budget.deadline = self._outer


class shared_budget:
    """Context manager: everything inside, however many validations, may take at most ``seconds`` of this
    thread's CPU time. Each validation inside keeps its own (shorter or equal) :class:`budget`; once the shared one
    is spent, a tick raises :class:`SharedBudgetSpent` and :func:`shared_budget_spent` is true. Not nested."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._outer: tuple[float | None, float | None] = (None, None)

    def __enter__(self) -> shared_budget:
        self._outer = getattr(_budget, "deadline", None), getattr(_budget, "shared", None)
        mine = _clock() + self.seconds
        _budget.shared = mine
        _budget.deadline = mine if self._outer[0] is None else min(mine, self._outer[0])
        return self

    def __exit__(self, *exc: object) -> None:
        _budget.deadline, _budget.shared = self._outer


def shared_budget_spent() -> bool:
    """True inside a :class:`shared_budget` whose seconds are spent (False outside any)."""
    shared = getattr(_budget, "shared", None)
    return shared is not None and _clock() > shared


def within_budget(fn: Callable[[], T], seconds: float = VALIDATION_BUDGET) -> T:
    """``fn()`` under a :class:`budget` of ``seconds``; if it runs past it, once more under a fresh one.

    Raises BudgetExceeded only when both runs exceed. The thread is charged for whatever runs in it, and
    a one-off pause is not the schema's doing: a full garbage collection of the whole process's heap, run
    by whichever allocation triggers it, can take a large part of 0.5 s in a big process (the newcomer saw
    the plain valid refund call refused with "$budget" during a test run, CPU clock and all). A schema that
    is really too expensive exceeds twice, costing at most twice the budget, once: callers remember it.
    SharedBudgetSpent (the enclosing shared_budget is spent) is raised at once, not retried."""
    try:
        with budget(seconds):
            return fn()
    except SharedBudgetSpent:
        raise
    except BudgetExceeded:
        with budget(seconds):
            return fn()


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


#: At most this many unexpected names an "Additional properties are not allowed" message lists (then "… and 9,980
#: more"), each cut at MAX_EXTRA_NAME_CHARS characters as drawn: every name was listed whole, so a content file of
#: 10 000 unknown keys of 100 characters made `check` print one line of 1.1 MB (issue 13, break-it pass brk17new).
MAX_LISTED_EXTRAS = 20
MAX_EXTRA_NAME_CHARS = 64


def quoted_name(name: Any) -> str:
    """A property name as a message quotes it: in single quotes, cut at MAX_EXTRA_NAME_CHARS characters as drawn
    (escaped_head), with line ends, controls, hidden characters and look-alike letters as their ``\\uXXXX``
    escapes: ``'l\\u0430bel'`` (Cyrillic а), which repr showed as 'lаbel', read as the allowed 'label'."""
    return quoted_head(str(name), MAX_EXTRA_NAME_CHARS)


def extras_message(extras: list[Any]) -> str:
    """"Additional properties are not allowed ('a', 'b')" for the unexpected names ``extras``: at most
    MAX_LISTED_EXTRAS of them (quoted_name), then how many more. At most about 1 500 characters for any list."""
    listed = ", ".join(map(quoted_name, extras[:MAX_LISTED_EXTRAS]))
    more = f" … and {len(extras) - MAX_LISTED_EXTRAS:,} more" if len(extras) > MAX_LISTED_EXTRAS else ""
    return f"Additional properties are not allowed ({listed}{more})"


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
        yield ValidationError(extras_message(extras))


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
    """A hashable stand-in with JSON Schema equality: 1 == 1.0, but true != 1. A number stands as text (its exact
    value in hexadecimal), whose hash Python randomises per process: an int hashes as itself modulo 2**61 - 1, so
    4 000 multiples of that number (a 100 000-character array a student can paste) all fell in one bucket of the
    set, and uniqueItems, one uninterruptible keyword, compared every pair: 0.52 s against 0.04 s for other numbers
    of the same size (break-it pass brk14web)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, dict):
        return ("object", frozenset((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("array", tuple(_frozen(v) for v in value))
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return ("integer", format(int(value), "x"))  # hex: exact and linear at any size (str() is capped and slow)
    if isinstance(value, float):
        return ("number", value.hex())  # finite, not integral: unequal to every integer
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


@META_FORMATS.checks("regex", raises=(PatternError, UnsafePattern, RecursionError, OverflowError, ValueError))
def _is_regex(instance: Any) -> bool:
    if isinstance(instance, str):
        compile_pattern(instance)
    return True


#: Format assertion (Draft 2020-12 Validation §7.2.2): jsonschema's checkers for 2020-12, each
#: present only when its optional library is installed (requirements.txt installs
#: jsonschema[format-nongpl]), with ``regex`` checked as ECMA-262 by the engine above.
#: Every checker is called only on strings of at most format_limit(name) characters (see
#: FormatTooLong): a checker is one uninterrupted call, which the validation budget cannot stop.
ASSERT_FORMATS = FormatChecker(formats=())

#: Longest string a format checker is called on, in characters, per format; FORMAT_MAX_CHARS for
#: the others. ``iri``/``iri-reference`` run rfc3987_syntax's Lark Earley parser, whose time and
#: memory grow with the string (CPU on the course machine, parser built: 500 chars 0.2–0.5 s,
#: 2 000 chars 1.2–2.2 s, 20 000 chars 16 s and 516 MB), against VALIDATION_BUDGET of 0.5 s for a
#: whole validation; 256 characters stay under a tenth of it. The other checkers of
#: jsonschema[format-nongpl] take under 1 ms at 2 000 characters (bench: tests/unit/test_format_caps.py).
FORMAT_LIMITS: dict[str, int] = {"iri": 256, "iri-reference": 256}
FORMAT_MAX_CHARS = 4_096


class FormatTooLong(ValueError):
    """A string longer than format_limit(format): not given to the checker. ``format``, ``size``
    (characters of the string) and ``limit`` say what and why; validation reports it as a
    ``format`` error whose ``cause`` is this exception."""

    def __init__(self, format: str, size: int, limit: int):
        super().__init__(f"too long to check format {format!r} ({size} characters, limit {limit})")
        self.format, self.size, self.limit = format, size, limit


def format_limit(name: str) -> int:
    """Longest string, in characters, the checker of format ``name`` is called on."""
    return FORMAT_LIMITS.get(name, FORMAT_MAX_CHARS)


def _capped(name: str, check: Any) -> Any:
    limit = format_limit(name)

    def capped(instance: Any) -> bool:
        if isinstance(instance, str) and len(instance) > limit:
            raise FormatTooLong(name, len(instance), limit)
        return check(instance)
    capped.__wrapped__ = check  # type: ignore[attr-defined]
    return capped


ASSERT_FORMATS.checkers = {
    name: (_capped(name, check), (*(raises if isinstance(raises, tuple) else (raises,)), FormatTooLong))
    for name, (check, raises) in {**Draft202012Validator.FORMAT_CHECKER.checkers,
                                  "regex": META_FORMATS.checkers["regex"]}.items()}


def _no_fetch(uri: str):
    raise Unresolvable(ref=uri)


#: A registry that knows no documents and fetches none: every remote ``$ref`` is unresolvable.
REGISTRY: Registry = Registry(retrieve=_no_fetch)  # type: ignore[call-arg]
# What every validator refers to and the process keeps anyway: free in the caches' byte counts (toolcall.memsize).
memsize.mark_shared(REGISTRY, ASSERT_FORMATS, META_FORMATS, *(x for pair in SPECIFICATIONS.items() for x in pair),
                    *(x for pair in getattr(SPECIFICATIONS, "_anchors", {}).items() for x in pair))  # the metaschemas


# --- vocabularies (Draft 2020-12 Core §8.1.2) ----------------------------------------------

#: The keywords each standard 2020-12 vocabulary brings (Core §8, Validation §6–§8).
VOCABULARIES: dict[str, frozenset[str]] = {
    "https://json-schema.org/draft/2020-12/vocab/core": frozenset({"$ref", "$dynamicRef"}),
    "https://json-schema.org/draft/2020-12/vocab/applicator": frozenset({
        "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
        "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"}),
    "https://json-schema.org/draft/2020-12/vocab/unevaluated": frozenset({"unevaluatedItems", "unevaluatedProperties"}),
    "https://json-schema.org/draft/2020-12/vocab/validation": frozenset({
        "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
        "maxProperties", "minProperties", "required", "dependentRequired"}),
    "https://json-schema.org/draft/2020-12/vocab/format-annotation": frozenset({"format"}),
    "https://json-schema.org/draft/2020-12/vocab/format-assertion": frozenset({"format"}),
}
_classes: dict[frozenset, Any] = {}


def validator_class(schema: Any, registry: Registry) -> Any:
    """SafeValidator, or a copy that runs only the keywords of the vocabularies that the
    schema's meta-schema declares in ``$vocabulary``, when ``$schema`` names a meta-schema
    found in ``registry`` (never fetched). Unknown vocabularies add nothing."""
    uri = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(uri, str) or uri.rstrip("#") == "https://json-schema.org/draft/2020-12/schema":
        return SafeValidator
    try:
        meta = registry.contents(uri.rstrip("#"))
    except Exception:  # not in the registry: nothing is fetched, the full 2020-12 keyword set applies
        return SafeValidator
    declared = meta.get("$vocabulary") if isinstance(meta, dict) else None
    if not isinstance(declared, dict):
        return SafeValidator
    keywords = frozenset().union(*(VOCABULARIES.get(v, frozenset()) for v in declared))
    cls = _classes.get(keywords)
    if cls is None:
        cls = validators.extend(SafeValidator, {})
        cls.VALIDATORS = {k: v for k, v in SafeValidator.VALIDATORS.items() if k in keywords}
        cls.descend = _descend_checked
        _classes[keywords] = cls
    return cls
