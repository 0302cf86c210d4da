"""Strict mode per provider: what each would refuse in a schema, what the SDK helpers rewrite,
and which constraints then leak (issue 15).

- ``report(schema, provider)``: findings (rules.py), the SDK transform (transforms.py), the
  request's tool declaration, and where the SDK and the docs disagree;
- ``leak_matrix(schema, outputs)``: canned outputs, plus one probe per constraint a transform
  moved into a description, validated against the original schema and each transformed one;
- ``openai_fix``: a schema OpenAI strict mode accepts, with its diff.

Pure core: no streamlit. Sources are cited in rules.py and transforms.py.
"""

from __future__ import annotations

import json
import re
from itertools import islice
from dataclasses import dataclass, field
from typing import Any

from toolcall.i18n import t
from toolcall.text import escaped_tail, visible_json
from toolcall.parsing import parse_tool_input
from toolcall.safe_validator import VALIDATION_BUDGET, SharedBudgetSpent, shared_budget, shared_budget_spent
from toolcall.strict.rules import (ANTHROPIC_SUPPORTED, OPENAI_MOVE, PROVIDERS, Finding, findings)
from toolcall.strict.transforms import (Moved, OpenAIFix, TransformError, TransformTooLarge, anthropic_transform,
                                        openai_fix as _fix, openai_transform, schema_diff)
from toolcall.strict.walk import subschemas
from toolcall.validation import rejected_keywords

__all__ = ["PROVIDERS", "Finding", "Moved", "OpenAIFix", "ProviderReport", "LeakMatrix", "LeakRow", "Verdict",
           "report", "leak_matrix", "openai_fix", "described_refusals", "finding_message", "schema_diff", "COLUMNS",
           "LEAK_BUDGET", "NOT_CHECKED"]


@dataclass(frozen=True)
class Disagreement:
    """The docs and the SDK helper treat ``keyword`` at ``path`` differently; ``note`` is the
    i18n key suffix ``strict.sdk.<note>`` saying how."""

    path: str
    keyword: str
    note: str


@dataclass
class ProviderReport:
    """Everything the panel and the CLI show for one provider.

    ``findings`` (sorted by path); ``refused`` True when any finding's effect is ``"400"``;
    ``transformed`` the SDK helper's output (Anthropic ``transform_schema``, OpenAI
    ``to_strict_json_schema``; for Gemini the schema unchanged) or None with
    ``transform_error`` when the helper raises (``transform_too_large`` the subschema limit,
    transforms.MAX_TRANSFORM_NODES, when it was stopped for size rather than raised); ``moved``
    the keywords the helper took out;
    ``declaration`` the tool as the request would carry it; ``disagreements`` docs vs SDK.
    """

    provider: str
    findings: list[Finding]
    refused: bool
    transformed: dict[str, Any] | None
    transform_error: str = ""
    transform_too_large: int = 0
    moved: list[Moved] = field(default_factory=list)
    declaration: dict[str, Any] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)


def finding_message(f: Finding, lang: str = "en") -> str:
    """The finding in words, from ``strict.rule.<rule id>`` with its params (values as JSON). What the schema wrote
    (its path, names, values) is quoted with look-alike letters of other scripts escaped (escape_lookalikes): a
    property named ``\u043erder_id`` (Cyrillic о) read "`order_id` is not in `required`" beside a ``required``
    that lists order_id. Each is cut to its last SHOWN_QUOTE_CHARS characters as drawn (escaped_tail): a path of long
    names nested 25 deep was quoted whole in every finding's sentence (break-it pass brk14web)."""
    params = {k: escaped_tail(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False), SHOWN_QUOTE_CHARS)
              for k, v in f.params.items()}
    return t(f"strict.rule.{f.rule}", lang, keyword=f.keyword, path=escaped_tail(f.path or "/", SHOWN_QUOTE_CHARS),
             **params)


#: Characters of a path, name or value a finding's sentence quotes (finding_message), its end kept after "…".
SHOWN_QUOTE_CHARS = 120


def report(schema: dict[str, Any], provider: str, name: str = "tool", description: str = "") -> ProviderReport:
    """Findings, SDK transform and declaration of ``schema`` for ``provider`` (one of PROVIDERS).

    ``schema`` must have passed validation.check_schema. Raises ValueError for an unknown provider.
    """
    found = findings(schema, provider)
    refused = any(f.effect == "400" for f in found)
    transformed, error, moved, too_large = None, "", [], 0
    disagreements: list[Disagreement] = []
    try:
        if provider == "anthropic":
            transformed, moved = anthropic_transform(schema)
        elif provider == "openai":
            transformed, moved = openai_transform(schema)
        else:
            transformed = schema
    except TransformError as exc:
        error = str(exc)
        too_large = exc.limit if isinstance(exc, TransformTooLarge) else 0
    if provider == "anthropic":
        disagreements = [Disagreement(m.path, m.keyword, "anthropic_moves_supported") for m in moved
                         if m.into == "description" and m.keyword in ANTHROPIC_SUPPORTED]
        declaration = {"name": name, "description": description, "strict": True,
                       "input_schema": transformed if transformed is not None else schema}
    elif provider == "openai":
        if transformed is not None:
            disagreements = [Disagreement(f.path, f.keyword, "openai_keeps") for f in findings(transformed, "openai")
                             if f.effect == "400"]
        disagreements += [Disagreement(f.path, f.keyword, "openai_required_no_null") for f in found
                          if f.rule == "openai.required"]
        declaration = {"type": "function", "function": {
            "name": name, "description": description, "strict": True,
            "parameters": transformed if transformed is not None else schema}}
    else:
        key = "parametersJsonSchema" if refused else "parameters"
        declaration = {"name": name, "description": description, key: schema}
    return ProviderReport(provider, found, refused, transformed, error, too_large, moved, declaration, disagreements)


def described_refusals(rep: ProviderReport) -> list[str]:
    """The keywords behind ``rep``'s refusal when every refusing finding (effect ``"400"``) is a
    keyword the SDK helper moves into the description (``Moved.into == "description"`` at the same
    pointer), sorted and without repeats; ``[]`` when the schema is not refused or any refusal has
    another cause. For the course's refund_order under Anthropic: ``["maxLength", "minimum"]``
    (rules.py: refused per ANTHROPIC_DOCS; transforms.py: transform_schema moves them into the
    description)."""
    refusing = [f for f in rep.findings if f.effect == "400"]
    described = {(m.path, m.keyword) for m in rep.moved if m.into == "description"}
    if not refusing or any((f.path, f.keyword) not in described for f in refusing):
        return []
    return sorted({f.keyword for f in refusing})


def openai_fix(schema: dict[str, Any]) -> OpenAIFix:
    """A schema OpenAI strict mode accepts (see transforms.OpenAIFix), with the diff."""
    return _fix(schema, OPENAI_MOVE)


# --- the leak matrix --------------------------------------------------------------------

#: Columns of the leak matrix: the schema your code validates with, then what each provider enforces.
COLUMNS = ("original", "anthropic", "openai", "openai_fix")


@dataclass(frozen=True)
class Verdict:
    """One output against one schema: ``accepted``, or the failing ``keywords``; ``parse`` the
    parse error code (INVALID_JSON …) when the text is not a JSON object; None when that
    column has no schema (the SDK helper raised). ``checked`` False: not judged, the matrix's
    LEAK_BUDGET was spent before this cell (then neither accepted nor rejected: NOT_CHECKED)."""

    accepted: bool
    keywords: tuple[str, ...] = ()
    parse: str = ""
    checked: bool = True


#: The verdict of a cell left when the leak matrix's LEAK_BUDGET is spent: no verdict at all.
NOT_CHECKED = Verdict(False, checked=False)


@dataclass
class LeakRow:
    """One output (canned, free or probe) across the COLUMNS.

    ``leaks`` the columns that accept what the original schema rejects (a constraint that is
    only text there: your code must validate again); ``overrejects`` the columns that reject
    what the original accepts (e.g. the call without ``note`` once ``note`` is required).
    ``moved`` names the moved keyword a probe tests (``"minimum"``), ``""`` for other rows.
    """

    id: str
    label: str
    raw: str
    verdicts: dict[str, Verdict | None]
    leaks: list[str] = field(default_factory=list)
    overrejects: list[str] = field(default_factory=list)
    moved: str = ""


@dataclass
class LeakMatrix:
    """Rows of the leak matrix and the schema of each column (None when its helper raised); ``unprobed``:
    the constraints moved into a description that got no probe row (past MAX_PROBES)."""

    schemas: dict[str, dict[str, Any] | None]
    rows: list[LeakRow]
    unprobed: int = 0

    @property
    def not_checked(self) -> int:
        """How many cells were left unjudged when LEAK_BUDGET was spent."""
        return sum(1 for row in self.rows for v in row.verdicts.values() if v is not None and not v.checked)


def _verdict(raw: str, schema: dict[str, Any] | None) -> Verdict | None:
    if schema is None:
        return None
    parsed = parse_tool_input(raw)
    if not parsed.ok:
        return Verdict(False, (), parsed.code or "INVALID_JSON")
    keywords = rejected_keywords(parsed.value, schema)  # a verdict explains nothing: 15 000 missing names x 76
    return Verdict(not keywords, keywords)  # validations were 1.1 million sentences, 18 s per edit (issue 13)


#: CPU seconds that judging every cell of one leak matrix may take together: the most one validation may take
#: (VALIDATION_BUDGET and the one retry of safe_validator.within_budget), as toolcall.judge.CANNED_BUDGET for the
#: canned outputs. Each cell had its own budget, so the free box's text (up to 100 000 characters) against a schema
#: that is slow on it cost four columns x two budgets: 3.6-4.0 s of CPU on every schema edit while the panel was
#: open (break-it pass brk13web), 0.1 s without the text. Cells left when it is spent are NOT_CHECKED.
LEAK_BUDGET = 2 * VALIDATION_BUDGET


def _judged(raw: str, schema: dict[str, Any] | None) -> Verdict | None:
    """:func:`_verdict` inside the matrix's shared budget: NOT_CHECKED once it is spent (never a verdict)."""
    if schema is not None and shared_budget_spent():
        return NOT_CHECKED
    try:
        return _verdict(raw, schema)
    except SharedBudgetSpent:
        return NOT_CHECKED


def _instance_path(schema_path: list[str]) -> list[str] | None:
    """``['properties', 'a', 'properties', 'b', 'minimum']`` → ``['a', 'b']``; None for other paths."""
    keys = schema_path[:-1]
    if len(keys) % 2 or any(k != "properties" for k in keys[::2]):
        return None
    return keys[1::2]


_PATTERN_TRIES = ("", "x", "0", "A-0", "zz", " ")


def violation(keyword: str, value: Any, node: dict[str, Any]) -> tuple[bool, Any]:
    """A value that breaks only ``keyword: value`` in ``node`` (``(False, None)`` when none is made):
    ``minimum: 1`` → 0, ``maxLength: 200`` → 201 ``x``, ``pattern`` → the first of a few short
    strings that does not match."""
    integer = "integer" in (node.get("type") if isinstance(node.get("type"), list) else [node.get("type")])
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if keyword == "minimum" and number:
        return True, value - 1
    if keyword == "maximum" and number:
        return True, value + 1
    if keyword in ("exclusiveMinimum", "exclusiveMaximum") and number:
        return True, value
    if keyword == "multipleOf" and number and value > 0:
        return (True, value + 1) if integer and value > 1 else ((False, None) if integer else (True, value * 1.5))
    if keyword == "minLength" and isinstance(value, int) and 0 < value <= 10_000:
        return True, "x" * (value - 1)
    if keyword == "maxLength" and isinstance(value, int) and 0 <= value < 10_000:
        return True, "x" * (value + 1)
    if keyword == "pattern" and isinstance(value, str):
        try:
            rx = re.compile(value)
        except re.error:
            return False, None
        for text in _PATTERN_TRIES:  # short strings: no pattern can take long on them
            if not rx.search(text):
                return True, text
    return False, None


#: The largest schema the playground's strict panel checks: at most MAX_PANEL_SUBSCHEMAS dict subschemas (the
#: root, each property, item, branch and definition: ``walk.subschemas``) and MAX_PANEL_CHARS characters of compact
#: JSON. The panel validates ~76 instances against four schemas, and jsonschema's work grows with both the nodes
#: and the lists in them (one error object per missing ``required`` name): near the editor's 200 000-character cap
#: a schema of 2 800 constrained properties took 9.7 s of server CPU per edit, 190 properties requiring 15 000
#: names 18 s, and every other session on that process waited (issue 13). At these caps the worst measured shape
#: costs about 0.45 s (bench/worst_edit.py). Tool schemas have a few dozen subschemas; the course's largest has 5.
#: The command line (``strict``) is not capped.
MAX_PANEL_SUBSCHEMAS = 200
MAX_PANEL_CHARS = 16_000


def panel_too_large(schema: Any) -> bool:
    """Whether ``schema`` is past MAX_PANEL_SUBSCHEMAS dict subschemas (``walk.subschemas``, the root included) or
    MAX_PANEL_CHARS characters of its JSON as the panel draws it (``text.visible_json``: a hidden character counts
    as its escape, 6 or 12 characters; counted as one, 15 800 tag characters drew 370 KB of escapes on every edit,
    break-it pass brk13web). Stops counting subschemas at the first past the cap; the JSON is written once (linear
    in the schema, which the editor caps)."""
    if next(islice(subschemas(schema), MAX_PANEL_SUBSCHEMAS, None), None) is not None:
        return True
    return len(visible_json(schema)) > MAX_PANEL_CHARS


#: Characters of a probe's place in its label (its end kept: toolcall.text.escaped_tail).
PROBE_LABEL_CHARS = 80
#: Probe rows of a leak matrix at most: each is validated against every column (up to VALIDATION_BUDGET each), so
#: a schema with a moved constraint on each of 400 properties took 82 s of CPU per rerun of the strict panel.
MAX_PROBES = 12


def _probes(schema: dict[str, Any], base: dict[str, Any],
            moved: list[Moved]) -> tuple[list[tuple[str, str, str, str]], int]:
    """``(id, label, raw, keyword)`` for each moved constraint on a (nested) property of ``base``, the first
    MAX_PROBES of them; and how many more moved constraints were not probed (not counted past the cap:
    each would need its property looked up and its value made, so at most the ones left to look at)."""
    out, seen = [], set()
    for index, m in enumerate(moved):
        if len(out) >= MAX_PROBES:
            rest = {x.path for x in moved[index:] if x.into == "description"} - seen
            return out, len(rest)
        if m.into != "description" or m.path in seen:
            continue
        parts = [p.replace("~1", "/").replace("~0", "~") for p in m.path.split("/")[1:]]
        where = _instance_path(parts)
        if not where:
            continue
        node: Any = schema
        for p in parts[:-1]:
            node = node.get(p) if isinstance(node, dict) else None
        made, bad = violation(m.keyword, m.value, node if isinstance(node, dict) else {})
        if not made:
            continue
        instance = json.loads(json.dumps(base))
        target = instance
        for key in where[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            continue
        target[where[-1]] = bad
        seen.add(m.path)
        shown = json.dumps(bad, ensure_ascii=False)
        shown = shown if len(shown) <= 24 else shown[:20] + "…\""
        # a Cyrillic "nоte" must not read as "note" (as the paths); a deep path of long names keeps its end
        where_shown = escaped_tail(".".join(where), PROBE_LABEL_CHARS)
        out.append((f"probe:{m.path}", f"{where_shown}: {shown}", json.dumps(instance, ensure_ascii=False), m.keyword))
    return out, 0


def leak_matrix(schema: dict[str, Any], outputs, extra: list[tuple[str, str, str]] = ()) -> LeakMatrix:
    """Validate ``outputs`` (CannedOutput-like: ``id``, ``label`` {lang: text}, ``raw``, ``expected``),
    ``extra`` ``(id, label, raw)`` rows (the free box), and one probe per constraint that a
    transform moved into a description, against the original schema and each COLUMN. Rows: the outputs, the
    probes, then the ``extra`` rows. All cells together take at most LEAK_BUDGET seconds of CPU; the cells left
    when it is spent are NOT_CHECKED (counted by ``LeakMatrix.not_checked``) and make no leak or over-rejection.

    Probes start from the first output expected "accepted" that parses: e.g. with
    ``minimum: 1`` on ``amount_cents`` the probe sends ``amount_cents: 0``. Labels are English
    for canned rows (``label["en"]``); the page relabels. Never raises for a checked schema.
    """
    schemas: dict[str, dict[str, Any] | None] = {"original": schema}
    moved: list[Moved] = []
    try:
        schemas["anthropic"], moved_a = anthropic_transform(schema)
        moved += moved_a
    except TransformError:
        schemas["anthropic"] = None
    try:
        schemas["openai"], _ = openai_transform(schema)
    except TransformError:
        schemas["openai"] = None
    fixed = openai_fix(schema)
    schemas["openai_fix"] = fixed.schema
    moved += fixed.moved
    rows_in = [(o.id, o.label.get("en", o.id), o.raw, "") for o in outputs]
    base = next((parse_tool_input(o.raw).value for o in outputs
                 if o.expected == "accepted" and parse_tool_input(o.raw).ok), None)
    unprobed = 0
    if isinstance(base, dict):
        probes, unprobed = _probes(schema, base, moved)
        rows_in += probes
    rows_in += [(i, label, raw, "") for i, label, raw in extra]  # last: the course's rows are judged first
    rows = []
    with shared_budget(LEAK_BUDGET):
        for row_id, label, raw, keyword in rows_in:
            verdicts = {c: _judged(raw, schemas[c]) for c in COLUMNS}
            local = verdicts["original"]
            judged = [c for c in COLUMNS[1:] if verdicts[c] and verdicts[c].checked and local.checked]
            leaks = [c for c in judged if verdicts[c].accepted and not local.accepted]
            over = [c for c in judged if not verdicts[c].accepted and local.accepted]
            rows.append(LeakRow(row_id, label, raw, verdicts, leaks, over, keyword))
    return LeakMatrix(schemas, rows, unprobed)
