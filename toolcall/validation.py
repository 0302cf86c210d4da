"""Check an edited input_schema, validate tool input against it, explain every error per field.

Validation uses jsonschema's Draft 2020-12 validator, hardened in toolcall.safe_validator
so that an edited schema cannot stall or crash the server (time-limited regular
expressions, a time budget per validation, no network).  Explanations are built from jsonschema's
error objects (path, keyword, value, context), never by parsing its message strings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing.exceptions import Unresolvable

from toolcall.i18n import t
from toolcall.parsing import StrictJSONError, json_type, localized_detail, strict_loads
from toolcall.safe_validator import (META_FORMATS, REGEX_TIMEOUT, REGISTRY, VALIDATION_BUDGET, BudgetExceeded,
                                     RegexTimeout, SafeValidator, budget, extra_properties)

#: Largest schema text accepted, in characters, and its deepest nesting.
MAX_SCHEMA_CHARS = 200_000
MAX_SCHEMA_DEPTH = 64
#: Values listed in an ``enum`` explanation before the rest are counted.
MAX_LISTED = 12


# --- checking the schema itself ---------------------------------------------------------

@dataclass
class SchemaCheck:
    """Outcome of reading the schema editor's text.

    ``ok`` with ``schema`` (a dict) set, or ``code`` one of SCHEMA_TOO_LARGE,
    SCHEMA_NOT_JSON, SCHEMA_NOT_OBJECT, SCHEMA_INVALID, SCHEMA_REMOTE_REF with a
    translated ``message``; ``line``/``column`` (1-based) for JSON syntax errors and
    ``keyword``/``path`` (a JSON pointer into the schema) for meta-schema errors.
    """

    ok: bool
    schema: dict[str, Any] | None = None
    code: str | None = None
    message: str = ""
    line: int | None = None
    column: int | None = None
    keyword: str | None = None
    path: str | None = None


def pointer(parts) -> str:
    """RFC 6901 JSON pointer for a sequence of keys/indices: ``['a', 0]`` → ``/a/0``; ``[]`` → ``""``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _remote_refs(node: Any, path: list) -> Iterator[tuple[str, str]]:
    stack = [(node, path)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("$ref", "$dynamicRef") and isinstance(value, str) and not value.startswith("#"):
                    yield pointer(path + [key]), value
                stack.append((value, path + [key]))
        elif isinstance(node, list):
            stack.extend((v, path + [i]) for i, v in enumerate(node))


def check_schema(text: str, lang: str = "en") -> SchemaCheck:
    """Parse and check schema text (str) as a Draft 2020-12 input_schema for a tool.

    Never raises for any str. A remote ``$ref`` is refused, not fetched.
    """
    if len(text) > MAX_SCHEMA_CHARS:
        return SchemaCheck(False, code="SCHEMA_TOO_LARGE",
                           message=t("schema.too_large", lang, size=len(text), limit=MAX_SCHEMA_CHARS))
    try:
        schema = strict_loads(text, MAX_SCHEMA_DEPTH)
    except StrictJSONError as exc:
        detail = localized_detail(exc, lang)
        if exc.line is not None:
            return SchemaCheck(False, code="SCHEMA_NOT_JSON", line=exc.line, column=exc.column,
                               message=t("schema.not_json", lang, line=exc.line, column=exc.column, detail=detail))
        return SchemaCheck(False, code="SCHEMA_NOT_JSON", message=t("schema.not_json_value", lang, detail=detail))
    if not isinstance(schema, dict):
        return SchemaCheck(False, code="SCHEMA_NOT_OBJECT",
                           message=t("schema.not_object", lang, type=t(f"type.{json_type(schema)}", lang)))
    try:
        meta = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=META_FORMATS)
        with budget():
            err = best_match(meta.iter_errors(schema))
    except (RecursionError, BudgetExceeded):
        return SchemaCheck(False, code="SCHEMA_INVALID", message=t("schema.recursion", lang))
    if err is not None:
        where = pointer(err.absolute_path) or "/"
        # Name the keyword the user wrote (the last key on the path), not the meta-schema's.
        keys = [p for p in err.absolute_path if isinstance(p, str)]
        keyword = keys[-1] if keys else str(err.validator)
        if err.validator == "format" and err.cause is not None:
            detail = t("schema.bad_regex", lang, value=_short(err.instance), cause=_short(str(err.cause) or type(err.cause).__name__))
        else:
            inner = (best_match(err.context) if err.context else None) or err
            explained = _explain_one(inner, lang)[0]
            detail = t("schema.invalid_detail", lang, expected=explained.expected, received=explained.received)
        return SchemaCheck(False, code="SCHEMA_INVALID", keyword=str(keyword), path=where,
                           message=t("schema.invalid", lang, path=where, keyword=keyword, detail=detail))
    for where, ref in _remote_refs(schema, []):
        return SchemaCheck(False, code="SCHEMA_REMOTE_REF", keyword="$ref", path=where,
                           message=t("schema.remote_ref", lang, path=where, ref=_short(ref)))
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
    reasons: list["FieldError"] = field(default_factory=list)


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
    if kw is None or val is False:
        return t("expected.false", lang)
    return t("expected.generic", lang, keyword=kw, value=_js(val))


def _hints(err: ValidationError, lang: str) -> list[str]:
    kw, val, inst = err.validator, err.validator_value, err.instance
    hints: list[str] = []
    if isinstance(err, RegexTimeout):
        hints.append(t("hint.regex_timeout", lang, limit=int(REGEX_TIMEOUT * 1000)))
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


def _explain_one(err: ValidationError, lang: str) -> list[FieldError]:
    path = list(err.absolute_path)
    kw = err.validator if err.validator is not None else "false"
    if kw == "required" and isinstance(err.instance, dict):
        return [FieldError(pointer(path + [name]), str(name), "required", t("expected.required", lang),
                           t("received.missing", lang))
                for name in err.validator_value if name not in err.instance]
    if kw == "additionalProperties" and isinstance(err.instance, dict) and not isinstance(err, RegexTimeout):
        names = list(err.schema.get("properties", {}))
        allowed = ", ".join(names[:MAX_LISTED]) or t("word.none", lang)
        if len(names) > MAX_LISTED:
            allowed += t("word.more", lang, count=len(names) - MAX_LISTED)
        return [FieldError(pointer(path + [name]), str(name), "additionalProperties",
                           t("expected.no_extra", lang, allowed=allowed), describe(err.instance[name], lang),
                           [t("hint.extra_field", lang)])
                for name in extra_properties(err.instance, err.schema)[0]]
    if kw == "unevaluatedProperties" and err.validator_value is False and isinstance(err.instance, dict):
        evaluated = _evaluated_keys(err)
        if evaluated is not None:
            return [FieldError(pointer(path + [name]), str(name), "unevaluatedProperties",
                               t("expected.no_unevaluated", lang), describe(err.instance[name], lang))
                    for name in err.instance if name not in evaluated]
    reasons: list[FieldError] = []
    if kw in ("anyOf", "oneOf") and err.context:
        for sub in sorted(err.context, key=lambda e: (list(e.schema_path)[:1], list(map(str, e.path)))):
            for fe in _explain_one(sub, lang):
                alt = sub.schema_path[0] if sub.schema_path else 0
                fe.expected = t("expected.alternative", lang, n=int(alt) + 1, expected=fe.expected)
                reasons.append(fe)
    if kw == "oneOf" and not err.context:
        reasons = []
    field_name = str(path[-1]) if path else t("word.root", lang)
    received = describe(err.instance, lang)
    if kw == "oneOf" and not err.context:
        received = t("received.several", lang, value=received)
    return [FieldError(pointer(path), field_name, str(kw), _expected(err, lang), received,
                       _hints(err, lang), reasons)]


def _evaluated_keys(err: ValidationError) -> set[str] | None:
    """The keys of ``err.instance`` that the rest of its schema evaluates (jsonschema's own
    helper, so unevaluatedProperties errors can name each unevaluated field)."""
    from jsonschema._utils import find_evaluated_property_keys_by_schema

    try:
        with budget():
            return set(find_evaluated_property_keys_by_schema(SafeValidator(err.schema, registry=REGISTRY),
                                                              err.instance, err.schema))
    except Exception:  # any failure: fall back to one error for the whole object
        return None


def _integral_floats(value: Any, path: list) -> Iterator[str]:
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, float) and node.is_integer():
            yield pointer(where)
        elif isinstance(node, dict):
            stack.extend((v, where + [k]) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, where + [i]) for i, v in enumerate(node))


@lru_cache(maxsize=64)
def _validator_for(schema_json: str) -> Any:
    return SafeValidator(json.loads(schema_json), registry=REGISTRY)


def validate(instance: Any, schema: dict[str, Any], lang: str = "en") -> tuple[list[FieldError], list[str]]:
    """Validate ``instance`` against ``schema`` and explain every error.

    ``schema`` must already have passed ``check_schema``. Returns ``(errors, notes)``:
    every error, sorted by pointer then keyword, and notes that are not errors (an
    integral float such as 1999.0 counts as an integer). A self-referencing schema that
    recurses forever, or a ``$ref`` that cannot be resolved, becomes one ``$ref`` error.
    Raises nothing for any JSON value.
    """
    key = json.dumps(schema)
    if key in _too_expensive:
        return [_budget_error(lang)], []
    validator = _validator_for(key)
    try:
        with budget():
            raw_errors = list(validator.iter_errors(instance))
    except BudgetExceeded:
        _too_expensive[key] = None
        while len(_too_expensive) > 64:
            _too_expensive.pop(next(iter(_too_expensive)))
        return [_budget_error(lang)], []
    except RegexTimeout:
        return [FieldError("", t("word.root", lang), "pattern", t("expected.regex_in_time", lang,
                                                                 limit=int(REGEX_TIMEOUT * 1000)),
                           t("received.regex_timeout", lang), [t("hint.regex_timeout", lang,
                                                                 limit=int(REGEX_TIMEOUT * 1000))])], []
    except RecursionError:
        return [FieldError("", t("word.root", lang), "$ref", t("expected.finite_schema", lang),
                           t("received.recursion", lang))], []
    except Unresolvable as exc:
        return [FieldError("", t("word.root", lang), "$ref", t("expected.resolvable_ref", lang),
                           _short(str(exc)))], []
    errors: list[FieldError] = []
    seen: set[tuple[str, str]] = set()
    for err in raw_errors:
        for explained in _explain_one(err, lang):
            # jsonschema reports `required` once per missing name, each listing them all.
            if (explained.pointer, explained.keyword) in seen and explained.keyword == "required":
                continue
            seen.add((explained.pointer, explained.keyword))
            errors.append(explained)
    errors.sort(key=lambda e: (e.pointer, e.keyword))
    notes = [t("note.integral_float", lang, pointer=p, value=_short(_resolve(instance, p)))
             for p in sorted(_integral_floats(instance, []))]
    return errors, notes


#: Schemas (as JSON text) that already ran past the validation budget: refused at once after.
_too_expensive: dict[str, None] = {}


def _budget_error(lang: str) -> FieldError:
    limit = int(VALIDATION_BUDGET * 1000)
    return FieldError("", t("word.root", lang), "$budget", t("expected.cheap_schema", lang, limit=limit),
                      t("received.too_expensive", lang, limit=limit), [t("hint.too_expensive", lang)])


def display_pointer(ptr: str, lang: str = "en") -> str:
    """A JSON pointer for people: the root (``""``) is shown as ``(root)``, not ``/``
    (which is the pointer of the key ``""``)."""
    return ptr if ptr else t("word.root", lang)


def _resolve(instance: Any, ptr: str) -> Any:
    node = instance
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node
