"""The pairing checker: does every tool call in a transcript get its result, in the right place?

Input is transcript JSON text: a ``messages`` list, or a request object that holds one.
The format is detected (Anthropic content blocks, or OpenAI ``tool_calls`` / role
``"tool"``) or chosen. The rules, each with a stable id:

* tool_use_without_result: a call gets no result anywhere after it.
* results_split_across_messages (Anthropic): a result arrives in a later message instead of
  the one right after the call; every result of one turn belongs in ONE user message.
* text_before_tool_result: Anthropic: a block that is not a tool_result comes before a
  tool_result in the same message; OpenAI: a message sits between the assistant's
  tool_calls and the tool messages answering them.
* id_mismatch: a result right after a turn with calls names none of that turn's ids.
* orphan_result (Anthropic): a tool_result with no tool_use right before it.
* duplicate_result: a call answered twice.
* wrong_content_type: a message, block or field of the wrong JSON type (e.g. ``input`` as
  a string, ``content`` as a number, tool_result in an assistant message).
* empty_error_result (Anthropic): ``is_error: true`` with empty content; the API answers 400
  "content cannot be empty if is_error is true" (quoted in
  https://github.com/bytedance/trae-agent/issues/230).
* empty_text_block (Anthropic): a text block with empty text; the API answers 400 "text
  content blocks must be non-empty" (https://github.com/anthropics/anthropic-sdk-python/issues/461).
* OpenAI only: tool_without_tool_calls (a role "tool" message not right after the
  assistant's tool_calls; the API answers "messages with role 'tool' must be a response to a
  preceding message with 'tool_calls'", quoted in
  https://portkey.ai/error-library/invalid-parameter-error-10034), missing_tool_call_id,
  arguments_not_string.

OpenAI Responses (a list of ``input`` items, or a request holding ``input``): function_call_without_output
(tool_use_without_result), duplicate_output (duplicate_result), output_before_call, unknown_call_id.
MCP (a list of JSON-RPC 2.0 messages, spec 2025-11-25): request_without_response (tool_use_without_result),
duplicate_response (duplicate_result), response_id_unknown, result_and_error (both or neither).
Gemini (``contents``, or a request holding it): function_call_without_response (tool_use_without_result),
orphan_function_response (orphan_result), duplicate_function_response (duplicate_result), name_mismatch,
response_not_object. Sources in each checker's docstring.

Not a violation but a note: arguments_invalid_json (OpenAI ``function.arguments`` is not one
JSON object). Sending such a call back is what the course prescribes when the model wrote
broken arguments (answer it with an error and the raw text); only when ``finish_reason`` was
``"length"`` is the right move a new request with a larger ``max_tokens`` instead.

Every violation carries ``advice``: what to do, naming the message to change; applied, the
advice makes that violation disappear (tests/unit/test_pairing_advice.py applies each one).
Anthropic's ordering rules: https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls
("tool_result blocks must immediately follow their corresponding tool_use blocks"; "in the user
message containing tool results, the tool_result blocks must come first").

Work is linear in the input: every pass visits each message and block a bounded number of
times; details stop being built past MAX_VIOLATIONS and name at most MAX_IDS ids.

``check_pairing`` is pure and never raises for any str: text that cannot be checked
(not JSON, too large, too deep, no messages list, not the chosen format) yields
``Report.error`` instead.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_checked, require_unique_ids
from toolcall.i18n import t
from toolcall.parsing import (MAX_DEPTH, StrictJSONError, json_type, localized_detail, max_depth, names_place,
                              parse_tool_input, TOO_LARGE, strict_loads)
from toolcall.text import escaped_head, reads_as
from toolcall.wire import ANTHROPIC, AUTO, GEMINI, MCP, OPENAI, PAIRING_CHOICES, RESPONSES

#: Largest transcript accepted, in characters (a long real conversation is well under this).
MAX_CHARS = 1_000_000
#: Violations reported at most; the rest are counted in ``Report.more``.
MAX_VIOLATIONS = 500
#: Ids named at most in one detail (the rest are counted: "… and 988 more").
MAX_IDS = 12
#: Characters of one id (or other quoted value) shown in a detail; longer ones end in "…".
MAX_SHOWN = 64

RULES: tuple[str, ...] = (
    "tool_use_without_result", "results_split_across_messages", "text_before_tool_result", "id_mismatch",
    "orphan_result", "duplicate_result", "wrong_content_type", "empty_error_result", "empty_text_block",
    "tool_without_tool_calls", "missing_tool_call_id", "arguments_not_string",
    # OpenAI Responses, MCP, Gemini (issue 21)
    "output_before_call", "unknown_call_id", "response_id_unknown", "result_and_error", "name_mismatch",
    "response_not_object",
)
#: Things worth saying that the API does not reject.
NOTES: tuple[str, ...] = ("arguments_invalid_json", "lookalike_key", "not_checked")

#: CHECKED_TYPES' and QUIET_TYPES' key for Chat Completions content parts (OPENAI's are its tool calls' types).
OPENAI_PARTS = "openai_parts"
#: Per form, the types of item, block, part or tool call the checker reads for pairing (``checked``, named in the
#: not_checked note's advice) and the others the API takes that hold nothing to pair (text, images, reasoning…):
#: any other type (a server-side tool's blocks, a custom or computer call, a misspelt ``tool_reslt``) is named in
#: one not_checked note per type, not passed over in silence (pass fix19left: an unknown Responses item type was
#: ignored without a word). From the SDKs the tests pin: anthropic ContentBlockParam, openai ResponseInputItemParam
#: and ChatCompletionContentPartParam, google.genai Part, mcp ContentBlock.
CHECKED_TYPES: dict[str, tuple[str, ...]] = {
    ANTHROPIC: ("tool_use", "tool_result", "text"),
    OPENAI: ("function", "custom"),  # tool calls (tool_calls[].type)
    OPENAI_PARTS: ("text",),  # content parts
    RESPONSES: ("function_call", "function_call_output", "message"),
    MCP: ("text", "image", "audio", "resource_link", "resource"),
    GEMINI: ("functionCall", "functionResponse", "text"),
}
QUIET_TYPES: dict[str, frozenset[str]] = {
    ANTHROPIC: frozenset({"image", "document", "search_result", "thinking", "redacted_thinking", "container_upload"}),
    OPENAI: frozenset(),
    OPENAI_PARTS: frozenset({"image_url", "input_audio", "file", "refusal"}),
    RESPONSES: frozenset({"reasoning", "compaction"}),
    MCP: frozenset(),
    GEMINI: frozenset({"inlineData", "fileData", "executableCode", "codeExecutionResult", "thought",
                       "thoughtSignature", "videoMetadata", "partMetadata", "mediaResolution", "audioMetadata",
                       "audioTranscription", "documentMetadata", "mediaProcessing", "speechMetadata",
                       "spreadsheetMetadata"}),
}


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``rule`` (an id from RULES, or NOTES for a note), where (0-based
    ``message_index``, and ``block_index`` inside the message's content or tool_calls, or
    None), ``detail`` (what is wrong) and ``advice`` (what to do), both in the report's
    language. ``key`` and ``params`` are the same facts as data (ids in full), for tests."""

    rule: str
    message_index: int | None
    block_index: int | None
    detail: str
    advice: str = ""
    key: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        """The JSON the CLI prints: rule, message_index, block_index, detail, advice."""
        return {"rule": self.rule, "message_index": self.message_index, "block_index": self.block_index,
                "detail": self.detail, "advice": self.advice}


@dataclass
class Report:
    """The checker's answer. ``error`` (a translated sentence) is set when the text could not
    be checked at all; otherwise ``fmt`` is the format used, ``message_count`` the number of messages checked,
    ``violations`` at most MAX_VIOLATIONS (``more`` counts the rest), ``notes`` remarks that
    are not violations (at most MAX_VIOLATIONS, ``notes_more`` counts the rest). ``looks`` is the form the
    transcript looks like when that is not the chosen one (the format_mismatch error)."""

    fmt: str | None = None
    detected: bool = False
    message_count: int = 0
    violations: list[Violation] = field(default_factory=list)
    more: int = 0
    error: str | None = None
    notes: list[Violation] = field(default_factory=list)
    looks: str | None = None
    #: Notes past MAX_VIOLATIONS: found, only counted.
    notes_more: int = 0
    #: Types of item, block, part or tool call not checked (each one not_checked note, which may be past the cap):
    #: the page's "some of it was not checked" reads this, not the notes kept (break-it pass brk20new: 500 notes of
    #: bad arguments JSON before it, and a transcript of an unknown type got the green "No pairing problems").
    not_checked: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None and not self.violations


def shown(value: Any) -> str:
    """``value`` as text for a detail, cut at MAX_SHOWN characters (with "…")."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


#: Detail parameters quoted from the transcript (ids, names, roles, block types): shown through
#: escape_identifier, so a look-alike character cannot make two different values read the same.
QUOTED_PARAMS = frozenset({"id", "rid", "name", "kind", "role", "got", "written", "type"})


def shown_id(value: Any) -> str:
    """``value`` as text with non-ASCII, control and invisible characters escaped (escape_identifier), at most
    MAX_SHOWN characters as drawn, escapes included, then "…" (toolcall.text.escaped_head: no escape is cut in
    half). An ASCII id keeps its first MAX_SHOWN characters, as ``shown`` does."""
    return escaped_head(value if isinstance(value, str) else str(value), MAX_SHOWN)


def id_list(ids: list[str] | set[str], lang: str) -> str:
    """At most MAX_IDS of ``ids`` (sorted, each cut by ``shown``), then "… and N more"."""
    ordered = sorted(ids)
    text = ", ".join(shown_id(i) for i in ordered[:MAX_IDS])
    if len(ordered) > MAX_IDS:
        text += t("pairing.ids_more", lang, count=len(ordered) - MAX_IDS)
    return text


#: Detail parameters built already cut as drawn (lists of ids, a call's label): not cut again here.
_DRAWN_PARAMS = frozenset({"expected", "detail", "fix"})


class _Collector:
    def __init__(self, lang: str):
        self.lang, self.found, self.more, self.notes, self.notes_more = lang, [], 0, [], 0
        #: Types not checked: the type (as shown, cut) → [first message, first block, count, its table's key].
        self.skipped: dict[str, list] = {}

    def unchecked(self, fmt: str, kind: Any, msg: int, block: int | None) -> bool:
        """True, after counting it, when ``kind`` (an item's, block's, part's or tool call's type) is neither one the
        checker reads for ``fmt`` nor one holding nothing to pair (CHECKED_TYPES, QUIET_TYPES); else False."""
        if isinstance(kind, str) and (kind in CHECKED_TYPES[fmt] or kind in QUIET_TYPES[fmt]):
            return False
        # a string, a value of another JSON type and no type at all are three notes: keyed by the text alone,
        # "null", null and a part without a type were one note "Type null … (3 in this transcript)", 7 and "7" one
        # "Type 7" (break-it pass brk20new)
        if kind is MISSING:
            key: tuple = ("missing", "")
        elif isinstance(kind, str):
            key = ("string", kind[:MAX_SHOWN + 1])
        else:
            key = (_type_name(kind), _json_text(kind)[:MAX_SHOWN + 1])
        seen = self.skipped.setdefault(key, [msg, block, 0, fmt])
        seen[2] += 1
        return True

    def note_unchecked(self) -> None:
        """One not_checked note per type counted by unchecked, at its first place: ``not_checked`` for a string,
        ``not_checked_not_string`` for a type of another JSON type, ``not_checked_missing`` for none."""
        for (form, kind), (msg, block, count, fmt) in self.skipped.items():
            known = ", ".join(CHECKED_TYPES[fmt])
            if form == "missing":
                self.note("not_checked", msg, block, key="not_checked_missing", count=count, known=known)
            elif form == "string":
                self.note("not_checked", msg, block, type=kind, count=count, known=known)
            else:
                self.note("not_checked", msg, block, key="not_checked_not_string", type=kind, count=count,
                          known=known, json_type=self._spaced(t(f"pairing.type_phrase.{form}", self.lang)))

    @property
    def full(self) -> bool:
        return len(self.found) >= MAX_VIOLATIONS

    def add(self, rule: str, msg: int | None, block: int | None, key: str | None = None, **params: Any) -> None:
        """Record a violation; its detail is ``pairing.rule_detail.<key or rule>`` and its advice
        ``pairing.advice.<key or rule>``, filled with ``params`` (ids shortened; a callable is
        called only now). Past MAX_VIOLATIONS only counted: no text is built."""
        if self.full:
            self.more += 1
            return
        if params.get("got") is MISSING:  # "… is missing", not "must be a string, not null"
            key = f"{key or rule}_missing"
            del params["got"]
        if params.get("role") is MISSING:  # "a message without a role", not "(null)"
            key = f"{key or rule}_no_role"
            del params["role"]
        self.found.append(self._build(rule, msg, block, key, params))

    def note(self, rule: str, msg: int | None, block: int | None, key: str | None = None, **params: Any) -> None:
        """Record a note (at most MAX_VIOLATIONS; the rest only counted, in ``notes_more``); its texts are
        ``pairing.rule_detail.<key or rule>`` and ``pairing.advice.<key or rule>``."""
        if len(self.notes) < MAX_VIOLATIONS:
            self.notes.append(self._build(rule, msg, block, key, params))
        else:
            self.notes_more += 1

    def _build(self, rule: str, msg: int | None, block: int | None, key: str | None, params: dict) -> Violation:
        key = key or rule
        params = {k: v() if callable(v) else v for k, v in params.items()}
        text = {k: (shown_id(v) if k in QUOTED_PARAMS else shown(v))
                if isinstance(v, str) and k not in _DRAWN_PARAMS else v for k, v in params.items()}
        if rule in _PHRASED_RULES:  # our phrases and JSON type names, translated
            text = {k: self._spaced(self._phrase(v)) if k in ("expected", "got") else v for k, v in text.items()}
        return Violation(rule, msg, block, t(f"pairing.rule_detail.{key}", self.lang, **text),
                         t(f"pairing.advice.{key}", self.lang, **text), key, params)

    def _phrase(self, text: str) -> str:
        """``text`` translated when it is one of ours (``pairing.expected.*``) or a JSON type name
        (``type.*``); anything else (role names, a value quoted from the transcript) as it is."""
        if text in _EXPECTED_KEYS:
            return t(f"pairing.expected.{_EXPECTED_KEYS[text]}", self.lang)
        if text in _JSON_TYPES:  # with its article in English: "must be a string, not an array"
            return t(f"pairing.type_phrase.{text}", self.lang)
        return text


    def _spaced(self, phrase: str) -> str:
        """``phrase`` as a zh template sets it right after Chinese ("应该是{expected}"): a Latin one ("user",
        ``"2.0"``) after a space, a Chinese one ("对象") with none, as Chinese is written ("应该是对象", not
        "应该是 对象"). Other languages: as it is (their templates hold the spaces)."""
        return " " + phrase if self.lang == "zh" and phrase[:1].isascii() else phrase


#: The rules whose ``expected`` / ``got`` are our phrases or JSON type names (_phrase), never a value quoted from the
#: transcript: in Chinese "而不是对象", not "而不是 object" (newcomer session 12).
_PHRASED_RULES = frozenset({"wrong_content_type", "arguments_not_string", "response_not_object"})
_JSON_TYPES = ("object", "array", "string", "boolean", "number", "null")
#: The "expected" phrases of wrong_content_type, by their key under pairing.expected.
_EXPECTED_KEYS = {"object with a type": "object_with_type", "string / array": "string_or_array",
                  "string / array of blocks": "string_or_blocks",
                  "string / array of text parts": "string_or_text_parts", "string / number": "string_or_number",
                  "string / array / null": "string_array_or_null"}


def _json_text(value: Any) -> str:
    """A transcript value as JSON for a detail's ``got`` (``"User"``, ``null``, ``5``). Not cut here: the detail cuts
    it as drawn (shown_id: "…", no escape cut in half); a string is cut to MAX_SHOWN + 1 characters first, so a long
    one costs no more. Before, JSON cut at 40 characters read ``"uuu…\\u0.``: an escape cut in half, no "…"."""
    return json.dumps(value[:MAX_SHOWN + 1] if isinstance(value, str) else value, ensure_ascii=False)


def _role_text(role: Any) -> str:
    """A message's role as a detail names it (``user``, ``User``): a string as itself (cut to MAX_SHOWN + 1
    characters; the detail cuts it as drawn), MISSING for none at all (the detail then says the message has no
    role), anything else as JSON (``null``), not Python's ``None``."""
    if role is MISSING:  # the detail then says the message has no role, not "(null)" (pass fix19left)
        return role
    return role[:MAX_SHOWN + 1] if isinstance(role, str) else json.dumps(role, ensure_ascii=False)


class _Missing:
    """What a detail's ``got`` is when the field is not there at all: the detail then says it is missing (key
    ``<key>_missing``), not that it is null or of the wrong type."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


def _got(container: dict, field: str, as_json: bool = False) -> Any:
    """``container[field]``'s JSON type name (its JSON text when ``as_json``), or MISSING when there is no such field:
    a tool_use without an id was told "tool_use.id must be a string, not null" (pass fix19left)."""
    if field not in container:
        return MISSING
    return _json_text(container[field]) if as_json else _type_name(container[field])


def _type_name(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number",
            type(None): "null"}.get(type(value), type(value).__name__)


def _sign(m: Any) -> str | None:
    """The format one message shows (a format name) or None: ``jsonrpc`` → MCP, ``parts`` → Gemini,
    a ``function_call`` / ``function_call_output`` item → Responses, then OpenAI and Anthropic signs."""
    if not isinstance(m, dict):
        return None
    if "jsonrpc" in m:
        return MCP
    if "parts" in m or m.get("role") == "model":
        return GEMINI
    if m.get("type") in ("function_call", "function_call_output"):
        return RESPONSES
    if m.get("role") in ("tool", "system", "developer") or "tool_calls" in m or "tool_call_id" in m:
        return OPENAI
    content = m.get("content")
    if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result")
                                         for b in content):
        return ANTHROPIC
    return None


def _tools_sign(tools: Any) -> str | None:
    for tool in tools if isinstance(tools, list) else []:
        if isinstance(tool, dict) and "functionDeclarations" in tool:
            return GEMINI
        if isinstance(tool, dict) and "inputSchema" in tool:
            return MCP
        if isinstance(tool, dict) and tool.get("type") == "function" and "name" in tool:
            return RESPONSES
        if isinstance(tool, dict) and "function" in tool:
            return OPENAI
        if isinstance(tool, dict) and "input_schema" in tool:
            return ANTHROPIC
    return None


def detect_format(messages: list[Any], tools: Any = None) -> str | None:
    """The format the messages' shape shows (then a request's ``tools``), or None when nothing tells
    them apart (plain text only). A sign only one form has wins: ``jsonrpc`` (MCP), ``parts`` / role
    ``model`` (Gemini), ``function_call`` items (Responses); then the first OpenAI sign (role
    tool/system/developer, tool_calls, tool_call_id) or Anthropic sign (tool_use / tool_result blocks)."""
    signs = _signs(messages, None)
    for fmt in (MCP, GEMINI, RESPONSES):
        if fmt in signs:
            return fmt
    for m in messages:
        sign = _sign(m)
        if sign:
            return sign
    return _tools_sign(tools)


def _signs(messages: list[Any], tools: Any) -> set[str]:
    """Every format that some message (or the request's tools) shows. One pass."""
    found = {s for s in map(_sign, messages) if s}
    if _tools_sign(tools):
        found.add(_tools_sign(tools))
    return found


def _load(text: str, lang: str) -> tuple[list[Any] | None, Any, str | None]:
    """(messages, the request's tools or None, error sentence or None)."""
    if len(text) > MAX_CHARS:
        return None, None, t("pairing.error.too_large", lang, size=len(text), limit=MAX_CHARS)
    if not text.strip():
        return None, None, t("pairing.error.empty", lang)
    depth = max_depth(text)
    if depth > MAX_DEPTH:
        return None, None, t("pairing.error.too_deep", lang, depth=depth, limit=MAX_DEPTH)
    try:
        # strict: no NaN, no duplicate keys, no lone surrogates, no 5000-digit integers
        data = strict_loads(text.removeprefix("\ufeff"), MAX_DEPTH)
    except StrictJSONError as exc:
        if exc.code == TOO_LARGE:  # out of memory: the sentence says it all ("Not JSON: …" would be wrong)
            return None, None, localized_detail(exc, lang)
        if exc.line is not None and not names_place(exc):
            return None, None, t("pairing.error.not_json", lang, line=exc.line, column=exc.column,
                                 detail=localized_detail(exc, lang))
        return None, None, t("pairing.error.not_json_value", lang, detail=localized_detail(exc, lang))
    tools = None
    if isinstance(data, dict):  # a request: messages (Anthropic, OpenAI), input (Responses), contents (Gemini)
        key = next((k for k in ("messages", "input", "contents") if k in data), None)
        if key is None:
            return None, None, t("pairing.error.no_messages", lang)
        data, tools = data[key], data.get("tools")
    if not isinstance(data, list):
        return None, None, t("pairing.error.not_list", lang, type=t(f"type.{json_type(data)}", lang))
    return data, tools, None


def read_transcript(text: str, lang: str = "en") -> tuple[list[Any] | None, str | None]:
    """The messages list of transcript JSON ``text`` (a list, or a request holding ``messages``,
    ``input`` or ``contents``), bounded as ``check_pairing`` reads it, or (None, a sentence in ``lang``)."""
    messages, _, error = _load(text, lang)
    return messages, error


def check_pairing(text: str, fmt: str = AUTO, lang: str = "en") -> Report:
    """Check transcript JSON ``text`` (a messages list or a request holding ``messages``).

    ``fmt`` is AUTO (detect; plain text only counts as Anthropic) or one of wire.FORMATS. A
    chosen format the transcript shows no sign of, while it shows signs of the other, is an
    error ("does not look like OpenAI; it looks like Anthropic"): never a green verdict for
    input read the wrong way. Details are written in ``lang``. At most MAX_VIOLATIONS are
    listed (``Report.more`` counts the rest). Linear time in ``len(text)``. Never raises for
    a str; raises ValueError for an unknown ``fmt``.
    """
    if fmt not in PAIRING_CHOICES:
        raise ValueError(f"unknown format {fmt!r}; expected one of {PAIRING_CHOICES}")
    messages, tools, error = _load(text, lang)
    if messages is None:
        return Report(error=error)
    detected = fmt == AUTO
    if detected:
        fmt = detect_format(messages, tools) or ANTHROPIC
    else:
        signs = _signs(messages, tools)
        if signs and fmt not in signs:
            other = next(iter(signs))
            return Report(error=t("pairing.error.format_mismatch", lang, chosen=t(f"pairing.format.{fmt}", lang),
                                  looks=t(f"pairing.format.{other}", lang)), looks=other)
    out = _Collector(lang)
    {ANTHROPIC: _check_anthropic, OPENAI: _check_openai, RESPONSES: _check_responses, MCP: _check_mcp,
     GEMINI: _check_gemini}[fmt](messages, out)
    out.note_unchecked()
    _lookalike_keys(messages, out)
    return Report(fmt, detected, len(messages), out.found, out.more, notes=out.notes, notes_more=out.notes_more,
                  not_checked=len(out.skipped))


# --- Anthropic ---------------------------------------------------------------------------

#: Every key a wire form's messages carry that the checker (or the API) reads: a key that reads as one of these
#: without being it (toolcall.text.reads_as) is named in a note.
WIRE_KEYS = frozenset({"role", "content", "type", "text", "id", "name", "input", "tool_use_id", "is_error",
                       "tool_calls", "function", "arguments", "tool_call_id", "call_id", "output", "parts",
                       "functionCall", "functionResponse", "args", "response", "jsonrpc", "method", "params",
                       "result", "error", "isError", "messages", "structuredContent"})


def _lookalike_keys(messages: list[Any], out: _Collector) -> None:
    """A note for each object key in ``messages`` that reads as a wire key without being it (Cyrillic о in
    ``rоle``, a zero-width space after ``content``): the checks above read the key as missing ("role must be
    "user" / "assistant", not null") while the student sees it written (break-it pass brk12web2). Linear."""
    for i, m in enumerate(messages):
        stack = [m]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                for key, inner in value.items():
                    if isinstance(key, str) and (word := reads_as(key, WIRE_KEYS)):
                        out.note("lookalike_key", i, None, written=key, word=word)
                    stack.append(inner)
            elif isinstance(value, list):
                stack.extend(value)


def _anthropic_blocks(messages: list[Any], out: _Collector) -> list[list[dict[str, Any]]]:
    """Each message's blocks (a str content is one text block); reports wrong types and empty
    content the API rejects."""
    blocks: list[list[dict[str, Any]]] = []
    for i, m in enumerate(messages):
        blocks.append([])
        if not isinstance(m, dict):
            out.add("wrong_content_type", i, None, what="message", expected="object", got=_type_name(m))
            continue
        role, content = m.get("role"), m.get("content")
        if role not in ("user", "assistant"):
            out.add("wrong_content_type", i, None, what="role", expected='"user" / "assistant"',
                    got=_got(m, "role", as_json=True))
        if isinstance(content, str):
            blocks[-1] = [{"type": "text", "text": content}]
            continue
        if not isinstance(content, list):
            out.add("wrong_content_type", i, None, what="content", expected="string / array", got=_got(m, "content"))
            continue
        for j, b in enumerate(content):
            if not isinstance(b, dict) or not isinstance(b.get("type"), str):
                out.add("wrong_content_type", i, j, what="block", expected="object with a type",
                        got=_type_name(b))
                blocks[-1].append({"type": None})
                continue
            kind = b["type"]
            out.unchecked(ANTHROPIC, kind, i, j)  # still a block: in the way of a tool_result, as before
            if kind == "text" and b.get("text") == "":
                out.add("empty_text_block", i, j)
            elif kind == "tool_use":
                if role == "user":
                    out.add("wrong_content_type", i, j, key="tool_use_in_user")  # a block is in a message: which
                if not isinstance(b.get("id"), str):
                    out.add("wrong_content_type", i, j, what="tool_use.id", expected="string", got=_got(b, "id"))
                if not isinstance(b.get("input"), dict):
                    out.add("wrong_content_type", i, j, what="tool_use.input", expected="object",
                            got=_got(b, "input"))
            elif kind == "tool_result":
                if role == "assistant":
                    out.add("wrong_content_type", i, j, key="tool_result_in_assistant")
                if not isinstance(b.get("tool_use_id"), str):
                    out.add("wrong_content_type", i, j, what="tool_result.tool_use_id", expected="string",
                            got=_got(b, "tool_use_id"))
                c = b.get("content", "")
                if not isinstance(c, str) and not (isinstance(c, list) and all(isinstance(x, dict) for x in c)):
                    out.add("wrong_content_type", i, j, what="tool_result.content", expected="string / array of blocks",
                            got=_type_name(c))
                if "is_error" in b and not isinstance(b["is_error"], bool):
                    out.add("wrong_content_type", i, j, what="tool_result.is_error", expected="boolean",
                            got=_type_name(b["is_error"]))
                elif b.get("is_error") is True and c in ("", []):
                    tool_use_id = b.get("tool_use_id")
                    out.add("empty_error_result", i, j, id=tool_use_id if isinstance(tool_use_id, str) else "?")
                elif isinstance(c, list):
                    for x in c:  # text blocks inside a tool_result may not be empty either
                        if isinstance(x, dict) and x.get("type") == "text" and x.get("text") == "":
                            out.add("empty_text_block", i, j)
                            break
            blocks[-1].append(b)
    return blocks


def _check_anthropic(messages: list[Any], out: _Collector) -> None:
    blocks = _anthropic_blocks(messages, out)
    calls: dict[str, tuple[int, int]] = {}  # id → (message, block) of its tool_use
    answered: dict[str, tuple[int, int]] = {}
    results_at: dict[int, int] = {}  # message of a turn's calls → first message holding a result for it
    in_the_way: set[int] = set()  # turns whose in-between messages were reported
    roles = [m.get("role", MISSING) if isinstance(m, dict) else None for m in messages]
    prev_ids: set[str] = set()
    for i, msg_blocks in enumerate(blocks):
        role = roles[i]
        turn_ids = prev_ids if role == "user" and i and roles[i - 1] == "assistant" else set()
        listed: list[str] = []  # the turn's ids as text, built once per message when needed

        def expected(ids=turn_ids, cache=listed) -> str:
            if not cache:
                cache.append(id_list(ids, out.lang))
            return cache[0]

        result_positions = [j for j, b in enumerate(msg_blocks) if b.get("type") == "tool_result"]
        if result_positions and role != "assistant":  # there a tool_result is named as misplaced (_anthropic_blocks):
            # "tool_result blocks must come first" told the student to reorder a message they do not belong in
            for j, b in enumerate(msg_blocks[: result_positions[-1]]):
                if b.get("type") != "tool_result":
                    out.add("text_before_tool_result", i, j, kind=b.get("type") or "?")
        for j in result_positions:
            rid = msg_blocks[j].get("tool_use_id")
            if not isinstance(rid, str) or role == "assistant":
                continue
            if rid in answered:
                out.add("duplicate_result", i, j, id=rid, first=answered[rid][0])
            elif rid in turn_ids:
                answered[rid] = (i, j)
                results_at.setdefault(i - 1, i)
            elif rid in calls:
                answered[rid] = (i, j)
                call = calls[rid][0]
                first = results_at.setdefault(call, i)
                if first < i:  # the turn's results began in an earlier message
                    out.add("results_split_across_messages", i, j, id=rid, call=call, expected=first)
                elif call + 1 == i:  # right after its call, in a message whose role is not "user": the role was named
                    pass  # (it read "messages[2–1] (User) sits between … messages[1] and … messages[2]")
                elif call not in in_the_way:  # messages sit between the call and its first result
                    in_the_way.add(call)
                    span = f"{call + 1}" if call + 1 == i - 1 else f"{call + 1}–{i - 1}"
                    out.add("text_before_tool_result", call + 1, None, key="message_between", span=span, call=call,
                            result=i, id=rid, role=_role_text(roles[call + 1]))
            elif turn_ids:
                out.add("id_mismatch", i, j, id=rid, expected=expected, ids=turn_ids)
            else:
                out.add("orphan_result", i, j, id=rid)
        prev_ids = set()
        if role == "assistant":
            for j, b in enumerate(msg_blocks):
                if b.get("type") == "tool_use" and isinstance(b.get("id"), str):
                    calls.setdefault(b["id"], (i, j))
                    prev_ids.add(b["id"])
    for cid, (i, j) in calls.items():
        if cid not in answered:  # past the end, the message to add is named, not numbered (issue 14)
            out.add("tool_use_without_result", i, j, key=_at_end("tool_use_without_result", i, messages), id=cid,
                    next=i + 1, last=len(messages) - 1)


def _at_end(key: str, call: int, messages: list[Any]) -> str:
    """``key``, or ``key + "_at_end"`` when the call in messages[``call``] is the transcript's last message:
    the answer belongs in a message that does not exist yet, so the text names the transcript's end
    ("ends at messages[N]; the next user message must answer it") rather than an index past it."""
    return f"{key}_at_end" if call + 1 >= len(messages) else key


# --- OpenAI --------------------------------------------------------------------------------

def _check_openai(messages: list[Any], out: _Collector) -> None:
    calls: dict[str, tuple[int, int]] = {}
    answered: dict[str, int] = {}
    # last index of a tool message answering each id: one pass first, so no rescans later
    last_tool: dict[str, int] = {}
    for i, m in enumerate(messages):
        if isinstance(m, dict) and m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
            last_tool[m["tool_call_id"]] = i
    zone: set[str] = set()  # ids of the assistant turn whose tool messages may follow now
    waiting = 0  # how many of them are not answered yet (kept as they change: no scan of the zone per message)
    zone_owner: int | None = None
    in_zone = False
    listed: list[str] = []

    def expected() -> str:
        if not listed:
            listed.append(id_list(zone, out.lang))
        return listed[0]

    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            out.add("wrong_content_type", i, None, what="message", expected="object", got=_type_name(m))
            in_zone = False
            continue
        role, content = m.get("role"), m.get("content")
        for j, part in enumerate(content if isinstance(content, list) else ()):
            if isinstance(part, dict):
                out.unchecked(OPENAI_PARTS, part.get("type", MISSING), i, j)
        if role not in ("system", "developer", "user", "assistant", "tool"):
            out.add("wrong_content_type", i, None, what="role", expected='"system" / "user" / "assistant" / "tool"',
                    got=_got(m, "role", as_json=True))
        if role == "tool":
            parts = isinstance(content, list) and all(isinstance(x, dict) for x in content)
            if not isinstance(content, str) and not parts:
                out.add("wrong_content_type", i, None, what="content", expected="string / array of text parts",
                        got=_got(m, "content"))
            rid = m.get("tool_call_id")
            if "tool_call_id" in m and not isinstance(rid, str):  # present but not a string: not "missing"
                out.add("wrong_content_type", i, None, what="tool_call_id", expected="string", got=_type_name(rid))
                continue
            if not isinstance(rid, str):
                if in_zone and waiting:
                    out.add("missing_tool_call_id", i, None, expected=expected, ids=zone)
                else:
                    out.add("missing_tool_call_id", i, None, key="missing_tool_call_id_no_call")
                continue
            if not in_zone:
                if rid in calls:
                    out.add("tool_without_tool_calls", i, None, key="tool_without_tool_calls_late", id=rid,
                            call=calls[rid][0])
                    answered.setdefault(rid, i)
                else:
                    out.add("tool_without_tool_calls", i, None, id=rid)
                continue
            if rid in answered:
                out.add("duplicate_result", i, None, id=rid, first=answered[rid])
            elif rid in zone:
                answered[rid] = i
                waiting -= 1
            else:
                out.add("id_mismatch", i, None, key="id_mismatch_openai", id=rid, expected=expected, ids=zone)
            continue
        if in_zone:  # the turn's tool messages end here: is one of them still to come?
            later = max((last_tool.get(cid, -1) for cid in zone if cid not in answered), default=-1)
            if later > i:
                out.add("text_before_tool_result", i, None, key="text_before_tool_message",
                        role=_role_text(m.get("role", MISSING)),
                        call=zone_owner, after=later)
        in_zone, zone, zone_owner, waiting = False, set(), None, 0  # a new set: violations keep the old one
        listed.clear()
        if content is not None and not isinstance(content, (str, list)):
            out.add("wrong_content_type", i, None, what="content", expected="string / array / null",
                    got=_type_name(content))
        if role != "assistant" or "tool_calls" not in m:
            continue
        tool_calls = m["tool_calls"]
        if not isinstance(tool_calls, list):
            out.add("wrong_content_type", i, None, what="tool_calls", expected="array", got=_type_name(tool_calls))
            continue
        for j, tc in enumerate(tool_calls):
            fn = tc.get("function") if isinstance(tc, dict) else None
            if not isinstance(tc, dict):
                out.add("wrong_content_type", i, j, what="tool_calls[]", expected="{id, type, function}",
                        got=_type_name(tc))
                continue
            kind = tc.get("type", "function")  # a call of a type not checked still pairs by its id
            body = "function" if kind == "function" else "custom" if kind == "custom" else None
            if isinstance(tc.get("id"), str) and out.unchecked(OPENAI, kind, i, j):
                body = None
            elif not isinstance(tc.get("id"), str) or (body and not isinstance(tc.get(body), dict)):
                # the field, missing or mistyped: an object without an id was told "must be {id, type, function},
                # not an object" (pass fix19left)
                field, wanted = ("id", "string") if not isinstance(tc.get("id"), str) else (body, "object")
                out.add("wrong_content_type", i, j, what=f"tool_calls[].{field}", expected=wanted,
                        got=_got(tc, field))
                continue
            if body == "function":  # a custom tool's input is free text: nothing more to check
                args = fn.get("arguments")
                if not isinstance(args, str):
                    out.add("arguments_not_string", i, j, got=_got(fn, "arguments"))
                else:
                    parsed = parse_tool_input(args, MAX_CHARS)  # bounded by the transcript: only bad JSON is noted
                    if not parsed.ok:
                        out.note("arguments_invalid_json", i, j, id=tc["id"], code=parsed.code,
                                 detail=localized_detail(parsed, out.lang))
            calls.setdefault(tc["id"], (i, j))
            waiting += tc["id"] not in zone and tc["id"] not in answered
            zone.add(tc["id"])
        in_zone, zone_owner = True, i
    for cid, (i, j) in calls.items():
        if cid not in answered:
            out.add("tool_use_without_result", i, j, key="tool_call_without_result", id=cid, call=i)


# --- the broken examples ------------------------------------------------------------------

@dataclass(frozen=True)
class Example:
    """A transcript to paste (``text``: language → JSON text, ``en`` and ``zh``, the customer's words in
    that language) in format ``fmt``: the rule ids expected in order (none for a correct one) and the
    notes expected, the same in every language."""

    id: str
    label: dict[str, str]
    fmt: str
    expect: tuple[str, ...]
    text: dict[str, str]
    notes: tuple[str, ...] = ()


def load_examples(path: Path | None = None) -> tuple[Example, ...]:
    """Load fixtures/pairing/examples.yaml (or ``path``), schema-checked. Raises FixtureError,
    including for duplicate ids (path ``$.examples[i].id``)."""
    path = path or FIXTURES_DIR / "pairing" / "examples.yaml"
    data = load_checked(path, "pairing")
    require_unique_ids(path, data, "examples")
    return tuple(Example(e["id"], e["label"], e["format"], tuple(e["expect"]), e["text"], tuple(e.get("notes", ())))
                 for e in data["examples"])


# --- OpenAI Responses ------------------------------------------------------------------------

def _check_responses(items: list[Any], out: _Collector) -> None:
    """Responses ``input`` items: every ``function_call`` (by ``call_id``) answered by exactly one
    ``function_call_output`` after it; an output naming no call is an error. Messages (``role``
    items) may sit anywhere: Responses pairs by ``call_id`` alone
    (https://platform.openai.com/docs/guides/function-calling?api-mode=responses)."""
    first_call: dict[str, int] = {}  # one pass first: where each call_id is called
    for i, it in enumerate(items):
        if isinstance(it, dict) and it.get("type") == "function_call" and isinstance(it.get("call_id"), str):
            first_call.setdefault(it["call_id"], i)
    calls: dict[str, int] = {}
    answered: dict[str, int] = {}
    for i, it in enumerate(items):
        if not isinstance(it, dict):
            out.add("wrong_content_type", i, None, what="item", expected="object", got=_type_name(it))
            continue
        kind, cid = it.get("type"), it.get("call_id")
        if "type" not in it and "role" in it:  # a message written without its type (EasyInputMessage)
            continue
        if "type" not in it:
            out.add("wrong_content_type", i, None, what="type", expected="string", got=MISSING)
            continue
        if out.unchecked(RESPONSES, kind, i, None) or kind not in ("function_call", "function_call_output"):
            continue
        if not isinstance(cid, str):
            out.add("wrong_content_type", i, None, what="call_id", expected="string", got=_got(it, "call_id"))
            continue
        if kind == "function_call":
            if not isinstance(it.get("arguments"), str):
                out.add("arguments_not_string", i, None, key="function_call_arguments_not_string",
                        got=_got(it, "arguments"))
            calls.setdefault(cid, i)
            continue
        if not isinstance(it.get("output"), (str, list)):
            out.add("wrong_content_type", i, None, what="output", expected="string", got=_got(it, "output"))
        if cid in answered:
            out.add("duplicate_result", i, None, key="duplicate_output", id=cid, first=answered[cid])
        elif cid in calls:
            answered[cid] = i
        elif cid in first_call:
            answered[cid] = i
            out.add("output_before_call", i, None, id=cid, call=first_call[cid])
        else:
            out.add("unknown_call_id", i, None, id=cid)
    for cid, i in calls.items():
        if cid not in answered:
            out.add("tool_use_without_result", i, None, key="function_call_without_output", id=cid, call=i)


# --- MCP (JSON-RPC 2.0) ----------------------------------------------------------------------

def _rpc_id(value: Any) -> str | None:
    """A JSON-RPC id as a comparable key (``7`` and ``"7"`` differ), or None when it is not a string or number."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return json.dumps(value)


def _check_mcp(messages: list[Any], out: _Collector) -> None:
    """A log of JSON-RPC 2.0 messages between an MCP client and server
    (https://modelcontextprotocol.io/specification/2025-11-25/basic): a request (``method`` and ``id``)
    gets exactly one response with the same ``id``; a response holds ``result`` or ``error``, never both
    (https://www.jsonrpc.org/specification#response_object); notifications (no ``id``) get none."""
    requests: dict[str, tuple[int, Any]] = {}
    answered: dict[str, int] = {}
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            out.add("wrong_content_type", i, None, what="message", expected="object", got=_type_name(m))
            continue
        if m.get("jsonrpc") != "2.0":
            out.add("wrong_content_type", i, None, what="jsonrpc", expected='"2.0"',
                    got=_got(m, "jsonrpc", as_json=True))
        key = _rpc_id(m.get("id"))
        if "method" in m:
            if key is not None:
                requests.setdefault(key, (i, m["id"]))
            continue
        result = m.get("result")
        if isinstance(result, dict) and isinstance(result.get("content"), list):  # a CallToolResult's blocks
            for j, block in enumerate(result["content"]):
                if isinstance(block, dict):
                    out.unchecked(MCP, block.get("type", MISSING), i, j)
        has_result, has_error = "result" in m, "error" in m
        if has_result == has_error:
            out.add("result_and_error", i, None, key="result_and_error" if has_result else "neither_result_nor_error")
        if key is None:
            out.add("wrong_content_type", i, None, what="id", expected="string / number", got=_got(m, "id"))
        elif key in answered:
            out.add("duplicate_result", i, None, key="duplicate_response", id=key, first=answered[key], rid=m["id"])
        elif key in requests:
            answered[key] = i
        else:
            out.add("response_id_unknown", i, None, id=key, rid=m["id"])
    for key, (i, rid) in requests.items():
        if key not in answered:
            out.add("tool_use_without_result", i, None, key="request_without_response", id=key, call=i, rid=rid)


# --- Gemini ----------------------------------------------------------------------------------

#: The roles a Gemini ``contents`` turn may name (unset or null is allowed too); "function" is the older name of the
#: turn holding functionResponse parts.
GEMINI_ROLES = ("user", "model", "function")


def _check_gemini(contents: list[Any], out: _Collector) -> None:
    """Gemini ``contents``: every ``functionCall`` part of a model turn is answered by a
    ``functionResponse`` part in the turn right after it, with the same ``name`` (and ``id`` when the
    call has one), and its ``response`` is a JSON object; a role outside GEMINI_ROLES is named, and such a turn, or
    one with no role, is read as its parts say: a turn holding a functionCall as the model's (https://ai.google.dev/gemini-api/docs/function-calling,
    https://googleapis.github.io/js-genai/classes/types.FunctionResponse.html)."""
    pending: list[tuple[int, int, str, Any]] = []  # the previous model turn's calls: (i, j, name, id)
    answered: set[tuple[int, int]] = set()
    every: list[tuple[int, int, str, Any]] = []
    for i, m in enumerate(contents):
        if not isinstance(m, dict) or not isinstance(m.get("parts"), list):
            what, got = ("content", _type_name(m)) if not isinstance(m, dict) else ("parts", _got(m, "parts"))
            out.add("wrong_content_type", i, None, what=what, expected="object" if what == "content" else "array",
                    got=got)
            pending = []
            continue
        role = m.get("role")
        if role not in GEMINI_ROLES:  # read as its parts say, a wrong one named once (break-it pass brk18fresh: a
            # "User" turn answering a call was told "the turn before it holds no functionCall", which it held)
            if role is not None:
                out.add("wrong_content_type", i, None, what="role", expected='"user" / "model"', got=_json_text(role))
            role = "model" if any(isinstance(p, dict) and "functionCall" in p for p in m["parts"]) else "user"
        turn: list[tuple[int, int, str, Any]] = []
        waiting = _Waiting(pending if role in ("user", "function") else [])
        for j, part in enumerate(m["parts"]):
            if not isinstance(part, dict):
                out.add("wrong_content_type", i, j, what="part", expected="object", got=_type_name(part))
                continue
            for key in part:  # a part's type is the field it holds: functionCal, function_call, toolCall…
                out.unchecked(GEMINI, key, i, j)
            if isinstance(part.get("functionCall"), dict):
                fc = part["functionCall"]
                if not isinstance(fc.get("name"), str):  # was named "None" in every line about it (fix19left)
                    out.add("wrong_content_type", i, j, what="functionCall.name", expected="string",
                            got=_got(fc, "name"))
                cid = fc.get("id")
                if cid is not None and not isinstance(cid, str):  # named as Python wrote it, "f ([1])", and 5
                    # and "5" read the same (break-it pass brk20new); the call pairs by its name alone
                    out.add("wrong_content_type", i, j, what="functionCall.id", expected="string", got=_type_name(cid))
                    cid = None
                turn.append((i, j, fc["name"] if isinstance(fc.get("name"), str) else "?", cid))
            if isinstance(part.get("functionResponse"), dict):
                _gemini_response(i, j, part["functionResponse"], waiting, answered, out)
        if role == "model":
            every += turn
        pending = turn if role == "model" else []
    for i, j, name, cid in every:
        if (i, j) not in answered:
            out.add("tool_use_without_result", i, j, key=_at_end("function_call_without_response", i, contents),
                    name=name, id=cid if cid is not None else "-", next=i + 1, last=len(contents) - 1)


def _hashable(value: Any) -> Any:
    """``value`` as a dictionary key that is equal exactly when the values are (JSON arrays and
    objects as sorted JSON text)."""
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else value


class _Waiting:
    """The previous model turn's calls ``(i, j, name, id)``, indexed by name and by (name, id), with
    a cursor per list at its first unanswered call: each functionResponse is matched in amortised
    constant time (answers only ever grow), so a turn of n calls and n responses costs O(n), not
    O(n²) (4 000 of each took 1.0 s, 16 times the 1 000 case)."""

    def __init__(self, calls: list[tuple[int, int, str, Any]]):
        self.calls = calls
        self.by_name: dict[str, list] = {}
        self.by_id: dict[tuple[str, Any], list] = {}
        self.without_id: dict[str, list] = {}
        for c in calls:
            self.by_name.setdefault(c[2], []).append(c)
            if c[3] is None:
                self.without_id.setdefault(c[2], []).append(c)
            else:
                self.by_id.setdefault((c[2], _hashable(c[3])), []).append(c)
        self._cursor: dict[int, int] = {}

    def __bool__(self) -> bool:
        return bool(self.calls)

    def _first_free(self, calls: list, answered: set[tuple[int, int]]):
        k = self._cursor.get(id(calls), 0)
        while k < len(calls) and (calls[k][0], calls[k][1]) in answered:
            k += 1
        self._cursor[id(calls)] = k
        return calls[k] if k < len(calls) else None

    def match(self, name: Any, rid: Any, answered: set[tuple[int, int]]):
        """(the first unanswered call this response answers, or None; whether any call matches at
        all): the same name, and the same id unless either has none."""
        if not isinstance(name, str):
            return None, False
        if rid is None:
            lists = [self.by_name.get(name, [])]
        else:
            lists = [self.by_id.get((name, _hashable(rid)), []), self.without_id.get(name, [])]
        free = [c for c in (self._first_free(calls, answered) for calls in lists) if c is not None]
        return (min(free, key=lambda c: c[1]) if free else None), any(lists)

    def open_calls(self, answered: set[tuple[int, int]]) -> list:
        """The unanswered calls (all calls when every one is answered), in order: the caller shows MAX_IDS of them
        and counts the rest."""
        return [c for c in self.calls if (c[0], c[1]) not in answered] or self.calls


def _gemini_response(i: int, j: int, fr: dict[str, Any], waiting: _Waiting,
                     answered: set[tuple[int, int]], out: _Collector) -> None:
    name, rid = fr.get("name"), fr.get("id")
    if rid is not None and not isinstance(rid, str):  # as a functionCall's id: a string (brk20new)
        out.add("wrong_content_type", i, j, what="functionResponse.id", expected="string", got=_type_name(rid))
        rid = None
    if not isinstance(fr.get("response"), dict):
        out.add("response_not_object", i, j, got=_got(fr, "response"))
    if not isinstance(name, str):  # it answers no call: said once, not as "functionResponse None" (fix19left)
        out.add("wrong_content_type", i, j, what="functionResponse.name", expected="string", got=_got(fr, "name"))
        return
    if not waiting:
        out.add("orphan_result", i, j, key="orphan_function_response", name=name)
        return
    free, matched = waiting.match(name, rid, answered)
    if free is not None:
        answered.add((free[0], free[1]))
    elif matched:  # every call of one model turn has the same message index
        out.add("duplicate_result", i, j, key="duplicate_function_response", id=str(name),
                first=waiting.calls[0][0] + 1)
    else:
        opened = functools.cache(lambda: waiting.open_calls(answered))  # built only if the violation is kept
        # each name and id cut as drawn (shown_id), at most MAX_IDS, then how many more: 12 ids of 40 000
        # characters were listed whole in each of 500 violations, a 240 MB report (break-it pass brk21probe)
        label = functools.cache(lambda: [shown_id(c[2]) + (f" ({shown_id(c[3])})" if c[3] is not None else "")
                                         for c in opened()[:MAX_IDS]])

        def expected() -> str:
            more = len(opened()) - MAX_IDS
            return ", ".join(label()) + (t("pairing.ids_more", out.lang, count=more) if more > 0 else "")

        out.add("name_mismatch", i, j, name=name, rid="-" if rid is None else str(rid),  # no id: "-", not "None"
                expected=expected, fix=lambda: label()[0], fix_name=lambda: shown_id(opened()[0][2]),
                fix_id=lambda: None if opened()[0][3] is None else shown_id(opened()[0][3]))
