"""What each provider's strict mode does with each keyword of a schema: rules as data.

One rule per keyword family and provider. A rule is a ``Rule`` (id, provider, effect, the
documentation page it comes from) plus a small check function yielding ``(pointer,
keyword, params)`` for every place the schema trips it. Effects:

- ``"400"``: the documentation says the request is refused;
- ``"unsupported"``: outside the documented subset (the docs do not say what happens);
- ``"ignored"``: accepted, not enforced.

Sources, read 2026-11-30 through the docs search (each rule names its page):
- Anthropic, "Structured outputs", section "JSON Schema limitations" (strict tool use and
  JSON outputs share the subset): https://platform.claude.com/docs/en/build-with-claude/structured-outputs
- OpenAI, "Structured Outputs", section "Supported schemas" (the version that lists
  ``pattern``/``format``, ``minimum``…, ``minItems``/``maxItems`` as supported; the 2024-08
  version of the page listed them as unsupported):
  https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
- Gemini API reference, ``FunctionDeclaration`` and ``Schema`` ("a select subset of an
  OpenAPI 3.0 schema object"; ``parametersJsonSchema`` is the JSON Schema alternative):
  https://ai.google.dev/api/caching#FunctionDeclaration and https://ai.google.dev/api/caching#Schema
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterator

from toolcall.strict.walk import at, is_object_schema, subschemas, types_of

ANTHROPIC_DOCS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"
ANTHROPIC_LIMITS = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use"
OPENAI_DOCS = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"
OPENAI_COMMUNITY = ("https://community.openai.com/t/official-documentation-for-supported-schemas-for-"
                    "response-format-parameter-in-calls-to-client-beta-chats-completions-parse/932422")
GEMINI_SCHEMA = "https://ai.google.dev/api/caching#Schema"
GEMINI_DECL = "https://ai.google.dev/api/caching#FunctionDeclaration"
GEMINI_FORMAT = "https://firebase.google.com/docs/reference/js/ai.schemashared"

PROVIDERS = ("anthropic", "openai", "gemini")

#: Annotations: no provider rule is about them.
ANNOTATIONS = frozenset({"description", "title", "$comment", "examples", "$schema", "$id", "deprecated",
                         "readOnly", "writeOnly"})

# Anthropic's documented subset (ANTHROPIC_DOCS, "Supported features"): every other keyword is
# outside it. The SDK's transform_schema moves those into the description.
ANTHROPIC_SUPPORTED = frozenset({"type", "properties", "required", "additionalProperties", "items", "minItems",
                                 "enum", "const", "anyOf", "allOf", "$ref", "$defs", "definitions", "format",
                                 "pattern", "default"}) | ANNOTATIONS
ANTHROPIC_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
ANTHROPIC_STRING = ("minLength", "maxLength")
ANTHROPIC_ARRAY = ("maxItems", "uniqueItems", "contains", "minContains", "maxContains")
#: Formats the docs list for strings (the SDK's SupportedStringFormats is the same list).
ANTHROPIC_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri",
                               "ipv4", "ipv6", "uuid"})
#: Per-request limits on strict tools (ANTHROPIC_LIMITS): counted here for one tool.
ANTHROPIC_MAX_OPTIONAL = 24
ANTHROPIC_MAX_UNIONS = 16

# OpenAI (OPENAI_DOCS): supported keywords; composition keywords are refused.
OPENAI_SUPPORTED = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                              "anyOf", "$ref", "$defs", "definitions", "pattern", "format", "multipleOf",
                              "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems",
                              "maxItems",
                              # not listed; the SDK removes only ``default: null``: treated as an annotation
                              "default"}) | ANNOTATIONS
OPENAI_COMPOSITION = ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else", "oneOf")
OPENAI_MAX_DEPTH = 10
OPENAI_MAX_PROPERTIES = 5000
OPENAI_MAX_ENUM_VALUES = 1000

# Gemini ``parameters``: the Schema message's fields (GEMINI_SCHEMA); any other key is an
# unknown field and the request is refused.
GEMINI_FIELDS = frozenset({"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
                           "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
                           "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum",
                           "maximum"})
GEMINI_FORMATS = frozenset({"enum", "date-time"})


@dataclass(frozen=True)
class Rule:
    """One provider's rule for one keyword family: ``id`` (also the i18n key
    ``strict.rule.<id>``), ``provider``, ``effect`` and ``source`` (the documentation URL);
    ``sdk`` names an i18n key ``strict.sdk.<sdk>`` when the SDK helper disagrees with the docs."""

    id: str
    provider: str
    effect: str
    source: str
    check: Callable[[dict[str, Any]], Iterator[tuple[str, str, dict[str, Any]]]]
    sdk: str = ""


@dataclass(frozen=True)
class Finding:
    """One place a schema trips a rule: ``path`` is the JSON pointer of the keyword in the schema
    (``/properties/amount_cents/minimum``), ``keyword`` the keyword, ``params`` fill the
    rule's message (``{"value": 1}``)."""

    provider: str
    rule: str
    path: str
    keyword: str
    effect: str
    source: str
    params: dict[str, Any] = field(default_factory=dict)
    sdk: str = ""

    def as_json(self, message: str = "", sdk_note: str = "") -> dict[str, Any]:
        out = {"path": self.path, "keyword": self.keyword, "effect": self.effect, "rule": self.rule,
               "message": message, "source": self.source}
        if sdk_note:
            out["sdk"] = sdk_note
        return out


def _keywords(schema: dict[str, Any], names) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, node in subschemas(schema):
        for key in names:
            if key in node:
                yield at(path, key), key, {"value": node[key]}


def _outside(schema: dict[str, Any], allowed: frozenset[str], skip=()) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, node in subschemas(schema):
        for key, value in node.items():
            if key not in allowed and key not in skip:
                yield at(path, key), key, {"value": value}


# --- Anthropic --------------------------------------------------------------------------

def _a_min_items(schema):
    for path, node in subschemas(schema):
        if "minItems" in node and node["minItems"] not in (0, 1):
            yield at(path, "minItems"), "minItems", {"value": node["minItems"]}


def _additional(schema):
    """Objects whose additionalProperties is missing or not false (both Anthropic and OpenAI)."""
    for path, node in subschemas(schema):
        if is_object_schema(node) and node.get("additionalProperties", None) is not False:
            yield at(path, "additionalProperties"), "additionalProperties", {
                "value": node.get("additionalProperties", "(missing)")}


def _refs(schema) -> Iterator[tuple[list, str]]:
    for path, node in subschemas(schema):
        if isinstance(node.get("$ref"), str):
            yield path, node["$ref"]


def _a_external_ref(schema):
    for path, ref in _refs(schema):
        if not ref.startswith("#"):
            yield at(path, "$ref"), "$ref", {"value": ref}


def _target(ref: str) -> list[str] | None:
    if ref == "#":
        return []
    if not ref.startswith("#/"):
        return None
    return [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]


def _recursive(schema):
    """A $ref that points at one of its own ancestors (or at a definition that reaches itself)."""
    defs_edges: dict[str, set[str]] = {}
    for path, ref in _refs(schema):
        target = _target(ref)
        if target is None:
            continue
        here = [str(p) for p in path]
        if here[: len(target)] == target:
            yield at(path, "$ref"), "$ref", {"value": ref}
            continue
        owner = "/".join(here[:2]) if here[:1] in (["$defs"], ["definitions"]) else ""
        defs_edges.setdefault(owner, set()).add("/".join(target[:2]))
    for start in sorted(on_a_cycle(defs_edges)):
        if start:
            yield "/" + start, "$ref", {"value": "#/" + start}


def on_a_cycle(edges: dict[str, set[str]]) -> set[str]:
    """The nodes of the directed graph ``edges`` (node -> its successors) that can reach themselves: those of a
    strongly connected component of two or more nodes, or with an edge to themselves. Tarjan's algorithm
    (SIAM J. Comput. 1(2), 1972), without recursion: O(nodes + edges). A search from each node instead was
    quadratic: a chain of 3 000 ``$defs`` each referring to the next took 1.3 s for the three providers."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[str] = set()
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges.get(nxt, ()))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        found.update(component)
    return found


def _a_complex_enum(schema):
    for path, node in subschemas(schema):
        if isinstance(node.get("enum"), list) and any(isinstance(v, (dict, list)) for v in node["enum"]):
            yield at(path, "enum"), "enum", {"value": node["enum"]}
        if "const" in node and isinstance(node["const"], (dict, list)):
            yield at(path, "const"), "const", {"value": node["const"]}


#: Regex features the docs exclude: backreferences, lookahead/lookbehind, word boundaries.
_PATTERN_FEATURES = (("backreference", re.compile(r"(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)")),
                     ("lookaround", re.compile(r"\(\?<?[=!]")),
                     ("word_boundary", re.compile(r"(?<!\\)(?:\\\\)*\\[bB]")))


def pattern_features(pattern: str) -> list[str]:
    """Regex features in ``pattern`` that Anthropic's strict grammar does not support, in order:
    any of ``backreference``, ``lookaround``, ``word_boundary`` (``[]`` for a plain pattern)."""
    return [name for name, rx in _PATTERN_FEATURES if rx.search(pattern)]


def _a_pattern(schema):
    for path, node in subschemas(schema):
        if isinstance(node.get("pattern"), str):
            features = pattern_features(node["pattern"])
            if features:
                yield at(path, "pattern"), "pattern", {"value": node["pattern"], "features": ", ".join(features)}


def _a_format(schema):
    for path, node in subschemas(schema):
        if isinstance(node.get("format"), str) and node["format"] not in ANTHROPIC_FORMATS:
            yield at(path, "format"), "format", {"value": node["format"]}


def optional_count(schema) -> int:
    """Properties not listed in their object's ``required``, over the whole schema."""
    total = 0
    for _, node in subschemas(schema):
        props = node.get("properties")
        if isinstance(props, dict):
            required = node.get("required") if isinstance(node.get("required"), list) else []
            total += sum(1 for name in props if name not in required)
    return total


def union_count(schema) -> int:
    """Subschemas using ``anyOf`` or a ``type`` list, over the whole schema."""
    return sum(1 for _, node in subschemas(schema) if "anyOf" in node or isinstance(node.get("type"), list))


def _a_limits(schema):
    optional, unions = optional_count(schema), union_count(schema)
    if optional > ANTHROPIC_MAX_OPTIONAL:
        yield "", "required", {"value": optional, "limit": ANTHROPIC_MAX_OPTIONAL}
    if unions > ANTHROPIC_MAX_UNIONS:
        yield "", "anyOf", {"value": unions, "limit": ANTHROPIC_MAX_UNIONS}


_A_FAMILIES = set(ANTHROPIC_NUMERIC) | set(ANTHROPIC_STRING) | set(ANTHROPIC_ARRAY)

# --- OpenAI -----------------------------------------------------------------------------


def _o_root(schema):
    if "anyOf" in schema:
        yield "/anyOf", "anyOf", {"value": "anyOf"}
    elif types_of(schema) != ["object"]:
        yield "/type", "type", {"value": schema.get("type", "(missing)")}


def _o_required(schema):
    for path, node in subschemas(schema):
        props = node.get("properties")
        if isinstance(props, dict):
            required = node.get("required") if isinstance(node.get("required"), list) else []
            for name in props:
                if name not in required:
                    yield at(path, "properties", name), "required", {"name": name}


def _depth(path: list) -> int:
    return sum(1 for p in path if p == "properties") + 1


def _o_limits(schema):
    nodes = list(subschemas(schema))
    deepest = max((_depth(p) for p, n in nodes if is_object_schema(n)), default=0)
    if deepest > OPENAI_MAX_DEPTH:
        yield "", "properties", {"value": deepest, "limit": OPENAI_MAX_DEPTH, "what": "depth"}
    props = sum(len(n["properties"]) for _, n in nodes if isinstance(n.get("properties"), dict))
    if props > OPENAI_MAX_PROPERTIES:
        yield "", "properties", {"value": props, "limit": OPENAI_MAX_PROPERTIES, "what": "properties"}
    values = sum(len(n["enum"]) for _, n in nodes if isinstance(n.get("enum"), list))
    if values > OPENAI_MAX_ENUM_VALUES:
        yield "", "enum", {"value": values, "limit": OPENAI_MAX_ENUM_VALUES, "what": "enum"}


# --- Gemini -----------------------------------------------------------------------------


def _g_unknown(schema):
    for path, node in subschemas(schema):
        for key, value in node.items():
            if key not in GEMINI_FIELDS:
                yield at(path, key), key, {"value": value}


def _g_type_list(schema):
    for path, node in subschemas(schema):
        if isinstance(node.get("type"), list):
            yield at(path, "type"), "type", {"value": node["type"]}


def _g_enum(schema):
    for path, node in subschemas(schema):
        if isinstance(node.get("enum"), list) and not all(isinstance(v, str) for v in node["enum"]):
            yield at(path, "enum"), "enum", {"value": node["enum"]}


def _g_format(schema):
    for path, node in subschemas(schema):
        if "string" in types_of(node) and isinstance(node.get("format"), str) and node["format"] not in GEMINI_FORMATS:
            yield at(path, "format"), "format", {"value": node["format"]}


RULES: tuple[Rule, ...] = (
    Rule("anthropic.numeric", "anthropic", "400", ANTHROPIC_DOCS, lambda s: _keywords(s, ANTHROPIC_NUMERIC)),
    Rule("anthropic.string_length", "anthropic", "400", ANTHROPIC_DOCS, lambda s: _keywords(s, ANTHROPIC_STRING)),
    Rule("anthropic.array", "anthropic", "400", ANTHROPIC_DOCS, lambda s: _keywords(s, ANTHROPIC_ARRAY)),
    Rule("anthropic.min_items", "anthropic", "400", ANTHROPIC_DOCS, _a_min_items),
    Rule("anthropic.additional_properties", "anthropic", "400", ANTHROPIC_DOCS, _additional,
         sdk="anthropic_forces_false"),
    Rule("anthropic.recursive", "anthropic", "400", ANTHROPIC_DOCS, _recursive),
    Rule("anthropic.external_ref", "anthropic", "400", ANTHROPIC_DOCS, _a_external_ref),
    Rule("anthropic.complex_enum", "anthropic", "400", ANTHROPIC_DOCS, _a_complex_enum),
    Rule("anthropic.pattern", "anthropic", "400", ANTHROPIC_DOCS, _a_pattern),
    Rule("anthropic.format", "anthropic", "unsupported", ANTHROPIC_DOCS, _a_format),
    Rule("anthropic.other", "anthropic", "unsupported", ANTHROPIC_DOCS,
         lambda s: _outside(s, ANTHROPIC_SUPPORTED, _A_FAMILIES), sdk="anthropic_describes"),
    Rule("anthropic.limits", "anthropic", "400", ANTHROPIC_LIMITS, _a_limits),
    Rule("openai.root", "openai", "400", OPENAI_DOCS, _o_root),
    Rule("openai.additional_properties", "openai", "400", OPENAI_DOCS, _additional),
    Rule("openai.required", "openai", "400", OPENAI_DOCS, _o_required, sdk="openai_required_no_null"),
    Rule("openai.composition", "openai", "400", OPENAI_DOCS, lambda s: _keywords(s, OPENAI_COMPOSITION)),
    Rule("openai.other", "openai", "unsupported", OPENAI_DOCS,
         lambda s: _outside(s, OPENAI_SUPPORTED, OPENAI_COMPOSITION), sdk="openai_keeps"),
    Rule("openai.limits", "openai", "400", OPENAI_DOCS, _o_limits),
    Rule("gemini.unknown_field", "gemini", "400", GEMINI_SCHEMA, _g_unknown),
    Rule("gemini.type_list", "gemini", "400", GEMINI_SCHEMA, _g_type_list),
    Rule("gemini.enum", "gemini", "400", GEMINI_SCHEMA, _g_enum),
    Rule("gemini.format", "gemini", "400", GEMINI_FORMAT, _g_format),
)

#: Keywords OpenAI's fix moves into the description: outside the supported list, or refused.
OPENAI_MOVE = frozenset(OPENAI_COMPOSITION) | frozenset({
    "minLength", "maxLength", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems",
    "patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties",
    "unevaluatedItems", "dependencies", "additionalItems"})


def rules_for(provider: str) -> tuple[Rule, ...]:
    """The rules of ``provider`` (one of PROVIDERS). Raises ValueError for another name."""
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    return tuple(r for r in RULES if r.provider == provider)


def findings(schema: dict[str, Any], provider: str) -> list[Finding]:
    """Every finding of ``provider``'s rules on ``schema`` (an input_schema that passed
    validation.check_schema), sorted by path then rule. Raises ValueError for an unknown provider."""
    out = []
    for rule in rules_for(provider):
        for path, keyword, params in rule.check(schema):
            out.append(Finding(provider, rule.id, path, keyword, rule.effect, rule.source, params, rule.sdk))
    out.sort(key=lambda f: (f.path, f.rule))
    return out
