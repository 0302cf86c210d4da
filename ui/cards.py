"""The playground's result card: label and verdict, raw text, problems, the tool_result to send back.

Drawn by pages/playground.py for each canned output and for the free box.
"""

from __future__ import annotations

from toolcall.parsing import names_place
from toolcall import judge
from toolcall.judge import MAX_TOKENS_FIELD, NOT_CHECKED, STOP_TOOL_USE, STOP_WORDS, no_backend_message
from toolcall.results import result_text, tool_call_entry
from toolcall.wire import ANTHROPIC, GEMINI, MCP
from toolcall.validation import display_pointer
from toolcall.markdown import boldable, plain
from toolcall.safe_validator import SizedCache
from toolcall.text import bounded_json, escape_lookalikes
from ui.common import DRAWERS, JSON_DISPLAY_LIMIT, RAW_DISPLAY_LIMIT, json_note, lang, tr

import streamlit as st

#: the wire forms whose call carries the parsed arguments object (Chat Completions and Responses carry the text)
OBJECT_FORMATS = (ANTHROPIC, GEMINI, MCP)


def badge(verdict: str) -> str:
    """A coloured badge for ``accepted`` / ``rejected`` / ``not_checked`` (our own text only)."""
    colour = {"accepted": "green", NOT_CHECKED: "gray"}.get(verdict, "red")
    return f":{colour}-badge[{tr('playground.' + verdict)}]"


#: A card's drawing plan: (st function name, positional args, keyword args) per element, in order.
Plan = tuple[tuple[str, tuple, dict], ...]

#: Plans of the canned cards, by the identity of their judgement (evaluate_canned_cached shares one object per
#: schema across reruns and sessions; the entry holds it, so its id is not reused meanwhile) and the texts around
#: it: a rerun whose judgement is unchanged re-sends the same elements without translating, escaping or
#: formatting anything again (bench/README.md, section H). Bounded by entries and by bytes.
_plans = SizedCache(max_entries=512, max_bytes=8 * 1024 ** 2)


def show_card(card, key: str, label: str | None = None, canned=None, tool_name: str | None = None,
              fmt: str | None = None) -> None:
    """Render one playground Card: label and verdict, raw text, problems, the tool_result.

    With ``tool_name`` and ``fmt``, the card also shows the model's side of the call as the provider
    sends it (a ``tool_use`` block or a ``tool_calls`` entry) carrying that (edited) name.

    Each card reruns with every schema edit, and Streamlit's cost is about a fifth of a
    millisecond per element (bench/README.md), so related lines share one element: the label
    with the verdict, all hints in one box, the error list with the label of the message below.
    A canned card's elements are computed once per judgement and language (``_plans``).
    """
    language = lang()
    plan = None
    if canned is not None:
        cache_key = (id(canned), id(card), key, label, tool_name, fmt, language)
        hit = _plans.get(cache_key)
        if hit is not None and hit[0] is canned and hit[1] is card:
            plan = hit[2]
    if plan is None:
        plan = card_plan(card, label, canned, tool_name, fmt)
        if canned is not None:
            _plans.put(cache_key, (canned, card, plan))
    with st.container(border=True, key=key):
        for name, args, kwargs in plan:
            (DRAWERS.get(name) or getattr(st, name))(*args, **kwargs)


def card_plan(card, label: str | None = None, canned=None, tool_name: str | None = None,
              fmt: str | None = None) -> Plan:
    """What :func:`show_card` draws, element by element, in the session's language (see Plan)."""
    out: list[tuple[str, tuple, dict]] = []

    def add(name: str, *args, **kwargs) -> None:
        out.append((name, args, kwargs))

    parse = card.parse
    line = tr("playground.verdict", verdict=badge(card.verdict))
    if canned is not None:
        line += " · " + tr("playground.expected", expected=badge(canned.output.expected))
    add("markdown", f"**{plain(label)}**  \n{line}" if label else line)
    out.append(_step(_raw(card.raw)))
    if len(card.raw) > RAW_DISPLAY_LIMIT:
        add("caption", tr("common.raw_cut", shown=RAW_DISPLAY_LIMIT, total=len(card.raw)))
    if tool_name is not None and fmt is not None:
        add("caption", tr(f"card_call.title.{fmt}"))  # MCP's tools/call is the host's request, not the model's
        out.extend(_json(tool_call_entry(fmt, card.tool_use_id, tool_name, card.raw)))
        if fmt in OBJECT_FORMATS and parse is not None and not parse.ok:
            # these forms carry the parsed object, which this text is not: say why the block holds null
            add("caption", tr("card_call.not_an_object"))
    if card.verdict == NOT_CHECKED:
        # the budget in force, read when drawn (not a copy taken at import)
        add("warning", tr("playground.not_checked_card", seconds=f"{judge.CANNED_BUDGET:g}"), icon="⏳")
    if canned is not None and canned.leaked:
        catches = canned.output.catches
        add("error", plain(tr("playground.leaked", keyword=catches) if catches else tr("playground.leaked_parse")),
            icon="🚨")
    elif canned is not None and not canned.matches:
        add("warning", tr("playground.overrejected"), icon="⚠️")
    if parse is not None and not parse.ok:
        if parse.line is not None and not names_place(parse):
            text = tr("playground.parse_problem_at", code=parse.code, detail=card.parse_detail, line=parse.line,
                      column=parse.column, pos=parse.pos)
        else:
            text = tr("playground.parse_problem", code=parse.code, detail=card.parse_detail)
        add("error", plain(text))
    if card.hints:
        add("info", "\n\n".join(plain(hint) for hint in card.hints), icon="💡")
    if card.notes:
        add("info", "\n\n".join(plain(note) for note in card.notes), icon="ℹ️")
    if card.backend is not None and not card.backend.ok:
        add("warning", plain(tr("playground.backend_refused", code=card.backend.error["code"])), icon="🛑")
    tail = []
    if card.errors:
        tail += ["**" + tr("playground.errors", count=len(card.errors)) + "**", ""]
        tail += _error_lines(card.errors) + [""]
    action = card.harness_action
    if action is None and card.tool_result:
        tail.append(":small[" + tr("playground.send_back") + "]")  # looks like the caption below
    if tail:
        add("markdown", "\n".join(tail))
    if action is not None:
        out.extend(_harness_action_plan(card, fmt or ANTHROPIC))
    if card.no_backend:
        add("info", plain(no_backend_message(tool_name or "?", lang())), icon="🧪")
    if card.tool_result:
        out.extend(_json(card.tool_result))
        add("caption", tr("common.labelled", label=tr("wire.lands_label"), value=tr(f"wire.lands.{card.lands}")))
        if card.output_errors:
            add("warning", tr("wire.output_mismatch", count=len(card.output_errors)) + "\n\n"
                + "\n".join(_error_lines(card.output_errors)), icon="📐")
        add("caption", tr("playground.content_as_read"))
        add("code", result_text(card.fmt, card.tool_result), language=None, wrap_lines=True)
    return tuple(out)


def _json(value) -> list[tuple[str, tuple, dict]]:
    """ui.common.show_json as plan steps: the code block, and the caption when it is not indented."""
    text, how = bounded_json(value, JSON_DISPLAY_LIMIT)
    steps = [("code", (text,), {"language": "json", "wrap_lines": True})]
    if (note := json_note(how, JSON_DISPLAY_LIMIT)) is not None:
        steps.append(("caption", (note,), {}))
    return steps


def _raw(raw: str) -> tuple:
    """A raw model output's code block as a plan step, cut at RAW_DISPLAY_LIMIT characters (the caller adds
    the "cut" caption)."""
    if len(raw) > RAW_DISPLAY_LIMIT:
        return "code", raw[:RAW_DISPLAY_LIMIT], {"language": None, "wrap_lines": True}
    return "code", raw if raw else " ", {"language": "json", "wrap_lines": True}


def _stop_text(stop_reason: str, fmt: str) -> str:
    """How the stop reason reads in ``fmt``: ``stop_reason "max_tokens"``, ``finish_reason "length"``…"""
    name, value = STOP_WORDS.get(fmt, STOP_WORDS[ANTHROPIC])[stop_reason]
    return f'`{name}` "{value}"'


def _harness_action_plan(card, fmt: str) -> list[tuple[str, tuple, dict]]:
    """After a max_tokens stop: the re-request the harness sends (no tool_result), then what the
    tool_result would be had the response stopped with tool_use."""
    action = card.harness_action
    limit = MAX_TOKENS_FIELD.get(fmt, MAX_TOKENS_FIELD[ANTHROPIC])
    steps = [("warning", (tr("truncation.harness", stop=_stop_text(action.stop_reason, fmt), field=f"`{limit}`",
                                was=action.max_tokens, now=action.next_max_tokens),), {"icon": "✂️"}),
             *_json(action.request_fields(fmt))]
    if card.tool_result:
        steps.append(("caption", (tr("truncation.otherwise", stop=_stop_text(STOP_TOOL_USE, fmt)),), {}))
    return steps


def _step(step: tuple) -> tuple[str, tuple, dict]:
    name, first, kwargs = step
    return name, (first,), kwargs


#: Error lines a card lists (nested anyOf / oneOf reasons included); past them one line says how many
#: more there are. The count in the card's heading and the message sent back are not affected.
MAX_SHOWN_ERRORS = 40


def _error_lines(errors, depth: int = 0, room: list[int] | None = None) -> list[str]:
    """Markdown bullets for FieldErrors, at most MAX_SHOWN_ERRORS of them over every depth, then one
    "and N more" line per list cut; every piece that may come from user input is escaped."""
    room = [MAX_SHOWN_ERRORS] if room is None else room
    lines = []
    indent = "    " * depth
    for i, err in enumerate(errors):
        if room[0] <= 0:
            lines.append(indent + "- " + tr("card.errors_more", count=len(errors) - i))
            break
        room[0] -= 1
        # look-alike letters escaped too: "/is_\u0435rror: no field by this name" next to "/is_error: missing"
        pointer = boldable(plain(escape_lookalikes(display_pointer(err.pointer, lang()))))
        lines.append(indent + "- " + tr("playground.error_item", pointer=pointer,
                                         keyword=plain(err.keyword), expected=plain(escape_lookalikes(err.expected)),
                                         received=plain(escape_lookalikes(err.received))))
        lines += [indent + "    - 💡 " + plain(escape_lookalikes(hint)) for hint in err.hints]
        lines += _error_lines(err.reasons, depth + 1, room)
    return lines
