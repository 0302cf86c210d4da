"""Convert a transcript between the five wire forms, saying plainly what does not survive the trip.

A transcript is read (``read``) into neutral events, in order: ``Text(role, text)`` (role ``user`` or
``assistant``), ``Call(id, name, arguments)`` (``arguments`` the JSON text) and ``Result(id, name, text,
is_error)``, then written (``write``) in another form. Each step returns the losses it had to make, as
``Loss(code, index)`` (index of the event; the sentence is ``convert.loss.<code>`` in the locale):

* ``is_error_in_text``: Chat Completions and Responses have no error flag; the result text is kept and
  the flag is lost (read back, the result is not an error).
* ``arguments_not_object``: Anthropic ``input``, MCP ``arguments`` and Gemini ``args`` must be objects;
  argument text that is not a JSON object is carried as ``{"_raw_arguments": text}``.
* ``text_dropped_mcp``: MCP carries only the tool exchange (``tools/call`` and its answer); user and
  assistant text has no place in it.
* ``protocol_error``: an MCP JSON-RPC error is not a tool result; read, it becomes an error result whose
  text is the error object.
* ``reserialised``: argument or result JSON is written back compactly (key order kept, spacing lost);
  Gemini's ``response`` is an object, so text that is a JSON object is stored as that object.
* ``not_a_turn``: a message or item this converter does not read (for example a Responses ``reasoning``
  item, an image block) is skipped.

Shapes and sources: toolcall/forms.py (calls), toolcall/results.py (results), toolcall/wire.py.
The property "a write that reports no loss reads back to the same events" is tested with hypothesis
(tests/unit/test_convert.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolcall.forms import call_message
from toolcall.parsing import MAX_INPUT_CHARS, parse_tool_input
from toolcall.results import tool_call_entry, tool_result_message
from toolcall.wire import ANTHROPIC, FORMATS, GEMINI, MCP, OPENAI, RESPONSES

LOSSES: tuple[str, ...] = ("is_error_in_text", "arguments_not_object", "text_dropped_mcp", "protocol_error",
                           "reserialised", "not_a_turn")


@dataclass(frozen=True)
class Text:
    role: str
    text: str


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Result:
    id: str
    name: str
    text: str
    is_error: bool = False


@dataclass(frozen=True)
class Loss:
    """What did not survive: ``code`` (one of LOSSES) at event ``index`` (None: the whole transcript)."""

    code: str
    index: int | None = None


Event = Text | Call | Result


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _text_of(content: Any) -> str | None:
    """A str content, or the joined text of a list of text blocks/parts; None when there is none."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
        return "".join(texts) if texts else None
    return None


# --- reading --------------------------------------------------------------------------------

def read(fmt: str, messages: list[Any]) -> tuple[list[Event], list[Loss]]:
    """The events of ``messages`` (a list as toolcall.pairing reads it) in ``fmt``, and what was skipped.
    Never raises for JSON values; raises ValueError for an unknown ``fmt``."""
    _check(fmt)
    events: list[Event] = []
    losses: list[Loss] = []
    names: dict[str, str] = {}  # call id → tool name, for results that do not carry the name

    def call(cid: Any, name: Any, arguments: str) -> None:
        names[str(cid)] = str(name)
        events.append(Call(str(cid), str(name), arguments))

    def result(cid: Any, text: str, is_error: bool, name: Any = None) -> None:
        events.append(Result(str(cid), str(name) if name is not None else names.get(str(cid), ""), text, is_error))

    for m in messages:
        if not isinstance(m, dict):
            losses.append(Loss("not_a_turn", len(events)))
            continue
        if fmt == ANTHROPIC:
            role, content = m.get("role"), m.get("content")
            if isinstance(content, str):
                events.append(Text(str(role), content))
                continue
            for b in content if isinstance(content, list) else []:
                kind = b.get("type") if isinstance(b, dict) else None
                if kind == "text":
                    events.append(Text(str(role), str(b.get("text", ""))))
                elif kind == "tool_use":
                    call(b.get("id"), b.get("name"), _compact(b.get("input")))
                elif kind == "tool_result":
                    result(b.get("tool_use_id"), _text_of(b.get("content", "")) or "", b.get("is_error") is True)
                else:
                    losses.append(Loss("not_a_turn", len(events)))
        elif fmt in (OPENAI, RESPONSES) and "role" in m and m.get("type") in (None, "message"):
            role, text = m.get("role"), _text_of(m.get("content"))
            if role == "tool":
                result(m.get("tool_call_id"), text or "", False)
                continue
            if text:
                events.append(Text("assistant" if role == "assistant" else "user", text))
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function", {}) if isinstance(tc, dict) else {}
                call(tc.get("id") if isinstance(tc, dict) else None, fn.get("name"), str(fn.get("arguments", "")))
        elif fmt == RESPONSES and m.get("type") == "function_call":
            call(m.get("call_id"), m.get("name"), str(m.get("arguments", "")))
        elif fmt == RESPONSES and m.get("type") == "function_call_output":
            output = m.get("output")
            result(m.get("call_id"), output if isinstance(output, str) else _text_of(output) or "", False)
        elif fmt == MCP and m.get("method") == "tools/call":
            params = m.get("params") if isinstance(m.get("params"), dict) else {}
            call(m.get("id"), params.get("name"), _compact(params.get("arguments")))
        elif fmt == MCP and isinstance(m.get("result"), dict):
            r = m["result"]
            result(m.get("id"), _text_of(r.get("content")) or "", r.get("isError") is True)
        elif fmt == MCP and "error" in m:
            losses.append(Loss("protocol_error", len(events)))
            result(m.get("id"), _compact(m["error"]), True)
        elif fmt == GEMINI and isinstance(m.get("parts"), list):
            role = "assistant" if m.get("role") == "model" else "user"
            for p in m["parts"]:
                if not isinstance(p, dict):
                    continue
                if isinstance(p.get("text"), str):
                    events.append(Text(role, p["text"]))
                elif isinstance(p.get("functionCall"), dict):
                    fc = p["functionCall"]
                    call(fc.get("id", fc.get("name")), fc.get("name"), _compact(fc.get("args", {})))
                elif isinstance(p.get("functionResponse"), dict):
                    fr = p["functionResponse"]
                    response = fr.get("response")
                    error = isinstance(response, dict) and list(response) == ["error"]
                    value = response.get("error" if error else "output", response) if isinstance(response, dict) \
                        and list(response) in (["error"], ["output"]) else response
                    result(fr.get("id", fr.get("name")), value if isinstance(value, str) else _compact(value), error,
                           fr.get("name"))
                else:
                    losses.append(Loss("not_a_turn", len(events)))
        else:
            losses.append(Loss("not_a_turn", len(events)))
    return events, losses


# --- writing --------------------------------------------------------------------------------

def _object_arguments(text: str) -> tuple[dict[str, Any], bool]:
    """The arguments as an object, and whether ``text`` was one. No size cap of its own: the text comes from
    a transcript that is bounded as a whole (the pairing checker's MAX_CHARS), and a valid object larger than
    one model output (MAX_INPUT_CHARS) is still an object, not ``_raw_arguments``."""
    parsed = parse_tool_input(text, max(MAX_INPUT_CHARS, len(text)))
    return (parsed.value, True) if parsed.ok else ({"_raw_arguments": text}, False)


def write(fmt: str, events: list[Event]) -> tuple[list[dict[str, Any]], list[Loss]]:
    """``events`` as a messages list (Responses: input items; MCP: JSON-RPC messages; Gemini:
    contents) in ``fmt``, and what could not be carried. Consecutive calls share one assistant
    turn; consecutive results one user turn (Anthropic, Gemini) or one message each (Chat
    Completions, Responses). Raises ValueError for an unknown ``fmt``."""
    _check(fmt)
    out: list[dict[str, Any]] = []
    losses: list[Loss] = []
    objects = fmt in (ANTHROPIC, MCP, GEMINI)

    def turn(role: str) -> dict[str, Any]:
        """The open turn of ``role`` (a new one when the last message is another role)."""
        if fmt == ANTHROPIC:
            if not out or out[-1].get("role") != role or not isinstance(out[-1].get("content"), list):
                out.append({"role": role, "content": []})
            return out[-1]
        g_role = "model" if role == "assistant" else "user"
        if not out or out[-1].get("role") != g_role:
            out.append({"role": g_role, "parts": []})
        return out[-1]

    for k, e in enumerate(events):
        if isinstance(e, Text):
            if fmt == MCP:
                losses.append(Loss("text_dropped_mcp", k))
            elif fmt == ANTHROPIC:
                turn(e.role)["content"].append({"type": "text", "text": e.text})
            elif fmt == GEMINI:
                turn(e.role)["parts"].append({"text": e.text})
            else:
                out.append({"role": e.role, "content": e.text})
            continue
        if isinstance(e, Call):
            if objects:  # the object itself: parsing its text again (capped as one model output) could refuse it
                value, ok = _object_arguments(e.arguments)
                if not ok:
                    losses.append(Loss("arguments_not_object", k))
                elif _compact(value) != e.arguments:
                    losses.append(Loss("reserialised", k))
                message = tool_call_entry(fmt, e.id, e.name, _compact(value), value)
            else:
                message = call_message(fmt, e.id, e.name, e.arguments)
            if fmt == ANTHROPIC:
                turn("assistant")["content"].append(message)
            elif fmt == GEMINI:
                turn("assistant")["parts"].append(message)
            elif fmt == OPENAI:
                if not out or out[-1].get("role") != "assistant" or "tool_calls" not in out[-1]:
                    if out and out[-1].get("role") == "assistant" and isinstance(out[-1].get("content"), str):
                        out[-1]["tool_calls"] = []
                    else:
                        out.append({"role": "assistant", "content": None, "tool_calls": []})
                out[-1]["tool_calls"].append(message)
            else:
                out.append(message)
            continue
        if e.is_error and fmt in (OPENAI, RESPONSES):
            losses.append(Loss("is_error_in_text", k))
        message = tool_result_message(fmt, e.id, e.text, e.is_error, e.name)
        if fmt == GEMINI:
            value = next(iter(message["functionResponse"]["response"].values()))
            if (value if isinstance(value, str) else _compact(value)) != e.text:
                losses.append(Loss("reserialised", k))
            turn("user")["parts"].append(message)
        elif fmt == ANTHROPIC:
            turn("user")["content"].append(message)
        else:
            out.append(message)
    return out, losses


def convert(events_or_messages: list[Any], source: str, target: str) -> tuple[list[dict[str, Any]], list[Loss]]:
    """Read ``events_or_messages`` (a messages list in ``source``) and write it in ``target``: the messages
    and every loss of both steps."""
    events, lost_reading = read(source, events_or_messages)
    messages, lost_writing = write(target, events)
    return messages, lost_reading + lost_writing
