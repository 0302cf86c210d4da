"""A design review of tool definitions: one rule per idea of the course's tool-design chapter.

Each :class:`Finding` has a ``rule`` id, a ``severity`` (``error`` / ``warning`` / ``info``), the
JSON path it is about (``$.name``, ``$.input_schema.properties.data``, or ``$[2].name`` in a set),
the tool's name, a one-line reason (catalogue key ``workbench.lint.<rule>``) and the course section it
comes from (``workbench.course.<section>``). Rules that only a person can judge are the
:data:`CHECKLIST` the student ticks.

Source of every rule: the course's chapter "工具设计与 Function Calling" (five elements: name,
description, parameters, returns, errors; side effects; tool count; the checklist; the bad
``do_stuff`` example), and for ``param_misspelt_keyword`` / ``param_unknown_keyword`` JSON Schema 2020-12
Core: an implementation treats a keyword it does not know as an annotation (jsonschema ignores it), so a
misspelt constraint checks nothing. Never raises for a list of Tools; pure and deterministic.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any

from toolcall.fixtures import Tool
from toolcall.i18n import name_list, t
from toolcall.text import escape_lookalikes, escaped_head
from toolcall.points import PURPOSE, RETURNS, SIDE_EFFECTS, WHEN_NOT, WHEN_TO_USE, description_points, stated

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES: tuple[str, ...] = (ERROR, WARNING, INFO)
#: Points a finding takes off the 100-point score, per severity.
PENALTY = {ERROR: 15, WARNING: 5, INFO: 1}

READ_VERBS = frozenset("search get list find lookup look read fetch check count query describe show view".split())
WRITE_VERBS = frozenset("create cancel refund update set add send post submit issue apply change edit move assign "
                        "book pay transfer charge place reserve schedule".split())
DANGEROUS_VERBS = frozenset("delete remove drop purge destroy erase wipe".split())
VAGUE_VERBS = frozenset("do manage handle process run execute perform stuff misc util".split())
#: Verbs whose action cannot be taken back: the description must say it needs approval.
IRREVERSIBLE_VERBS = DANGEROUS_VERBS | {"refund", "pay", "transfer", "charge", "send"}
IDENTITY_PARAMS = frozenset({"user_id", "userid", "customer_id", "customerid", "tenant", "tenant_id", "tenantid",
                             "account_id", "org_id", "organization_id", "uid"})
VAGUE_PARAMS = frozenset({"data", "input", "params", "args", "payload", "info", "value", "obj", "object", "stuff",
                          "body", "content", "arg"})
MODE_PARAMS = re.compile(r"(^|_)(status|type|mode|kind|category|reason|priority|sort|order_by|level|state)$")
AMOUNT_PARAMS = re.compile(r"(amount|price|total|cost|fee|balance|duration|timeout|weight|distance|size|delay)")
UNIT_WORDS = re.compile(r"(cents?|yuan|usd|cny|eur|dollars?|currency|seconds?|\bms\b|millis|minutes?|hours?|days?|"
                        r"\bkg\b|grams?|bytes?|\bkb\b|\bmb\b|percent|"
                        r"单位|分|元|秒|分钟|小时|天|公斤|字节)", re.IGNORECASE)
DATE_PARAMS = re.compile(r"(date|time|_at$|since|until|after|before|deadline)")
TZ_WORDS = re.compile(r"(time ?zone|utc|gmt|offset|[+-]\d\d:\d\d|iso ?8601|时区|北京时间)", re.IGNORECASE)
APPROVAL_WORDS = re.compile(r"(approv|confirm|requires_approval|human review|审批|确认|人工)", re.IGNORECASE)
PAGINATION_WORDS = re.compile(r"(paginat|cursor|next page|limit|分页|游标)", re.IGNORECASE)
MAX_PARAMS = 5
#: Unknown-keyword findings per tool (a review names the first ones; the score counts these only).
MAX_KEYWORD_FINDINGS = 20
COMFORTABLE_TOOLS = (5, 15)
MAX_TOOLS = 20
#: Word-set similarity (Jaccard) at which two descriptions count as overlapping.
OVERLAP = 0.6


@dataclass(frozen=True)
class Rule:
    """A rule's id, severity and the course section it comes from (name, description, parameters,
    side_effects, tool_count, checklist, bad_example)."""

    id: str
    severity: str
    section: str


RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("name_verb_noun", WARNING, "name"),
    Rule("name_vague_verb", ERROR, "name"),
    Rule("set_duplicate_name", ERROR, "name"),
    Rule("set_mixed_prefix", INFO, "name"),
    Rule("desc_missing", ERROR, "description"),
    Rule("desc_purpose", WARNING, "description"),
    Rule("desc_when_to_use", WARNING, "description"),
    Rule("desc_when_not_to_use", WARNING, "description"),
    Rule("desc_alternative", INFO, "description"),
    Rule("desc_returns", INFO, "description"),
    Rule("desc_side_effects", WARNING, "side_effects"),
    Rule("param_untyped", ERROR, "parameters"),
    Rule("param_undescribed", WARNING, "parameters"),
    Rule("param_vague_name", WARNING, "bad_example"),
    Rule("param_unit", WARNING, "parameters"),
    Rule("param_timezone", WARNING, "parameters"),
    Rule("param_too_many", WARNING, "parameters"),
    Rule("param_nested", WARNING, "parameters"),
    Rule("param_free_string", INFO, "parameters"),
    Rule("param_boolean_mode", WARNING, "parameters"),
    Rule("param_oneof_mode", WARNING, "parameters"),
    Rule("param_identity", ERROR, "parameters"),
    Rule("param_misspelt_keyword", WARNING, "parameters"),
    Rule("param_unknown_keyword", WARNING, "parameters"),
    Rule("write_idempotency_key", WARNING, "side_effects"),
    Rule("write_dry_run", INFO, "side_effects"),
    Rule("irreversible_approval", WARNING, "side_effects"),
    Rule("list_pagination", WARNING, "returns"),
    Rule("set_too_many", WARNING, "tool_count"),
    Rule("set_overlap", WARNING, "tool_count"),
)}

#: Judgment items no rule can decide; the student ticks them (``workbench.check.<id>``).
CHECKLIST: tuple[str, ...] = ("intern_when", "intern_when_not", "params_clear", "result_trimmed",
                              "errors_structured", "selection_tests")


#: Names one reason lists (a tuple param); the rest are counted. 400 boolean properties made one "Several booleans"
#: reason of 3 959 characters (45 000 with long names) in the design review on every rerun (break-it pass brk13web).
MAX_REASON_NAMES = 12
#: Characters of one name (a property, a keyword) a reason quotes, and of a finding's path as the review shows it
#: (shown_path: ``$.input_schema.properties.`` and such a name); longer ones end in "…". Written whole, 40 property
#: names of 4 400 characters made the review 706 KB on every rerun, 4.53 MB when the names were zero-width spaces or
#: Cyrillic letters, each escaped to 6 characters (break-it pass brk14web). The path in a Finding stays whole.
MAX_SHOWN_NAME_CHARS = 64
MAX_SHOWN_PATH_CHARS = 96


def shown_name(value: str) -> str:
    """A name as a reason or a line of the strict panel's fix quotes it: look-alike and hidden characters escaped
    (escape_lookalikes), at most MAX_SHOWN_NAME_CHARS characters as drawn, escapes included, then "…"
    (toolcall.text.escaped_head). Cut before escaping, 64 zero-width spaces were drawn as 384 characters."""
    return escaped_head(value, MAX_SHOWN_NAME_CHARS, escape_lookalikes)


def _shown(value: Any, lang: str) -> Any:
    """A reason's parameter as shown: text cut and with look-alike letters escaped (_name); a tuple of names listed
    in ``lang`` (at most MAX_REASON_NAMES, then how many more), each cut and escaped; anything else as it is."""
    if isinstance(value, str):
        return shown_name(value)
    if isinstance(value, tuple):
        return name_list([shown_name(str(v)) for v in value], lang, MAX_REASON_NAMES)
    return value


def shown_path(path: str) -> str:
    """A finding's JSONPath as the design review shows it: look-alike and hidden characters escaped, at most
    MAX_SHOWN_PATH_CHARS characters as drawn, escapes included (no escape cut in half), then "…"."""
    return escaped_head(path, MAX_SHOWN_PATH_CHARS, escape_lookalikes)


@dataclass(frozen=True)
class Finding:
    """One problem: ``rule`` (a key of RULES), ``severity``, ``tool`` (its name), ``path`` (JSONPath
    into the linted document) and ``params`` for the translated reason."""

    rule: str
    severity: str
    tool: str
    path: str
    params: tuple[tuple[str, Any], ...] = ()

    def reason(self, lang: str = "en") -> str:
        """The one-line reason in ``lang``; the schema's names and keywords it quotes have look-alike letters of other
        scripts escaped (toolcall.text.escape_lookalikes): a property named \u043erder_id (Cyrillic о) beside a typed
        order_id read 'Parameter "order_id" has no type'."""
        return t(f"workbench.lint.{self.rule}", lang, **{k: _shown(v, lang) for k, v in self.params})

    def source(self, lang: str = "en") -> str:
        """The course section the rule comes from, in ``lang``."""
        return t(f"workbench.course.{RULES[self.rule].section}", lang)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        """The CLI's JSON shape: rule, severity, tool, path, message, source."""
        return {"rule": self.rule, "severity": self.severity, "tool": self.tool, "path": self.path,
                "message": self.reason(lang), "source": self.source(lang)}


def name_parts(name: str) -> list[str]:
    """Lower-case words of a tool or parameter name: ``searchOrders`` / ``search_orders`` /
    ``orders-search`` → ``['search', 'orders']``; trailing digits split off (``process2`` → process)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [p for p in re.split(r"[_\-\d]+", spaced.lower()) if p]


def verb_of(name: str) -> str | None:
    """The name's verb: its first word if it is a known verb, else its last (``orders_search``)."""
    parts = name_parts(name)
    for word in (parts[:1] + parts[-1:]) if parts else []:
        if word in READ_VERBS | WRITE_VERBS | DANGEROUS_VERBS | VAGUE_VERBS:
            return word
    return None


def kind_of(name: str) -> str:
    """``read``, ``write``, ``dangerous``, ``vague`` or ``unknown``, from the name's verb."""
    verb = verb_of(name)
    for kind, verbs in (("read", READ_VERBS), ("write", WRITE_VERBS), ("dangerous", DANGEROUS_VERBS),
                        ("vague", VAGUE_VERBS)):
        if verb in verbs:
            return kind
    return "unknown"


def _props(tool: Tool) -> dict[str, Any]:
    props = tool.input_schema.get("properties", {})
    return props if isinstance(props, dict) else {}


def _text(spec: Any) -> str:
    return spec.get("description", "") if isinstance(spec, dict) and isinstance(spec.get("description"), str) else ""


@functools.cache
def schema_keywords() -> frozenset[str]:
    """Every keyword JSON Schema draft 2020-12 defines: the properties its meta-schema and vocabulary
    meta-schemas declare (jsonschema_specifications, offline)."""
    from jsonschema_specifications import REGISTRY  # noqa: PLC0415 (only when a review runs)

    return frozenset(name for uri in REGISTRY if "/draft/2020-12/" in uri
                     for name in REGISTRY[uri].contents.get("properties", {}))


def _unknown_keywords(spec: Any) -> list[str]:
    """The keys of ``spec`` that JSON Schema does not define: a validator ignores them, so ``"patern": "^ORD-"``
    checks nothing and the schema still reads as valid. ``x-`` keys are extensions on purpose (``x-i18n``)."""
    if not isinstance(spec, dict):
        return []
    known = schema_keywords()
    return [key for key in spec if isinstance(key, str) and key not in known and not key.startswith("x-")]


def _meant(keyword: str) -> str | None:
    """The defined keyword ``keyword`` most likely misspells (difflib, ratio 0.75 or more), else None."""
    return next(iter(difflib.get_close_matches(keyword, schema_keywords(), n=1, cutoff=0.75)), None)


def lint_tool(tool: Tool, base: str = "$") -> list[Finding]:
    """Findings for one tool; ``base`` prefixes every path (``$[2]`` inside a set)."""
    out: list[Finding] = []

    def add(rule: str, path: str, **params: Any) -> None:
        out.append(Finding(rule, RULES[rule].severity, tool.name, base + path, tuple(params.items())))

    kind, verb = kind_of(tool.name), verb_of(tool.name)
    if kind == "vague":
        add("name_vague_verb", ".name", name=tool.name, verb=verb)
    elif kind == "unknown" or len(name_parts(tool.name)) < 2:
        add("name_verb_noun", ".name", name=tool.name)

    sentences = description_points(tool.description)
    have = stated(sentences)
    if not tool.description.strip():
        add("desc_missing", ".description")
    else:
        for point, rule in ((PURPOSE, "desc_purpose"), (WHEN_TO_USE, "desc_when_to_use"),
                            (WHEN_NOT, "desc_when_not_to_use"), (RETURNS, "desc_returns")):
            if point not in have:
                add(rule, ".description")
        if WHEN_NOT in have and not re.search(r"\b[a-z]+_[a-z_]+\b", " ".join(
                s.text for s in sentences if WHEN_NOT in s.points).replace(tool.name, "")):
            add("desc_alternative", ".description")
        if SIDE_EFFECTS not in have and kind != "read":
            add("desc_side_effects", ".description")

    def keywords(spec: Any, where: str, param: str) -> None:
        # at most MAX_KEYWORD_FINDINGS per tool: 12 000 made-up keys took 2 s of difflib on every rerun
        room = MAX_KEYWORD_FINDINGS - sum(f.rule.endswith("_keyword") for f in out)
        for keyword in _unknown_keywords(spec)[:max(room, 0)]:
            if near := _meant(keyword):
                add("param_misspelt_keyword", where, param=param, keyword=keyword, near=near)
            else:
                add("param_unknown_keyword", where, param=param, keyword=keyword)

    props = _props(tool)
    path = ".input_schema.properties"
    booleans = []
    keywords(tool.input_schema, ".input_schema", "input_schema")
    for name, spec in props.items():
        where = f"{path}.{name}"
        spec = spec if isinstance(spec, dict) else {}
        text = _text(spec)
        typed = any(k in spec for k in ("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"))
        if not typed:
            add("param_untyped", where, param=name)
        keywords(spec, where, name)
        if not text:
            add("param_undescribed", where, param=name)
        if name.lower() in VAGUE_PARAMS:
            add("param_vague_name", where, param=name)
        if name.lower() in IDENTITY_PARAMS:
            add("param_identity", where, param=name)
        types = spec.get("type") if isinstance(spec.get("type"), list) else [spec.get("type")]
        if {"number", "integer"} & set(types) and AMOUNT_PARAMS.search(name.lower()) \
                and not UNIT_WORDS.search(name + " " + text):
            add("param_unit", where, param=name)
        dated = spec.get("format") in ("date-time", "date", "time") or DATE_PARAMS.search(name.lower())
        if "string" in types and dated and not TZ_WORDS.search(text):
            add("param_timezone", where, param=name)
        if {"object"} & set(types) or (spec.get("type") == "array" and isinstance(spec.get("items"), dict)
                                       and spec["items"].get("type") == "object"):
            add("param_nested", where, param=name)
        if "string" in types and "enum" not in spec and MODE_PARAMS.search(name.lower()):
            add("param_free_string", where, param=name)
        if "boolean" in types and name != "dry_run":
            booleans.append(name)
        if any(isinstance(spec.get(k), list) and len(spec[k]) > 1 for k in ("oneOf", "anyOf")):
            add("param_oneof_mode", where, param=name)
    if any(isinstance(tool.input_schema.get(k), list) and len(tool.input_schema[k]) > 1 for k in ("oneOf", "anyOf")):
        add("param_oneof_mode", ".input_schema", param="input_schema")
    if len(booleans) >= 2:
        add("param_boolean_mode", path, params=tuple(booleans))
    if len(props) > MAX_PARAMS:
        add("param_too_many", path, count=len(props), limit=MAX_PARAMS)

    if kind in ("write", "dangerous"):
        if not any("idempotency" in p.lower() for p in props):
            add("write_idempotency_key", path)
        if "dry_run" not in props:
            add("write_dry_run", path)
    if (verb in IRREVERSIBLE_VERBS) and not APPROVAL_WORDS.search(tool.description):
        add("irreversible_approval", ".description", verb=verb, name=tool.name)
    if verb in {"search", "list", "find", "query"}:
        has_params = "limit" in props and any(p in props for p in ("cursor", "page", "page_token", "offset"))
        if not has_params or not PAGINATION_WORDS.search(tool.description):
            add("list_pagination", path if not has_params else ".description")
    return out


def _words(text: str) -> set[str]:
    """Words of a description for overlap: Latin words of 3+ letters, and Chinese character pairs."""
    latin = {w for w in re.findall(r"[a-z]{3,}", text.lower())}
    cjk = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return latin | {cjk[i:i + 2] for i in range(len(cjk) - 1)}


def lint_set(tools: list[Tool]) -> list[Finding]:
    """Findings for a tool set: each tool's (paths ``$[i]…``; ``$`` alone for a single tool), then the
    set's own: duplicate names, mixed verb-first / noun-first naming, more than MAX_TOOLS tools,
    near-duplicate descriptions (Jaccard ≥ OVERLAP; at most one finding per tool, see _overlaps).
    Linear in the number of tools above MAX_PAIRWISE."""
    single = len(tools) == 1
    out = [f for i, tool in enumerate(tools) for f in lint_tool(tool, "$" if single else f"$[{i}]")]
    seen: dict[str, int] = {}
    for i, tool in enumerate(tools):
        if tool.name in seen:
            out.append(Finding("set_duplicate_name", ERROR, tool.name, f"$[{i}].name", (("first", seen[tool.name]),)))
        seen.setdefault(tool.name, i)
    verbs = READ_VERBS | WRITE_VERBS | DANGEROUS_VERBS
    first = [i for i, tl in enumerate(tools) if (p := name_parts(tl.name)) and p[0] in verbs]
    first_set = set(first)
    last = [i for i, tl in enumerate(tools) if i not in first_set and verb_of(tl.name) is not None
            and kind_of(tl.name) != "vague"]
    if first and last:
        out.append(Finding("set_mixed_prefix", INFO, tools[last[0]].name, f"$[{last[0]}].name",
                           (("names", ", ".join(tools[i].name for i in last)),)))
    if len(tools) > MAX_TOOLS:
        out.append(Finding("set_too_many", WARNING, "", "$", (("count", len(tools)), ("limit", MAX_TOOLS))))
    out.extend(_overlaps(tools))
    return out


#: Sets up to this many tools are compared pair by pair for near-duplicate descriptions; a larger
#: one (already warned as over MAX_TOOLS) only for identical ones, so the work stays linear.
MAX_PAIRWISE = 100


def _overlaps(tools: list[Tool]) -> list[Finding]:
    """One set_overlap finding per tool whose description nearly repeats an earlier tool's (Jaccard
    ≥ OVERLAP over _words), naming the first such tool: at most one per tool. Pairwise for up to
    MAX_PAIRWISE tools; above that, identical word sets only (a dictionary, one pass)."""
    words = [_words(tl.description) for tl in tools]
    out = []
    if len(tools) > MAX_PAIRWISE:
        seen: dict[frozenset, int] = {}
        for j, w in enumerate(words):
            i = seen.setdefault(frozenset(w), j)
            if w and i != j:
                out.append(Finding("set_overlap", WARNING, tools[j].name, f"$[{j}].description",
                                   (("other", tools[i].name),)))
        return out
    for j in range(len(tools)):
        for i in range(j):
            union = words[i] | words[j]
            if union and len(words[i] & words[j]) / len(union) >= OVERLAP:
                out.append(Finding("set_overlap", WARNING, tools[j].name, f"$[{j}].description",
                                   (("other", tools[i].name),)))
                break
    return out


def score(findings: list[Finding]) -> int:
    """100 minus PENALTY per finding, never below 0."""
    return max(0, 100 - sum(PENALTY[f.severity] for f in findings))


def grouped(findings: list[Finding]) -> dict[str, list[Finding]]:
    """Findings by severity, in SEVERITIES order (every severity present, maybe empty)."""
    return {s: [f for f in findings if f.severity == s] for s in SEVERITIES}

