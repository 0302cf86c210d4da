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
* ``content_not_text``: a result whose content is not text (an object, a number, an image block): only its
  text is carried, the rest is dropped.
* ``empty_text_dropped``: Chat Completions and Responses read an empty content as no text: an empty text
  (which Anthropic rejects anyway) is not written.
* ``result_name_dropped``: only Gemini names the tool in a result; elsewhere a result takes its call's
  name when read, so a name that differs from the call's (or a result with no call before it) is lost.
* ``text_moved``: Anthropic wants a turn's tool_result blocks first in the user message, Chat Completions its
  tool messages right after the tool_calls: a user's text between a turn's calls and its results (and, for
  Chat Completions, an assistant's) is written after the turn's last result. Every form is written so,
  so that a trip through a form that allows the text there (Responses, Gemini) does not move it on the way back.
* ``changed``: the safety net. After reading, the events are written back in the source form and compared
  with the source (``faithful``: the content of each message, equivalent spellings made equal); a message
  that would come back different (a value of an unexpected type coerced, messages merged or split, a role
  renamed) is listed, unless a loss above already names it. So "nothing lost" means: read back, the same
  content (tests/unit/test_convert_round_trip.py holds every form pair to that).

Each loss also names ``message``: the index of the source message it comes from (None when unknown).
``loss_report`` turns the losses into what a page shows: a line per kind of loss naming at most
MAX_LOSS_MESSAGES source messages, at most MAX_LOSS_LINES lines, each rest counted exactly.

Shapes and sources: toolcall/forms.py (calls), toolcall/results.py (results), toolcall/wire.py.
The property "a write that reports no loss reads back to the same events" is tested with hypothesis
(tests/unit/test_convert.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from toolcall.forms import call_message
from toolcall.i18n import t
from toolcall.parsing import MAX_INPUT_CHARS, parse_tool_input
from toolcall.results import tool_call_entry, tool_result_message
from toolcall.wire import ANTHROPIC, FORMATS, GEMINI, MCP, OPENAI, RESPONSES

#: Lines a report of losses shows at most (one per kind of loss; the kinds past it are counted in one more line),
#: and source messages one line names at most (the rest counted): a 1 MB paste can lose something in 10 000
#: messages, and the page once listed a line per loss.
MAX_LOSS_LINES = 12
MAX_LOSS_MESSAGES = 12

#: Characters of a transcript the pairing page's converter converts at most (the checker above it reads up to
#: toolcall.pairing.MAX_CHARS, 1 000 000). Converting is linear but heavy (every call's arguments written and read
#: back for each form the trip passes through): a 1 MB paste took 0.5-0.7 s of server CPU to convert, 1.1-1.7 s
#: for the page's rerun with the checker, and every other session on that process waited (issue 13). 300 000
#: characters convert in about 0.2 s.
MAX_PAGE_CONVERT_CHARS = 300_000

LOSSES: tuple[str, ...] = ("is_error_in_text", "arguments_not_object", "text_dropped_mcp", "protocol_error",
                           "reserialised", "not_a_turn", "content_not_text", "empty_text_dropped",
                           "result_name_dropped", "text_moved", "changed")


@dataclass(frozen=True)
class Text:
    role: str
    text: str
    at: int | None = field(default=None, compare=False)  # the source message it was read from


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: str
    at: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Result:
    id: str
    name: str
    text: str
    is_error: bool = False
    at: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Loss:
    """What did not survive: ``code`` (one of LOSSES) at event ``index`` (None: the whole transcript)."""

    code: str
    index: int | None = None
    message: int | None = field(default=None, compare=False)  # the source message (None: unknown)


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

    def text_only(content: Any) -> None:
        """A result's content that is more than text (an object, a number, an image part) loses the rest."""
        if content is not None and not isinstance(content, str) and not (isinstance(content, list) and all(
                isinstance(x, dict) and isinstance(x.get("text"), str) for x in content)):
            losses.append(Loss("content_not_text", len(events)))

    def read_one(m: Any) -> None:
        if not isinstance(m, dict):
            losses.append(Loss("not_a_turn", len(events)))
            return
        if fmt == ANTHROPIC:  # every form's text is a user's or an assistant's: any other role is read as user
            role, content = "assistant" if m.get("role") == "assistant" else "user", m.get("content")
            if isinstance(content, str):
                events.append(Text(str(role), content))
                return
            for b in content if isinstance(content, list) else []:
                kind = b.get("type") if isinstance(b, dict) else None
                if kind == "text":
                    events.append(Text(str(role), str(b.get("text", ""))))
                elif kind == "tool_use":
                    call(b.get("id"), b.get("name"), _compact(b.get("input")))
                elif kind == "tool_result":
                    text_only(b.get("content", ""))
                    result(b.get("tool_use_id"), _text_of(b.get("content", "")) or "", b.get("is_error") is True)
                else:
                    losses.append(Loss("not_a_turn", len(events)))
        elif fmt in (OPENAI, RESPONSES) and "role" in m and m.get("type") in (None, "message"):
            role, text = m.get("role"), _text_of(m.get("content"))
            if role == "tool":
                text_only(m.get("content"))
                result(m.get("tool_call_id"), text or "", False)
                return
            if text:
                events.append(Text("assistant" if role == "assistant" else "user", text))
            # tool_calls a number, a string or an object, or a call whose function is not an object, is skipped and
            # said (a loss); it raised TypeError or AttributeError out of the page (break-it pass brk12web2)
            tool_calls = m.get("tool_calls") or []
            if not isinstance(tool_calls, list):
                losses.append(Loss("not_a_turn", len(events)))
                tool_calls = []
            for tc in tool_calls:
                fn = tc.get("function", {}) if isinstance(tc, dict) else None
                if not isinstance(fn, dict):
                    losses.append(Loss("not_a_turn", len(events)))
                    continue
                call(tc.get("id"), fn.get("name"), str(fn.get("arguments", "")))
        elif fmt == RESPONSES and m.get("type") == "function_call":
            call(m.get("call_id"), m.get("name"), str(m.get("arguments", "")))
        elif fmt == RESPONSES and m.get("type") == "function_call_output":
            output = m.get("output")
            text_only(output)
            result(m.get("call_id"), output if isinstance(output, str) else _text_of(output) or "", False)
        elif fmt == MCP and m.get("method") == "tools/call":
            params = m.get("params") if isinstance(m.get("params"), dict) else {}
            call(m.get("id"), params.get("name"), _compact(params.get("arguments")))
        elif fmt == MCP and isinstance(m.get("result"), dict):
            r = m["result"]
            text_only(r.get("content"))
            result(m.get("id"), _text_of(r.get("content")) or "", r.get("isError") is True)
        elif fmt == MCP and "error" in m:
            losses.append(Loss("protocol_error", len(events)))
            result(m.get("id"), _compact(m["error"]), True)
        elif fmt == GEMINI and isinstance(m.get("parts"), list):
            role = "assistant" if m.get("role") == "model" else "user"
            for p in m["parts"]:
                if not isinstance(p, dict):
                    losses.append(Loss("not_a_turn", len(events)))
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

    for i, m in enumerate(messages):
        first_event, first_loss = len(events), len(losses)
        read_one(m)
        events[first_event:] = [replace(e, at=i) for e in events[first_event:]]
        losses[first_loss:] = [replace(x, message=i) for x in losses[first_loss:]]
    return events, losses


# --- writing --------------------------------------------------------------------------------

def _object_arguments(text: str) -> tuple[dict[str, Any], bool]:
    """The arguments as an object, and whether ``text`` was one. No size cap of its own: the text comes from
    a transcript that is bounded as a whole (the pairing checker's MAX_CHARS), and a valid object larger than
    one model output (MAX_INPUT_CHARS) is still an object, not ``_raw_arguments``."""
    parsed = parse_tool_input(text, max(MAX_INPUT_CHARS, len(text)))
    return (parsed.value, True) if parsed.ok else ({"_raw_arguments": text}, False)


def _texts_after_results(events: list[Event], roles: tuple[str, ...]) -> tuple[list[tuple[int, Event]], list[int]]:
    """``events`` with their indices, each text of ``roles`` that sits between a turn's calls and a result
    still to come for them held back until that turn's last result (Anthropic: results first in the user
    message; Chat Completions: tool messages right after the tool_calls), and the indices of the texts moved.
    Linear."""
    last_result: dict[str, int] = {}
    for k, e in enumerate(events):
        if isinstance(e, Result):
            last_result[e.id] = k
    out: list[tuple[int, Event]] = []
    held: list[tuple[int, Event]] = []
    moved: list[int] = []
    waiting = 0  # index of the last result the open turn's calls still wait for
    previous: Event | None = None
    for k, e in enumerate(events):
        if isinstance(e, Call):
            out += held
            held = []
            waiting = max(waiting if isinstance(previous, Call) else 0, last_result.get(e.id, 0))
        elif isinstance(e, Text) and e.role in roles and waiting > k:
            held.append((k, e))
            moved.append(k)
            previous = e
            continue
        elif isinstance(e, Text):
            waiting = 0
        out.append((k, e))
        if isinstance(e, Result) and k >= waiting:
            out += held
            held = []
        previous = e
    return out + held, moved


def write(fmt: str, events: list[Event]) -> tuple[list[dict[str, Any]], list[Loss]]:
    """``events`` as a messages list (Responses: input items; MCP: JSON-RPC messages; Gemini:
    contents) in ``fmt``, and what could not be carried. Consecutive calls share one assistant
    turn; consecutive results one user turn (Anthropic, Gemini) or one message each (Chat
    Completions, Responses). Raises ValueError for an unknown ``fmt``."""
    _check(fmt)
    out: list[dict[str, Any]] = []
    losses: list[Loss] = []
    objects = fmt in (ANTHROPIC, MCP, GEMINI)
    called: dict[str, str] = {}  # call id → tool name, as a reader recovers a result's name

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

    order = list(enumerate(events))
    if fmt != MCP:  # a turn's results follow its calls at once, in every form: a text in between goes after them
        order, moved = _texts_after_results(events, ("user", "assistant") if fmt == OPENAI else ("user",))
        losses += [Loss("text_moved", k) for k in moved]
    for k, e in order:
        if isinstance(e, Text):
            if fmt == MCP:
                losses.append(Loss("text_dropped_mcp", k))
            elif fmt == ANTHROPIC:
                turn(e.role)["content"].append({"type": "text", "text": e.text})
            elif fmt == GEMINI:
                turn(e.role)["parts"].append({"text": e.text})
            elif not e.text:  # Chat Completions and Responses read an empty content as no text at all
                losses.append(Loss("empty_text_dropped", k))
            else:
                out.append({"role": e.role, "content": e.text})
            continue
        if isinstance(e, Call):
            called[e.id] = e.name
            if objects:  # the object itself: parsing its text again (capped as one model output) could refuse it
                value, ok = _object_arguments(e.arguments)
                if not ok:
                    losses.append(Loss("arguments_not_object", k))
                elif _compact(value) != e.arguments:
                    losses.append(Loss("reserialised", k))
                message = tool_call_entry(fmt, e.id, e.name, _compact(value), value)
            else:
                message = call_message(fmt, e.id, e.name, e.arguments)
            if fmt == MCP:
                message["id"] = _rpc_id(e.id)
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
        if fmt != GEMINI and e.name != called.get(e.id, ""):  # read back, a result takes its call's name
            losses.append(Loss("result_name_dropped", k))
        message = tool_result_message(fmt, e.id, e.text, e.is_error, e.name)
        if fmt == GEMINI:
            value = next(iter(message["functionResponse"]["response"].values()))
            if (value if isinstance(value, str) else _compact(value)) != e.text:
                losses.append(Loss("reserialised", k))
            turn("user")["parts"].append(message)
        elif fmt == ANTHROPIC:
            turn("user")["content"].append(message)
        else:
            if fmt == MCP:
                message["id"] = _rpc_id(e.id)
            out.append(message)
    return out, losses


# --- the safety net: does each source message survive being read? ---------------------------

def _sid(value: Any) -> Any:
    """An id as it is: ``7`` and ``"7"`` are different ids (JSON-RPC matches them by type too), and an id of
    the wrong type is something the checker flags, so reading it as text is a change."""
    return value


def _rpc_id(cid: str) -> str | int:
    """A JSON-RPC id as MCP logs usually write it: a number when the id is one written out ("7" → 7)."""
    return int(cid) if cid.isascii() and cid.isdigit() and str(int(cid)) == cid else cid


def _ctext(content: Any, empty: Any = "") -> Any:
    """Content that is only text, as that text (``empty`` when there is none); anything else as it is."""
    if content is None or content == [] or content == "":
        return empty if content is not None or empty is None else None
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(x, dict) and isinstance(x.get("text"), str) for x in content):
        return "".join(x["text"] for x in content)
    return content


def _flag(value: Any) -> Any:
    return False if value is None else value


def faithful(fmt: str, message: Any) -> Any:
    """The content of one message of ``fmt`` as comparable data: what a trip must keep. Equivalent spellings
    are made equal (a str content and one text block; absent and false error flags; an id 7 and "7";
    a Gemini call without id and its name); anything unexpected is kept as it is, so that it differs
    from what the converter writes back."""
    if not isinstance(message, dict):
        return ("raw", message)
    m = message
    if fmt == ANTHROPIC:
        content = m.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            return ("raw", m)
        out = []
        for b in blocks:
            kind = b.get("type") if isinstance(b, dict) else None
            if kind == "text":
                out.append(("text", b.get("text")))
            elif kind == "tool_use":
                out.append(("tool_use", _sid(b.get("id")), b.get("name"), b.get("input")))
            elif kind == "tool_result":
                out.append(("tool_result", _sid(b.get("tool_use_id")), _ctext(b.get("content", "")),
                            _flag(b.get("is_error"))))
            else:
                out.append(("raw", b))
        return (m.get("role"), out)
    if fmt in (OPENAI, RESPONSES) and "role" in m and m.get("type") in (None, "message"):
        role, calls = m.get("role"), m.get("tool_calls")
        if role == "tool":
            return ("tool", _sid(m.get("tool_call_id")), _ctext(m.get("content")))
        if calls is not None and not isinstance(calls, list):
            return ("raw", m)
        listed = [(_sid(tc.get("id")), tc.get("function", {}).get("name"), tc.get("function", {}).get("arguments"))
                  if isinstance(tc, dict) and isinstance(tc.get("function", {}), dict) else ("raw", tc)
                  for tc in calls or []]
        return (role, _ctext(m.get("content"), None), listed)
    if fmt == RESPONSES and m.get("type") == "function_call":
        return ("call", _sid(m.get("call_id")), m.get("name"), m.get("arguments"))
    if fmt == RESPONSES and m.get("type") == "function_call_output":
        return ("output", _sid(m.get("call_id")), _ctext(m.get("output")))
    if fmt == MCP and m.get("method") == "tools/call" and isinstance(m.get("params"), dict):
        return ("call", m.get("jsonrpc"), _sid(m.get("id")), m["params"].get("name"), m["params"].get("arguments"))
    if fmt == MCP and isinstance(m.get("result"), dict) and "error" not in m:
        r = m["result"]
        return ("result", m.get("jsonrpc"), _sid(m.get("id")), _ctext(r.get("content")), _flag(r.get("isError")))
    if fmt == GEMINI and isinstance(m.get("parts"), list):
        out = []
        for p in m["parts"]:
            fc = p.get("functionCall") if isinstance(p, dict) else None
            fr = p.get("functionResponse") if isinstance(p, dict) else None
            if isinstance(p, dict) and isinstance(p.get("text"), str):
                out.append(("text", p["text"]))
            elif isinstance(fc, dict):
                out.append(("call", _sid(fc.get("id", fc.get("name"))), fc.get("name"), fc.get("args", {})))
            elif isinstance(fr, dict):
                out.append(("response", _sid(fr.get("id", fr.get("name"))), fr.get("name"), fr.get("response")))
            else:
                out.append(("raw", p))
        return (m.get("role"), out)
    return ("raw", m)


def changed(fmt: str, messages: list[Any], events: list[Event], skip: set[int] = frozenset()) -> list[Loss]:
    """A ``changed`` loss for each source message (not in ``skip``) that its events, written back in ``fmt``,
    do not reproduce (``faithful``), and for each message that writing would merge into the one before it
    (two user messages in a row, an assistant's text and its calls in two messages). Linear in the messages."""
    by_message: dict[int, list[Event]] = {}
    first_of: dict[int, int] = {}  # message → index of its first event (not events.index: a scan per message)
    for k, e in enumerate(events):
        by_message.setdefault(e.at, []).append(e)
        first_of.setdefault(e.at, k)
    losses: list[Loss] = []
    previous: list[Event] = []
    for i, m in enumerate(messages):
        own = by_message.get(i, [])
        first = first_of.get(i)
        alone, _ = write(fmt, own)
        if i not in skip and [faithful(fmt, x) for x in alone] != [faithful(fmt, m)]:
            losses.append(Loss("changed", first, i))
        elif i not in skip and own and previous and len(write(fmt, previous + own)[0]) < len(
                write(fmt, previous)[0]) + len(alone):
            losses.append(Loss("changed", first, i))
        previous = own or previous
    return losses


def convert(events_or_messages: list[Any], source: str, target: str) -> tuple[list[dict[str, Any]], list[Loss]]:
    """Read ``events_or_messages`` (a messages list in ``source``) and write it in ``target``: the messages
    and every loss (reading, the ``changed`` safety net, writing), in the order of the source messages they
    come from. An empty list of losses means: converted back, the same content as the source."""
    events, lost_reading = read(source, events_or_messages)
    lost_changed = changed(source, events_or_messages, events, {x.message for x in lost_reading})
    messages, lost_writing = write(target, events)
    lost_writing = [replace(x, message=events[x.index].at) if x.index is not None and x.index < len(events) else x
                    for x in lost_writing]
    losses = lost_reading + lost_changed + lost_writing
    last = len(events_or_messages)
    return messages, sorted(losses, key=lambda x: (last if x.message is None else x.message, x.index or 0))


# --- the report: a line per kind of loss, capped -----------------------------------------------

@dataclass(frozen=True)
class LossLine:
    """One kind of loss (``code``, one of LOSSES): the first source messages it comes from (ascending, at most
    MAX_LOSS_MESSAGES; empty for a loss of the whole transcript) and how many more messages have it."""

    code: str
    messages: tuple[int, ...]
    more: int = 0


def loss_lines(losses: list[Loss], lines: int = MAX_LOSS_LINES,
               ids: int = MAX_LOSS_MESSAGES) -> tuple[list[LossLine], int]:
    """``losses`` as at most ``lines`` lines, one per code (a code's losses of the whole transcript, ``message``
    None, are a line of their own), ordered by the first message each comes from (whole-transcript lines
    last), and the number of lines left out. Each line names at most ``ids`` distinct messages; ``more`` counts
    the rest exactly. O(n log n) in the losses; raises ValueError when ``lines`` or ``ids`` is below 1."""
    if lines < 1 or ids < 1:
        raise ValueError(f"lines and ids must be at least 1, not {lines} and {ids}")
    groups: dict[tuple[str, bool], set[int]] = {}
    for loss in losses:
        groups.setdefault((loss.code, loss.message is None), set()).update(
            () if loss.message is None else (loss.message,))
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][1], min(kv[1], default=0)))
    out = []
    for (code, _), messages in ordered[:lines]:
        first = sorted(messages)
        out.append(LossLine(code, tuple(first[:ids]), max(0, len(first) - ids)))
    return out, max(0, len(ordered) - lines)


def loss_report(losses: list[Loss], lang: str) -> list[str]:
    """The lines a page shows for ``losses`` in ``lang`` (plain text, not Markdown): one per kind of loss naming
    at most MAX_LOSS_MESSAGES source messages ("messages[2], messages[5] … and 40 more messages: <sentence>"),
    at most MAX_LOSS_LINES of them, then one line counting the kinds left out. Empty for no loss. Raises
    KeyError for a code with no sentence in the catalogue."""
    shown, left = loss_lines(losses)
    report = []
    for line in shown:
        text = t(f"convert.loss.{line.code}", lang)
        if not line.messages:
            report.append(t("convert.loss_line_whole", lang, text=text))
        elif len(line.messages) == 1 and not line.more:
            report.append(t("convert.loss_line", lang, message=line.messages[0], text=text))
        else:
            refs = t("convert.message_sep", lang).join(t("convert.message_ref", lang, message=m) for m in line.messages)
            more = t("convert.messages_more", lang, count=line.more) if line.more else ""
            report.append(t("convert.loss_line_many", lang, messages=refs + more, text=text))
    if left:
        report.append(t("convert.losses_more", lang, count=left))
    return report
