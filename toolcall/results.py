"""Build the message sent back to the model, in the Anthropic and OpenAI wire formats.

Anthropic: a ``tool_result`` content block in the next user message::

    {"type": "tool_result", "tool_use_id": "toolu_…", "is_error": true, "content": "…"}

OpenAI Chat Completions: a message of its own::

    {"role": "tool", "tool_call_id": "call_…", "content": "…"}

Every structure is a dict serialised with ``json.dumps``: nothing is concatenated
into JSON text by hand, so any raw input, however broken, is quoted back safely.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from toolcall.i18n import t
from toolcall.parsing import ParsedInput, parse_tool_input
from toolcall.text import escape_invisible
from toolcall.validation import FieldError, display_pointer
from toolcall.wire import ANTHROPIC, FORMATS, OPENAI

#: Characters of a rejected raw input quoted back to the model.
RAW_QUOTE_LIMIT = 2000
#: Error lines in a schema rejection sent back at most; the rest are counted in one line.
MAX_ERROR_LINES = 20
#: Characters of the error lines together at most (one error can be long: nested reasons).
MAX_ERROR_CHARS = 6000

_SURROGATES = re.compile("[\ud800-\udfff]")


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it can be encoded as UTF-8."""
    return _SURROGATES.sub("\ufffd", text)


_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def call_id(seed: str, fmt: str = ANTHROPIC) -> str:
    """A deterministic id shaped like the provider's: ``toolu_01…`` (Anthropic) or ``call_…`` (OpenAI).

    ``seed`` is any string (the canned output's id); the same seed gives the same id.
    """
    digest = int.from_bytes(hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest(), "big")
    chars = []
    for _ in range(22):
        digest, r = divmod(digest, 62)
        chars.append(_ALPHABET[r])
    body = "".join(chars)
    return f"toolu_01{body}" if fmt == ANTHROPIC else f"call_{body}"


def tool_call_entry(fmt: str, call: str, name: str, raw: str) -> dict[str, Any]:
    """The model's side of one call, as the provider sends it: Anthropic's ``tool_use`` content block
    (``input`` is the parsed object, or None when ``raw`` is not a JSON object; the API itself only
    ever sends objects) or one entry of OpenAI's ``tool_calls`` (``arguments`` is the raw text).
    Raises ValueError for an unknown ``fmt``."""
    if fmt == ANTHROPIC:
        return {"type": "tool_use", "id": call, "name": name, "input": parse_tool_input(raw).value}
    if fmt == OPENAI:
        return {"id": call, "type": "function", "function": {"name": name, "arguments": raw}}
    raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def tool_result_message(fmt: str, call: str, content: str, is_error: bool) -> dict[str, Any]:
    """Wrap ``content`` (str) as the provider's tool result for call id ``call``.

    Anthropic: a ``tool_result`` block, with ``is_error: true`` only on errors.
    OpenAI: a ``role: "tool"`` message; it has no error flag, so the content says it.
    Raises ValueError for an unknown ``fmt``.
    """
    if fmt == ANTHROPIC:
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call}
        if is_error:
            block["is_error"] = True
        block["content"] = content
        return block
    if fmt == OPENAI:
        return {"role": "tool", "tool_call_id": call, "content": content}
    raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def _line(err: FieldError, lang: str) -> str:
    line = t("result.error_line", lang, pointer=display_pointer(err.pointer, lang), keyword=err.keyword,
             expected=err.expected,
             received=err.received)
    sep = "" if lang == "zh" else " "  # Chinese sentences are not separated by spaces
    for hint in err.hints:
        line += sep + hint
    for reason in err.reasons:
        line += "\n    " + t("result.error_line", lang, pointer=display_pointer(reason.pointer, lang),
                                keyword=reason.keyword,
                                expected=reason.expected, received=reason.received)
    return escape_invisible(line)


def validation_error_content(tool_name: str, errors: list[FieldError], lang: str = "en") -> str:
    """Plain-text content for a schema rejection: one line per error, naming the field,
    the keyword, what was expected and what was received (invisible and bidi characters
    escaped), then a request to fix and call again. At most MAX_ERROR_LINES lines and about
    MAX_ERROR_CHARS characters of them; the rest are counted in one line ("… and 8980 more
    errors not listed"), so 9000 extra keys give a few kB, not megabytes."""
    lines = [t("result.validation_header", lang, tool=tool_name, count=len(errors))]
    used = 0
    for k, err in enumerate(errors[:MAX_ERROR_LINES]):
        line = _line(err, lang)
        if k and used + len(line) > MAX_ERROR_CHARS:
            break
        lines.append(line if len(line) <= MAX_ERROR_CHARS else line[:MAX_ERROR_CHARS] + "…")
        used += len(line)
    left = len(errors) - (len(lines) - 1)
    if left:
        lines.append(t("result.errors_omitted", lang, count=left))
    lines.append(t("result.fix_and_retry", lang, tool=tool_name))
    return "\n".join(lines)


def parse_error_content(tool_name: str, parsed: ParsedInput, detail: str, hints: list[str], lang: str = "en") -> str:
    """JSON content for input that is not a JSON object: the code, the parser's message
    (``detail``, already in ``lang``) and position, the raw text quoted back (capped at
    RAW_QUOTE_LIMIT characters, lone surrogates replaced by U+FFFD), and advice."""
    raw = scrub(parsed.raw)
    body: dict[str, Any] = {"error": parsed.code, "detail": detail}
    if parsed.line is not None:
        body["line"], body["column"], body["position"] = parsed.line, parsed.column, parsed.pos
    body["raw"] = raw[:RAW_QUOTE_LIMIT]
    if len(raw) > RAW_QUOTE_LIMIT:
        body["raw_truncated_from"] = len(raw)
    if hints:
        body["hints"] = hints
    body["advice"] = t("result.parse_advice", lang, tool=tool_name)
    return json.dumps(body, ensure_ascii=False)


def backend_error_content(error: dict[str, Any]) -> str:
    """JSON content for a refusal by the backend: ``{"error": {code, message, retryable}}``."""
    return json.dumps({"error": error}, ensure_ascii=False)


def success_content(data: dict[str, Any]) -> str:
    """JSON content for the backend's successful result."""
    return json.dumps(data, ensure_ascii=False)
