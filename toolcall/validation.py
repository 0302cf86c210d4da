"""Check an edited input_schema, validate tool input against it, explain every error per field.

Validation uses jsonschema's Draft 2020-12 validator, hardened in toolcall.safe_validator
so that an edited schema cannot stall or crash the server (time-limited regular
expressions, a time budget per validation, no network).  Explanations are built from jsonschema's
error objects (path, keyword, value, context), never by parsing its message strings.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012
from urllib.parse import urldefrag, urljoin

from toolcall.regex_errors import describe as describe_regex_error
from toolcall.i18n import sentence_gap, t
from toolcall.parsing import StrictJSONError, ends_open, json_type, localized_detail, names_place, strict_loads
from toolcall.text import escape_lookalikes
from toolcall.safe_validator import (ASSERT_FORMATS, META_FORMATS, REGEX_TIMEOUT, REGISTRY, VALIDATION_BUDGET,
                                     BudgetExceeded, FormatTooLong, RegexTimeout, SafeValidator, SharedBudgetSpent,
                                     SizedCache, _no_fetch, budget, extra_properties, validator_class, within_budget)

#: Largest schema text accepted, in characters, and its deepest nesting.
MAX_SCHEMA_CHARS = 200_000
MAX_SCHEMA_DEPTH = 64
#: Most distinct regular expressions (``pattern`` values and ``patternProperties`` keys) one schema
#: may hold. Each is compiled when the schema is checked (the meta-schema's ``format: regex``) and
#: again when a cached one was evicted: ~9,500 tiny patterns fit in MAX_SCHEMA_CHARS and cost 3.5-4.2 s
#: of CPU per playground edit (issue 13). A teaching schema needs a handful (the shipped tools use
#: fewer than ten); 200 is generous for any real tool, and stays below safe_validator's
#: PATTERN_CACHE_SIZE (256), so a schema at the cap is compiled once and then served from the cache (as long as
#: its patterns fit PATTERN_CACHE_BYTES: 200 of 100 characters do, tests/unit/test_cache_bytes.py).
MAX_SCHEMA_PATTERNS = 200
#: Most parts one schema may hold: its subschemas (the root, each property's, each ``items`` …) plus the names its
#: ``required`` and ``dependentRequired`` lists name. The meta-schema check costs about 0.3 ms per subschema, each
#: canned output of the playground is judged against every part, and the strict panel's leak matrix validates
#: each output and probe against four schemas: 3 000 empty required properties (153 KB) cost 2.0 s of CPU per
#: edit (strict panel open: 2.7 s), 16 000 required names 2.7 s, and at 1 000 parts an anyOf of 990 consts
#: (14 KB) still 1.6 s in the strict panel; at 500 the worst seen is 0.9 s (issue 13, time kind). The shipped
#: tools have at most a few dozen.
MAX_SCHEMA_PARTS = 500
#: Most subschemas one value may be checked against once the ``$ref``s are followed (:func:`expanded_parts`): a
#: 1 KB chain of 15 ``$defs`` each referring to the next twice (131 070 of them) ran into the validation budget on
#: every output of every distinct variant (1 s of CPU each); at about 5 µs each, 10 000 cost about 0.05 s per
#: output. The shipped tools count at most a few dozen; a real schema reusing a 20-part definition in 50 places 1 000.
MAX_EXPANDED_SUBSCHEMAS = 10_000
#: Values listed in an ``enum`` explanation before the rest are counted.
MAX_LISTED = 12


# --- checking the schema itself ---------------------------------------------------------

@dataclass
class SchemaCheck:
    """Outcome of reading the schema editor's text.

    ``ok`` with ``schema`` (a dict) set, or ``code`` one of SCHEMA_TOO_LARGE,
    SCHEMA_NOT_JSON, SCHEMA_NOT_OBJECT, SCHEMA_TOO_MANY_PATTERNS, SCHEMA_TOO_MANY_PARTS, SCHEMA_INVALID,
    SCHEMA_REMOTE_REF, SCHEMA_TOO_EXPANDED (more than MAX_EXPANDED_SUBSCHEMAS once references are followed, keyword
    ``$ref``), SCHEMA_REF_LOOP (:func:`ref_loop`) with a translated ``message``; ``line``/``column`` (1-based)
    for JSON syntax errors and
    ``keyword``/``path`` (a JSON pointer into the schema) for meta-schema errors and for the
    first pattern over MAX_SCHEMA_PATTERNS and the first part over MAX_SCHEMA_PARTS.
    """

    ok: bool
    schema: dict[str, Any] | None = None
    code: str | None = None
    message: str = ""
    line: int | None = None
    column: int | None = None
    keyword: str | None = None
    path: str | None = None


#: Longest JSON pointer written out whole, in characters of its keys. Past it, a key longer than
#: POINTER_KEY_CHARS shows its start and end around "…", and a path still too long its first and last
#: POINTER_END_KEYS keys around "/…": a pointer is read, not resolved, and a 50 000-character key repeated in
#: the pointer of each of its 4 900 fields made 250 MB of pointers from a 98 000-character model output.
MAX_POINTER_CHARS = 1_000
POINTER_KEY_CHARS = 60
POINTER_END_KEYS = 3


def _short_key(text: str) -> str:
    half = POINTER_KEY_CHARS // 2
    return text if len(text) <= POINTER_KEY_CHARS else text[:half] + "…" + text[-half:]


def pointer(parts) -> str:
    """RFC 6901 JSON pointer for a sequence of keys/indices: ``['a', 0]`` → ``/a/0``; ``[]`` → ``""``.
    At most about MAX_POINTER_CHARS characters, whatever the keys (see there): no key is copied whole
    when the pointer would be longer."""
    texts = [p if isinstance(p, str) else str(p) for p in parts]
    if sum(len(x) for x in texts) + len(texts) > MAX_POINTER_CHARS:
        texts = [_short_key(x) for x in texts]
        if len(texts) > 2 * POINTER_END_KEYS and sum(len(x) + 1 for x in texts) > MAX_POINTER_CHARS:
            texts = [*texts[:POINTER_END_KEYS], "…", *texts[-POINTER_END_KEYS:]]
    return "".join("/" + x.replace("~", "~0").replace("/", "~1") for x in texts)


#: Draft 2020-12 keywords whose value is a schema, an array of schemas, or an object of schemas.
_IN_PLACE = ("additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames",
             "then", "unevaluatedItems", "unevaluatedProperties")
_ARRAYS = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAPS = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")


def subschemas(schema: Any, path: list | None = None) -> Iterator[tuple[dict, list]]:
    """Every object subschema of ``schema`` with its path (keys/indices), the root first.

    Walks only keyword positions that hold schemas (so an ``enum`` or ``const`` value that
    happens to contain ``"$ref"`` or ``"format"`` is data, not a keyword). Depth first, each
    parent before its children, the children of one keyword in the order they are written
    (so "the first" of something is the first a reader meets). Iterative."""
    stack = [(schema, path or [])]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node, where
        stack.extend(reversed(_children(node, where)))


def _children(node: dict, where: list, maps: tuple[str, ...] = _MAPS) -> list[tuple[Any, list]]:
    """The values of ``node``'s schema-holding keywords (those of ``maps`` for the object-of-schemas ones), each
    with its path, in the order :func:`subschemas` walks them."""
    children = []
    for key in _IN_PLACE:
        if key in node:
            children.append((node[key], where + [key]))
    for key in _ARRAYS:
        if isinstance(node.get(key), list):
            children.extend((v, where + [key, i]) for i, v in enumerate(node[key]))
    for key in maps:
        if isinstance(node.get(key), dict):
            children.extend((v, where + [key, k]) for k, v in node[key].items())
    return children


def _with_resolvers(schema: dict) -> tuple[Any, Iterator[tuple[dict, list, Any]]]:
    """The schema's registry (nothing fetched) and each subschema ``(node, path, resolver)`` in the walk order of
    :func:`subschemas`, each resolver following the embedded ``$id`` above its node."""
    root = DRAFT202012.create_resource(schema)
    registry = Registry(retrieve=_no_fetch).with_resource(root.id() or "", root).crawl()  # type: ignore[call-arg]
    top = registry.resolver(base_uri=root.id() or "")

    def walk() -> Iterator[tuple[dict, list, Any]]:
        # subschemas() yields parents before children
        resolvers: dict[tuple, Any] = {}
        for node, where in subschemas(schema):
            resolver = resolvers.get(tuple(_parent_schema_path(where)), top) if where else top
            if isinstance(node.get("$id"), str):
                resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
            resolvers[tuple(where)] = resolver
            yield node, where, resolver
    return registry, walk()


def remote_refs(schema: dict) -> Iterator[tuple[str, str, str]]:
    """References that would need a document this schema does not contain.

    Yields ``(pointer, keyword, uri)``: the JSON pointer of the ``$ref`` / ``$dynamicRef``,
    the keyword, and the absolute URI of the document it would have fetched. References to
    ``#…``, to a ``$anchor``, to an embedded ``$id`` (relative or absolute, resolved against
    the enclosing ``$id`` as RFC 3986 §5 says) and to ``$dynamicAnchor`` targets resolve in
    the document and are not yielded. Nothing is fetched. Raises nothing for a checked schema.
    """
    registry, nodes = _with_resolvers(schema)
    for node, where, resolver in nodes:
        for key in ("$ref", "$dynamicRef"):
            ref = node.get(key)
            if not isinstance(ref, str):
                continue
            target = urljoin(str(resolver._base_uri), ref)
            document = urldefrag(target)[0]
            if document in registry:
                continue  # in this document: a dangling fragment is reported when validating
            try:
                resolver.lookup(ref)
            except Unresolvable:
                yield pointer(where + [key]), key, document
            except Exception:  # a malformed URI: it still names no local document
                yield pointer(where + [key]), key, document


def expanded_parts(schema: dict, limit: int = 0) -> tuple[int, str | None]:
    """How many subschemas one value may be checked against once every ``$ref`` / ``$dynamicRef`` is followed (each
    reference counts its target's whole count again; ``$defs`` count only where referred to; a reference back to a
    subschema it is inside counts 1, as a recursive schema recurses only as deep as the value). Counted with each
    subschema's count remembered, so linear in the schema, whatever the count. With ``limit``, stops as soon as a
    count passes it and returns ``(count, pointer of that subschema)``; else ``(count, None)``. A chain of n
    ``$defs`` each referring to the next twice counts about 2^(n+2). Nothing is fetched; raises nothing for a
    schema that passed the meta-schema check."""
    _, nodes = _with_resolvers(schema)
    info: dict[int, tuple[dict, list, Any]] = {id(node): (node, where, resolver) for node, where, resolver in nodes}
    applied = tuple(k for k in _MAPS if k not in ("$defs", "definitions"))

    def edges(key: int) -> list[int]:
        node, where, resolver = info[key]
        out = [id(child) for child, _ in _children(node, where, applied) if isinstance(child, dict)]
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(node.get(keyword), str):
                try:
                    found = resolver.lookup(node[keyword])
                except Exception:  # unresolvable: validating says so, at no cost
                    continue
                if isinstance(found.contents, dict):
                    if id(found.contents) not in info:  # a reference into no keyword position: walk it too
                        info.update((id(n), (n, where + [keyword], found.resolver))
                                    for n, _ in subschemas(found.contents))
                    out.append(id(found.contents))
        return out

    counts: dict[int, int] = {}
    stack = [[id(schema), edges(id(schema)), 0, 1]]  # node, its edges, the next edge, its count so far
    open_nodes = {id(schema)}
    while stack:
        frame = stack[-1]
        key, out, at, total = frame
        if at < len(out):
            frame[2] += 1
            child = out[at]
            if child in counts:
                frame[3] += counts[child]
            elif child in open_nodes:
                frame[3] += 1
            else:
                open_nodes.add(child)
                stack.append([child, edges(child), 0, 1])
            if limit and frame[3] > limit:
                return frame[3], pointer(info[key][1])
            continue
        stack.pop()
        open_nodes.discard(key)
        counts[key] = total
        if stack:
            stack[-1][3] += total
            if limit and stack[-1][3] > limit:
                return stack[-1][3], pointer(info[stack[-1][0]][1])
    return counts[id(schema)], None


#: Keywords whose schemas apply to the very value their schema applies to: a cycle made of these and references
#: alone never reaches a smaller value, so checking any value against it never ends.
_SAME_VALUE_ARRAYS = ("allOf", "anyOf", "oneOf")
_SAME_VALUE_ONE = ("not", "if", "then", "else")


def ref_loop(schema: dict) -> list[str] | None:
    """The JSON pointers of a loop of subschemas, each applying the next to the same value (``$ref``,
    ``$dynamicRef``, ``allOf``/``anyOf``/``oneOf``, ``not``/``if``/``then``/``else``, ``dependentSchemas``), the
    first repeated at the end (``["/$defs/a", "/$defs/b", "/$defs/a"]``); None when there is none. jsonschema
    follows such a loop until Python's recursion limit (a RecursionError, or in `check` a schema that passed
    everything); a recursive schema that refers back through ``properties`` or ``items`` is no loop (the value
    gets smaller). Linear in the schema; nothing is fetched."""
    _, nodes = _with_resolvers(schema)
    info: dict[int, tuple[dict, list, Any]] = {id(node): (node, where, resolver) for node, where, resolver in nodes}

    def edges(key: int) -> list[int]:
        node, where, resolver = info[key]
        out = [c for k in _SAME_VALUE_ARRAYS if isinstance(node.get(k), list) for c in node[k]]
        out += [node[k] for k in _SAME_VALUE_ONE if k in node]
        if isinstance(node.get("dependentSchemas"), dict):
            out += list(node["dependentSchemas"].values())
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(node.get(keyword), str):
                try:
                    found = resolver.lookup(node[keyword])
                except Exception:  # unresolvable: reported on its own
                    continue
                if isinstance(found.contents, dict) and id(found.contents) not in info:
                    info.update((id(n), (n, where + [keyword], found.resolver)) for n, _ in subschemas(found.contents))
                out.append(found.contents)
        return [id(c) for c in out if isinstance(c, dict) and id(c) in info]

    done: set[int] = set()
    for start in list(info):
        if start in done:
            continue
        stack, on_stack = [[start, edges(start), 0]], {start: 0}
        while stack:
            frame = stack[-1]
            key, out, at = frame
            if at < len(out):
                frame[2] += 1
                child = out[at]
                if child in on_stack:
                    cycle = [f[0] for f in stack[on_stack[child]:]] + [child]
                    return [pointer(info[k][1]) or "/" for k in cycle]
                if child not in done:
                    on_stack[child] = len(stack)
                    stack.append([child, edges(child), 0])
                continue
            stack.pop()
            del on_stack[key]
            done.add(key)
    return None


def _parent_schema_path(where: list) -> list:
    """The path of the schema that holds the subschema at ``where``."""
    if len(where) >= 2 and where[-2] in _ARRAYS + _MAPS:
        return where[:-2]
    return where[:-1]


def check_schema(text: str, lang: str = "en") -> SchemaCheck:
    """Parse and check schema text (str) as a Draft 2020-12 input_schema for a tool.

    Never raises for any str (MemoryError included: it becomes a SCHEMA_INVALID refusal).
    A ``$ref`` / ``$dynamicRef`` that would need a document outside the schema is refused
    (SCHEMA_REMOTE_REF, naming the URI it would have fetched), never fetched.
    """
    try:
        return _check_schema(text, lang)
    except MemoryError:
        return SchemaCheck(False, code="SCHEMA_INVALID", message=t("schema.out_of_memory", lang))


#: Schema checks kept per (text, language): the playground checks the editor's text on every
#: rerun, and most reruns (a format switch, a toggle, another student on the same preset) bring
#: text already checked. At most 256 results, holding at most CHECK_CACHE_BYTES (text, parsed schema, message).
CHECK_CACHE_BYTES = 8 * 1024 ** 2
_checks = SizedCache(256, CHECK_CACHE_BYTES)
#: Meta-schema verdicts kept per (parsed schema as JSON, language), same bounds: a refusal for
#: running past the validation budget is kept too, so a costly schema is not re-run each rerun.
_meta_checks = SizedCache(256, CHECK_CACHE_BYTES)


def check_schema_cached(text: str, lang: str = "en") -> SchemaCheck:
    """:func:`check_schema`, remembered per (``text``, ``lang``) in a bounded cache shared by every
    session of the process. The result (and its ``schema`` dict) is shared: read it, never change it.
    Same refusals and limits as check_schema (MAX_SCHEMA_CHARS, the validation budget); text longer
    whose check holds more than CHECK_CACHE_BYTES is checked every time."""
    key = (text, lang)
    hit = _checks.get(key)
    if hit is None:
        hit = check_schema(text, lang)
        _checks.put(key, hit)
    return hit


def _check_schema(text: str, lang: str) -> SchemaCheck:
    if len(text) > MAX_SCHEMA_CHARS:
        return SchemaCheck(False, code="SCHEMA_TOO_LARGE",
                           message=t("schema.too_large", lang, size=len(text), limit=MAX_SCHEMA_CHARS))
    if not text.strip():  # it read "the text stops at line 1, column 1 … it was cut off"
        return SchemaCheck(False, code="SCHEMA_NOT_JSON", message=t("schema.empty", lang))
    try:
        schema = strict_loads(text, MAX_SCHEMA_DEPTH)
    except StrictJSONError as exc:
        detail = localized_detail(exc, lang)
        if exc.line is not None:
            # typed half-way ({"properties": { …): the parser's "expecting a property name" says where, not why
            # (the explanation already says the text stops early; this adds what to do, and that the cards wait)
            unfinished = sentence_gap(lang) + t("schema.unfinished", lang) if ends_open(text) else ""
            message = t("schema.not_json_value", lang, detail=detail) if names_place(exc) \
                else t("schema.not_json", lang, line=exc.line, column=exc.column, detail=detail)
            return SchemaCheck(False, code="SCHEMA_NOT_JSON", line=exc.line, column=exc.column,
                               message=message + unfinished)
        return SchemaCheck(False, code="SCHEMA_NOT_JSON", message=t("schema.not_json_value", lang, detail=detail))
    if not isinstance(schema, dict):
        return SchemaCheck(False, code="SCHEMA_NOT_OBJECT",
                           message=t("schema.not_object", lang, type=t(f"type.{json_type(schema)}", lang)))
    # The verdict depends on the parsed schema, not on its spacing: an edit that only moves
    # whitespace (or a schema another session already wrote) is not checked again.
    key = (json.dumps(schema, ensure_ascii=False), lang)
    verdict = _meta_checks.get(key)
    if verdict is None:
        verdict = _meta_check(schema, lang)
        _meta_checks.put(key, verdict)
    return verdict


def pattern_sites(schema: Any) -> Iterator[tuple[str, str, list]]:
    """Every regular expression of ``schema``: ``(pattern, keyword, path)`` for each string ``pattern``
    value (keyword ``"pattern"``, path ending in it) and each ``patternProperties`` key (keyword
    ``"patternProperties"``, path ending in the key), in the walk order of :func:`subschemas`.
    Iterative; raises nothing."""
    for node, where in subschemas(schema):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"], "pattern", where + ["pattern"]
        if isinstance(node.get("patternProperties"), dict):
            yield from ((key, "patternProperties", where + ["patternProperties", key])
                        for key in node["patternProperties"])


def _too_many_patterns(schema: dict[str, Any], lang: str) -> SchemaCheck | None:
    """The SCHEMA_TOO_MANY_PATTERNS refusal when ``schema`` holds more than MAX_SCHEMA_PATTERNS distinct
    patterns (path: the first one over the cap), else None. Compiles nothing."""
    seen: set[str] = set()
    first_over = None
    for pattern, keyword, where in pattern_sites(schema):
        if pattern not in seen:
            seen.add(pattern)
            if len(seen) == MAX_SCHEMA_PATTERNS + 1:
                first_over = keyword, pointer(where)
    if first_over is None:
        return None
    keyword, where = first_over
    return SchemaCheck(False, code="SCHEMA_TOO_MANY_PATTERNS", keyword=keyword, path=where,
                       message=t("schema.too_many_patterns", lang, count=len(seen), limit=MAX_SCHEMA_PATTERNS,
                                 path=where))


def _parts(schema: dict[str, Any]) -> Iterator[list]:
    """The path of each part of ``schema`` that MAX_SCHEMA_PARTS counts, in the walk order of :func:`subschemas`:
    each subschema, then each name of its ``required`` list and of each ``dependentRequired`` list."""
    for node, where in subschemas(schema):
        yield where
        if isinstance(node.get("required"), list):
            yield from (where + ["required", i] for i in range(len(node["required"])))
        if isinstance(node.get("dependentRequired"), dict):
            for key, names in node["dependentRequired"].items():
                if isinstance(names, list):
                    yield from (where + ["dependentRequired", key, i] for i in range(len(names)))


def _too_many_parts(schema: dict[str, Any], lang: str) -> SchemaCheck | None:
    """The SCHEMA_TOO_MANY_PARTS refusal when ``schema`` holds more than MAX_SCHEMA_PARTS parts (:func:`_parts`;
    path: the first one over the cap), else None. Linear in the schema; compiles and validates nothing."""
    count, first_over = 0, None
    for where in _parts(schema):
        count += 1
        if count == MAX_SCHEMA_PARTS + 1:
            first_over = pointer(where)
    if first_over is None:
        return None
    return SchemaCheck(False, code="SCHEMA_TOO_MANY_PARTS", path=first_over,
                       message=t("schema.too_many_parts", lang, count=count, limit=MAX_SCHEMA_PARTS,
                                 path=escape_lookalikes(first_over)))


def _meta_check(schema: dict[str, Any], lang: str) -> SchemaCheck:
    """The Draft 2020-12 meta-schema check and the remote-reference refusal of a parsed schema
    (after the pattern-count and part-count caps, checked first so that nothing is compiled or validated)."""
    refused = _too_many_patterns(schema, lang) or _too_many_parts(schema, lang)
    if refused is not None:
        return refused
    try:
        meta = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=META_FORMATS)
        err = within_budget(lambda: best_match(meta.iter_errors(schema)))
    except (RecursionError, BudgetExceeded):
        return SchemaCheck(False, code="SCHEMA_INVALID", message=t("schema.recursion", lang))
    if err is not None:
        where = pointer(err.absolute_path) or "/"
        # Name the keyword the user wrote (the last key on the path), not the meta-schema's.
        keys = [p for p in err.absolute_path if isinstance(p, str)]
        keyword = keys[-1] if keys else str(err.validator)
        if err.validator == "format" and err.cause is not None:
            detail = t("schema.bad_regex", lang, value=_short(err.instance),
                       cause=describe_regex_error(err.cause, lang))
        else:
            inner = (best_match(err.context) if err.context else None) or err
            explained = _explain_one(inner, lang)[0]
            detail = t("schema.invalid_detail", lang, expected=explained.expected, received=explained.received)
        # look-alike letters escaped in what is quoted: "at /properties/оrder_id/type" (Cyrillic о) next to a typed
        # order_id read as a fault in order_id (the path field keeps the schema's own names)
        return SchemaCheck(False, code="SCHEMA_INVALID", keyword=str(keyword), path=where,
                           message=t("schema.invalid", lang, path=escape_lookalikes(where),
                                     keyword=escape_lookalikes(str(keyword)), detail=escape_lookalikes(detail)))
    for where, keyword, uri in remote_refs(schema):
        return SchemaCheck(False, code="SCHEMA_REMOTE_REF", keyword=keyword, path=where,
                           message=t("schema.remote_ref_uri", lang, path=escape_lookalikes(where), keyword=keyword,
                                     uri=escape_lookalikes(_short(uri))))
    _, where = expanded_parts(schema, MAX_EXPANDED_SUBSCHEMAS)
    if where is not None:
        return SchemaCheck(False, code="SCHEMA_TOO_EXPANDED", keyword="$ref", path=where,
                           message=t("schema.too_expanded", lang, limit=MAX_EXPANDED_SUBSCHEMAS, path=where or "/"))
    if (loop := ref_loop(schema)) is not None:
        # at most MAX_LISTED places, then how many more: a ring of 480 $defs was a 6 857-character message under the
        # editor on every rerun (100 000 with long names), and a Cyrillic о read as o in it (break-it pass brk13web)
        shown = " → ".join(escape_lookalikes(p) for p in loop[:MAX_LISTED])
        if len(loop) > MAX_LISTED:
            shown += t("word.more", lang, count=len(loop) - MAX_LISTED)
        return SchemaCheck(False, code="SCHEMA_REF_LOOP", keyword="$ref", path=loop[0],
                           message=t("schema.ref_loop", lang, path=escape_lookalikes(loop[0]), loop=shown))
    return SchemaCheck(True, schema=schema)


# --- validating tool input and explaining the errors ----------------------------------

@dataclass
class FieldError:
    """One reason a tool input was rejected, in the words shown to students and models.

    ``pointer`` is the JSON pointer of the field itself (for ``required`` and
    ``additionalProperties`` the missing or extra field, not its parent object);
    ``field`` its last segment (``"(root)"`` for the whole input); ``keyword`` the
    JSON Schema keyword that failed; ``expected``/``received`` short phrases;
    ``hints`` extra explanations; ``reasons`` the alternatives' errors for anyOf/oneOf.
    """

    pointer: str
    field: str
    keyword: str
    expected: str
    received: str
    hints: list[str] = field(default_factory=list)
    reasons: list[FieldError] = field(default_factory=list)


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(value: Any, lang: str = "en") -> str:
    """A value as a student reads it: its JSON type and its JSON text, e.g. ``string "19.99"``."""
    return t("value.described", lang, type=t(f"type.{json_type(value)}", lang),
             json=_short(json.dumps(value, ensure_ascii=False)))


def _js(value: Any) -> str:
    """A schema value as JSON text, shortened: ``"damaged"``, ``1``, ``[1, 2]``."""
    return _short(json.dumps(value, ensure_ascii=False))


def _expected(err: ValidationError, lang: str) -> str:
    kw, val = err.validator, err.validator_value
    simple = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
              "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}
    if kw == "type":
        types = val if isinstance(val, list) else [val]
        return t("expected.type", lang, types=t("word.or", lang).join(t(f"type.{x}", lang) for x in types))
    if kw == "enum":
        shown = ", ".join(_js(v) for v in val[:MAX_LISTED])
        if len(val) > MAX_LISTED:
            shown += t("word.more", lang, count=len(val) - MAX_LISTED)
        return t("expected.enum", lang, values=shown)
    if kw == "const":
        return t("expected.const", lang, value=_js(val))
    if isinstance(err, RegexTimeout):
        return t("expected.regex_in_time", lang, limit=int(REGEX_TIMEOUT * 1000))
    if kw == "pattern":
        return t("expected.pattern", lang, pattern=_short(val))
    if kw in simple:
        return t(f"expected.{kw}", lang, value=_js(val))
    if kw in ("anyOf", "oneOf"):
        return t(f"expected.{kw}", lang, count=len(val))
    if kw == "not":
        return t("expected.not", lang, schema=_js(val))
    if kw == "format" and isinstance(err.cause, FormatTooLong):
        return t("expected.format_checked_up_to", lang, value=_js(val), limit=err.cause.limit)
    if kw == "format":
        return t("expected.format", lang, value=_js(val))
    if kw == "contains":
        return t("expected.contains", lang, schema=_js(val))
    if kw in ("minContains", "maxContains"):
        return t(f"expected.{kw}", lang, value=_js(val), schema=_js(err.schema.get("contains", True)))
    if kw == "uniqueItems":
        return t("expected.uniqueItems", lang)
    if kw == "items" and val is False:
        return t("expected.no_more_items", lang, count=len(err.schema.get("prefixItems", [])))
    if kw == "unevaluatedItems" and val is False:
        return t("expected.no_unevaluated_items", lang)
    if kw is None or val is False:
        return t("expected.false", lang)
    return t("expected.generic", lang, keyword=kw, value=_js(val))


def _hints(err: ValidationError, lang: str) -> list[str]:
    kw, val, inst = err.validator, err.validator_value, err.instance
    hints: list[str] = _branches(err, lang)
    if kw == "not":
        hints.append(t("hint.not_matched", lang))
    if isinstance(err, RegexTimeout):
        hints.append(t("hint.regex_timeout", lang, limit=int(REGEX_TIMEOUT * 1000)))
    if kw == "format" and isinstance(err.cause, FormatTooLong):
        hints.append(t("hint.format_too_long", lang, format=_short(err.cause.format, 40), size=err.cause.size,
                       limit=err.cause.limit))
    if kw == "type":
        wanted = val if isinstance(val, list) else [val]
        if "integer" in wanted or "number" in wanted:
            if isinstance(inst, bool):
                hints.append(t("hint.bool_not_number", lang, value=json.dumps(inst)))
            elif isinstance(inst, str):
                try:
                    float(inst)
                    hints.append(t("hint.string_number", lang, value=_short(inst)))
                except ValueError:
                    pass
            elif isinstance(inst, float) and "integer" in wanted:
                hints.append(t("hint.fractional", lang, value=_short(inst)))
    if kw == "enum" and isinstance(inst, str):
        matches = [v for v in val if isinstance(v, str) and v.lower() == inst.lower()]
        if matches:
            hints.append(t("hint.enum_case", lang, value=matches[0]))
    return hints


def _branches(err: ValidationError, lang: str) -> list[str]:
    """Which conditional branches led to ``err``: if→then / else, dependentSchemas, allOf,
    propertyNames, read from its schema path (outermost first)."""
    hints: list[str] = []
    parts = list(err.absolute_schema_path)
    for i, part in enumerate(parts[:-1]):
        following = parts[i + 1]
        keyword_position = i == 0 or parts[i - 1] not in _MAPS  # not a property that happens to be named so
        if part in ("then", "else") and keyword_position:  # jsonschema leaves "if" out of the path
            hints.append(t(f"hint.if_{part}", lang))
        elif part == "dependentSchemas":
            hints.append(t("hint.dependent_schema", lang, field=_short(str(following))))
        elif part == "allOf" and isinstance(following, int):
            hints.append(t("hint.all_of", lang, n=following + 1))
        elif part == "propertyNames" and isinstance(err.instance, str):
            hints.append(t("hint.property_name", lang, name=_js(err.instance)))
    return hints


def _matching(validator: Any, subschema: Any, values: list) -> list[int]:
    """Indices of ``values`` valid under ``subschema`` (resolved from the validator's root)."""
    if validator is None:
        return []
    check = validator.evolve(schema=subschema)
    return [i for i, v in enumerate(values) if check.is_valid(v)]


def _explain_one(err: ValidationError, lang: str, validator: Any = None,
                 done: set | None = None) -> list[FieldError]:
    """FieldErrors for one jsonschema error; ``validator`` (the one that raised it) lets
    oneOf and contains say which alternatives or items matched. ``done``: the keyword
    applications already explained in this validation. jsonschema reports ``required`` and
    ``dependentRequired`` once per missing name, and each of those errors is explained here as
    every missing name at once; the later ones of the same application (same schema path, same
    instance path) are skipped, so n missing names cost n field errors, not n² (issue 13)."""
    path = list(err.absolute_path)
    kw = err.validator if err.validator is not None else "false"
    if kw in ("required", "dependentRequired") and isinstance(err.instance, dict) and done is not None:
        application = (kw, tuple(err.absolute_schema_path), tuple(path))
        if application in done:
            return []
        done.add(application)
    if kw == "dependentRequired" and isinstance(err.instance, dict):
        return [FieldError(pointer(path + [name]), str(name), "dependentRequired",
                           t("expected.dependentRequired", lang, trigger=_js(trigger)), t("received.missing", lang),
                           _branches(err, lang))
                for trigger, needed in err.validator_value.items() if trigger in err.instance
                for name in needed if name not in err.instance]
    if kw == "required" and isinstance(err.instance, dict):
        # the same sentences for every missing name, written once: 5 000 missing names were 10 000 lookups
        expected, received, branches = t("expected.required", lang), t("received.missing", lang), _branches(err, lang)
        return [FieldError(pointer(path + [name]), str(name), "required", expected, received, [*branches])
                for name in err.validator_value if name not in err.instance]
    if kw == "additionalProperties" and isinstance(err.instance, dict) and not isinstance(err, RegexTimeout):
        names = list(err.schema.get("properties", {}))
        allowed = ", ".join(names[:MAX_LISTED]) or t("word.none", lang)
        if len(names) > MAX_LISTED:
            allowed += t("word.more", lang, count=len(names) - MAX_LISTED)
        return [FieldError(pointer(path + [name]), str(name), "additionalProperties",
                           t("expected.no_extra", lang, allowed=allowed), describe(err.instance[name], lang),
                           _branches(err, lang) + [t("hint.extra_field", lang)])
                for name in extra_properties(err.instance, err.schema)[0]]
    if kw == "unevaluatedProperties" and err.validator_value is False and isinstance(err.instance, dict):
        evaluated = _evaluated_keys(err)
        if evaluated is not None:
            return [FieldError(pointer(path + [name]), str(name), "unevaluatedProperties",
                               t("expected.no_unevaluated", lang), describe(err.instance[name], lang),
                               _branches(err, lang))
                    for name in err.instance if name not in evaluated]
    if kw == "unevaluatedItems" and err.validator_value is False and isinstance(err.instance, list):
        evaluated = _evaluated_keys(err, items=True)
        if evaluated is not None:
            return [FieldError(pointer(path + [i]), str(i), "unevaluatedItems", t("expected.no_unevaluated_item", lang),
                               describe(item, lang), _branches(err, lang))
                    for i, item in enumerate(err.instance) if i not in evaluated]
    reasons: list[FieldError] = []
    if kw in ("anyOf", "oneOf") and err.context:
        for sub in sorted(err.context, key=lambda e: (list(e.schema_path)[:1], list(map(str, e.path)))):
            for fe in _explain_one(sub, lang, validator, done):
                alt = sub.schema_path[0] if sub.schema_path else 0
                fe.expected = t("expected.alternative", lang, n=int(alt) + 1, expected=fe.expected)
                reasons.append(fe)
    if kw == "oneOf" and not err.context:
        reasons = []
    field_name = str(path[-1]) if path else t("word.root", lang)
    if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
        field_name = err.instance
    received = describe(err.instance, lang)
    if kw == "oneOf" and not err.context:
        which = [i + 1 for i, sub in enumerate(err.validator_value) if _matching(validator, sub, [err.instance])]
        listed = ", ".join(map(str, which[:MAX_LISTED])) + (  # 480 matching branches were 480 numbers in one line
            t("word.more", lang, count=len(which) - MAX_LISTED) if len(which) > MAX_LISTED else "")
        received = (t("received.matches_alternatives", lang, value=received, which=listed)
                    if which else t("received.several", lang, value=received))
    if kw == "uniqueItems" and isinstance(err.instance, list):
        pair = duplicate_pair(err.instance)
        if pair:
            received = t("received.duplicates", lang, value=received, first=pair[0], second=pair[1])
    if kw in ("minContains", "maxContains") and isinstance(err.instance, list) and validator is not None:
        count = len(_matching(validator, err.schema.get("contains", True), err.instance))
        received = t("received.matching_items", lang, value=received, count=count)
    return [FieldError(pointer(path), field_name, str(kw), _expected(err, lang), received,
                       _hints(err, lang), reasons)]


def duplicate_pair(items: list) -> tuple[int, int] | None:
    """The first two indices whose items are equal as JSON Schema compares them (1 == 1.0,
    true != 1), or None. Linear: hashing, as in safe_validator's uniqueItems."""
    from toolcall.safe_validator import _frozen

    seen: dict = {}
    for i, item in enumerate(items):
        key = _frozen(item)
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None


def _evaluated_keys(err: ValidationError, items: bool = False) -> set | None:
    """The keys (or, with ``items``, the indices) of ``err.instance`` that the rest of its
    schema evaluates (jsonschema's own helpers, so unevaluatedProperties / unevaluatedItems
    errors can name each unevaluated field or item); None when that cannot be decided."""
    from jsonschema._utils import find_evaluated_item_indexes_by_schema, find_evaluated_property_keys_by_schema

    find = find_evaluated_item_indexes_by_schema if items else find_evaluated_property_keys_by_schema
    try:
        with budget():
            return set(find(SafeValidator(err.schema, registry=REGISTRY), err.instance, err.schema))
    except Exception:  # any failure: fall back to one error for the whole object or array
        return None


def _integral_floats(value: Any, path: list) -> Iterator[tuple[list, float]]:
    """(path, value) of every float with no fractional part in ``value``."""
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, float) and node.is_integer():
            yield where, node
        elif isinstance(node, dict):
            stack.extend((v, where + [k]) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, where + [i]) for i, v in enumerate(node))


#: Validators kept per (schema text, format assertion): at most 64, holding at most VALIDATOR_CACHE_BYTES
#: (schema text, parsed schema, the validator's resolver; measured by toolcall.memsize).
VALIDATOR_CACHE_BYTES = 16 * 1024 ** 2
_validators = SizedCache(64, VALIDATOR_CACHE_BYTES)
#: Schemas (as JSON text) that already ran past the validation budget: refused at once after.
TOO_EXPENSIVE_CACHE_BYTES = 2 * 1024 ** 2
_too_expensive = SizedCache(64, TOO_EXPENSIVE_CACHE_BYTES)


#: Characters of JSON a value may have for an overrun on it to be remembered against the schema (_too_expensive): a
#: tool call is a few hundred. A value pasted into the playground's free box (up to 100 000 characters: 19 000 strings
#: against a 30-pattern anyOf) ran past the budget by its own size, and the schema was then refused for every canned
#: output and every session of the process: the valid call read "rejected ($budget)" and, in the strict panel's leak
#: matrix, leaked under the transformed schemas (break-it pass brk13web).
REMEMBER_MAX_CHARS = 2_000


def _json_chars(instance: Any) -> int | None:
    """Characters of ``instance`` as compact JSON, None when it cannot be written (never raises)."""
    try:
        return len(json.dumps(instance, ensure_ascii=False, separators=(",", ":")))
    except (ValueError, TypeError, RecursionError, MemoryError):
        return None


def _blame(key: str, instance: Any) -> int | None:
    """After an overrun on ``instance``: remember the schema ``key`` as too expensive and return None, unless the value
    is larger than REMEMBER_MAX_CHARS characters of JSON (or cannot be written): then the overrun may be the value's
    doing, only this check is refused, and its size is returned for the message to name."""
    size = _json_chars(instance)
    if size is not None and size <= REMEMBER_MAX_CHARS:
        _too_expensive.put(key, None)
        return None
    return size if size is not None else REMEMBER_MAX_CHARS + 1


def _validator_for(schema_json: str, assert_format: bool) -> Any:
    key = (schema_json, assert_format)
    validator = _validators.get(key)
    if validator is None:
        validator = SafeValidator(json.loads(schema_json), registry=REGISTRY,
                                  format_checker=ASSERT_FORMATS if assert_format else None)
        _validators.put(key, validator)
    return validator


def formats_used(schema: Any) -> list[str]:
    """The ``format`` values a schema uses (in keyword positions only), sorted, unique."""
    return sorted({node["format"] for node, _ in subschemas(schema) if isinstance(node.get("format"), str)})


def _raw_errors(instance: Any, schema: dict[str, Any], key: str, lang: str, assert_format: bool,
                registry: Any) -> tuple[list | None, Any, list[FieldError] | None]:
    """jsonschema's errors for ``instance`` under the validation budget: ``(errors, validator, None)``, or
    ``(None, None, [one FieldError])`` when the schema is too expensive, a pattern timed out, ``$ref`` recursed
    forever or did not resolve, or memory ran out. ``key`` is ``json.dumps(schema)``, made once by the caller.
    Raises nothing for any JSON value, except SharedBudgetSpent inside a spent safe_validator.shared_budget."""
    if key in _too_expensive:
        return None, None, [_budget_error(lang)]
    try:
        if registry is None:
            validator = _validator_for(key, assert_format)
        else:
            registry = registry.combine(REGISTRY)
            validator = validator_class(schema, registry)(schema, registry=registry,
                                                          format_checker=ASSERT_FORMATS if assert_format else None)
        raw_errors = within_budget(lambda: list(validator.iter_errors(instance)))
    except SharedBudgetSpent:
        raise  # the rerun's budget, spent on other validations too: not this schema's verdict, not remembered
    except BudgetExceeded:
        return None, None, [_budget_error(lang, _blame(key, instance))]
    except RegexTimeout:
        return None, None, [FieldError("", t("word.root", lang), "pattern", t("expected.regex_in_time", lang,
                                                                 limit=int(REGEX_TIMEOUT * 1000)),
                           t("received.regex_timeout", lang), [t("hint.regex_timeout", lang,
                                                                 limit=int(REGEX_TIMEOUT * 1000))])]
    except RecursionError:
        return None, None, [FieldError("", t("word.root", lang), "$ref", t("expected.finite_schema", lang),
                           t("received.recursion", lang))]
    except Unresolvable as exc:
        return None, None, [FieldError("", t("word.root", lang), "$ref", t("expected.resolvable_ref", lang),
                           _short(str(exc)))]
    except MemoryError:
        _blame(key, instance)
        return None, None, [_memory_error(lang)]
    return raw_errors, validator, None


def validate(instance: Any, schema: dict[str, Any], lang: str = "en", assert_format: bool = False,
             registry: Any = None) -> tuple[list[FieldError], list[str]]:
    """Validate ``instance`` against ``schema`` and explain every error.

    ``schema`` must already have passed ``check_schema``. Returns ``(errors, notes)``:
    every error, sorted by pointer then keyword, and notes that are not errors (an
    integral float such as 1999.0 counts as an integer; a ``format`` left unchecked).
    ``assert_format``: check ``format`` with jsonschema's format checkers (Draft 2020-12
    Validation §7.2.2, format-assertion); off, ``format`` is an annotation (§7.2.1) and a
    note says it was not checked. ``registry``: a ``referencing.Registry`` of extra
    documents (tests only: the JSON-Schema-Test-Suite's remotes); the app never passes one,
    and no registry ever fetches. A self-referencing schema that recurses forever, or a
    ``$ref`` that cannot be resolved, becomes one ``$ref`` error; running out of memory
    becomes one ``$memory`` error. Raises nothing for any JSON value, except SharedBudgetSpent when called
    inside a ``safe_validator.shared_budget`` that is spent before the verdict is known (judge.evaluate_canned).
    """
    key = json.dumps(schema)
    raw_errors, validator, refused = _raw_errors(instance, schema, key, lang, assert_format, registry)
    if refused is not None:
        return refused, []
    errors: list[FieldError] = []
    seen: set[tuple[str, str]] = set()
    done: set = set()
    try:
        with budget():
            for err in raw_errors:
                for explained in _explain_one(err, lang, validator, done):
                    # jsonschema reports `required` once per missing name, each listing them all.
                    if (explained.pointer, explained.keyword) in seen and explained.keyword in (
                            "required", "dependentRequired"):
                        continue
                    seen.add((explained.pointer, explained.keyword))
                    errors.append(explained)
    except (BudgetExceeded, RecursionError, Unresolvable, RegexTimeout):
        pass  # the explanations so far stand; the verdict (rejected) is already decided
    except MemoryError:
        return [_memory_error(lang)], []
    errors.sort(key=lambda e: (e.pointer, e.keyword))
    floats = list(_integral_floats(instance, []))  # paths and values: no pointer is written for the unlisted
    notes = [t("note.integral_float", lang, pointer=where, value=_short(value))
             for where, value in heapq.nsmallest(MAX_LISTED, ((pointer(w), v) for w, v in floats),
                                                 key=lambda item: item[0])]
    if len(floats) > MAX_LISTED:
        notes.append(t("note.integral_floats_more", lang, count=len(floats) - MAX_LISTED))
    if not assert_format:
        used = formats_used(schema) if '"format"' in key else []  # no walk without the word
        if used:
            listed = ", ".join(_short(f, 40) for f in used[:MAX_LISTED])
            notes.append(t("note.format_not_checked", lang, formats=listed))
    return errors, notes


def rejected_keywords(instance: Any, schema: dict[str, Any]) -> tuple[str, ...]:
    """The sorted keywords ``validate(instance, schema)`` would report, without explaining any error: a verdict
    that needs no sentences (the strict panel's leak matrix) costs the validation only. ``()`` when valid; the one
    keyword of validate's single error when it refuses (``$budget``, ``pattern``, ``$ref``, ``$memory``); a
    ``false`` subschema is ``"false"``. Raises nothing for any JSON value."""
    raw_errors, _, refused = _raw_errors(instance, schema, json.dumps(schema), "en", False, None)
    if refused is not None:
        return tuple(e.keyword for e in refused)
    return tuple(sorted({str(err.validator) if err.validator is not None else "false" for err in raw_errors}))


def _memory_error(lang: str) -> FieldError:
    return FieldError("", t("word.root", lang), "$memory", t("expected.memory", lang),
                      t("received.out_of_memory", lang))


def _budget_error(lang: str, value_chars: int | None = None) -> FieldError:
    """The ``$budget`` refusal; ``value_chars``: the value's size in characters of JSON when it is large enough to be
    the cause (then the hint says so), else None (the schema's branches are)."""
    limit = int(VALIDATION_BUDGET * 1000)
    hint = (t("hint.too_expensive", lang) if value_chars is None
            else t("hint.too_expensive_value", lang, size=f"{value_chars:,}"))
    return FieldError("", t("word.root", lang), "$budget", t("expected.cheap_schema", lang, limit=limit),
                      t("received.too_expensive", lang, limit=limit), [hint])


def display_pointer(ptr: str, lang: str = "en") -> str:
    """A JSON pointer for people: the root (``""``) is shown as ``(root)``, not ``/``
    (which is the pointer of the key ``""``)."""
    return ptr if ptr else t("word.root", lang)
