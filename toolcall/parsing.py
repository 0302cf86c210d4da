"""Parse a model's raw tool input (the arguments text) into a JSON object, or say why not.

A model emits tool arguments as text: OpenAI sends ``function.arguments`` as a string,
Anthropic streams ``input_json_delta`` fragments that the client joins. This module
never repairs that text and never evaluates it: it either returns the object the JSON
says, or a ``ParsedInput`` whose ``code`` names the problem and whose ``hints`` explain it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from toolcall.i18n import DEFAULT_LANG, LANGS, catalogue, t
from toolcall.json_explain import excerpt_at, explain, place

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
    ``detail`` is the parser's own English message; ``line``/``column`` are 1-based and name the place
    to fix (json_explain: for a missing comma, the value before it) and
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
    detail_key: str | None = None
    detail_params: dict[str, Any] = field(default_factory=dict)


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
    inside = False
    for ch, inside in _string_flags(text):
        if inside:
            continue
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest, depth, inside


def _string_flags(text: str) -> Iterator[tuple[str, bool]]:
    """Each character of ``text`` with whether it belongs to a double-quoted string: its opening quote, its
    characters and escapes count, its closing quote does not (so the last flag says whether the text ends
    inside a string)."""
    in_string = escaped = False
    for ch in text:
        if not in_string:
            in_string = ch == '"'
        elif escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            in_string = False
        yield ch, in_string


def _outside_strings(text: str) -> str:
    """``text`` with every character of a double-quoted string but its closing quote turned into a space: what
    the syntax hints may read (a ",}" or a "True" in a string is text, not syntax)."""
    return "".join(" " if inside else ch for ch, inside in _string_flags(text))


def _syntax_hints(raw: str, pos: int | None) -> list[Hint]:
    """Explain common reasons a model's text is not JSON, from what is outside its strings; never alters the text."""
    hints: list[Hint] = []
    stripped = raw.strip()
    syntax = _outside_strings(raw)
    if raw.startswith("\ufeff"):
        hints.append(Hint("bom"))
    if stripped.startswith("```"):
        hints.append(Hint("code_fence"))
    if re.search(r"(?<![\"\w])(True|False|None)(?![\"\w])", syntax) or re.search(r"[{,\[]\s*'", syntax):
        hints.append(Hint("python_dict"))
    if re.search(r",\s*[}\]]", syntax):
        hints.append(Hint("trailing_comma"))
    if stripped[:1] in "{[" and ends_open(raw):
        hints.append(Hint("truncated"))
    return hints


def parse_tool_input(raw: str, limit: int = MAX_INPUT_CHARS) -> ParsedInput:
    """Parse ``raw`` (str, the model's argument text) into a JSON object.

    Returns a ParsedInput; never raises for any str. Refuses, with a code and hints:
    text over ``limit`` characters (MAX_INPUT_CHARS, the app's cap on one model output; a reader of
    arguments inside a transcript that is itself bounded passes its own) or nested deeper than
    MAX_DEPTH; anything json.loads rejects (truncation, trailing commas, single quotes, code fences, a BOM);
    NaN/Infinity and numbers that overflow; integers over MAX_INT_DIGITS digits;
    duplicate keys (the last would silently win); and any top-level value that is not
    an object (including a JSON string that itself holds JSON: double encoding).
    """
    if not isinstance(raw, str):
        raise TypeError(f"raw must be str, not {type(raw).__name__}")
    if len(raw) > limit:
        return ParsedInput(raw, False, code=TOO_LARGE,
                           detail=f"input is {len(raw):,} characters; the limit is {limit:,}",
                           detail_key="too_large", detail_params={"size": len(raw), "limit": limit},
                           hints=[Hint("too_large", {"size": len(raw), "limit": limit})])
    if not raw.strip():
        return ParsedInput(raw, False, code=INVALID_JSON, detail="empty input: expected a JSON object",
                           detail_key="empty", line=1, column=1, pos=0, hints=[Hint("empty")])
    try:
        value = strict_loads(raw, MAX_DEPTH)
    except StrictJSONError as exc:
        hints = [exc.hint] if exc.hint else [] if exc.code == TOO_LARGE else _syntax_hints(raw, exc.pos)
        return ParsedInput(raw, False, value=exc.value, code=exc.code, detail=exc.detail, detail_key=exc.detail_key,
                           detail_params=exc.detail_params, line=exc.line, column=exc.column, pos=exc.pos,
                           hints=hints)
    if not isinstance(value, dict):
        hints = [Hint("not_an_object", {"type": json_type(value)})]
        if isinstance(value, str):
            inner = parse_tool_input(value, limit) if len(value) <= limit else None
            if inner is not None and inner.ok:
                hints = [Hint("double_encoded")]
        return ParsedInput(raw, False, value=value, code=NOT_AN_OBJECT,
                           detail=f"expected a JSON object, got a JSON {json_type(value)}", detail_key="not_an_object",
                           detail_params={"type": json_type(value)}, hints=hints)
    return ParsedInput(raw, True, value=value)


class StrictJSONError(ValueError):
    """Why ``strict_loads`` refused a text: a code, the English detail, an i18n detail key
    (under ``json_error.``) with its params, the position when known, and a Hint."""

    def __init__(self, code: str, detail: str, detail_key: str | None = None, detail_params: dict | None = None,
                 line: int | None = None, column: int | None = None, pos: int | None = None,
                 hint: Hint | None = None, value: Any = None):
        super().__init__(detail)
        self.code, self.detail, self.detail_key = code, detail, detail_key
        self.detail_params = detail_params or {}
        self.line, self.column, self.pos, self.hint, self.value = line, column, pos, hint, value


_SURROGATE = re.compile("[\ud800-\udfff]")



def find_surrogate(value: Any) -> str | None:
    """The first lone UTF-16 surrogate (U+D800–U+DFFF) in any string or key of ``value``,
    as ``U+D800``; None when there is none. Such text cannot be encoded as UTF-8."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found = _SURROGATE.search(node)
            if found:
                return f"U+{ord(found.group()):04X}"
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


#: Keys a "duplicate keys" message names, and characters of each: 4 500 keys written twice made a hint of 30 KB,
#: listed again on every rerun (issue 13: at most a dozen ids per message).
MAX_NAMED_KEYS, MAX_KEY_CHARS = 12, 40


def named_keys(keys: list[str]) -> str:
    """``keys`` for a message: the first MAX_NAMED_KEYS, each cut to MAX_KEY_CHARS characters (then "…"), joined with
    ", ", then ", … (+N)" for the N not named (words of no language: the same text in every message)."""
    named = ", ".join(k if len(k) <= MAX_KEY_CHARS else k[:MAX_KEY_CHARS] + "…" for k in keys[:MAX_NAMED_KEYS])
    return named + (f", … (+{len(keys) - MAX_NAMED_KEYS})" if len(keys) > MAX_NAMED_KEYS else "")


def strict_loads(text: str, depth_limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` that refuses what JSON Schema must never see. Raises StrictJSONError.

    Refused: nesting deeper than ``depth_limit`` (checked first, without recursion);
    syntax errors (with line, column and 0-based offset); NaN / Infinity; numbers that
    overflow a double; integers over MAX_INT_DIGITS digits; duplicate keys; lone
    surrogates, in the text or from ``\\ud800`` escapes; and text whose values do not fit in memory
    (a MemoryError while parsing: TOO_LARGE, detail key ``out_of_memory``).
    """
    depth = max_depth(text)
    if depth > depth_limit:
        raise StrictJSONError(TOO_DEEP, f"nested {depth} levels deep; the limit is {depth_limit}", "too_deep",
                              {"depth": depth, "limit": depth_limit},
                              hint=Hint("too_deep", {"depth": depth, "limit": depth_limit}))
    found = _SURROGATE.search(text)
    if found:
        code_point = f"U+{ord(found.group()):04X}"
        raise StrictJSONError(INVALID_JSON, f"lone surrogate {code_point} at offset {found.start()}", "surrogate",
                              {"code_point": code_point}, pos=found.start(), hint=Hint("surrogate"))
    duplicates: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen and key not in duplicates:
                duplicates.append(key)
            seen[key] = value
        return seen

    try:
        value = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=_refuse_constant,
                           parse_int=_parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        why = explain(text, exc)  # the place to fix, which for a missing comma is not where the parser stopped
        raise StrictJSONError(INVALID_JSON, exc.msg, f"explain.{why.kind}", why.params(), why.line, why.column,
                              exc.pos) from None
    except _Refused as exc:
        raise StrictJSONError(INVALID_JSON, str(exc), f"refused_{exc.hint.key}", exc.hint.params,
                              hint=exc.hint) from None
    except (ValueError, RecursionError) as exc:  # defensive: anything else the parser raises
        raise StrictJSONError(INVALID_JSON, str(exc)[:200]) from None
    except MemoryError:  # every caller promises a message: the pairing checker, the harness, the definition box …
        raise StrictJSONError(TOO_LARGE, "the server ran out of memory reading this JSON", "out_of_memory") from None
    if duplicates:
        keys = named_keys(duplicates)
        raise StrictJSONError(DUPLICATE_KEYS, "duplicate keys: " + keys, "duplicate_keys", {"keys": keys},
                              hint=Hint("duplicate_keys", {"keys": keys}), value=value)
    code_point = find_surrogate(value)
    if code_point:
        raise StrictJSONError(INVALID_JSON, f"lone surrogate {code_point} in a string", "surrogate",
                              {"code_point": code_point}, hint=Hint("surrogate"))
    return value


def localized_detail(parsed: ParsedInput | StrictJSONError, lang: str, line_offset: int = 0) -> str:
    """The parser's detail in ``lang``: a translation of Python's json messages and of our
    own refusals; any other message is returned as the parser wrote it. A decoder error is the
    plain-words explanation of ``json_explain`` (the place to fix, an excerpt) with the parser's
    own message after it, as a detail: one place named, never the parser's second one, its line
    ``line_offset`` lines further on (the text is a line of a longer one)."""
    if parsed.detail_key and parsed.detail_key.startswith("explain."):
        params = {**parsed.detail_params, "line": parsed.detail_params["line"] + line_offset}
        return t(f"json_error.{parsed.detail_key}", lang, **params) + t("json_error.explain_raw", lang, **params)
    if parsed.detail_key:
        return t(f"json_error.{parsed.detail_key}", lang, **_localized_params(parsed.detail_params, lang))
    return parsed.detail


#: Nesting json_reason reads before it gives the depth as the reason: orjson's own limit (its "Recursion limit
#: reached"), so a text orjson gave up on for another reason is explained by that reason.
REASON_DEPTH = 1024


def json_reason(text: str, line_offset: int = 0, pos: int = 0) -> dict[str, str]:
    """Why ``text`` is not JSON, in every language (``{lang: sentence}``): the sentence every "not JSON" message
    of the app gives (localized_detail: json_explain's plain words at the place to fix, or our refusal), for a
    reader that parsed with another library (orjson) and knows only that it failed. ``line_offset`` as in
    localized_detail. A text Python's json reads whole (orjson is stricter in a few corners) gets the "breaks
    here" wording at ``pos`` (0-based offset, where that reader stopped). Linear in the text; raises nothing."""
    try:
        strict_loads(text, REASON_DEPTH)
    except StrictJSONError as exc:  # without a detail key (the interpreter's stack ran out): the place is all we know
        if exc.detail_key and exc.code != TOO_LARGE:
            return {lang: localized_detail(exc, lang, line_offset) for lang in LANGS}
    line, column = place(text, pos)
    return {lang: t("json_error.explain.unknown", lang, line=line + line_offset, column=column,
                    excerpt=excerpt_at(text, min(pos, max(len(text) - 1, 0)))) for lang in LANGS}


def names_place(parsed: ParsedInput | StrictJSONError) -> bool:
    """True when :func:`localized_detail` already says where to fix the text (a decoder error,
    explained by json_explain), so a message around it should not give the line and column again."""
    return bool(parsed.detail_key and parsed.detail_key.startswith("explain."))


def render_hint(hint: Hint, lang: str, for_model: bool = False) -> str:
    """A Hint in ``lang``; a ``type`` parameter is translated too (``string`` → ``字符串``).

    ``for_model``: the wording sent to the model in a tool_result, where a hint written for the
    developer has one (``hint_model.<key>``: the truncation hint tells the model to send the whole
    object, not the developer to raise max_tokens); the student's wording otherwise."""
    key = f"hint_model.{hint.key}" if for_model and f"hint_model.{hint.key}" in catalogue(DEFAULT_LANG) \
        else f"hint.{hint.key}"
    return t(key, lang, **_localized_params(hint.params, lang))


def _localized_params(params: dict[str, Any], lang: str) -> dict[str, Any]:
    return {k: (t(f"type.{v}", lang) if k == "type" else v) for k, v in params.items()}


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
