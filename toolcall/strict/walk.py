"""Walk every subschema of a JSON Schema with its JSON pointer (shared by the rules and transforms)."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterator

from toolcall.validation import pointer

#: Keywords whose value is one subschema.
ONE = ("items", "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties",
       "unevaluatedItems", "unevaluatedProperties", "additionalItems")
#: Keywords whose value is a list of subschemas.
MANY = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Keywords whose value maps names to subschemas.
NAMED = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")


def subschemas(schema: Any) -> Iterator[tuple[list, dict[str, Any]]]:
    """Yield ``(path, node)`` for every dict subschema of ``schema``, the root first (path ``[]``).

    ``path`` is the list of keys from the root (``['properties', 'note']``). Iterative, so a
    deep schema cannot exhaust the stack; boolean subschemas are skipped.
    """
    stack: list[tuple[list, Any]] = [([], schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield path, node
        children: list[tuple[list, Any]] = []
        for key in ONE:
            if isinstance(node.get(key), dict):
                children.append((path + [key], node[key]))
        for key in MANY:
            if isinstance(node.get(key), list):
                children.extend((path + [key, i], sub) for i, sub in enumerate(node[key]))
        for key in NAMED:
            if isinstance(node.get(key), dict):
                children.extend((path + [key, name], sub) for name, sub in node[key].items())
        stack.extend(reversed(children))


def at(path: list, *more) -> str:
    """JSON pointer of ``path`` plus ``more`` keys.

    ``at(['properties', 'a'], 'minimum')`` → ``/properties/a/minimum``.
    """
    return pointer(list(path) + list(more))


def types_of(node: dict[str, Any]) -> list[str]:
    """The ``type`` keyword as a list (``[]`` when absent)."""
    value = node.get("type")
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def is_object_schema(node: dict[str, Any]) -> bool:
    """True for a subschema that describes objects (``type: object`` or ``properties`` without a type)."""
    return "object" in types_of(node) or ("type" not in node and "properties" in node)
