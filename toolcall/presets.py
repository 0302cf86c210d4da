"""Presets that loosen the refund tool's reference input_schema, one lesson each (the playground's
selectbox and the schema-fix exercises' starting schemas)."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any


PRESETS: tuple[str, ...] = ("reference", "no_additional_properties", "nothing_required", "enum_removed",
                            "integer_loosened", "all_constraints_stripped")

_CONSTRAINTS = {"pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                "minLength", "maxLength", "enum", "const", "format", "type"}


def apply_preset(reference: dict[str, Any], preset: str) -> dict[str, Any]:
    """A loosened copy of ``reference`` (never mutated); each preset teaches one lesson.

    no_additional_properties: drop ``additionalProperties`` (extra fields pass);
    nothing_required: drop ``required`` (missing fields pass); enum_removed: drop every
    property's ``enum``; integer_loosened: ``integer`` becomes ``["number", "string"]``;
    all_constraints_stripped: keep only ``type: object`` and each property's description.
    Raises ValueError for an unknown preset.
    """
    schema = copy.deepcopy(reference)
    props = schema.get("properties", {})
    if preset == "reference":
        pass
    elif preset == "no_additional_properties":
        schema.pop("additionalProperties", None)
    elif preset == "nothing_required":
        schema.pop("required", None)
    elif preset == "enum_removed":
        for prop in props.values():
            prop.pop("enum", None)
    elif preset == "integer_loosened":
        for prop in props.values():
            if prop.get("type") == "integer":
                prop["type"] = ["number", "string"]
    elif preset == "all_constraints_stripped":
        for prop in props.values():
            for key in _CONSTRAINTS & set(prop):
                del prop[key]
        schema.pop("required", None)
        schema.pop("additionalProperties", None)
    else:
        raise ValueError(f"unknown preset {preset!r}; expected one of {PRESETS}")
    return schema


def schema_text(schema: dict[str, Any]) -> str:
    """Pretty JSON for the schema editor (2-space indent, non-ASCII kept)."""
    return json.dumps(schema, indent=2, ensure_ascii=False)


@functools.lru_cache(maxsize=64)
def preset_text(reference_text: str, preset: str) -> str:
    """The editor text of ``preset`` applied to the schema whose JSON text is ``reference_text``
    (``schema_text(apply_preset(json.loads(reference_text), preset))``), remembered for the last 64
    (reference, preset) pairs: the playground compares the editor with it on every rerun. Raises
    ValueError for an unknown preset, json.JSONDecodeError for text that is not JSON."""
    return schema_text(apply_preset(json.loads(reference_text), preset))
