"""The SDK helpers that rewrite a schema for strict mode, reimplemented without the SDKs.

- ``anthropic_transform`` is Anthropic's ``transform_schema`` (anthropic-sdk-python 2.17,
  ``anthropic/lib/_parse/_transform.py``), used by ``messages.parse`` and the strict-tool
  helpers. It forces ``additionalProperties: false``, renames ``oneOf`` to ``anyOf``, keeps a
  primitive ``enum``/``const`` and drops ``type`` beside it, drops the siblings of ``$ref`` but its
  ``description``, keeps
  ``minItems`` only when 0 or 1 and a ``format`` only from its own list, and moves every other
  keyword (``minimum``, ``maxLength``, ``pattern``, ``default`` …) into the description as
  ``{key: value, …}`` text (Python's ``str()`` of each value). It fails on a schema without
  ``type``/``anyOf``/``oneOf``/``allOf``/literal, and on a ``type`` that is a list or unknown.
- ``openai_transform`` is OpenAI's ``to_strict_json_schema`` body
  (openai-python ``openai/lib/_pydantic.py: _ensure_strict_json_schema``): every property
  becomes required (with no null union added), ``additionalProperties: false`` where missing,
  ``default: null`` removed, a one-entry ``allOf`` inlined, a ``$ref`` with siblings inlined.
- ``openai_fix`` is ours: a schema OpenAI strict mode accepts (null unions for optional
  fields, all required, ``additionalProperties: false`` everywhere, unsupported keywords
  moved into the description), plus the diff.

tests/unit/test_strict_transforms.py holds each port equal to the SDK function on a corpus.
"""

from __future__ import annotations

import copy
import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from toolcall.strict.rules import ANTHROPIC_FORMATS
from toolcall.strict.walk import at, is_object_schema

#: anthropic/lib/_parse/_transform.py: SupportedTypes. Its SupportedStringFormats is the docs' list,
#: toolcall.strict.rules.ANTHROPIC_FORMATS (imported above; one definition).
ANTHROPIC_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")


class TransformError(ValueError):
    """The SDK helper would raise on this schema; ``path`` is the JSON pointer of the subschema."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path or '(root)'}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Moved:
    """A keyword a transform took out of the schema: ``path`` is its old JSON pointer.
    ``into`` is ``"description"`` (kept only as text), ``"dropped"`` or ``"renamed"``."""

    path: str
    keyword: str
    value: Any
    into: str


#: Most subschemas openai_transform builds. Inlining a ``$ref`` that has siblings copies its
#: target, so a chain of $defs each referencing the one before twice doubles per link: 2 KB of
#: schema grew to 48 MB (issue 13). OpenAI strict mode takes at most 5 000 object properties
#: (toolcall.strict.rules), so a schema past this count is refused by the provider anyway.
MAX_TRANSFORM_NODES = 10_000


class TransformTooLarge(TransformError):
    """openai_transform stopped: the schema it builds would hold more than ``limit`` subschemas."""

    def __init__(self, limit: int):
        super().__init__("", f"inlining $ref makes more than {limit} subschemas; stopped")
        self.limit = limit


def _primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def anthropic_transform(schema: dict[str, Any]) -> tuple[dict[str, Any], list[Moved]]:
    """Anthropic's ``transform_schema(schema)`` and the keywords it moved or dropped.

    Returns ``(strict_schema, moved)``; the input is not modified. Raises TransformError
    (with the subschema's pointer) where the SDK raises ValueError, AssertionError or
    TypeError. Source: anthropic-sdk-python 2.14 ``lib/_parse/_transform.py``.
    """
    moved: list[Moved] = []
    return _anthropic(schema, [], moved), moved


def _anthropic(json_schema: Any, path: list, moved: list[Moved]) -> dict[str, Any]:
    if not isinstance(json_schema, dict):
        raise TransformError(at(path), f"a subschema must be an object, not {json.dumps(json_schema)}")
    strict: dict[str, Any] = {}
    rest = {**json_schema}
    defs = rest.pop("$defs", None)
    if defs is not None:
        strict["$defs"] = {name: _anthropic(sub, path + ["$defs", name], moved) for name, sub in defs.items()}
    ref = rest.pop("$ref", None)
    if ref is not None:
        strict["$ref"] = ref
        if (description := rest.pop("description", None)) is not None:
            strict["description"] = description  # kept since anthropic-sdk-python 2.17
        moved.extend(Moved(at(path, k), k, v, "dropped") for k, v in rest.items())
        return strict
    type_ = rest.pop("type", None)
    any_of, one_of, all_of = rest.pop("anyOf", None), rest.pop("oneOf", None), rest.pop("allOf", None)
    enum = rest.get("enum")
    if isinstance(enum, list) and enum and all(_primitive(v) for v in enum):
        strict["enum"] = list(rest.pop("enum"))
    if "const" in rest and _primitive(rest["const"]):
        strict["const"] = rest.pop("const")
    has_literals = "enum" in strict or "const" in strict
    if has_literals:
        if type_ is not None:
            moved.append(Moved(at(path, "type"), "type", type_, "dropped"))
        type_ = None
    if isinstance(any_of, list):
        strict["anyOf"] = [_anthropic(v, path + ["anyOf", i], moved) for i, v in enumerate(any_of)]
    elif isinstance(one_of, list):
        strict["anyOf"] = [_anthropic(v, path + ["oneOf", i], moved) for i, v in enumerate(one_of)]
        moved.append(Moved(at(path, "oneOf"), "oneOf", "anyOf", "renamed"))
    elif isinstance(all_of, list):
        strict["allOf"] = [_anthropic(v, path + ["allOf", i], moved) for i, v in enumerate(all_of)]
    elif not has_literals:
        if type_ is None:
            raise TransformError(at(path), "no 'type', 'anyOf', 'oneOf', 'allOf', 'const' or primitive 'enum'")
        strict["type"] = type_
    description = rest.pop("description", None)
    if description is not None:
        strict["description"] = description
    title = rest.pop("title", None)
    if title is not None:
        strict["title"] = title
    if type_ == "object":
        strict["properties"] = {key: _anthropic(sub, path + ["properties", key], moved)
                                for key, sub in rest.pop("properties", {}).items()}
        if "additionalProperties" in rest and rest["additionalProperties"] is not False:
            moved.append(Moved(at(path, "additionalProperties"), "additionalProperties",
                               rest["additionalProperties"], "dropped"))
        rest.pop("additionalProperties", None)
        strict["additionalProperties"] = False
        required = rest.pop("required", None)
        if required is not None:
            strict["required"] = list(required) if isinstance(required, list) else required
    elif type_ == "string":
        fmt = rest.pop("format", None)
        if fmt and fmt in ANTHROPIC_FORMATS:
            strict["format"] = fmt
        elif fmt:
            rest["format"] = fmt  # re-added last, so it is described after the other keywords
        elif fmt is not None:
            moved.append(Moved(at(path, "format"), "format", fmt, "dropped"))
    elif type_ == "array":
        items = rest.pop("items", None)
        if items is not None:
            strict["items"] = _anthropic(items, path + ["items"], moved)
        min_items = rest.pop("minItems", None)
        # the SDK's own precedence: (min_items is not None and min_items == 0) or min_items == 1
        if min_items is not None and min_items == 0 or min_items == 1:
            strict["minItems"] = min_items
        elif min_items is not None:
            rest["minItems"] = min_items
    elif type_ not in ("boolean", "integer", "number", "null", None):
        raise TransformError(at(path, "type"), f"type {json.dumps(type_)} is not one of {', '.join(ANTHROPIC_TYPES)}")
    if rest:
        text = "{" + ", ".join(f"{key}: {value}" for key, value in rest.items()) + "}"
        old = strict.get("description")
        strict["description"] = (old + "\n\n" if old is not None else "") + text
        moved.extend(Moved(at(path, k), k, v, "description") for k, v in rest.items())
    return strict


def openai_transform(schema: dict[str, Any]) -> tuple[dict[str, Any], list[Moved]]:
    """OpenAI's ``to_strict_json_schema`` applied to a JSON Schema dict, and what it removed.

    Returns ``(strict_schema, moved)``; the input is not modified (the SDK mutates a copy
    it made from a pydantic model). Raises TransformError where the SDK raises, and
    TransformTooLarge (a TransformError) past MAX_TRANSFORM_NODES subschemas built (counted
    with each inlined copy), where the SDK would run on.
    Source: openai-python ``openai/lib/_pydantic.py: _ensure_strict_json_schema``.
    """
    root = copy.deepcopy(schema)
    moved: list[Moved] = []
    return _openai(root, [], root, moved, [0]), moved


def _openai(node: Any, path: list, root: dict[str, Any], moved: list[Moved], built: list[int]) -> dict[str, Any]:
    built[0] += 1
    if built[0] > MAX_TRANSFORM_NODES:
        raise TransformTooLarge(MAX_TRANSFORM_NODES)
    if not isinstance(node, dict):
        raise TransformError(at(path), f"expected an object, not {json.dumps(node)}")
    for key in ("$defs", "definitions"):
        defs = node.get(key)
        if isinstance(defs, dict):
            for name, sub in defs.items():
                _openai(sub, path + [key, name], root, moved, built)
    if node.get("type") == "object" and "additionalProperties" not in node:
        node["additionalProperties"] = False
    properties = node.get("properties")
    if isinstance(properties, dict):
        node["required"] = list(properties)
        node["properties"] = {k: _openai(sub, path + ["properties", k], root, moved, built)
                              for k, sub in properties.items()}
    if isinstance(node.get("items"), dict):
        node["items"] = _openai(node["items"], path + ["items"], root, moved, built)
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [_openai(v, path + ["anyOf", i], root, moved, built) for i, v in enumerate(node["anyOf"])]
    all_of = node.get("allOf")
    if isinstance(all_of, list):
        if len(all_of) == 1:
            node.update(_openai(all_of[0], path + ["allOf", 0], root, moved, built))
            node.pop("allOf")
            moved.append(Moved(at(path, "allOf"), "allOf", "inlined", "renamed"))
        else:
            node["allOf"] = [_openai(v, path + ["allOf", i], root, moved, built) for i, v in enumerate(all_of)]
    if "default" in node and node["default"] is None:
        node.pop("default")
        moved.append(Moved(at(path, "default"), "default", None, "dropped"))
    ref = node.get("$ref")
    if ref and len(node) > 1:
        if not isinstance(ref, str):
            raise TransformError(at(path, "$ref"), f"non-string $ref {json.dumps(ref)}")
        resolved = _resolve_ref(root, ref, path)
        node.update({**resolved, **node})
        node.pop("$ref")
        moved.append(Moved(at(path, "$ref"), "$ref", ref, "renamed"))
        return _openai(node, path, root, moved, built)
    return node


def _resolve_ref(root: dict[str, Any], ref: str, path: list) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise TransformError(at(path, "$ref"), f"$ref {ref!r} does not start with #/")
    node: Any = root
    for key in ref[2:].split("/"):
        if not isinstance(node, dict) or key not in node:
            raise TransformError(at(path, "$ref"), f"$ref {ref!r} does not resolve")
        node = node[key]
        if not isinstance(node, dict):
            raise TransformError(at(path, "$ref"), f"$ref {ref!r} resolves through a non-object")
    return node


# --- our fix for OpenAI strict mode -----------------------------------------------------

@dataclass
class OpenAIFix:
    """A schema OpenAI strict mode accepts, made from the original.

    ``schema`` the fixed schema; ``made_nullable`` JSON pointers of the properties that were
    optional and now take ``null`` (the model must send ``null`` to leave them out);
    ``added`` pointers where ``additionalProperties: false`` was set; ``moved`` keywords
    outside OpenAI's supported list, now only text in the description; ``diff`` a unified
    diff of the two schemas as indented JSON (None when they are too long to diff: schema_diff).
    """

    schema: dict[str, Any]
    made_nullable: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    diff: str | None = ""


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` that also accepts null: a type list, ``null`` in an enum, or an anyOf branch."""
    out = dict(prop)
    if "$ref" in out or ("type" not in out and ("enum" not in out or "const" in out)):
        keep = {k: out.pop(k) for k in ("description", "title") if k in out}
        return {"anyOf": [out, {"type": "null"}], **keep}
    if "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        if "null" not in types:
            out["type"] = [*types, "null"]
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def openai_fix(schema: dict[str, Any], unsupported: frozenset[str]) -> OpenAIFix:
    """Rewrite ``schema`` for OpenAI strict mode (see OpenAIFix); the input is not modified.

    ``unsupported`` is the set of keywords to move into descriptions (rules.OPENAI_UNSUPPORTED).
    Source of the rules: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
    ("all fields must be required"; optional = union with null; additionalProperties: false).
    """
    fixed = copy.deepcopy(schema)
    result = OpenAIFix(fixed)
    stack: list[tuple[list, Any]] = [([], fixed)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        extra = {k: node.pop(k) for k in [k for k in node if k in unsupported]}
        if extra:
            text = "{" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in extra.items()) + "}"
            node["description"] = (node["description"] + "\n\n" if node.get("description") else "") + text
            result.moved.extend(Moved(at(path, k), k, v, "description") for k, v in extra.items())
        props = node.get("properties")
        if isinstance(props, dict) or is_object_schema(node):
            props = props if isinstance(props, dict) else {}
            required = node.get("required") if isinstance(node.get("required"), list) else []
            for name in props:
                if name not in required and isinstance(props[name], dict):
                    props[name] = _nullable(props[name])
                    result.made_nullable.append(at(path, "properties", name))
            node["properties"] = props
            node["required"] = [*required, *[n for n in props if n not in required]]
            if node.get("additionalProperties") is not False:
                node["additionalProperties"] = False
                result.added.append(at(path, "additionalProperties"))
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), dict):
                stack.extend((path + [key, k], v) for k, v in node[key].items())
        for key in ("anyOf", "prefixItems"):
            if isinstance(node.get(key), list):
                stack.extend((path + [key, i], v) for i, v in enumerate(node[key]))
        if isinstance(node.get("items"), dict):
            stack.append((path + ["items"], node["items"]))
    result.diff = schema_diff(schema, fixed)
    return result


#: Longest schema (lines of indented JSON, either side) schema_diff compares: difflib's matching is
#: quadratic in the worst case (a 200 000-character schema with 2 000 objects took 4 s per diff,
#: on every edit), and a diff that long is not read anyway. The shipped tools are under 60 lines.
MAX_DIFF_LINES = 2_000


def _lines_within(value: Any, max_lines: int) -> list[str] | None:
    """``value`` as canonical indented JSON (keys sorted), split into lines; None past ``max_lines`` lines, the
    text then not written further (indenting a schema nested 60 deep makes it about 60 times longer)."""
    parts: list[str] = []
    lines = 1
    for chunk in json.JSONEncoder(ensure_ascii=False, indent=2, sort_keys=True).iterencode(value):
        lines += chunk.count("\n")
        if lines > max_lines:
            return None
        parts.append(chunk)
    return "".join(parts).splitlines()


def schema_diff(before: dict[str, Any], after: dict[str, Any], names: tuple[str, str] = ("original", "fixed"),
                max_lines: int = MAX_DIFF_LINES) -> str | None:
    """Unified diff of two schemas printed as canonical indented JSON (keys sorted at every level, so
    keys that were only reordered, as transform_schema rebuilds each object, show no change; a keyword
    that moved still shows as removed in one place and added in another); ``""`` when they are equal;
    None when either is longer than ``max_lines`` lines and they differ (the caller says the diff is not drawn).
    Neither side is written past ``max_lines`` lines."""
    a, b = _lines_within(before, max_lines), _lines_within(after, max_lines)
    if a is None or b is None:
        canonical = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))  # noqa: E731
        return "" if canonical(before) == canonical(after) else None
    if a == b:
        return ""
    return "\n".join(difflib.unified_diff(a, b, names[0], names[1], lineterm="", n=2))
