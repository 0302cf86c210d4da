"""Grade recorded tool calls the way the Berkeley Function Calling Leaderboard does, sort each
miss into the course's failure taxonomy, and estimate pass^k per case.

Grading follows BFCL's AST checker (gorilla/berkeley-function-call-leaderboard,
bfcl/eval_checker/ast_eval/ast_checker.py, ``simple_function_checker``), in its order:

1. the function name must match (BFCL ``wrong_func_name``);
2. every parameter the tool's schema requires must be present (``missing_required``);
3. every parameter given must be in the schema *and* in the expected answer
   (``unexpected_param``), have the schema's type (``type_error``) and one of the
   acceptable values (``value_error``);
4. every expected parameter not given must list ``""`` (may be omitted), else BFCL's
   ``missing_optional``.

Strings are compared after BFCL's ``standardize_string``: the characters space , . / - _ * ^
are removed, the text is lower-cased, and ' becomes ". So "12 Garden Road, Hangzhou" equals
"12 garden road hangzhou"; Chinese punctuation is left as it is. Numbers compare by value
(1999 == 1999.0), booleans never equal numbers, lists element by element, objects key by key.
Types follow JSON Schema (our validator): an integer is a valid number, 1999.0 a valid integer.

For a should-not-call case BFCL's irrelevance rule applies (``relevance_file_runner``): no
call at all is ``correctly_declined``, any call is ``called_anyway``. A case with more calls
than expected fails as BFCL's ``wrong_count``.

The taxonomy is decided separately, in a fixed order (course chapter, "failures in layers"):
called when it should not; did not call when it should; wrong tool (also wrong_count);
arguments invalid (the raw text does not parse, or toolcall.validation rejects it against the
tool's input_schema); arguments valid but a value is wrong. So a run can be BFCL
``value_error`` *and* "arguments invalid" (amount_cents 0 breaks ``minimum``), or pass BFCL's
lenient string match yet fail the schema ("Damaged" is not in the enum): that run's error
type is ``schema_invalid``.
"""

from __future__ import annotations

import hashlib
import json
import itertools
import math
import re
import time
from array import array
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from toolcall.i18n import in_language, t
from toolcall.parsing import json_type, localized_detail, parse_tool_input
from toolcall.passk import EstimateInputError, estimate
from toolcall.selection import NO_TOOL, OMIT
from toolcall.text import escape_identifier, escape_lookalikes, reading_key
from toolcall.validation import validate

#: The failure taxonomy, in its fixed order.
TAXONOMY: tuple[str, ...] = ("called_when_should_not", "did_not_call", "wrong_tool", "arguments_invalid", "wrong_value")
#: Stable error types, BFCL's names in our words (wrong_count, missing_optional kept as BFCL's).
ERROR_TYPES: tuple[str, ...] = (
    "correctly_declined",
    "called_anyway",
    "did_not_call",
    "wrong_tool_name",
    "wrong_count",
    "unparsable_arguments",
    "missing_required",
    "unexpected_parameter",
    "wrong_type",
    "wrong_value",
    "missing_optional",
    "schema_invalid",
)
#: Every code a Verdict's detail can carry, with the parameters its text takes
#: (``eval.detail.<code>`` in toolcall/locales/<lang>/eval.yaml).
DETAIL_CODES: dict[str, tuple[str, ...]] = {
    "no_expectation": (),
    "correct": (),
    "correctly_declined": (),
    "called_anyway": ("chosen",),
    "did_not_call": ("name",),
    "wrong_tool_name": ("chosen", "name"),
    "wrong_count": ("count", "expected"),
    "unparsable": ("why",),
    "not_an_object": ("kind",),
    "missing_required": ("param",),
    "unexpected_parameter": ("param",),
    "wrong_type": ("param", "wanted", "got"),
    "wrong_value": ("param", "value", "wanted"),
    "missing_optional": ("param",),
    "schema_invalid": (),
    "too_deep": (),
    "not_graded": (),
}
#: Every code a LineProblem can carry (one record that could not be used), with the parameters
#: its text takes (``eval.problem.<code>``). The importers (toolcall.eval_import) emit only these.
PROBLEM_CODES: dict[str, tuple[str, ...]] = {
    "not_json": ("reason",),
    "not_utf8": ("byte",),
    "line_too_long": ("size", "limit"),
    "not_object": (),
    "required_missing": (),
    "bad_case_id": (),
    "bad_run": (),
    "number_too_large": (),
    "not_string": (),
    "tools_not_list": (),
    "tool_needs_name": (),
    "tool_needs_schema": (),
    "bad_expected_calls": (),
    "bad_expected_arguments": (),
    "actual_calls_not_list": (),
    "bad_raw_arguments": (),
    "call_needs_arguments": (),
    "bad_passed": (),
    "first_run_needs_tools": (),
    "too_many_tool_sets": ("limit",),
    "too_many_problems": ("limit",),
    "too_many_records": ("limit",),
    "too_many_values_kept": ("limit",),
    "result_not_object": (),
    "task_id_required": (),
    "reward_required": (),
    "sample_needs_id": (),
    "sample_needs_epoch": (),
    "bad_metadata_expected": (),
    "member_too_large": ("name", "size", "limit"),
    "member_too_many_values": ("name", "size", "limit"),
    "member_not_json": ("reason",),
    "member_not_utf8": ("byte",),
    "member_unreadable": (),
    "too_long": ("size", "limit"),
    "tool_bad_schema": ("tool", "reason"),
    "reserved_tool_name": ("name",),
}
#: Every code a RunLog note can carry (how pass was decided), with its parameters (``eval.notes.<code>``).
NOTE_CODES: dict[str, tuple[str, ...]] = {
    "tau2_results": (),
    "tau_results": (),
    "tau_fewer_trials": ("trials",),
    "inspect_score": ("scorer",),
    "case_ids_read_alike": ("ids", "groups"),
}
_STRIP = re.compile(r"[ ,./\-_*^]")
#: CPU seconds (of the analysing thread) grading one log may take in all (each validation has its own
#: smaller budget, and every upload may bring its own schemas): runs left when it is spent are not graded.
#: CPU, not wall time, like the validation budget (toolcall.safe_validator._clock): on a loaded server
#: a wall clock left runs ungraded, and the page caches the analysis.
ANALYSIS_BUDGET = 10.0
_clock = time.thread_time


def normalize_string(text: str) -> str:
    """BFCL's ``standardize_string``: drop space , . / - _ * ^, lower-case, ' → "."""
    return _STRIP.sub("", text).lower().replace("'", '"')


def values_equal(actual: Any, wanted: Any) -> bool:
    """Whether ``actual`` matches one acceptable value (see the module docstring)."""
    if isinstance(actual, bool) or isinstance(wanted, bool):
        return isinstance(actual, bool) and isinstance(wanted, bool) and actual == wanted
    if isinstance(actual, (int, float)) and isinstance(wanted, (int, float)):
        return actual == wanted
    if isinstance(actual, str) and isinstance(wanted, str):
        return normalize_string(actual) == normalize_string(wanted)
    if isinstance(actual, list) and isinstance(wanted, list):
        return len(actual) == len(wanted) and all(values_equal(a, w) for a, w in zip(actual, wanted))
    if isinstance(actual, dict) and isinstance(wanted, dict):
        return actual.keys() == wanted.keys() and all(values_equal(actual[k], wanted[k]) for k in actual)
    return actual is None and wanted is None


def type_matches(value: Any, prop_schema: Any) -> bool:
    """True when ``value``'s JSON type is one ``prop_schema['type']`` allows (or it names none)."""
    wanted = prop_schema.get("type") if isinstance(prop_schema, dict) else None
    if wanted is None:
        return True
    wanted = wanted if isinstance(wanted, list) else [wanted]
    kind = json_type(value)
    if kind == "number" and isinstance(value, float) and value.is_integer():
        kind = "integer"
    return kind in wanted or (kind == "integer" and "number" in wanted)


class Call(NamedTuple):
    """One tool call as logged: ``name``; ``raw_arguments`` (the model's text, graded when
    present) and/or ``arguments`` (already decoded); ``parse_error`` when the log says the
    text did not parse (Inspect's ToolCall.parse_error). A NamedTuple: 100 000 are cheap."""

    name: str
    arguments: Any = None
    raw_arguments: str | None = None
    parse_error: str | None = None


@dataclass(frozen=True)
class Verdict:
    """The verdict on one run. ``error_type`` is one of ERROR_TYPES (``correctly_declined``
    or None when it passed); ``taxonomy`` one of TAXONOMY (None when passed or not gradable);
    ``param`` the parameter a BFCL error is about; ``detail`` one of DETAIL_CODES and
    ``params`` its parameters as ``((name, value), …)`` (``text(lang)`` gives the sentence);
    ``validation`` our validator's errors as ``pointer keyword: expected / received`` lines."""

    passed: bool
    expected_tool: str
    chosen_tool: str
    error_type: str | None = None
    taxonomy: str | None = None
    param: str | None = None
    detail: str = "no_expectation"
    validation: tuple[str, ...] = ()
    params: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self):
        if self.detail not in DETAIL_CODES:
            raise ValueError(f"unknown detail code {self.detail!r}")

    def text(self, lang: str = "en") -> str:
        """The detail as a sentence in ``lang`` (``eval.detail.<code>``)."""
        params = dict(self.params)
        if "kind" in params:  # a JSON type name ("array") in the reader's language, as parsing.render_hint does
            params["kind"] = t(f"type.{params['kind']}", lang)
        return t(f"eval.detail.{self.detail}", lang, **params)


def _unparsable(name: str, chosen: str, detail: str, **params: Any) -> Verdict:
    """A failed run whose arguments cannot be read as an object."""
    return Verdict(False, name, chosen, "unparsable_arguments", "arguments_invalid", detail=detail,
                   params=tuple(params.items()))


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:60]


def _bfcl_error(args: dict[str, Any], expected: dict[str, list], schema: dict[str, Any]) -> tuple | None:
    """The first BFCL error as (error type = detail code, parameter, detail params), or None."""
    props = schema.get("properties", {}) if isinstance(schema.get("properties"), dict) else {}
    for name in schema.get("required", []) or []:
        if name not in args:
            return "missing_required", name, {"param": name}
    for name, value in args.items():
        if name not in props or name not in expected:
            return "unexpected_parameter", name, {"param": name}
        if not type_matches(value, props[name]):
            wanted = props[name].get("type")
            return "wrong_type", name, {"param": name, "wanted": _shown(wanted), "got": json_type(value)}
        if not any(values_equal(value, w) for w in expected[name] if w != OMIT):
            return "wrong_value", name, {"param": name, "value": _shown(value), "wanted": _shown(expected[name])}
    for name, values in expected.items():
        if name not in args and OMIT not in values:
            return "missing_optional", name, {"param": name}
    return None


def grade_run(expected: list[dict] | tuple | None, calls, schemas: dict[str, dict], lang: str = "en") -> Verdict:
    """Grade one run.

    ``expected``: ``[]`` for a should-not-call case, ``[{name, arguments: {param: [values]}}]``
    otherwise, None when the log has no expectation (returns an ungraded Verdict, passed False,
    taxonomy None). ``calls``: the run's Calls in order. ``schemas``: ``{tool name:
    input_schema}`` the model saw; a called tool missing from it is graded by name only.
    ``lang``: the language of the validator's ``validation`` lines and of the parser's message
    in an ``unparsable`` detail (the verdict is the same).
    Raises nothing for any JSON input.
    """
    calls = list(calls)
    chosen = calls[0].name if calls else NO_TOOL
    if expected is None:
        return Verdict(False, NO_TOOL, chosen, detail="no_expectation")
    if not expected:
        if not calls:
            return Verdict(True, NO_TOOL, NO_TOOL, "correctly_declined", detail="correctly_declined")
        return Verdict(False, NO_TOOL, chosen, "called_anyway", "called_when_should_not", detail="called_anyway",
                       params=(("chosen", chosen),))
    want = expected[0]
    name, wanted_args = want["name"], want.get("arguments") or {}
    if not calls:
        return Verdict(False, name, NO_TOOL, "did_not_call", "did_not_call", detail="did_not_call",
                       params=(("name", name),))
    if chosen != name:
        return Verdict(False, name, chosen, "wrong_tool_name", "wrong_tool", detail="wrong_tool_name",
                       params=(("chosen", chosen), ("name", name)))
    if len(calls) > len(expected):
        return Verdict(False, name, chosen, "wrong_count", "wrong_tool", detail="wrong_count",
                       params=(("count", len(calls)), ("expected", len(expected))))
    call = calls[0]
    if call.parse_error or call.raw_arguments is not None:
        parsed = parse_tool_input(call.raw_arguments) if call.raw_arguments is not None else None
        if call.parse_error or not parsed.ok:
            why = call.parse_error or f"{parsed.code}: {localized_detail(parsed, lang)}"
            return _unparsable(name, chosen, "unparsable", why=why)
        args = parsed.value
    else:
        args = call.arguments
        if not isinstance(args, dict):
            return _unparsable(name, chosen, "not_an_object", kind=json_type(args))
    schema = schemas.get(name) or {}
    errors = validate(args, schema, lang)[0] if schema else []
    # look-alike letters escaped: "/order_\u0456d additionalProperties" next to "/order_id required"
    lines = tuple(escape_lookalikes(f"{e.pointer or '(root)'} {e.keyword}: {e.expected} / {e.received}")
                  for e in errors)
    try:
        bfcl = _bfcl_error(args, wanted_args, schema)
    except RecursionError:
        bfcl = ("wrong_value", None, None)
    if bfcl and bfcl[2] is None:
        etype, param, code, params = "wrong_value", None, "too_deep", ()
    elif bfcl:
        etype, param, code, params = bfcl[0], bfcl[1], bfcl[0], tuple(bfcl[2].items())
    else:
        etype, param, code, params = None, None, None, ()
    if errors:
        return Verdict(False, name, chosen, etype or "schema_invalid", "arguments_invalid", param,
                       code or "schema_invalid", lines, params)
    if bfcl:
        return Verdict(False, name, chosen, etype, "wrong_value", param, code, (), params)
    return Verdict(True, name, chosen, detail="correct")


# --- a whole log -----------------------------------------------------------------------


class Run(NamedTuple):
    """One case × run from any importer. ``expected`` None when the log states no expected
    call (τ-bench, Inspect without metadata); ``logged_passed`` the log's own verdict (τ's
    reward == 1, Inspect's score, native ``passed``); ``tools`` an index into
    RunLog.tool_sets; ``line`` where it came from (1-based line, or sample number)."""

    case_id: str
    run: int
    model: str
    expected: tuple | None
    calls: tuple[Call, ...]
    tools: int = 0
    logged_passed: bool | None = None
    line: int = 0


@dataclass(frozen=True)
class LineProblem:
    """A record that could not be used: 1-based ``line`` (or sample number), the ``field``
    (JSON path such as ``$.actual_calls[0].name``), a ``code`` from PROBLEM_CODES and its
    ``params``. ``text(lang)`` is the message in ``lang`` (``eval.problem.<code>``),
    ``describe(lang)`` the whole line with its number and field; ``message`` and ``str()``
    are the English ones."""

    line: int
    field: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    def __post_init__(self):
        if self.code not in PROBLEM_CODES:
            raise ValueError(f"unknown problem code {self.code!r}")

    def text(self, lang: str = "en") -> str:
        """The message alone, in ``lang``."""
        return t(f"eval.problem.{self.code}", lang, **in_language(self.params, lang))

    @property
    def message(self) -> str:
        """The English message."""
        return self.text("en")

    def describe(self, lang: str = "en") -> str:
        """``line N: field: message`` in ``lang``; a problem of one member of an .eval zip
        (``field`` is the member's name, not a ``$`` path) is named by its member, not a line."""
        if not self.field.startswith("$"):
            return t("eval.problem_member", lang, member=self.field, message=self.text(lang))
        return t("eval.problem_line", lang, line=self.line, field=self.field, message=self.text(lang))

    def __str__(self) -> str:
        return self.describe("en")


@dataclass(frozen=True)
class Note:
    """How an importer decided pass: a ``code`` from NOTE_CODES and its ``params``;
    ``text(lang)`` in ``lang`` (``eval.notes.<code>``), ``str()`` in English."""

    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    def __post_init__(self):
        if self.code not in NOTE_CODES:
            raise ValueError(f"unknown note code {self.code!r}")

    def text(self, lang: str = "en") -> str:
        """The note in ``lang``."""
        return t(f"eval.notes.{self.code}", lang, **self.params)

    def __str__(self) -> str:
        return self.text("en")


@dataclass
class RunLog:
    """What an importer returns: the runs, the tool sets they saw (``[{name: input_schema}]``),
    every problem (the rest still loaded), the format, and Notes on how pass was decided."""

    runs: list[Run]
    tool_sets: list[dict[str, dict]] = field(default_factory=lambda: [{}])
    problems: list[LineProblem] = field(default_factory=list)
    fmt: str = "native"
    notes: list[Note] = field(default_factory=list)


#: Most groups of look-alike case ids a note quotes; the rest are counted.
MAX_ALIKE_QUOTED = 3


def merge_alike_case_ids(log: RunLog) -> RunLog:
    """``log`` with every case id that reads like an earlier one (toolcall.text.reading_key, case kept: another
    Unicode form ``cafe\u0301``/``café``, a zero-width or trailing space) renamed to that earlier spelling,
    so its runs count towards one case, not two rows that look the same; a Note ``case_ids_read_alike``
    quotes the spellings merged (escaped: ``"c1"``, ``"c1 "``). Changes ``log`` in place and returns it."""
    first: dict[str, str] = {}
    groups: dict[str, list[str]] = {}
    for case_id in dict.fromkeys(run.case_id for run in log.runs):
        key = reading_key(case_id, fold_case=False)
        if key in first:
            groups.setdefault(key, [first[key]]).append(case_id)
        else:
            first[key] = case_id
    if not groups:
        return log
    rename = {case_id: spellings[0] for spellings in groups.values() for case_id in spellings[1:]}
    log.runs[:] = [run._replace(case_id=rename[run.case_id]) if run.case_id in rename else run for run in log.runs]
    quoted = "; ".join(", ".join(f'"{escape_identifier(s)}"' for s in spellings[:4])
                       for spellings in list(groups.values())[:MAX_ALIKE_QUOTED])
    log.notes.append(Note("case_ids_read_alike", {"ids": quoted + ("; …" if len(groups) > MAX_ALIKE_QUOTED else ""),
                                                  "groups": len(groups)}))
    return log


@dataclass(frozen=True)
class CaseRow:
    """Per case: n runs, c passed, and for k: the unbiased pass^k and pass@k and the naive
    (c/n)^k (floats), or ``refused`` (an English reason, e.g. k > n) with those None;
    ``refused_code``/``refused_params`` are toolcall.passk's EstimateInputError code and
    params (``refused_text(lang)`` translates, ``passk.err.<code>``).
    ``expected_tool`` is NO_TOOL for should-not-call and None when the log states none."""

    case_id: str
    expected_tool: str | None
    n: int
    c: int
    k: int
    pass_hat_k: float | None
    pass_at_k: float | None
    naive: float | None
    refused: str | None = None
    refused_code: str | None = None
    refused_params: tuple[tuple[str, Any], ...] = ()

    def refused_text(self, lang: str = "en") -> str | None:
        """Why the case was refused, in ``lang`` (English: toolcall.passk's own message); None when it was not."""
        if self.refused_code is None or lang == "en":
            return self.refused
        return t(f"passk.err.{self.refused_code}", lang, **dict(self.refused_params))


@dataclass
class Analysis:
    """Everything the lab and the CLI show. ``graded``: one row per run (case_id, run,
    expected_tool, chosen_tool, passed, error_type, taxonomy, detail, line) as a pandas
    DataFrame; ``cases``: CaseRows in first-seen order; ``confusion``: a DataFrame of run
    counts, expected tool (rows) × chosen tool (columns), NO_TOOL included, runs without an
    expectation left out; ``taxonomy``: ``{class: runs}`` for every class in TAXONOMY order;
    ``disagreements``: runs whose logged ``passed`` differs from our grade; ``folded_tools``: how many
    expected and chosen tool names the matrix sums under OTHER_TOOLS (past MAX_MATRIX_TOOLS per axis)."""

    graded: Any
    cases: list[CaseRow]
    confusion: Any
    taxonomy: dict[str, int]
    disagreements: int
    ungraded: int
    not_graded: int = 0
    folded_tools: tuple[int, int] = (0, 0)
    #: With ``analyse(release=True)`` (``graded`` None): case_counts of the per-run table it did not keep.
    counts: list | None = None


def _freeze(value: Any) -> bytes:
    """A hashable, order-independent key for a JSON value (cache keys). Copied out of orjson's result: the bytes
    orjson.dumps returns keep its whole output buffer (4 KB however short the JSON), so analysing 92 000 runs of
    distinct calls (an 18.6 MB upload) held hundreds of MB of keys (bench/README.md section T)."""
    try:
        return bytes(memoryview(orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)))
    except (TypeError, orjson.JSONEncodeError):
        try:
            return json.dumps(value, sort_keys=True, default=str).encode()
        except (RecursionError, ValueError):
            return b"unique:%d" % id(value)  # too deep to key: graded on its own


def _digest(*parts: bytes) -> bytes:
    """16 bytes standing for ``parts`` (BLAKE2b, each part length-prefixed): a grading-cache key of fixed size."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.digest()


def analyse(log: RunLog, k: int, expectations: dict[str, tuple] | None = None, progress=None,
            release: bool = False) -> Analysis:
    """Grade every run of ``log`` and summarise it for ``k`` (≥ 1).

    ``expectations`` (``{case_id: expected calls}``, e.g. from a student's selection set)
    replace the log's own for those cases. pass counts our grade when the run has an
    expectation, else the log's verdict (a run with neither counts as failed and is
    counted in ``ungraded``). Identical calls are graded once (cached by tool schema,
    expectation and call), so 100 000 runs of a few hundred distinct calls take seconds.
    ``progress``: optional callable(done_fraction) called every 5 000 runs.
    Grading stops once ANALYSIS_BUDGET seconds are spent: the runs whose call was not graded
    by then count as runs without an expectation (the log's verdict, else failed) and are
    counted in ``Analysis.not_graded``.
    ``release`` (the selection lab's upload): each run of ``log.runs`` is set to None once graded (the list keeps its
    length), calls are keyed by a 16-byte digest instead of by identity, and the per-run table is not kept
    (``graded`` None, ``counts`` its case_counts): the page drew from the aggregates only, yet held the parsed log, the
    per-run table and the full keys together, 6.3 times the upload at its peak (bench/README.md section T).
    Raises ValueError for k < 1.
    """
    import pandas as pd

    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number ≥ 1, got {k!r}")
    import numpy as np

    cache: dict[tuple, int] = {}
    by_identity: dict[tuple[int, int, int], int] = {}
    grades: list[Verdict] = []
    known_of: list[bool] = []  # per grade: its runs had an expectation (and were graded)
    index: list[int] = []
    # An expectation applies to the case its id reads as (toolcall.text.reading_key, case kept): a set's
    # "so_lamp" and a log's "so_lamp " (or another Unicode form) are one case, not an expectation ignored.
    frozen = {reading_key(case, fold_case=False): (value, _freeze(list(value)))
              for case, value in (expectations or {}).items()}
    case_key: dict[str, str] = {}
    total = len(log.runs)
    deadline = _clock() + ANALYSIS_BUDGET
    case_ids: list[str] = []
    numbers: list[int] = []
    lines = array("q")  # line or sample numbers: each fits; a run number may not (any whole number ≥ 0)
    logged_list: list = []
    runs = log.runs
    for i, run in enumerate(runs):
        own = frozen.get(case_key.get(run.case_id) or case_key.setdefault(run.case_id, reading_key(run.case_id, False)))
        expected = own[0] if own else run.expected
        # Importers share one object among identical expectations and calls (read_native does):
        # identity finds a known grade without serialising anything. Every run object lives in
        # ``log`` while this runs, so an id is never reused (with ``release`` runs are freed: no identity).
        ident = (run.tools, id(expected), id(run.calls))
        j = None if release else by_identity.get(ident)
        if j is None:
            expected_key = own[1] if own else _freeze(expected)
            key = (run.tools, expected_key, _freeze([list(c) for c in run.calls]) if run.calls else b"")
            if release:
                key = (run.tools, _digest(*key[1:]))
            j = cache.get(key)
            if j is None and expected is not None and _clock() > deadline:
                chosen = run.calls[0].name if run.calls else NO_TOOL
                j = cache.get(("not graded", chosen))
                if j is None:
                    j = cache[("not graded", chosen)] = len(grades)
                    grades.append(Verdict(False, NO_TOOL, chosen, detail="not_graded"))
                    known_of.append(False)
            elif j is None:
                j = cache[key] = len(grades)
                grades.append(
                    grade_run(expected, run.calls, log.tool_sets[run.tools] if run.tools < len(log.tool_sets) else {})
                )
                known_of.append(expected is not None)
            if not release:
                by_identity[ident] = j
        index.append(j)
        case_ids.append(run.case_id)
        numbers.append(run.run)
        lines.append(run.line)
        logged_list.append(run.logged_passed)
        if release:
            runs[i] = None
        if progress and i % 5000 == 4999:
            progress((i + 1) / total)
    del by_identity, cache
    take = np.asarray(index, dtype=np.int64)
    known_grade = np.asarray(known_of or [False], dtype=bool)

    def column(values: list) -> Any:
        """One value per grade → one per run: typed once on the few grades, then taken by index."""
        return pd.Series(values or [None]).array.take(take)

    def attribute(name: str) -> list:
        return [getattr(g, name) for g in grades]

    known = known_grade[take]
    skipped = np.asarray([g.detail == "not_graded" for g in grades] or [False], dtype=bool)[take]
    logged = np.asarray(logged_list, dtype=object)
    ours = np.asarray([g.passed for g in grades] or [False], dtype=bool)[take]
    passed = np.where(known, ours, logged == True)  # noqa: E712  (None counts as failed)
    graded = pd.DataFrame(
        {
            "case_id": case_ids,
            "run": numbers,
            "expected_tool": column([g.expected_tool if ok else None for g, ok in zip(grades, known_of)]),
            "chosen_tool": column(attribute("chosen_tool")),
            "passed": passed.astype(bool),
            "error_type": column(attribute("error_type")),
            "taxonomy": column(attribute("taxonomy")),
            "detail": column([g.text("en") for g in grades]),
            "line": np.frombuffer(lines, dtype=np.int64) if lines else [],
        }
    )
    has_log = np.asarray([v is not None for v in logged], dtype=bool)
    disagreements = int((known & has_log & (ours != (logged == True))).sum())  # noqa: E712
    ungraded = int((~known & ~has_log).sum())
    confusion, folded = folded_confusion(graded)
    counts = case_counts(graded)
    return Analysis(
        None if release else graded,
        case_rows(counts, k),
        confusion,
        taxonomy_counts(graded),
        disagreements,
        ungraded,
        int(skipped.sum()),
        folded,
        counts if release else None,
    )


def case_table(graded, k: int) -> list[CaseRow]:
    """Per-case n, c and the estimates for ``k`` from a graded-runs DataFrame (see Analysis);
    k > n is refused per case with toolcall.passk's message."""
    return case_rows(case_counts(graded), k)


def case_counts(graded) -> list[tuple[str, str | None, int, int]]:
    """``(case id, expected tool or None, n, c)`` per case of a graded-runs DataFrame, in first-seen order: all that
    the per-case estimates need, for any k (a page that changes k estimates again without grading again)."""
    if graded.empty:
        return []
    grouped = graded.groupby("case_id", sort=False).agg(
        n=("passed", "size"), c=("passed", "sum"), expected_tool=("expected_tool", "first")
    )
    return [(str(case_id), tool if isinstance(tool, str) else None, int(n), int(c))
            for case_id, n, c, tool in zip(grouped.index, grouped["n"].tolist(), grouped["c"].tolist(),
                                           grouped["expected_tool"].tolist())]


def case_rows(counts, k: int) -> list[CaseRow]:
    """The CaseRows of ``counts`` (see case_counts) for ``k``; k > n is refused per case with toolcall.passk's
    message. Each distinct (n, c) is estimated once."""
    out: list[CaseRow] = []
    known: dict[tuple[int, int], Any] = {}  # many cases share (n, c): estimate each pair once
    for case_id, tool, n, c in counts:
        est = known.get((n, c))
        if est is None:
            try:
                est = known[(n, c)] = estimate(n, c, k)
            except EstimateInputError as exc:
                est = known[(n, c)] = exc
        if isinstance(est, EstimateInputError):
            out.append(CaseRow(case_id, tool, n, c, k, None, None, None, str(est), est.code,
                               tuple(est.params.items())))
            continue
        out.append(CaseRow(case_id, tool, n, c, k, float(est.pass_hat_k), float(est.pass_at_k), float(est.naive)))
    return out


def pair_rates(pairs: dict[tuple[int, int], int], k: int) -> dict[str, float | None]:
    """summary_rates of every case, from ``pairs`` ({(n, c): number of cases}) alone: the same means (math.fsum of
    each case's value, exactly as summary_rates sums them) without a CaseRow per case."""
    rows = case_rows([("", None, n, c) for n, c in pairs], k)
    ok = [(row, pairs[(row.n, row.c)]) for row in rows if row.refused is None]
    if not ok:
        return {"pass^k": None, "pass@k": None, "naive": None}
    total = sum(m for _, m in ok)

    def mean(name: str) -> float:
        values = itertools.chain.from_iterable(itertools.repeat(getattr(row, name), m) for row, m in ok)
        return math.fsum(values) / total

    return {"pass^k": mean("pass_hat_k"), "pass@k": mean("pass_at_k"), "naive": mean("naive")}


#: Tool names per axis of the confusion matrix: the most frequent ones (ties by name), NO_TOOL always among
#: them; the runs of every other name are summed under OTHER_TOOLS. A log may name any number of tools
#: (each run's call and expectation are free text), and a matrix of every expected × chosen name grows with
#: their product: 5 000 distinct names on each side, a 0.8 MB upload, made a 25-million-cell table
#: (about 400 MB) and a chart of as many cells.
MAX_MATRIX_TOOLS = 20
#: The row and column that sum the names past MAX_MATRIX_TOOLS (translated as ``eval.other_tools``).
OTHER_TOOLS = "(other tools)"


def _fold(names, limit: int):
    """``names`` (a Series) with every name outside the ``limit`` most frequent (NO_TOOL kept) as
    OTHER_TOOLS, and how many distinct names were folded. Linear in the runs (value counts, one sort of
    the distinct names)."""
    counts = names.value_counts(sort=False)
    if len(counts) <= limit:
        return names, 0
    ranked = sorted(counts.items(), key=lambda item: (item[0] != NO_TOOL, -item[1], str(item[0])))
    kept = [name for name, _ in ranked[:limit - 1]]  # one place left for OTHER_TOOLS
    return names.where(names.isin(kept), OTHER_TOOLS), len(counts) - len(kept)


def folded_confusion(graded, limit: int = MAX_MATRIX_TOOLS):
    """(confusion_matrix, (expected names folded, chosen names folded)): runs per (expected tool, chosen
    tool), at most ``limit`` names per axis, the rest summed under OTHER_TOOLS; runs without an expectation
    left out; rows and columns sorted with OTHER_TOOLS, then NO_TOOL, last. An empty DataFrame when nothing
    is graded. Memory and time grow with the runs, never with the product of the names."""
    import pandas as pd

    known = graded[graded["expected_tool"].notna()]
    if known.empty:
        return pd.DataFrame(), (0, 0)
    expected, folded_expected = _fold(known["expected_tool"], limit)
    chosen, folded_chosen = _fold(known["chosen_tool"], limit)
    table = pd.crosstab(expected, chosen)
    order = lambda names: sorted(names, key=lambda n: (n == NO_TOOL, n == OTHER_TOOLS, n))  # noqa: E731
    return (table.reindex(index=order(table.index), columns=order(table.columns), fill_value=0),
            (folded_expected, folded_chosen))


def confusion_matrix(graded, limit: int = MAX_MATRIX_TOOLS):
    """The matrix of :func:`folded_confusion` alone."""
    return folded_confusion(graded, limit)[0]


def taxonomy_counts(graded) -> dict[str, int]:
    """``{class: runs}`` for every class in TAXONOMY, in order (zeros included)."""
    counts = graded["taxonomy"].value_counts()
    return {name: int(counts.get(name, 0)) for name in TAXONOMY}


def summary_rates(cases: list[CaseRow]) -> dict[str, float | None]:
    """Mean pass^k, pass@k and naive over the cases that were not refused (τ-bench averages
    pass^k over tasks the same way); None when every case was refused."""
    ok = [c for c in cases if c.refused is None]
    if not ok:
        return {"pass^k": None, "pass@k": None, "naive": None}
    mean = lambda xs: math.fsum(xs) / len(xs)  # noqa: E731
    return {
        "pass^k": mean([c.pass_hat_k for c in ok]),
        "pass@k": mean([c.pass_at_k for c in ok]),
        "naive": mean([c.naive for c in ok]),
    }


def case_rows_json(cases: list[CaseRow], lang: str = "en") -> list[dict[str, Any]]:
    """CaseRows as plain dicts (for JSON and CSV output): pass^k, pass@k, naive as floats or
    None, ``refused`` the reason in ``lang`` or None."""
    return [
        {
            "case_id": c.case_id,
            "expected_tool": c.expected_tool,
            "n": c.n,
            "c": c.c,
            "k": c.k,
            "pass^k": c.pass_hat_k,
            "pass@k": c.pass_at_k,
            "naive": c.naive,
            "refused": c.refused_text(lang),
        }
        for c in cases
    ]
