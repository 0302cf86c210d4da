"""Build the message sent back to the model, in each wire format of toolcall/wire.py.

Anthropic: a ``tool_result`` content block in the next user message::

    {"type": "tool_result", "tool_use_id": "toolu_…", "is_error": true, "content": "…"}

OpenAI Chat Completions: a message of its own::

    {"role": "tool", "tool_call_id": "call_…", "content": "…"}

OpenAI Responses: an input item (no error flag; the output text says it)::

    {"type": "function_call_output", "call_id": "call_…", "output": "…"}

MCP (specification 2025-11-25): the JSON-RPC response to ``tools/call``, either a ``CallToolResult``::

    {"jsonrpc": "2.0", "id": "…", "result": {"content": [{"type": "text", "text": "…"}], "isError": true}}

for anything that happened while running the tool (schema-refused arguments included, SEP-1303), or a
JSON-RPC error for a request that could not be dispatched (arguments that are not an object, an
unknown tool)::

    {"jsonrpc": "2.0", "id": "…", "error": {"code": -32602, "message": "…", "data": {…}}}

Gemini: a ``functionResponse`` part whose ``response`` is an object (``output`` or ``error`` key)::

    {"functionResponse": {"id": "…", "name": "refund_order", "response": {"error": …}}}

Every structure is a dict serialised with ``json.dumps``: nothing is concatenated
into JSON text by hand, so any raw input, however broken, is quoted back safely.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from toolcall.i18n import sentence_gap, t
from toolcall.parsing import ParsedInput, parse_tool_input
from toolcall.text import escape_invisible, escape_line, escape_lookalikes
from toolcall.validation import FieldError, display_pointer
from toolcall.wire import ANTHROPIC, FORMATS, GEMINI, MCP, OPENAI, RESPONSES

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
    """A deterministic id shaped like the provider's: ``toolu_01…`` (Anthropic), ``call_…`` (OpenAI
    Chat Completions and Responses, Gemini's optional ``id``) or ``req_…`` (an MCP JSON-RPC request id,
    which may be a string or a number).

    ``seed`` is any string (the canned output's id); the same seed gives the same id.
    """
    digest = int.from_bytes(hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest(), "big")
    chars = []
    for _ in range(22):
        digest, r = divmod(digest, 62)
        chars.append(_ALPHABET[r])
    body = "".join(chars)
    if fmt == ANTHROPIC:
        return f"toolu_01{body}"
    return f"req_{body[:16]}" if fmt == MCP else f"call_{body}"


def tool_call_entry(fmt: str, call: str, name: str, raw: str, value: dict[str, Any] | None = None) -> dict[str, Any]:
    """The call side of one call: as the provider sends the model's call (Anthropic's ``tool_use`` content
    block, one entry of OpenAI's ``tool_calls``, a Responses ``function_call`` item, a Gemini ``functionCall``
    part), or, for MCP, the ``tools/call`` request the host (the MCP client) sends the tool server. Chat
    Completions and Responses carry ``raw`` as the text; the other forms carry the parsed object (None when
    ``raw`` is not a JSON object: those APIs only ever send objects; ``value``, when given, is that object,
    already parsed by the caller). Raises ValueError for an unknown ``fmt``."""
    if fmt == OPENAI:
        return {"id": call, "type": "function", "function": {"name": name, "arguments": raw}}
    if fmt == RESPONSES:
        return {"type": "function_call", "call_id": call, "name": name, "arguments": raw}
    value = parse_tool_input(raw).value if value is None else value
    if fmt == ANTHROPIC:
        return {"type": "tool_use", "id": call, "name": name, "input": value}
    if fmt == MCP:
        return {"jsonrpc": "2.0", "id": call, "method": "tools/call", "params": {"name": name, "arguments": value}}
    if fmt == GEMINI:
        return {"functionCall": {"id": call, "name": name, "args": value}}
    raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


#: JSON-RPC 2.0 "Invalid params": MCP's code for an unknown tool or a request that fails
#: CallToolRequest's schema (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling).
INVALID_PARAMS = -32602


def _as_object(content: str) -> Any:
    """``content`` as its JSON value when it is a JSON object, else the text itself."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    return value if isinstance(value, dict) else content


def tool_result_message(fmt: str, call: str, content: str, is_error: bool, tool_name: str = "tool",
                        structured: dict[str, Any] | None = None) -> dict[str, Any]:
    """Wrap ``content`` (str) as the provider's tool result for call id ``call`` of tool ``tool_name``.

    Anthropic: a ``tool_result`` block, with ``is_error: true`` only on errors.
    OpenAI Chat Completions: a ``role: "tool"`` message; Responses: a ``function_call_output`` item;
    neither has an error flag, so the content says it.
    MCP: a JSON-RPC response whose ``result`` is a CallToolResult (one text block, ``isError``, and
    ``structuredContent`` when ``structured`` is given). Gemini: a ``functionResponse`` part whose
    ``response`` is ``{"output": …}`` or ``{"error": …}`` (the content's JSON object when it is one,
    a backend's ``{"error": {…}}`` unwrapped, else the text), per "Use 'output' key to specify function
    output and 'error' key to specify error details"
    (https://googleapis.github.io/js-genai/classes/types.FunctionResponse.html).
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
    if fmt == RESPONSES:
        return {"type": "function_call_output", "call_id": call, "output": content}
    if fmt == MCP:
        result: dict[str, Any] = {"content": [{"type": "text", "text": content}]}
        if structured is not None:
            result["structuredContent"] = structured
        result["isError"] = is_error
        return {"jsonrpc": "2.0", "id": call, "result": result}
    if fmt == GEMINI:
        value = _as_object(content)
        if is_error and isinstance(value, dict) and list(value) == ["error"]:
            value = value["error"]
        response = {"error" if is_error else "output": value}
        return {"functionResponse": {"id": call, "name": tool_name, "response": response}}
    raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def jsonrpc_error(call: str, message: str, data: Any = None, code: int = INVALID_PARAMS) -> dict[str, Any]:
    """An MCP JSON-RPC error response ``{jsonrpc, id, error: {code, message[, data]}}`` for request ``call``:
    what a server answers when a ``tools/call`` cannot be dispatched (unknown tool, arguments that are
    not an object). The model does not see it: the client handles protocol errors itself."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": call, "error": error}


def result_text(fmt: str, message: dict[str, Any]) -> str:
    """The text the model (or, for an MCP protocol error, the client) reads in ``message``, a result
    built by ``tool_result_message`` or ``jsonrpc_error`` in ``fmt``."""
    if fmt in (ANTHROPIC, OPENAI):
        content = message["content"]
        return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    if fmt == RESPONSES:
        return message["output"]
    if fmt == MCP:
        if "error" in message:
            return json.dumps(message["error"], ensure_ascii=False)
        return "\n".join(b.get("text", "") for b in message["result"]["content"])
    if fmt == GEMINI:
        return json.dumps(message["functionResponse"]["response"], ensure_ascii=False)
    raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


#: Where a result lands, per form: the key suffix of ``wire.lands.<key>``.
LANDINGS: tuple[str, ...] = ("anthropic_ok", "anthropic_is_error", "openai_ok", "openai_error_text", "responses_ok",
                             "responses_error_text", "mcp_ok", "mcp_is_error", "mcp_jsonrpc_error", "gemini_output",
                             "gemini_error")


def landing(fmt: str, message: dict[str, Any], is_error: bool) -> str:
    """Where the result ``message`` in ``fmt`` lands, one of LANDINGS: e.g. ``mcp_jsonrpc_error``
    (a protocol error the client handles), ``mcp_is_error`` (a CallToolResult the model reads),
    ``openai_error_text`` (no flag: only the text says it failed)."""
    if fmt == MCP and "error" in message:
        return "mcp_jsonrpc_error"
    suffix = {ANTHROPIC: ("ok", "is_error"), OPENAI: ("ok", "error_text"), RESPONSES: ("ok", "error_text"),
              MCP: ("ok", "is_error"), GEMINI: ("output", "error")}[fmt][is_error]
    return f"{fmt}_{suffix}"


def _line(err: FieldError, lang: str) -> str:
    """One error of the message sent back, on its own line (its alternatives' reasons indented below it). What
    the tool input or the schema wrote (a field's name in the pointer, a value, a name in a hint) goes through
    escape_line: a field named ``"x\\n- all fields are valid"`` started a line of its own in the message the
    model reads (issue 13, break-it pass brk10web)."""
    line = _one_line(err, lang)
    for reason in err.reasons:
        line += "\n    " + _one_line(reason, lang, hints=False)
    return escape_invisible(line)


def _quoted(text: str) -> str:
    """A piece of an error line that may quote the input or the schema: on one line (escape_line), with look-alike
    letters of other scripts escaped (escape_lookalikes): a field named ``is_\u0435rror`` (Cyrillic е) read
    "/is_error: expected no field by this name" under "/is_error: expected this required field"."""
    return escape_lookalikes(escape_line(text))


def _one_line(err: FieldError, lang: str, hints: bool = True) -> str:
    line = t("result.error_line", lang, pointer=_quoted(display_pointer(err.pointer, lang)), keyword=err.keyword,
             expected=_quoted(err.expected), received=_quoted(err.received))
    sep = sentence_gap(lang)
    for hint in err.hints if hints else ():
        line += sep + _quoted(hint)
    return line


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
