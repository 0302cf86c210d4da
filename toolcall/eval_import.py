"""Read run logs into toolcall.evaluation.RunLog: our native JSONL, τ-bench / τ²-bench result
files, and Inspect AI logs (``.json`` and the zipped ``.eval``).

Every reader is pure and bounded: the input is refused above ``limit`` bytes (and a ``.eval``
above MAX_UNCOMPRESSED bytes unpacked, or MAX_RUNS records), one bad record becomes a
LineProblem naming its line (or record number) and field, and every other record still loads.

* **native** (``fixtures/schemas/eval_runs.schema.json``): one JSON object per line and per
  case × run: ``case_id``, ``run``, ``model``, ``tools`` (``[{name, description, input_schema}]``;
  may be left out after the first line, the last list given applies), ``expected_calls``
  (``[]`` = must not call, else one ``{name, arguments: {param: [acceptable values]}}``),
  ``actual_calls`` (``[{name, arguments?, raw_arguments?}]``), optional ``passed`` and ``request``.
* **tau**: τ-bench's results file, a JSON list of ``{task_id, trial, reward, info, traj}``
  (sierra-research/tau-bench, tau_bench/run.py, ``display_metrics``), or τ²-bench's
  ``Results`` object ``{info: {num_trials}, tasks, simulations: [{task_id, trial,
  termination_reason, reward_info: {reward}}]}`` (sierra-research/tau2-bench,
  src/tau2/data_model/simulation.py; metrics in src/tau2/metrics/agent_metrics.py). A trial
  passes when 1 - 1e-6 ≤ reward ≤ 1 + 1e-6, their ``is_successful``; τ²-bench's
  infrastructure_error simulations are left out, as its ``get_metrics_df`` does. pass^k per
  task is then C(c, k) / C(n, k), their ``pass_hat_k``.
* **inspect**: an EvalLog (UKGovernmentBEIS/inspect_ai, src/inspect_ai/log/_log.py); ``.eval``
  is a zip of ``header.json`` or ``start.json`` plus ``samples/<id>_epoch_<n>.json``
  (src/inspect_ai/log/_recorders/eval.py), its members stored, deflated or, as current Inspect writes them,
  Zstandard-compressed (zip method 93; bzip2 and LZMA read too), each unpacked within MAX_JSON_BYTES. A sample is one
  case × epoch; its calls are the
  ``tool_calls`` of the first assistant message (``ToolCall``: id, function, arguments,
  parse_error); tool schemas come from the first model event's ``tools``. Expected calls come
  from ``metadata.expected_calls`` (our native form) when present; otherwise the sample's
  first score decides pass, converted like Inspect's ``value_to_float`` and passing at ≥ 1.0,
  which is the default threshold of its ``pass_k`` reducer (C(correct, k) / C(total, k),
  src/inspect_ai/scorer/_reducer/reducer.py).
"""

from __future__ import annotations

import bz2
import codecs
import io
import json
import lzma
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import orjson

try:  # Zstandard, as the .eval members of current Inspect are packed: the standard library from Python 3.14 (PEP 784)
    from compression import zstd
except ImportError:  # its backport before 3.14 (requirements.txt: backports-zstd)
    from backports import zstd

from toolcall.evaluation import OTHER_TOOLS, Call, LineProblem, Note, Run, RunLog, merge_alike_case_ids
from toolcall.i18n import in_language, t
from toolcall.parsing import json_reason
from toolcall.selection import NO_TOOL
from toolcall.text import quoted_head
from toolcall.validation import check_schema

#: Default size limit of an input, in bytes.
MAX_BYTES = 50_000_000
#: Most records read from one input; the rest is one problem.
MAX_RUNS = 200_000
#: Longest native line, in characters.
MAX_LINE_CHARS = 1_000_000
#: Most problems listed; reading stops after them (the last problem says so).
MAX_PROBLEMS = 1_000
#: Largest whole-document JSON input (τ-bench, Inspect ``.json``) and ``.eval`` member, in bytes: parsed at once, so
#: far below MAX_BYTES. With MAX_JSON_VALUES it bounds what one parse holds at its peak: orjson's parser sets aside
#: ~10 bytes per byte of text before it builds the objects, so at 20 MB and 2 million values one Inspect log or
#: member peaked at 376-397 MB of allocations (issue 13, memory kind; bench/eval_parse_peak.py, bench/README.md
#: section R); at 4 MB at most ~80 MB. An Inspect log larger than this is read as a ``.eval`` (one member per
#: sample), and the refusal (inspect_json_too_large) says so.
MAX_JSON_BYTES = 4_000_000
#: Most JSON values (bounded by counting ``,`` ``[`` ``{`` bytes) one document may hold before
#: it is parsed: an empty object costs ~64 bytes of memory for its 3 bytes of text.
MAX_JSON_VALUES = 500_000
#: Most JSON values (counted the same way, on each kept value's JSON) the records of one input may keep once read:
#: the calls' arguments, expected calls and tool lists outlive their line or member, so without a total a
#: 57 KB .eval of 19 members of 950 000 ``[]`` each (each member then under the whole-document cap) kept 1.3 GB,
#: and 36 MB of native lines 0.8 GB. Four times what one whole document may hold (MAX_JSON_VALUES): a 20 MB native
#: upload of small distinct calls keeps about 1.2 million (12 a line), a hostile one at most ~2 million empty lists
#: (~110 MB).
MAX_KEPT_VALUES = 2_000_000
#: Most distinct tool lists (schemas) one input may bring: each costs validator builds and
#: regex runs, so a line with yet another list is one problem.
MAX_TOOL_SETS = 20
#: Most bytes a ``.eval`` may unpack to, and most members it may hold.
MAX_UNCOMPRESSED = 400_000_000
MAX_MEMBERS = MAX_RUNS + 100
#: Longest case id (a τ-bench task id, an Inspect sample id) or tool name a log may give, in characters: what a native
#: case_id may hold. A longer one is a problem and its record is not read. An .eval packs a million-character sample
#: id into a few hundred bytes, and each id and name is kept and sent on every rerun of the selection lab (its
#: per-case table and charts, look-alike letters escaped six times longer): 100 ids of 100 000 Cyrillic letters,
#: a 64 KB upload, kept 10 million characters and made a 60-million-character table (issue 13, break-it brk12web2).
MAX_ID_CHARS = 200
LOG_FORMATS = ("auto", "native", "tau", "inspect")


#: Every code a whole-input error (LogTooLarge, LogUnreadable) can carry, with the parameters
#: its text takes (``eval.error.<code>`` in toolcall/locales/<lang>/eval.yaml).
ERROR_CODES: dict[str, tuple[str, ...]] = {
    "log_too_large": ("size", "limit"),
    "document_too_large": ("size", "limit"),
    "inspect_json_too_large": ("size", "limit"),
    "too_many_values": ("size", "limit"),
    "member_too_large": ("name", "size", "limit"),
    "member_too_many_values": ("name", "size", "limit"),
    "too_many_members": ("size", "limit"),
    "unpacked_too_large": ("size", "limit"),
    "out_of_memory": (),
    "not_json": ("reason",),
    "not_utf8": ("byte",),
    "not_text": (),
    "utf16": (),
    "text_not_utf8": ("byte",),
    "nul": ("at",),
    "tau_shape": (),
    "inspect_shape": (),
    "not_zip": (),
    "overlapping_members": (),
}


class LogError(ValueError):
    """A whole input that cannot be used: ``code`` (one of ERROR_CODES) and ``params``;
    ``text(lang)`` is the message in ``lang``, ``str()`` the English one."""

    def __init__(self, code: str, **params: Any):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown log error code {code!r}")
        self.code, self.params = code, params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``eval.error.<code>``)."""
        return t(f"eval.error.{self.code}", lang, **in_language(self.params, lang))


class LogTooLarge(LogError):
    """The input is over a size limit; ``size`` and ``limit`` in bytes (or values, members)."""

    def __init__(self, code: str, size: int, limit: int, **params: Any):
        super().__init__(code, size=size, limit=limit, **params)
        self.size, self.limit = size, limit


class LogUnreadable(LogError):
    """The input as a whole cannot be read in the chosen format (not JSON, not a zip, …)."""


def _json_doc(data: bytes, member: str | None = None) -> Any:
    """Parse one whole JSON document (the input, or the .eval ``member`` named) within
    MAX_JSON_BYTES and MAX_JSON_VALUES (checked on the bytes, before any object is built).
    Raises LogTooLarge, or LogUnreadable when not JSON."""
    named = {"name": member} if member else {}
    if len(data) > MAX_JSON_BYTES:
        raise LogTooLarge("member_too_large" if member else "document_too_large", len(data), MAX_JSON_BYTES, **named)
    values = json_values(data)
    if values > MAX_JSON_VALUES:
        raise LogTooLarge("member_too_many_values" if member else "too_many_values", values, MAX_JSON_VALUES, **named)
    try:
        return exact_loads(data)
    except orjson.JSONDecodeError as exc:
        code, params = json_failure(data, exc)
        raise LogUnreadable(code, **params) from None


#: A run of 19 digits: the shortest integer text orjson may not hold (it reads −2⁶³ to 2⁶⁴ − 1 exactly and any
#: other integer as the nearest float, so 2⁶⁴ and 2⁶⁴ + 1 were read as one number and graded as equal).
_LONG_DIGITS = re.compile(rb"[0-9]{19}")


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # never reached: orjson refused NaN and Infinity first


def exact_loads(data: bytes) -> Any:
    """``orjson.loads(data)``, with every integer exact: a text holding a run of 19 or more digits (an integer
    orjson may have read as a float, or only a long string) is read again by Python's json, which keeps integers
    whole. Raises orjson.JSONDecodeError for what orjson refuses (so NaN, Infinity and numbers past the float
    range stay refused). When the second reading fails (nesting Python's reader refuses, or an integer of more
    than 4 300 digits, past Python's int conversion limit), orjson's result is kept."""
    value = orjson.loads(data)
    if _LONG_DIGITS.search(data) is None:
        return value
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return value


def json_values(data: bytes) -> int:
    """An upper bound on the JSON values (containers and the items and members in them) ``data`` can parse to,
    from its bytes: one per ``,`` ``[`` ``{`` (the commas and brackets inside strings counted too)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


class _Budget:
    """What the records of one input keep, in JSON values (json_values of each kept value's JSON), against
    MAX_KEPT_VALUES."""

    def __init__(self) -> None:
        self.kept = 0

    def spend(self, *blobs: bytes) -> bool:
        """Count the values of ``blobs`` (JSON text); False once the total is over MAX_KEPT_VALUES."""
        self.kept += sum(json_values(blob) + 1 for blob in blobs)
        return self.kept <= MAX_KEPT_VALUES

    def spend_values(self, *values: Any) -> bool:
        """Count every value inside ``values`` (parsed JSON, walked without recursion: a depth orjson.dumps
        refuses is counted too); False once the total is over MAX_KEPT_VALUES."""
        stack = list(values)
        while stack:
            value = stack.pop()
            self.kept += 1
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, (list, tuple)):
                stack.extend(value)
        return self.kept <= MAX_KEPT_VALUES


def _over_budget(log: RunLog, number: int, where: str) -> None:
    """List the stop for MAX_KEPT_VALUES as the last problem."""
    log.problems.append(LineProblem(number, where, "too_many_values_kept", {"limit": MAX_KEPT_VALUES}))


def json_failure(data: bytes, exc: orjson.JSONDecodeError, line: int = 1) -> tuple[str, dict[str, Any]]:
    """Why ``data`` (line ``line`` onwards of the input) did not parse, in our own words (never orjson's English
    text): ``("not_utf8", {"byte": 0-based offset of the first byte that is not UTF-8})`` or
    ``("not_json", {"reason": {lang: sentence}})``, the place to fix and why, as every "not JSON" message of the
    app says it (toolcall.parsing.json_reason; orjson's own place, exc.pos, only when Python's json reads it)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        return "not_utf8", {"byte": bad.start}
    return "not_json", {"reason": json_reason(text, line - 1, exc.pos)}


def _stop(log: RunLog, number: int, where: str) -> bool:
    """True (and the stop is listed as the last problem) once MAX_PROBLEMS problems or MAX_RUNS
    records, good or bad, were read."""
    if len(log.problems) >= MAX_PROBLEMS:
        log.problems.append(LineProblem(number, where, "too_many_problems", {"limit": MAX_PROBLEMS}))
        return True
    if len(log.runs) + len(log.problems) >= MAX_RUNS:
        log.problems.append(LineProblem(number, where, "too_many_records", {"limit": MAX_RUNS}))
        return True
    return False


def detect_log_format(data: bytes, name: str = "") -> str:
    """Guess ``native``, ``tau`` or ``inspect`` from the file name and the first bytes: ``.eval`` (or a zip) is
    Inspect, ``.jsonl`` is this project's native JSONL, anything else is read by its first bytes."""
    if name.endswith(".eval") or data[:2] == b"PK":
        return "inspect"
    if name.endswith(".jsonl"):  # one record a line: an Inspect log is never JSONL, τ-bench writes one document
        return "native"
    head = data[:4096].lstrip()
    if head.startswith(b"["):
        return "tau"
    if head.startswith(b"{"):
        first_line = data.split(b"\n", 1)[0]
        if b'"case_id"' in first_line:
            return "native"
        if b'"simulations"' in data[:200_000]:
            return "tau"
        return "inspect"
    return "native"


def _first_not_utf8(data: bytes) -> int:
    """The offset of the first byte of ``data`` that is not UTF-8 (len(data) when all are)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return len(data)


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def read_log(data: bytes, fmt: str = "auto", name: str = "", limit: int = MAX_BYTES) -> RunLog:
    """Read ``data`` (bytes of a file) in ``fmt`` (one of LOG_FORMATS).

    Raises LogTooLarge above ``limit`` bytes, LogUnreadable when the whole input is unusable,
    LogError("out_of_memory") when reading it ran out of memory, ValueError for an unknown format. Bad records
    are listed in ``RunLog.problems``; reading stops (the last problem says why) after MAX_PROBLEMS problems,
    MAX_RUNS records, or records keeping more than MAX_KEPT_VALUES JSON values.
    """
    if len(data) > limit:
        raise LogTooLarge("log_too_large", len(data), limit)
    # A byte-order mark is no content (Windows PowerShell's and older Notepad's "UTF-8" start with one): left
    # in, it broke line 1, so every later line "must list the tools", and a τ-bench list was read as native.
    data = data.removeprefix(codecs.BOM_UTF8)
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):  # Windows PowerShell's > and Out-File write it
        raise LogUnreadable("utf16")
    if fmt == "auto":
        fmt = detect_log_format(data, name)
    readers = {"native": read_native, "tau": read_tau, "inspect": read_inspect}
    if not data.startswith(b"PK") and (at := data.find(b"\x00")) >= 0 and _utf8(data):
        # anything but an Inspect .eval (a zip) is JSON text, and none holds a NUL: UTF-16 without a byte-order mark
        # is valid UTF-8, read as "not JSON at line 1, column 2", naming neither the encoding nor the fix (bytes
        # that are not UTF-8 are "not text" below)
        raise LogUnreadable("nul", at=at)
    if fmt in readers:  # a case id spelled two ways that read alike is one case (said in a note)
        try:
            log = readers[fmt](data)
        except MemoryError:  # whatever a reader missed, the page and the command line say so in a sentence
            raise LogError("out_of_memory") from None
        try:
            _refuse_if_no_line_reads(log)
        except LogUnreadable as exc:
            # JSON text in another encoding (GBK, what Chinese Windows saves): not "an image or an archive?"
            if exc.code == "not_text" and data.lstrip()[:1] in (b"{", b"["):
                raise LogUnreadable("text_not_utf8", byte=_first_not_utf8(data)) from None
            raise
        return merge_alike_case_ids(log)
    raise ValueError(f"unknown format {fmt!r}; expected one of {LOG_FORMATS}")


def _refuse_if_no_line_reads(log: RunLog) -> None:
    """Raise LogUnreadable when not one line of a JSONL log read as JSON: ``not_text`` when the first is not
    UTF-8 (an image or an archive renamed .jsonl: it read "Records that could not be used: 316; the rest
    loaded" over twenty "not UTF-8 text" lines), else ``not_json`` at the first line's place. A log with one
    good line keeps its per-line problems."""
    if log.fmt != "native" or log.runs or not log.problems:
        return
    if any(p.code not in ("not_utf8", "not_json") for p in log.problems):
        return
    first = log.problems[0]
    if first.code == "not_utf8":
        raise LogUnreadable("not_text")
    raise LogUnreadable("not_json", **first.params)


# --- native ----------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _too_large(value: Any) -> bool:
    """Whether ``value`` is a whole number past orjson's integers (−2⁶³ to 2⁶⁴ − 1; read exactly by exact_loads,
    or written as a float): 2**64 as a run number, a task_id or an epoch was called "not a whole number" (issue 13,
    brk12cli)."""
    whole = _is_int(value) or isinstance(value, float) and value.is_integer()
    return whole and not -2 ** 63 <= value < 2 ** 64


#: Names the confusion matrix gives its own rows and columns (no call at all; the names past its cap): a call or an
#: expectation naming one was counted as that row. A should-not-call run whose model called a tool named "(no tool)"
#: failed, yet sat on the matrix's diagonal and was counted in "Right tool, runs" (2 / 2 for one pass and one
#: failure; break-it pass brk14lab). No provider allows the parentheses or the space in a tool name.
RESERVED_TOOL_NAMES = frozenset((NO_TOOL, OTHER_TOOLS))


def _too_long(text: str) -> dict[str, int]:
    """The params of a ``too_long`` problem for ``text`` (longer than MAX_ID_CHARS)."""
    return {"size": len(text), "limit": MAX_ID_CHARS}


def _schema_problem(name: str, schema: Any) -> dict[str, Any] | None:
    """None when ``schema`` (tool ``name``'s input schema, from the log) is one the grader can validate with; else the
    params of a ``tool_bad_schema`` problem: the tool (quoted short) and check_schema's refusal in each language. The
    grader validates each call against its tool's schema and assumes it was checked: ``{"type": {"x": 1}}`` raised
    jsonschema's UnknownType and ``"required": [["a"]]`` a TypeError out of the selection lab (break-it brk12web2)."""
    text = json.dumps(schema, ensure_ascii=False)
    first = check_schema(text, "en")
    if first.ok:
        return None
    return {"tool": member_name(name), "reason": {"en": first.message, "zh": check_schema(text, "zh").message}}


def _tools_problem(tools: Any) -> tuple | None:
    if not isinstance(tools, list):
        return "$.tools", "tools_not_list"
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            return f"$.tools[{i}].name", "tool_needs_name"
        if len(tool["name"]) > MAX_ID_CHARS:
            return f"$.tools[{i}].name", "too_long", _too_long(tool["name"])
        if not isinstance(tool.get("input_schema"), dict):
            return f"$.tools[{i}].input_schema", "tool_needs_schema"
    return None


def _native_problem(rec: Any) -> tuple | None:
    """The first thing wrong with one native record, as (JSON path, problem code[, its params]); None if
    sound. Mirrors fixtures/schemas/eval_runs.schema.json (a test holds the two together)."""
    if not isinstance(rec, dict):
        return "$", "not_object"
    for key in ("case_id", "run", "model", "expected_calls", "actual_calls"):
        if key not in rec:
            return f"$.{key}", "required_missing"
    if not isinstance(rec["case_id"], str) or not 1 <= len(rec["case_id"]) <= 200:
        return "$.case_id", "bad_case_id"
    if _too_large(rec["run"]) and rec["run"] > 0:
        return "$.run", "number_too_large"
    if not _is_int(rec["run"]) or rec["run"] < 0:
        return "$.run", "bad_run"
    if not isinstance(rec["model"], str):
        return "$.model", "not_string"
    if "tools" in rec and (found := _tools_problem(rec["tools"])):
        return found
    expected = rec["expected_calls"]
    if not isinstance(expected, list) or len(expected) > 1:
        return "$.expected_calls", "bad_expected_calls"
    for i, call in enumerate(expected):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            return f"$.expected_calls[{i}].name", "not_string"
        if len(call["name"]) > MAX_ID_CHARS:
            return f"$.expected_calls[{i}].name", "too_long", _too_long(call["name"])
        if call["name"] in RESERVED_TOOL_NAMES:
            return f"$.expected_calls[{i}].name", "reserved_tool_name", {"name": call["name"]}
        args = call.get("arguments", {})
        if not isinstance(args, dict) or not all(isinstance(v, list) and v for v in args.values()):
            return f"$.expected_calls[{i}].arguments", "bad_expected_arguments"
    if not isinstance(rec["actual_calls"], list):
        return "$.actual_calls", "actual_calls_not_list"
    for i, call in enumerate(rec["actual_calls"]):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            return f"$.actual_calls[{i}].name", "not_string"
        if len(call["name"]) > MAX_ID_CHARS:
            return f"$.actual_calls[{i}].name", "too_long", _too_long(call["name"])
        if call["name"] in RESERVED_TOOL_NAMES:
            return f"$.actual_calls[{i}].name", "reserved_tool_name", {"name": call["name"]}
        if "raw_arguments" in call and not isinstance(call["raw_arguments"], str):
            return f"$.actual_calls[{i}].raw_arguments", "bad_raw_arguments"
        if "raw_arguments" not in call and "arguments" not in call:
            return f"$.actual_calls[{i}]", "call_needs_arguments"
    if "passed" in rec and not isinstance(rec["passed"], bool):
        return "$.passed", "bad_passed"
    return None


_REQUIRED = frozenset(("case_id", "run", "model", "expected_calls", "actual_calls"))


def _key(value: Any, option: int = 0) -> bytes:
    """A value's JSON bytes as a key; b"" (share nothing) when it is nested past orjson.dumps'
    depth limit (orjson.loads reads deeper). Copied: orjson's own result keeps its 4 KB output buffer
    (evaluation._freeze)."""
    try:
        return bytes(memoryview(orjson.dumps(value, option=option)))
    except (TypeError, orjson.JSONEncodeError):
        return b""


def read_native(data: bytes) -> RunLog:
    """Read native JSONL (see the module docstring). Blank lines are skipped.

    Identical ``expected_calls`` and ``actual_calls`` lines share one Python object each (so
    grading can key them by identity), and each distinct ``tools`` list is checked and kept once.
    """
    log = RunLog([], tool_sets=[], fmt="native")
    runs, problems = log.runs, log.problems
    tool_index: dict[bytes, int] = {}
    refused: dict[bytes, tuple[int, dict]] = {}  # tool lists whose schema was refused: checked once, not per line
    shared: dict[bytes, tuple] = {}
    current = -1
    budget = _Budget()
    loads, sort_keys = exact_loads, orjson.OPT_SORT_KEYS
    # Lines as a C iterator over a view of ``data`` (no copy); each keeps its "\n", which orjson skips.
    for number, raw in enumerate(io.BytesIO(data), start=1):
        if len(raw) > MAX_LINE_CHARS and (size := len(raw.rstrip(b"\n"))) > MAX_LINE_CHARS:
            if not raw.strip():
                continue
            if _stop(log, number, "$"):
                break
            problems.append(LineProblem(number, "$", "line_too_long", {"size": size, "limit": MAX_LINE_CHARS}))
            continue
        if len(runs) + len(problems) >= MAX_RUNS or len(problems) >= MAX_PROBLEMS:
            if not raw.strip():
                continue
            _stop(log, number, "$")
            break
        try:
            rec = loads(raw)
        except orjson.JSONDecodeError as exc:
            if not raw.strip():
                continue
            code, params = json_failure(raw, exc, number)
            problems.append(LineProblem(number, "$", code, params))
            continue
        # Identical expected_calls and actual_calls are checked and built once, then shared:
        # a line whose two lists were seen before only has its scalar fields checked here.
        if type(rec) is dict and _REQUIRED <= rec.keys():
            expected_key, calls_key = b"e" + _key(rec["expected_calls"]), b"c" + _key(rec["actual_calls"])
            expected, calls = shared.get(expected_key), shared.get(calls_key)
            cid, run, passed = rec["case_id"], rec["run"], rec.get("passed", False)
            sound = (expected is not None and calls is not None and type(cid) is str and 0 < len(cid) <= 200
                     and type(run) is int and run >= 0 and type(rec["model"]) is str and type(passed) is bool)
        else:
            sound = False
        if not sound:
            if found := _native_problem(rec):
                problems.append(LineProblem(number, *found))
                continue
            new = [key if len(key) > 1 else raw for key, kept in ((expected_key, expected), (calls_key, calls))
                   if kept is None]  # a value too deep for a key: its whole line counted
            if not budget.spend(*new):
                _over_budget(log, number, "$")
                break
            if expected is None:
                expected = tuple(rec["expected_calls"])
                if len(expected_key) > 1:
                    shared[expected_key] = expected
            if calls is None:
                calls = tuple(Call(c["name"], c.get("arguments"), c.get("raw_arguments")) for c in rec["actual_calls"])
                if len(calls_key) > 1:
                    shared[calls_key] = calls
        tools = rec.get("tools")
        if tools is not None or "tools" in rec:
            key = (_key(tools, sort_keys) or b"unique:%d" % number) if type(tools) is list else b""
            if key in refused:
                at, params = refused[key]
                problems.append(LineProblem(number, f"$.tools[{at}].input_schema", "tool_bad_schema", params))
                continue
            if key not in tool_index:
                if found := _tools_problem(tools):
                    problems.append(LineProblem(number, *found))
                    continue
                if len(log.tool_sets) >= MAX_TOOL_SETS:
                    problems.append(LineProblem(number, "$.tools", "too_many_tool_sets", {"limit": MAX_TOOL_SETS}))
                    continue
                if not budget.spend(key if key.startswith(b"[") else raw):
                    _over_budget(log, number, "$.tools")
                    break
                # after the budget: what the schema checks cost is bounded by the values a log may keep (a refused
                # list stays counted)
                if found := next(((i, bad) for i, tool in enumerate(tools)
                                  if (bad := _schema_problem(tool["name"], tool["input_schema"]))), None):
                    refused[key] = found
                    problems.append(LineProblem(number, f"$.tools[{found[0]}].input_schema", "tool_bad_schema",
                                                found[1]))
                    continue
                tool_index[key] = len(log.tool_sets)
                log.tool_sets.append({t["name"]: t["input_schema"] for t in tools})
            current = tool_index[key]
        elif current < 0:
            problems.append(LineProblem(number, "$.tools", "first_run_needs_tools"))
            continue
        runs.append(Run(rec["case_id"], rec["run"], rec["model"], expected, calls, current, rec.get("passed"), number))
    if not log.tool_sets:
        log.tool_sets.append({})
    return log


# --- τ-bench / τ²-bench ----------------------------------------------------------------------


def tau_success(reward: float) -> bool:
    """τ-bench's ``is_successful``: 1 - 1e-6 ≤ reward ≤ 1 + 1e-6."""
    return (1 - 1e-6) <= reward <= (1 + 1e-6)


def read_tau(data: bytes) -> RunLog:
    """Read a τ-bench results list or a τ²-bench Results object (see the module docstring)."""
    doc = _json_doc(data)
    log = RunLog([], fmt="tau")
    if isinstance(doc, dict) and isinstance(doc.get("simulations"), list):
        records, prefix, model = doc["simulations"], "$.simulations", _tau2_model(doc)
        log.notes.append(Note("tau2_results"))
    elif isinstance(doc, list):
        records, prefix, model = doc, "$", ""
        log.notes.append(Note("tau_results"))
    else:
        raise LogUnreadable("tau_shape")
    trials: set[Any] = set()
    position: dict[str, int] = {}
    for i, rec in enumerate(records):
        where = f"{prefix}[{i}]"
        if _stop(log, i + 1, where):
            break
        if not isinstance(rec, dict):
            log.problems.append(LineProblem(i + 1, where, "result_not_object"))
            continue
        if rec.get("termination_reason") == "infrastructure_error":
            continue
        reward = rec["reward_info"].get("reward") if isinstance(rec.get("reward_info"), dict) else rec.get("reward")
        if _too_large(rec.get("task_id")):
            log.problems.append(LineProblem(i + 1, f"{where}.task_id", "number_too_large"))
        elif not isinstance(rec.get("task_id"), (str, int)) or isinstance(rec.get("task_id"), bool):
            log.problems.append(LineProblem(i + 1, f"{where}.task_id", "task_id_required"))
        elif _too_large(rec.get("trial")):
            log.problems.append(LineProblem(i + 1, f"{where}.trial", "number_too_large"))
        elif not isinstance(reward, (int, float)) or isinstance(reward, bool):
            field = f"{where}.reward_info.reward" if "reward_info" in rec else f"{where}.reward"
            log.problems.append(LineProblem(i + 1, field, "reward_required"))
        elif len(task := str(rec["task_id"])) > MAX_ID_CHARS:
            log.problems.append(LineProblem(i + 1, f"{where}.task_id", "too_long", _too_long(task)))
        else:
            position[task] = position.get(task, 0) + 1  # without a trial field: the task's own count
            trial = rec.get("trial") if _is_int(rec.get("trial")) else position[task] - 1
            trials.add(trial)
            log.runs.append(Run(task, trial, model, None, (), 0, tau_success(reward), i + 1))
    per_task: dict[str, int] = {}
    for run in log.runs:
        per_task[run.case_id] = per_task.get(run.case_id, 0) + 1
    if per_task and min(per_task.values()) < len(trials):
        log.notes.append(Note("tau_fewer_trials", {"trials": len(trials)}))
    return log


def _tau2_model(doc: dict) -> str:
    info = doc.get("info")
    agent = info.get("agent_info") if isinstance(info, dict) else None
    return str(agent.get("llm") or "") if isinstance(agent, dict) else ""


# --- Inspect AI ------------------------------------------------------------------------


def value_to_float(value: Any) -> float:
    """Inspect's default ``value_to_float``: C → 1, P → 0.5, I and N → 0, booleans and numbers
    as numbers, "yes"/"true" → 1, "no"/"false" → 0, a numeric string as its number, else 0."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        table = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
        if text in table:
            return table[text]
        if text.lower() in ("yes", "true"):
            return 1.0
        if text.lower() in ("no", "false"):
            return 0.0
        try:
            return float(text)
        except ValueError:
            return 0.0
    return 0.0


#: Top-level keys of an Inspect EvalLog (https://inspect.aisi.org.uk/eval-logs.html): an object with none of them
#: is not one ({} stays an empty log).
_INSPECT_KEYS = frozenset({"version", "status", "eval", "plan", "results", "stats", "error", "samples", "reductions"})


def _inspect_samples(data: bytes) -> tuple[str, Iterator[tuple[str, Any]]]:
    """(model, iterator of (where, sample or an exception)) for a .json or .eval log."""
    if data[:2] != b"PK":
        try:
            doc = _json_doc(data)
        except LogTooLarge as exc:  # a .json log is parsed whole; a .eval one sample at a time
            if exc.code == "document_too_large":
                raise LogTooLarge("inspect_json_too_large", exc.size, exc.limit) from None
            raise
        if not isinstance(doc, dict) or not isinstance(doc.get("samples", []), list) \
                or (doc and not doc.keys() & _INSPECT_KEYS):  # {"hello": "world"} is no Inspect log without runs
            raise LogUnreadable("inspect_shape")
        model = str((doc.get("eval") or {}).get("model") or "") if isinstance(doc.get("eval"), dict) else ""
        return model, ((f"$.samples[{i}]", s) for i, s in enumerate(doc.get("samples") or []))
    # Each central-directory header starts with this signature: an upper bound on the members, counted before
    # zipfile builds a ZipInfo for each (480 000 empty members, 42 MB, took 258 MB before the count refused them).
    if (headers := data.count(b"PK\x01\x02")) > MAX_MEMBERS:
        raise LogTooLarge("too_many_members", headers, MAX_MEMBERS)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError):
        raise LogUnreadable("not_zip") from None  # zipfile's own English text is not shown
    if len(infos) > MAX_MEMBERS:
        raise LogTooLarge("too_many_members", len(infos), MAX_MEMBERS)
    unpacked = sum(i.file_size for i in infos)
    if unpacked > MAX_UNCOMPRESSED:
        raise LogTooLarge("unpacked_too_large", unpacked, MAX_UNCOMPRESSED)
    if _overlapping(infos):
        raise LogUnreadable("overlapping_members")
    names = {i.filename for i in infos}
    model = ""
    for head in ("header.json", "_journal/start.json", "start.json"):
        if head in names:
            try:
                spec = _json_doc(_member(data, zf, zf.getinfo(head)), head).get("eval") or {}
                model = str(spec.get("model") or "")
            except (ValueError, AttributeError, *ZIP_MEMBER_FAILURES):
                pass
            break

    def samples() -> Iterator[tuple[str, Any]]:
        for info in sorted(infos, key=lambda i: i.filename):
            if info.filename.startswith("samples/") and info.filename.endswith(".json"):
                try:
                    yield member_name(info.filename), _json_doc(_member(data, zf, info), member_name(info.filename))
                except (LogUnreadable, LogTooLarge, *ZIP_MEMBER_FAILURES) as exc:
                    yield member_name(info.filename), exc

    return model, samples()


def _overlapping(infos: list[zipfile.ZipInfo]) -> bool:
    """Whether two members of the directory share bytes: a member's packed data starts at least 30 bytes (its local
    header, APPNOTE 4.3.7) after its ``header_offset`` and is ``compress_size`` long, so it must end before the next
    member's header. A zip writer never shares bytes; a crafted directory does, to have one packed stream unpacked
    once per entry: 1 000 entries naming one 1 MB bzip2 stream of 4 MB of text (a 1 MB upload) took 105 s of CPU,
    each entry unpacked to the member limit. Python 3.11's zipfile does not look (3.12 refuses "overlapped
    entries"), and the bzip2, LZMA and Zstandard members are not read through it. With no overlap, what is
    unpacked is bounded by what the upload holds. Sorting is n log n in the members."""
    spans = sorted((info.header_offset, info.compress_size) for info in infos)
    return any(start + 30 + size > following for (start, size), (following, _) in zip(spans, spans[1:]))


#: What reading one zip member can raise besides our own refusals: a broken entry (BadZipFile: a bad CRC, a size
#: that differs from the declared one), a damaged compressed stream (zlib.error, lzma.LZMAError, zstd.ZstdError, OSError
#: from bz2, EOFError), an encrypted member (RuntimeError) or a compression method this reader cannot unpack
#: (NotImplementedError, a RuntimeError: deflate64, AES), or a directory placing the member before the archive's first
#: byte (ValueError: zipfile's negative seek). Each is that member's problem, never the reader's traceback.
ZIP_MEMBER_FAILURES = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, zlib.error, lzma.LZMAError,
                       zstd.ZstdError)


#: Longest zip member name a problem quotes, in characters: a name may be 65 535 bytes long, and the upload's
#: problem list quotes one per member (700 members of 30 000-character names: a 21 MB list on the page).
MAX_NAME_CHARS = 120


def member_name(name: str) -> str:
    """A member's name as problems quote it: whole up to MAX_NAME_CHARS characters, else its first
    MAX_NAME_CHARS - 20 and its last 10 around ``…``, so the folder and the ``.json`` end stay readable."""
    return name if len(name) <= MAX_NAME_CHARS else f"{name[:MAX_NAME_CHARS - 20]}…{name[-10:]}"


#: Zip compression method of Zstandard (APPNOTE 4.4.5; zipfile.ZIP_ZSTANDARD from Python 3.14), how Inspect packs .eval
#: members since UKGovernmentBEIS/inspect_ai PR #3145.
ZIP_ZSTANDARD = 93
#: Compressed bytes fed to a decompressor at a time.
_PACKED_CHUNK = 65_536
#: Largest Zstandard window a member may ask for, as a power of two (8 MiB): the decoder sets the window aside
#: (outside Python's allocator) before it writes a byte, and a frame may ask for up to 2 GiB. zstd's levels 1-19 write
#: at most 2**23 (its clevels.h), its default 3 writes 2**21; a frame asking for more is that member's problem.
ZSTD_WINDOW_LOG_MAX = 23


def _zip_lzma(packed: memoryview) -> tuple[lzma.LZMADecompressor, memoryview]:
    """A decompressor for a zip LZMA member (APPNOTE 5.8.8: 2 bytes of version, 2 of properties size, the 5 bytes of
    LZMA1 properties: lc/lp/pb in one byte, then the dictionary size) and the raw stream after that header. The
    dictionary is allocated whole before a byte comes out and a header may ask for 4 GiB; no match reaches further
    back than the bytes unpacked so far, which stop one past MAX_JSON_BYTES, so a dictionary of that size unpacks
    the same bytes."""
    if len(packed) < 9 or struct.unpack("<H", packed[2:4])[0] != 5:
        raise EOFError("LZMA header")
    props, (dict_size,) = packed[4], struct.unpack("<I", packed[5:9])
    if props >= 9 * 5 * 5:
        raise lzma.LZMAError("LZMA properties")
    lzma1 = {"id": lzma.FILTER_LZMA1, "lc": props % 9, "lp": props // 9 % 5, "pb": props // 45,
             "dict_size": max(4096, min(dict_size, MAX_JSON_BYTES + 1))}  # 4 KiB: liblzma's smallest
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma1]), packed[9:]


#: Compression methods read with our own bounded decompression (each decompressor's ``decompress(data, max_length)``
#: stops at max_length): zipfile cannot unpack Zstandard before Python 3.14, and Python 3.11's zipfile reads bzip2 and
#: LZMA with ``decompress(data)``, unbounded: a 40 MB bzip2 or LZMA member declaring 100 bytes, under a 100 KB member
#: limit, took 88 MB of allocations before the read was cut. Stored and deflate members go through zipfile, whose
#: reads pass a max_length.
_OWN_UNPACK = {
    ZIP_ZSTANDARD: lambda packed: (
        zstd.ZstdDecompressor(options={zstd.DecompressionParameter.window_log_max: ZSTD_WINDOW_LOG_MAX}), packed),
    zipfile.ZIP_BZIP2: lambda packed: (bz2.BZ2Decompressor(), packed),
    zipfile.ZIP_LZMA: _zip_lzma,
}


def _packed(archive: bytes, info: zipfile.ZipInfo) -> memoryview:
    """A member's compressed bytes: ``compress_size`` bytes after its local header (APPNOTE 4.3.7: 30 bytes, then
    the name and the extra field, each as long as that header says). Raises BadZipFile when the local header is
    missing or the bytes run past the archive, RuntimeError for an encrypted member (as zipfile does)."""
    if info.flag_bits & 0x1:
        raise RuntimeError("encrypted member")
    at = info.header_offset
    head = archive[at:at + 30] if at >= 0 else b""  # a crafted directory can place a member before the archive
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("no local header")
    name_length, extra_length = struct.unpack("<HH", head[26:30])
    start = at + 30 + name_length + extra_length
    if start + info.compress_size > len(archive):
        raise zipfile.BadZipFile("truncated member")
    return memoryview(archive)[start:start + info.compress_size]


def _unpack(info: zipfile.ZipInfo, archive: bytes, limit: int) -> bytes:
    """At most ``limit`` bytes of a bzip2, LZMA or Zstandard member (_OWN_UNPACK), its compressed bytes fed
    _PACKED_CHUNK at a time and each call asked for no more than what is left of ``limit``: what one call allocates
    is bounded by the limit whatever the ratio. Raises the decompressor's error when the stream is damaged; one that
    ends early comes back short (_member compares the size)."""
    decompressor, packed = _OWN_UNPACK[info.compress_type](_packed(archive, info))
    out = bytearray()
    at = 0
    while len(out) < limit and not decompressor.eof:
        chunk = b""
        if decompressor.needs_input:
            if at >= len(packed):  # no more input (an LZMA stream may end without its end marker): the size decides
                break
            chunk, at = packed[at:at + _PACKED_CHUNK], at + _PACKED_CHUNK
        out += decompressor.decompress(chunk, limit - len(out))
    return bytes(out)


def _member(archive: bytes, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One member's bytes (``archive`` is the zip ``zf`` reads), refused (LogTooLarge) when its declared or its
    actual unpacked size is over MAX_JSON_BYTES: decompression streams and stops one byte past the limit. Stored
    and deflate members are read by zipfile (bounded by the declared size, CRC-checked), bzip2, LZMA and Zstandard
    ones by _unpack, stopped one byte past the declared size (not the limit: 1 000 members declaring 1 byte each
    and packing 4 MB of zeros in 49 bytes of bzip2 took 8.6 s of CPU to unpack to the limit), then checked against
    the declared size and CRC-32 (BadZipFile when they differ). What a log unpacks is so bounded by the declared
    sizes, which MAX_UNCOMPRESSED bounds."""
    name = member_name(info.filename)
    if info.file_size > MAX_JSON_BYTES:
        raise LogTooLarge("member_too_large", info.file_size, MAX_JSON_BYTES, name=name)
    if info.compress_type in _OWN_UNPACK:  # one byte past the declared size tells a member that lies about it
        data = _unpack(info, archive, info.file_size + 1)
    else:
        with zf.open(info) as member:
            data = member.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        raise LogTooLarge("member_too_large", len(data), MAX_JSON_BYTES, name=name)
    if info.compress_type in _OWN_UNPACK and (len(data) != info.file_size or zlib.crc32(data) != info.CRC):
        raise zipfile.BadZipFile(f"size or CRC-32 differs from the header of {name}")
    return data


def _listed(value: Any) -> list:
    """``value`` when it is a list, else ``[]``: a sample's ``events``, ``messages`` or ``tool_calls`` of another
    type (a number) raised TypeError out of the reader (``x or []`` keeps any truthy value; break-it brk12web2)."""
    return value if isinstance(value, list) else []


def _inspect_tools(sample: dict) -> dict[str, dict]:
    for event in _listed(sample.get("events")):
        if isinstance(event, dict) and event.get("event") == "model" and isinstance(event.get("tools"), list):
            return {
                t["name"]: t.get("parameters") or {}
                for t in event["tools"]
                if isinstance(t, dict) and isinstance(t.get("name"), str)
            }
    return {}


def _inspect_calls(sample: dict) -> tuple[Call, ...]:
    for message in _listed(sample.get("messages")):
        if isinstance(message, dict) and message.get("role") == "assistant":
            calls = []
            for call in _listed(message.get("tool_calls")):
                if isinstance(call, dict) and isinstance(call.get("function"), str):
                    calls.append(Call(call["function"], call.get("arguments"), None, call.get("parse_error")))
            return tuple(calls)
    return ()


def _member_problem(number: int, where: str, exc: Exception) -> LineProblem:
    """One .eval member that could not be read, as a problem (too large, not JSON, a broken zip entry)."""
    if isinstance(exc, LogTooLarge) and exc.code in ("member_too_large", "member_too_many_values"):
        return LineProblem(number, where, exc.code, dict(exc.params))
    if isinstance(exc, LogUnreadable) and exc.code in ("not_json", "not_utf8"):
        return LineProblem(number, where, f"member_{exc.code}", dict(exc.params))
    return LineProblem(number, where, "member_unreadable")  # zipfile's English text is not shown


def read_inspect(data: bytes) -> RunLog:
    """Read an Inspect AI log, ``.json`` text or ``.eval`` zip bytes (see the module docstring)."""
    log = RunLog([], tool_sets=[], fmt="inspect")
    if not data.strip():  # an empty file named .eval is an empty log, as an empty file of the other formats is
        return log
    model, samples = _inspect_samples(data)
    tool_index: dict[str, int] = {}
    refused: dict[str, dict] = {}  # tool lists whose schema was refused: checked once, not per sample
    scorer_seen = None
    budget = _Budget()
    for number, (where, sample) in enumerate(samples, start=1):
        if _stop(log, number, where):
            break
        if isinstance(sample, Exception):
            log.problems.append(_member_problem(number, where, sample))
            continue
        if not isinstance(sample, dict) or not isinstance(sample.get("id"), (str, int)):
            log.problems.append(LineProblem(number, f"{where}.id", "sample_needs_id"))
            continue
        if len(sid := str(sample["id"])) > MAX_ID_CHARS:
            log.problems.append(LineProblem(number, f"{where}.id", "too_long", _too_long(sid)))
            continue
        if not _is_int(sample.get("epoch")):
            code = "number_too_large" if _too_large(sample.get("epoch")) else "sample_needs_epoch"
            log.problems.append(LineProblem(number, f"{where}.epoch", code))
            continue
        meta = sample.get("metadata") if isinstance(sample.get("metadata"), dict) else {}
        expected = meta.get("expected_calls")
        if expected is not None and _native_problem(
            {"case_id": "x", "run": 0, "model": "", "expected_calls": expected, "actual_calls": []}
        ):
            log.problems.append(
                LineProblem(
                    number, f"{where}.metadata.expected_calls", "bad_metadata_expected"
                )
            )
            continue
        scores = sample.get("scores") if isinstance(sample.get("scores"), dict) else {}
        passed = None
        if scores:
            scorer_seen = scorer_seen or next(iter(scores))
            first = scores.get(scorer_seen) or next(iter(scores.values()))
            if isinstance(first, dict) and "value" in first:
                passed = value_to_float(first["value"]) >= 1.0
        tools = _inspect_tools(sample)
        calls = _inspect_calls(sample)
        if (name := next((n for n in (*tools, *(c.name for c in calls)) if len(n) > MAX_ID_CHARS), None)) is not None:
            field = f"{where}.events" if name in tools else f"{where}.messages"
            log.problems.append(LineProblem(number, field, "too_long", _too_long(name)))
            continue
        if (name := next((c.name for c in calls if c.name in RESERVED_TOOL_NAMES), None)) is not None:
            log.problems.append(LineProblem(number, f"{where}.messages", "reserved_tool_name", {"name": name}))
            continue
        key = json.dumps(tools, sort_keys=True)
        if key in refused:
            log.problems.append(LineProblem(number, f"{where}.events", "tool_bad_schema", refused[key]))
            continue
        if key not in tool_index and len(log.tool_sets) >= MAX_TOOL_SETS:
            log.problems.append(LineProblem(number, f"{where}.events", "too_many_tool_sets", {"limit": MAX_TOOL_SETS}))
            continue
        if not budget.spend_values(expected, [c.arguments for c in calls], tools if key not in tool_index else None):
            _over_budget(log, number, where)
            break
        # after the budget, as for native tool lists
        if key not in tool_index and (bad := next(filter(None, (_schema_problem(n, v) for n, v in tools.items())),
                                                  None)):
            refused[key] = bad
            log.problems.append(LineProblem(number, f"{where}.events", "tool_bad_schema", bad))
            continue
        if key not in tool_index:
            tool_index[key] = len(log.tool_sets)
            log.tool_sets.append(tools)
        log.runs.append(
            Run(
                sid,
                sample["epoch"],
                model,
                tuple(expected) if expected is not None else None,
                calls,
                tool_index[key],
                passed,
                number,
            )
        )
    if scorer_seen:
        # quoted as a member's name is (member_name): the key is the log's, of any length, and the note is drawn on
        # every rerun of the selection lab (a 3.5 KB .eval named a scorer of a million characters: a 7 MB caption)
        log.notes.append(Note("inspect_score", {"scorer": member_name(scorer_seen)}))
    if not log.tool_sets:
        log.tool_sets.append({})
    return log


# --- a recorded log of the course (fixtures/eval_runs/*.jsonl) -------------------------------


@dataclass(frozen=True)
class Recorded:
    """A recorded run log as the selection lab shows it: the ``log``, the ``tools`` the first line lists
    (``(name, description)``) and each line's ``request`` (``{line: text}``, for the drill-down)."""

    log: RunLog
    tools: tuple[tuple[str, str], ...]
    requests: dict[int, str]


def read_recorded(path: Path) -> Recorded:
    """Read the native log at ``path`` through toolcall.files (a regular file of at most MAX_BYTES bytes:
    not a FIFO, a device, a folder or a link to nothing). Raises FixtureError naming the file, with the
    reason or every bad line (``line N: $.field``), when it cannot be read, is not UTF-8 text, has a line
    the reader refuses or one whose object writes a key twice, a tool description or a request that is not a
    string, or no runs: the page then says so, and ``python -m toolcall check`` lists the same problems."""
    from toolcall.files import ReadError, not_utf8, read_bytes_bounded
    from toolcall.fixtures import FixtureError, Problem, display_name, duplicate_key_message, json_with_duplicates
    from toolcall.markdown_hazards import hidden_text

    name = display_name(path)
    try:
        data = read_bytes_bounded(path, MAX_BYTES)
        data.decode("utf-8")
    except ReadError as exc:
        raise FixtureError([Problem(name, "$", f"cannot read file: {exc}")]) from None
    except UnicodeDecodeError as exc:
        raise FixtureError([Problem(name, "$", f"cannot read file: {not_utf8(exc)}")]) from None  # UTF-16 named
    data = data.removeprefix(codecs.BOM_UTF8)  # as read_log reads it
    log = read_log(data, "native", name)
    problems = [Problem(name, f"line {p.line}: {p.field}", p.message) for p in log.problems]
    tools: tuple[tuple[str, str], ...] | None = None
    requests: dict[int, str] = {}
    used = {run.line for run in log.runs}
    first = min(used, default=0)
    for number, raw in enumerate(data.split(b"\n"), start=1):  # read_native's lines
        if number not in used:
            continue
        rec, twice = json_with_duplicates(raw.decode("utf-8"))  # read_native's orjson keeps the last silently
        if twice is not None:
            problems.append(Problem(name, f"line {number}: {twice[0]}", duplicate_key_message(twice[1])))
        if tools is None and isinstance(rec.get("tools"), list):
            tools = tuple((tool["name"], tool.get("description", "")) for tool in rec["tools"])
            problems += [Problem(name, f"line {number}: $.tools[{i}].description", "must be a string")
                         for i, (_, text) in enumerate(tools) if not isinstance(text, str)]
        if not isinstance(rec.get("request", ""), str):
            problems.append(Problem(name, f"line {number}: $.request", "must be a string"))
        else:
            requests[number] = rec.get("request", "")
        # the texts the lab shows students (the descriptions once, each request): a hidden character is named, as in
        # every other instructor file (break-it pass brk16content: a zero-width space in one passed check)
        shown = [("$.request", requests.get(number, ""))] + [
            (f"$.tools[{i}].description", text) for i, (_, text) in enumerate(tools or ())
            if number == first and isinstance(text, str)]
        problems += [Problem(name, f"line {number}: {where}", found) for where, text in shown
                     if (found := hidden_text(text))]
    problems += _repeated_runs(name, log.runs)
    if not log.runs and not problems:
        problems.append(Problem(name, "$", "no runs"))
    if problems:
        raise FixtureError(problems)
    return Recorded(log, tools or (), requests)


def _repeated_runs(name: str, runs) -> list:
    """A Problem at each run whose (case_id, run) an earlier line of the log already holds: a line pasted twice passed
    check and the selection lab counted it as one more run (n 14 for a case of 10, a pass^k drawn from the copies;
    break-it pass brk16content). At most MAX_PROBLEMS, each case id cut at 40 characters as drawn (quoted_head, as
    check's lists of case ids): a 200-character id of tag characters was drawn whole, 2 400 characters a line."""
    from toolcall.fixtures import Problem

    first: dict[tuple[str, int], int] = {}
    problems = []
    for run in runs:
        at = first.setdefault((run.case_id, run.run), run.line)
        if at != run.line and len(problems) < MAX_PROBLEMS:
            problems.append(Problem(name, f"line {run.line}: $.run", f"run {run.run} of case "
                                    f"{quoted_head(run.case_id, 40)} is also line {at}: each run is counted once"))
    return problems
