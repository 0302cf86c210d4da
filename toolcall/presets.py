"""Presets that loosen the refund tool's reference input_schema, one lesson each (the playground's
selectbox and the schema-fix exercises' starting schemas)."""

from __future__ import annotations

import copy
from typing import Any

from toolcall.text import editable_json
from toolcall.validation import MAX_SCHEMA_CHARS

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
    """Pretty JSON for the schema editor (2-space indent, non-ASCII kept); compact when indenting would pass
    MAX_SCHEMA_CHARS (a schema nested 58 deep, 199 000 characters, from a share link or an applied definition,
    filled the editor with 12.6 MB that check_schema then refused as too large)."""
    return editable_json(schema, MAX_SCHEMA_CHARS)


#: Presets that change the name or the description (the playground's selectbox lists them after PRESETS).
DEFINITION_PRESETS: tuple[str, ...] = ("description_removed", "no_when_not_to_use", "vague_name")


def apply_definition_preset(name: str, description: str, preset: str) -> tuple[str, str]:
    """The (name, description) a definition preset writes; each teaches one lesson of the course's
    tool-design chapter. description_removed: description ""; no_when_not_to_use: the sentences
    stating when not to use the tool (``points.WHEN_NOT``) removed; vague_name: the name becomes the
    course's ``do_stuff``. Raises ValueError for an unknown preset."""
    from toolcall.points import WHEN_NOT, description_points

    if preset == "description_removed":
        return name, ""
    if preset == "no_when_not_to_use":
        kept = [s.text for s in description_points(description) if WHEN_NOT not in s.points]
        return name, "".join(s if s[-1] in "。！？" else s + " " for s in kept).strip()
    if preset == "vague_name":
        return "do_stuff", description
    raise ValueError(f"unknown preset {preset!r}; expected one of {DEFINITION_PRESETS}")
