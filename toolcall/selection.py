"""Selection test sets: typical requests, the tool each one should call (or none), and the
arguments it should fill, in the Berkeley Function Calling Leaderboard's answer form.

A set is data (``fixtures/selection/*.yaml``, schema ``fixtures/schemas/selection.schema.json``)
and the same rows a student edits in the lab's table. ``check_set`` holds a set to the
course's rules: every tool has at least MIN_PER_TOOL should-call and MIN_PER_TOOL
should-not-call samples, no request appears twice, every expected tool exists and every
expected argument is valid against that tool's input_schema (our validator).

Expected arguments follow BFCL's possible-answer form (``possible_answer`` files, checked by
``simple_function_checker`` in gorilla/berkeley-function-call-leaderboard,
bfcl/eval_checker/ast_eval/ast_checker.py): each parameter maps to a list of acceptable
values, and the empty string ``""`` in that list means the parameter may be omitted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall.fixtures import FixtureError, Problem, display_name, json_path, load_checked, load_tool
from toolcall.i18n import in_language, t
from toolcall.i18n import LANGS
from toolcall.parsing import MAX_DEPTH, TOO_LARGE, StrictJSONError, json_reason, localized_detail, strict_loads
from toolcall.text import escape_identifier, escape_lookalikes, reading_key
from toolcall.validation import validate

#: The course's rule: five "should call" and five "should not call" samples per tool.
MIN_PER_TOOL = 5
#: Largest set accepted (rows), and longest request text.
MAX_CASES = 500
MAX_REQUEST_CHARS = 2_000
#: Acceptable values checked per parameter of a case, and tool names per should_not_call list (the
#: shipped sets use at most 3 of each): past them a case is one problem, not thousands of
#: validations on every edit of the table.
MAX_VALUES_PER_PARAMETER, MAX_NAMES_PER_CASE = 10, 10
#: Acceptable values checked against the schemas in one whole set (each is one validation): the per-case cap
#: alone let 500 rows × 4 parameters × 10 values cost 20 000 validations, 4 s of CPU on every rerun of the
#: page. The shipped sets check about 60; past this many the rest is one problem, not checked.
MAX_CHECKED_VALUES = 1_000
#: Characters of a table cell read (an id, a should_not_call list), and of an expected_arguments cell.
MAX_CELL_CHARS = 2_000
MAX_ARGUMENTS_CHARS = 20_000
#: Characters each column of a table row reads (from_rows); past them the cell is cut and the set says so. The
#: page's editor holds more (ui.common.box_chars), so a longer paste reaches from_rows and is reported: with the
#: editor holding exactly these, the browser cut a longer paste at them without a word (break-it pass brk12web).
CELL_LIMITS = {"id": MAX_CELL_CHARS, "expected_tool": MAX_CELL_CHARS, "request": MAX_REQUEST_CHARS,
               "expected_arguments": MAX_ARGUMENTS_CHARS, "should_not_call": MAX_CELL_CHARS}
#: JSON lists and objects (one per ``[`` ``{``, counted on the text before it is parsed) the expected_arguments cells
#: of one whole table may hold: each costs 56 to 64 bytes for its 2 characters, so 500 cells of 20 000 characters of
#: ``[]`` (10 MB typed into the editor) kept 229 MB of lists on every rerun. Strings and numbers cost at most about
#: ten times their text, which MAX_ARGUMENTS_CHARS bounds. The shipped sets hold about 250.
MAX_ARGUMENT_VALUES = 20_000
#: Shown for "no tool" in tables and charts (expected or chosen).
NO_TOOL = "(no tool)"
OMIT = ""
#: Every code a SetProblem can carry, with the parameters its text takes (``eval.set.<code>`` in
#: toolcall/locales/<lang>/eval.yaml).
SET_CODES: dict[str, tuple[str, ...]] = {
    "too_few_should_call": ("tool", "count", "need"),
    "too_few_should_not_call": ("tool", "count", "need"),
    "duplicate_request": ("case", "other"),
    "duplicate_id": ("case",),
    "empty_request": ("case",),
    "unknown_tool": ("case", "tool"),
    "unknown_parameter": ("case", "tool", "param"),
    "bad_values": ("case", "param"),
    "omitted_required": ("case", "param"),
    "missing_required": ("case", "param"),
    "invalid_value": ("case", "param", "value", "pointer", "keyword", "expected"),
    "self_contradiction": ("case", "tool"),
    "bad_json": ("case",),
    "arguments_not_json": ("case", "reason"),
    "too_many_argument_values": ("case", "limit"),
    "cell_too_long": ("case", "column", "size", "limit"),
    "too_many": ("count", "limit"),
    "values_unchecked": ("count", "limit"),
    "too_many_values": ("case", "param", "count", "limit"),
    "too_many_names": ("case", "count", "limit"),
}


@dataclass(frozen=True)
class SelectionCase:
    """One request. ``expected_tool`` None means the model must call no tool;
    ``expected_arguments`` maps a parameter to its acceptable values (``""`` = may be
    omitted); ``should_not_call`` lists the tools this request is a near miss for."""

    id: str
    request: str
    expected_tool: str | None
    expected_arguments: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    should_not_call: tuple[str, ...] = ()

    def expected_calls(self) -> tuple[dict[str, Any], ...]:
        """The native-log form: ``()`` for no tool, else one ``{name, arguments}``."""
        if self.expected_tool is None:
            return ()
        return ({"name": self.expected_tool, "arguments": {k: list(v) for k, v in self.expected_arguments.items()}},)


@dataclass(frozen=True)
class SelectionSet:
    """A set as loaded: its language, the tool names it covers, its cases."""

    lang: str
    title: str
    tools: tuple[str, ...]
    cases: tuple[SelectionCase, ...]


@dataclass(frozen=True)
class SetProblem:
    """One broken rule. ``code`` is stable, one of SET_CODES (ValueError otherwise); ``case``
    the case id (or None for a tool-level rule); ``params`` fill the translated message
    ``eval.set.<code>``."""

    code: str
    case: str | None
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.code not in SET_CODES:
            raise ValueError(f"unknown selection-set problem code {self.code!r}")

    def message(self, lang: str = "en") -> str:
        """The problem in ``lang``. What the student typed is quoted so that two different things never read
        the same: tool and parameter names (ASCII in every schema) with escape_identifier, case ids and values
        with escape_lookalikes (``get_\\u043erder``: the Cyrillic о, not "no tool named get_order")."""
        shown = {k: _quoted(v, escape_identifier if k in ("tool", "param") else escape_lookalikes)
                 if isinstance(v, str) and k in QUOTED_PARAMS else v for k, v in self.params.items()}
        return t(f"eval.set.{self.code}", lang, **in_language(shown, lang))


#: The parameters of a SetProblem that quote what the student typed: case ids, tool and parameter names.
QUOTED_PARAMS = frozenset(("case", "other", "tool", "param"))
#: Characters of one of them a message quotes: whole up to this many, else its first MAX_QUOTED_CHARS - 24 and last
#: 20 around "…" (cut before escaping, so no escape is cut in half). A cell holds up to MAX_CELL_CHARS, and every
#: invisible or look-alike character is shown as a six-character \uXXXX: 60 rows of 2 000-character ids and names
#: drew a 710 KB error box (30 problems) on every rerun of the page (break-it pass brk14lab).
MAX_QUOTED_CHARS = 64


def _quoted(text: str, escape) -> str:
    """``text`` as a set problem quotes it: ``escape``d, cut as MAX_QUOTED_CHARS says."""
    if len(text) <= MAX_QUOTED_CHARS:
        return escape(text)
    return f"{escape(text[:MAX_QUOTED_CHARS - 24])}…{escape(text[-20:])}"


def _case(raw: dict[str, Any]) -> SelectionCase:
    args = {str(k): tuple(v) for k, v in (raw.get("expected_arguments") or {}).items()}
    return SelectionCase(
        raw["id"], raw["request"], raw.get("expected_tool"), args, tuple(raw.get("should_not_call") or ())
    )


def load_set(path: Path) -> SelectionSet:
    """Load a selection set file (schema ``selection``). Raises FixtureError."""
    data = load_checked(path, "selection")
    return SelectionSet(data["lang"], data["title"], tuple(data["tools"]), tuple(_case(c) for c in data["cases"]))


def load_tool_schemas(names, tools_dir: Path) -> dict[str, dict]:
    """``{name: input_schema}`` for every tool name that has ``tools_dir/<name>.json``;
    a name without a file is simply absent (check_set reports it as unknown_tool)."""
    schemas = {}
    for name in names:
        path = Path(tools_dir) / f"{name}.json"
        if re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name) and path.is_file():
            schemas[name] = load_tool(path).input_schema
    return schemas


def _norm_request(text: str) -> str:
    """The duplicate key of a request: what it reads as (toolcall.text.reading_key), so a zero-width
    space, a soft hyphen or a fullwidth letter does not make a copy pass as a new case."""
    return reading_key(text)


def _base_arguments(args: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """The first acceptable non-omitted value of every parameter: one complete call."""
    base = {}
    for name, values in args.items():
        present = [v for v in values if v != OMIT]
        if present:
            base[name] = present[0]
    return base


def _argument_problems(case: SelectionCase, schema: dict[str, Any], budget: list[int]) -> list[SetProblem]:
    """The problems of one case's expected arguments against ``schema``. ``budget`` is ``[values the set may
    still validate, values left unchecked]``: each validation spends one; once it is spent, values are counted
    as unchecked instead (check_set reports them)."""
    problems: list[SetProblem] = []
    props = schema.get("properties", {}) if isinstance(schema.get("properties"), dict) else {}
    required = [r for r in schema.get("required", []) if isinstance(r, str)]
    for name, values in case.expected_arguments.items():
        if len(values) > MAX_VALUES_PER_PARAMETER:
            problems.append(SetProblem("too_many_values", case.id, {"case": case.id, "param": name,
                                                                     "count": len(values),
                                                                     "limit": MAX_VALUES_PER_PARAMETER}))
        if name not in props:
            problems.append(
                SetProblem("unknown_parameter", case.id, {"case": case.id, "param": name, "tool": case.expected_tool})
            )
        elif not values:
            problems.append(SetProblem("bad_values", case.id, {"case": case.id, "param": name}))
        elif OMIT in values and name in required:
            problems.append(SetProblem("omitted_required", case.id, {"case": case.id, "param": name}))
    for name in required:
        if name not in case.expected_arguments:
            problems.append(SetProblem("missing_required", case.id, {"case": case.id, "param": name}))
    if problems:
        return problems
    base = _base_arguments(case.expected_arguments)
    seen: set[tuple[str, str]] = set()
    for name, values in case.expected_arguments.items():
        for value in values[:MAX_VALUES_PER_PARAMETER]:
            if value == OMIT:
                continue
            if budget[0] <= 0:
                budget[1] += 1
                continue
            budget[0] -= 1
            errors, _ = validate({**base, name: value}, schema)
            mine = "/" + name.replace("~", "~0").replace("/", "~1")
            for err in (e for e in errors if e.pointer == mine or e.pointer.startswith(mine + "/")):
                key = (err.pointer, json.dumps(value, ensure_ascii=False))
                if key not in seen:
                    seen.add(key)
                    problems.append(
                        SetProblem(
                            "invalid_value",
                            case.id,
                            {
                                "case": case.id,
                                "param": name,
                                "value": json.dumps(value, ensure_ascii=False)[:80],
                                "pointer": err.pointer or "/",
                                "keyword": err.keyword,
                                "expected": err.expected,
                            },
                        )
                    )
    return problems


def check_set(cases, schemas: dict[str, dict], tools=None) -> list[SetProblem]:
    """Every rule the set breaks, in a stable order (per-case problems in case order, then
    the per-tool counts in tool order).

    ``cases``: SelectionCases; ``schemas``: ``{tool name: input_schema}`` of the tools that
    exist; ``tools``: the names the set covers (default: every name in ``schemas``), each
    needing MIN_PER_TOOL should-call cases (expected_tool == name) and MIN_PER_TOOL
    should-not-call cases (name listed in should_not_call). Raises nothing.
    """
    tools = tuple(schemas) if tools is None else tuple(tools)
    problems: list[SetProblem] = []
    seen_requests: dict[str, str] = {}
    budget = [MAX_CHECKED_VALUES, 0]  # validations left, values left unchecked
    seen_ids: set[str] = set()
    for case in cases:
        id_key = reading_key(case.id, fold_case=False)  # "c1" and "c1<zero-width space>" are one id to a reader
        if id_key in seen_ids:
            problems.append(SetProblem("duplicate_id", case.id, {"case": case.id}))
        seen_ids.add(id_key)
        if not case.request.strip():
            problems.append(SetProblem("empty_request", case.id, {"case": case.id}))
        else:
            key = _norm_request(case.request)
            if key in seen_requests:
                problems.append(
                    SetProblem("duplicate_request", case.id, {"case": case.id, "other": seen_requests[key]})
                )
            else:
                seen_requests[key] = case.id
        if len(case.should_not_call) > MAX_NAMES_PER_CASE:
            problems.append(SetProblem("too_many_names", case.id, {"case": case.id, "count": len(case.should_not_call),
                                                                    "limit": MAX_NAMES_PER_CASE}))
        names = ([case.expected_tool] if case.expected_tool else []) + list(case.should_not_call[:MAX_NAMES_PER_CASE])
        for name in dict.fromkeys(names):
            if name not in schemas:
                problems.append(SetProblem("unknown_tool", case.id, {"case": case.id, "tool": name}))
        if case.expected_tool and case.expected_tool in case.should_not_call:
            problems.append(SetProblem("self_contradiction", case.id, {"case": case.id, "tool": case.expected_tool}))
        if case.expected_tool is None and case.expected_arguments:
            problems.append(
                SetProblem(
                    "unknown_parameter",
                    case.id,
                    {"case": case.id, "tool": NO_TOOL, "param": next(iter(case.expected_arguments))},
                )
            )
        elif case.expected_tool in schemas:
            problems += _argument_problems(case, schemas[case.expected_tool], budget)
    if budget[1]:
        problems.append(SetProblem("values_unchecked", None, {"count": budget[1], "limit": MAX_CHECKED_VALUES}))
    for tool in tools:
        calls = sum(1 for c in cases if c.expected_tool == tool)
        declines = sum(1 for c in cases if tool in c.should_not_call)
        if calls < MIN_PER_TOOL:
            problems.append(
                SetProblem("too_few_should_call", None, {"tool": tool, "count": calls, "need": MIN_PER_TOOL})
            )
        if declines < MIN_PER_TOOL:
            problems.append(
                SetProblem("too_few_should_not_call", None, {"tool": tool, "count": declines, "need": MIN_PER_TOOL})
            )
    return problems


# --- the editable table ----------------------------------------------------------------

#: Columns of the table a student edits, in order.
COLUMNS = ("id", "request", "expected_tool", "expected_arguments", "should_not_call")


def to_rows(cases) -> list[dict[str, str]]:
    """Cases as table rows of plain strings: expected_tool NO_TOOL for none, arguments as
    compact JSON, should_not_call comma-separated."""
    return [
        {
            "id": c.id,
            "request": c.request,
            "expected_tool": c.expected_tool or NO_TOOL,
            "expected_arguments": json.dumps({k: list(v) for k, v in c.expected_arguments.items()}, ensure_ascii=False)
            if c.expected_tool
            else "",
            "should_not_call": ", ".join(c.should_not_call),
        }
        for c in cases
    ]


#: Rows added in the table's editor that Streamlit is left to apply itself, on every rerun of the page: it adds them to
#: a DataFrame one at a time, each copying the table (pandas ``df.loc[new] = row``; issue 13, break-it pass brk10web:
#: a paste of 1 000 rows cost 2.6-2.9 s of CPU on every rerun, 4 000 rows 27 s). Past this many the page folds the
#: edits into the table's rows itself (linear) and starts a fresh editor from them.
FOLD_ADDED_ROWS = 20
#: The key Streamlit gives a row's index in an edit state (streamlit.elements.lib.column_config_utils.INDEX_IDENTIFIER).
INDEX_KEY = "_index"


def _cell(value: Any) -> str:
    return "" if value is None else value if isinstance(value, str) else str(value)


def _position(value: Any, size: int) -> int | None:
    """``value`` as a row position in ``0 .. size - 1``, else None (a bool, a negative or a text is no position)."""
    if isinstance(value, bool):
        return None
    try:
        pos = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return pos if 0 <= pos < size else None


def edits_to_fold(edits: Any, size: int, columns: tuple[str, ...]) -> bool:
    """Should the page apply a data editor's edit state (``{"edited_rows": {position: {column: value}},
    "added_rows": [{column: value}], "deleted_rows": [position]}``, what Streamlit keeps for st.data_editor) to the
    ``size`` rows of ``columns`` itself? True past FOLD_ADDED_ROWS added rows, and for an edit Streamlit would stop
    the page on: a position outside the table or a column it does not have (only a forged message sends those)."""
    if not isinstance(edits, dict):
        return False
    added, edited = edits.get("added_rows") or [], edits.get("edited_rows") or {}
    deleted = edits.get("deleted_rows") or []
    if not isinstance(added, list) or not isinstance(edited, dict) or not isinstance(deleted, list):
        return True
    if len(added) > FOLD_ADDED_ROWS:
        return True
    known = {*columns, INDEX_KEY}
    return (any(_position(pos, size) is None or not isinstance(change, dict) or not set(change) <= known
                for pos, change in edited.items())
            or any(_position(pos, size) is None for pos in deleted)
            or any(not isinstance(row, dict) or not set(row) <= known for row in added))


def fold_edits(rows: list[dict], edits: Any, columns: tuple[str, ...],
               limit: int = MAX_CASES) -> tuple[list[dict], int]:
    """``rows`` with a data editor's edit state applied as Streamlit applies it (cell edits by position, then the
    deletions, then the added rows), in time linear in both, keeping at most ``limit`` rows. Edits naming no row or
    column of the table are dropped. Returns ``(rows of plain strings, added rows not kept past the limit)``."""
    out = [{c: _cell(row.get(c)) for c in columns} for row in rows]
    edits = edits if isinstance(edits, dict) else {}
    edited = edits.get("edited_rows") if isinstance(edits.get("edited_rows"), dict) else {}
    for pos, change in edited.items():
        at = _position(pos, len(out))
        if at is not None and isinstance(change, dict):
            out[at].update({c: _cell(v) for c, v in change.items() if c in columns})
    deleted = edits.get("deleted_rows") if isinstance(edits.get("deleted_rows"), list) else []
    gone = {at for at in (_position(pos, len(out)) for pos in deleted) if at is not None}
    out = [row for i, row in enumerate(out) if i not in gone]
    added = edits.get("added_rows") if isinstance(edits.get("added_rows"), list) else []
    added = [row for row in added if isinstance(row, dict)]
    room = max(limit - len(out), 0)
    out += [{c: _cell(row.get(c)) for c in columns} for row in added[:room]]
    return out, max(len(added) - room, 0)


#: Characters the selection table holds at most, every cell together (issue 13; break-it pass brk12web). The
#: per-column caps let 500 rows hold 14 million characters (13.1 million measured: every cell at its column's
#: max_chars), each rerun of the page then taking 0.7 s and sending the whole table to the browser again. The
#: shipped sets hold about 6 000. An edit that would take the table past it is not kept.
MAX_TABLE_CHARS = 500_000
#: Characters of an edited cell's text echoed back in the message about an edit not kept; the rest is counted.
FOLD_EDIT_CHARS = 80


def table_chars(rows: list[dict]) -> int:
    """Characters of every cell of ``rows`` together."""
    return sum(len(_cell(v)) for row in rows for v in row.values())


def new_cells(before: Any, after: Any, size: int, columns: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """The cells a data editor's edit state ``after`` changes that ``before`` (the previous one, or None) did not,
    as ``(row number from 1, column, text)`` in table order: cell edits of the ``size`` rows the editor started
    from, then added rows (numbered after the rows left once the deletions are made). Empty added cells are not
    listed. Linear in both states."""
    def parts(edits: Any) -> tuple[dict, list, list]:
        edits = edits if isinstance(edits, dict) else {}
        edited, added, deleted = (edits.get(k) for k in ("edited_rows", "added_rows", "deleted_rows"))
        return (edited if isinstance(edited, dict) else {}, added if isinstance(added, list) else [],
                deleted if isinstance(deleted, list) else [])

    old_edited, old_added, _ = parts(before)
    edited, added, deleted = parts(after)
    old_by_pos = {_position(pos, size): change for pos, change in old_edited.items()}
    found = []
    for pos, change in sorted(((_position(p, size), c) for p, c in edited.items() if _position(p, size) is not None),
                              key=lambda pc: pc[0]):
        old = old_by_pos.get(pos) if isinstance(old_by_pos.get(pos), dict) else {}
        if isinstance(change, dict):
            found += [(pos + 1, c, _cell(v)) for c, v in change.items() if c in columns and old.get(c) != v]
    left = size - len({p for p in (_position(d, size) for d in deleted) if p is not None})
    for i, row in enumerate(added):
        old = old_added[i] if i < len(old_added) and isinstance(old_added[i], dict) else {}
        if isinstance(row, dict) and row != old:
            found += [(left + i + 1, c, _cell(row.get(c))) for c in columns
                      if _cell(row.get(c)) and row.get(c) != old.get(c)]
    return found


def _not_json(text: str, exc: StrictJSONError) -> dict[str, str]:
    """Why an expected_arguments cell is not JSON, in every language: strict_loads' own refusal (NaN, a number
    past a double, a key written twice, nesting past MAX_DEPTH), else json_reason's place to fix."""
    if exc.detail_key and exc.code != TOO_LARGE:
        return {lang: localized_detail(exc, lang) for lang in LANGS}
    return json_reason(text, pos=exc.pos or 0)


def from_rows(rows) -> tuple[list[SelectionCase], list[SetProblem]]:
    """Read edited table rows back into cases. A row whose arguments are not a JSON object of
    lists becomes a ``bad_json`` problem and is kept with no arguments; an empty id gets
    ``row<N>``. At most MAX_CASES rows are read (the rest is one ``too_many`` problem);
    a cell longer than its column reads (CELL_LIMITS) is cut there and is a ``cell_too_long`` problem; a row whose
    arguments would take the table past MAX_ARGUMENT_VALUES
    JSON lists and objects is a ``too_many_argument_values`` problem, kept with no arguments. Raises nothing."""
    cases: list[SelectionCase] = []
    problems: list[SetProblem] = []
    values = 0
    rows = list(rows)
    if len(rows) > MAX_CASES:
        problems.append(SetProblem("too_many", None, {"count": len(rows), "limit": MAX_CASES}))
        rows = rows[:MAX_CASES]
    for i, row in enumerate(rows):
        cells = {c: str(row.get(c) or "") for c in CELL_LIMITS}
        cells["expected_arguments"] = cells["expected_arguments"].strip()
        cid = cells["id"][:MAX_CELL_CHARS].strip() or f"row{i + 1}"
        problems += [SetProblem("cell_too_long", cid, {"case": cid, "column": c, "size": len(cells[c]), "limit": limit})
                     for c, limit in CELL_LIMITS.items() if len(cells[c]) > limit]
        tool = cells["expected_tool"][:MAX_CELL_CHARS].strip()
        tool = None if tool in ("", NO_TOOL) else tool
        text = cells["expected_arguments"]
        args: dict[str, tuple] = {}
        text = text[:MAX_ARGUMENTS_CHARS]
        values += text.count("[") + text.count("{")
        if text and values > MAX_ARGUMENT_VALUES:
            problems.append(SetProblem("too_many_argument_values", cid, {"case": cid, "limit": MAX_ARGUMENT_VALUES}))
        elif text:
            try:
                # strict, as every other JSON a student types: json.loads took NaN, Infinity and 1e400 as values
                # ("amount_cents = NaN fails the schema"), kept the last of a key written twice without a word, and
                # called 5 000 levels of nesting "not an object of lists" (break-it pass brk14lab)
                parsed = strict_loads(text, MAX_DEPTH)
                if not isinstance(parsed, dict) or not all(isinstance(v, list) for v in parsed.values()):
                    raise ValueError("not an object of lists")
                args = {str(k): tuple(v) for k, v in parsed.items()}
            except StrictJSONError as exc:  # why, as every "not JSON" message says it
                problems.append(SetProblem("arguments_not_json", cid, {"case": cid, "reason": _not_json(text, exc)}))
            except (ValueError, RecursionError):
                problems.append(SetProblem("bad_json", cid, {"case": cid}))
        avoid = tuple(s.strip() for s in cells["should_not_call"][:MAX_CELL_CHARS].split(",") if s.strip())
        cases.append(SelectionCase(cid, cells["request"][:MAX_REQUEST_CHARS], tool, args, avoid))
    return cases, problems


def check_selection_files(root: Path) -> list[Problem]:
    """``python -m toolcall check``: every fixtures/selection/*.yaml loads and passes check_set
    against fixtures/tools (messages in English, path ``$.cases[i]`` or ``$.tools``)."""
    problems: list[Problem] = []
    for path in sorted((Path(root) / "fixtures" / "selection").glob("*.y*ml")):
        try:
            sset = load_set(path)
            schemas = load_tool_schemas(
                sset.tools
                + tuple(c.expected_tool for c in sset.cases if c.expected_tool)
                + tuple(n for c in sset.cases for n in c.should_not_call),
                Path(root) / "fixtures" / "tools",
            )
        except FixtureError as exc:
            problems += exc.problems
            continue
        index = {c.id: i for i, c in enumerate(sset.cases)}
        for p in check_set(sset.cases, schemas, sset.tools):
            where = json_path(["cases", index[p.case]]) if p.case in index else "$.tools"
            problems.append(Problem(display_name(path), where, p.message("en")))
    return problems
