"""Parse a model's raw tool input (the arguments text) into a JSON object, or say why not.

A model emits tool arguments as text: OpenAI sends ``function.arguments`` as a string,
Anthropic streams ``input_json_delta`` fragments that the client joins. This module
never repairs that text and never evaluates it: it either returns the object the JSON
says, or a ``ParsedInput`` whose ``code`` names the problem and whose ``hints`` explain it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

#: Largest raw input accepted, in characters. Real tool inputs are a few hundred.
MAX_INPUT_CHARS = 100_000
#: Deepest nesting of arrays/objects accepted before parsing (guards the C parser's recursion).
MAX_DEPTH = 64
#: Python refuses int(str) above 4300 digits; we refuse earlier and say so.
MAX_INT_DIGITS = 1000

INVALID_JSON = "INVALID_JSON"
NOT_AN_OBJECT = "NOT_AN_OBJECT"
TOO_LARGE = "TOO_LARGE"
TOO_DEEP = "TOO_DEEP"
DUPLICATE_KEYS = "DUPLICATE_KEYS"


@dataclass(frozen=True)
class Hint:
    """A translatable explanation: an i18n key under ``hint.`` plus its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class ParsedInput:
    """The outcome of parsing one raw model output.

    ``ok`` is True only when ``value`` is a JSON object (a Python dict). Otherwise
    ``code`` is one of INVALID_JSON, NOT_AN_OBJECT, TOO_LARGE, TOO_DEEP, DUPLICATE_KEYS;
    ``detail`` is the parser's own English message; ``line``/``column`` are 1-based and
    ``pos`` is the 0-based character offset, when the parser gave one.
    """

    raw: str
    ok: bool
    value: Any = None
    code: str | None = None
    detail: str = ""
    line: int | None = None
    column: int | None = None
    pos: int | None = None
    hints: list[Hint] = field(default_factory=list)


class _Refused(ValueError):
    """Raised from inside json.loads hooks for values JSON Schema must never see."""

    def __init__(self, detail: str, hint: Hint):
        super().__init__(detail)
        self.hint = hint


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not valid JSON", Hint("not_a_json_number", {"token": name}))


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(
            f"integer with {digits} digits exceeds the {MAX_INT_DIGITS}-digit limit",
            Hint("huge_integer", {"digits": digits, "limit": MAX_INT_DIGITS}),
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"number {text[:40]} overflows a double", Hint("float_overflow", {"text": text[:40]}))
    return value


def max_depth(text: str) -> int:
    """Deepest ``[``/``{`` nesting in ``text``, ignoring brackets inside JSON strings.

    Linear time, no recursion, so it is safe on 100 000-deep input.
    """
    return _scan(text)[0]


def ends_open(text: str) -> bool:
    """True when ``text`` stops inside a string or with a ``[``/``{`` left unclosed: the
    signature of output cut off mid-way (a max_tokens stop)."""
    _, final_depth, in_string = _scan(text)
    return in_string or final_depth > 0


def _scan(text: str) -> tuple[int, int, bool]:
    """(deepest nesting, nesting at the end, whether the text ends inside a string)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest, depth, in_string


def _syntax_hints(raw: str, pos: int | None) -> list[Hint]:
    """Explain common reasons a model's text is not JSON; never alters the text."""
    hints: list[Hint] = []
    stripped = raw.strip()
    if raw.startswith("\ufeff"):
        hints.append(Hint("bom"))
    if stripped.startswith("```"):
        hints.append(Hint("code_fence"))
    if re.search(r"(?<![\"\w])(True|False|None)(?![\"\w])", raw) or re.search(r"[{,\[]\s*'", raw):
        hints.append(Hint("python_dict"))
    if re.search(r",\s*[}\]]", raw):
        hints.append(Hint("trailing_comma"))
    if stripped[:1] in "{[" and ends_open(raw):
        hints.append(Hint("truncated"))
    return hints


def parse_tool_input(raw: str) -> ParsedInput:
    """Parse ``raw`` (str, the model's argument text) into a JSON object.

    Returns a ParsedInput; never raises for any str. Refuses, with a code and hints:
    text over MAX_INPUT_CHARS or nested deeper than MAX_DEPTH; anything json.loads
    rejects (truncation, trailing commas, single quotes, code fences, a BOM);
    NaN/Infinity and numbers that overflow; integers over MAX_INT_DIGITS digits;
    duplicate keys (the last would silently win); and any top-level value that is not
    an object (including a JSON string that itself holds JSON: double encoding).
    """
    if not isinstance(raw, str):
        raise TypeError(f"raw must be str, not {type(raw).__name__}")
    if len(raw) > MAX_INPUT_CHARS:
        return ParsedInput(raw, False, code=TOO_LARGE,
                           detail=f"input is {len(raw):,} characters; the limit is {MAX_INPUT_CHARS:,}",
                           hints=[Hint("too_large", {"size": len(raw), "limit": MAX_INPUT_CHARS})])
    if not raw.strip():
        return ParsedInput(raw, False, code=INVALID_JSON, detail="empty input: expected a JSON object",
                           line=1, column=1, pos=0, hints=[Hint("empty")])
    depth = max_depth(raw)
    if depth > MAX_DEPTH:
        return ParsedInput(raw, False, code=TOO_DEEP,
                           detail=f"nested {depth} levels deep; the limit is {MAX_DEPTH}",
                           hints=[Hint("too_deep", {"depth": depth, "limit": MAX_DEPTH})])

    duplicates: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen and key not in duplicates:
                duplicates.append(key)
            seen[key] = value
        return seen

    try:
        value = json.loads(raw, object_pairs_hook=pairs_hook, parse_constant=_refuse_constant,
                           parse_int=_parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        return ParsedInput(raw, False, code=INVALID_JSON, detail=exc.msg, line=exc.lineno,
                           column=exc.colno, pos=exc.pos, hints=_syntax_hints(raw, exc.pos))
    except _Refused as exc:
        return ParsedInput(raw, False, code=INVALID_JSON, detail=str(exc), hints=[exc.hint])
    except (ValueError, RecursionError) as exc:  # defensive: anything else the parser raises
        return ParsedInput(raw, False, code=INVALID_JSON, detail=str(exc)[:200])

    if duplicates:
        return ParsedInput(raw, False, value=value, code=DUPLICATE_KEYS,
                           detail="duplicate keys: " + ", ".join(duplicates),
                           hints=[Hint("duplicate_keys", {"keys": ", ".join(duplicates)})])
    if not isinstance(value, dict):
        hints = [Hint("not_an_object", {"type": json_type(value)})]
        if isinstance(value, str):
            inner = parse_tool_input(value) if len(value) <= MAX_INPUT_CHARS else None
            if inner is not None and inner.ok:
                hints = [Hint("double_encoded")]
        return ParsedInput(raw, False, value=value, code=NOT_AN_OBJECT,
                           detail=f"expected a JSON object, got {json_type(value)}", hints=hints)
    return ParsedInput(raw, True, value=value)


def json_type(value: Any) -> str:
    """The JSON Schema type name of a Python value decoded from JSON.

    bool is checked before int because ``True`` is an ``int`` in Python but a
    ``boolean`` in JSON; an integral float such as 1999.0 is reported as ``number``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
