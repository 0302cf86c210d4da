"""The playground's result card: label and verdict, raw text, problems, the tool_result to send back.

Drawn by pages/playground.py for each canned output and for the free box.
"""

from __future__ import annotations

from toolcall.judge import MAX_TOKENS_FIELD, STOP_TOOL_USE, STOP_WORDS, no_backend_message
from toolcall.results import result_text, tool_call_entry
from toolcall.wire import ANTHROPIC
from toolcall.validation import display_pointer
from toolcall.markdown import boldable, plain
from ui.common import lang, show_json, show_raw, tr

import streamlit as st


def badge(verdict: str) -> str:
    """A coloured badge for ``accepted`` / ``rejected`` (our own text only)."""
    colour = "green" if verdict == "accepted" else "red"
    return f":{colour}-badge[{tr('playground.' + verdict)}]"


def show_card(card, key: str, label: str | None = None, canned=None, tool_name: str | None = None,
              fmt: str | None = None) -> None:
    """Render one playground Card: label and verdict, raw text, problems, the tool_result.

    With ``tool_name`` and ``fmt``, the card also shows the model's side of the call as the provider
    sends it (a ``tool_use`` block or a ``tool_calls`` entry) carrying that (edited) name.

    Each card reruns with every schema edit, and Streamlit's cost is about a fifth of a
    millisecond per element (bench/README.md), so related lines share one element: the label
    with the verdict, all hints in one box, the error list with the label of the message below.
    """
    with st.container(border=True, key=key):
        line = tr("playground.verdict", verdict=badge(card.verdict))
        if canned is not None:
            line += " · " + tr("playground.expected", expected=badge(canned.output.expected))
        st.markdown(f"**{plain(label)}**  \n{line}" if label else line)
        show_raw(card.raw)
        if tool_name is not None and fmt is not None:
            st.caption(tr("workbench.model_call"))
            show_json(tool_call_entry(fmt, card.tool_use_id, tool_name, card.raw))
        if canned is not None and canned.leaked:
            catches = canned.output.catches
            st.error(plain(tr("playground.leaked", keyword=catches) if catches else tr("playground.leaked_parse")),
                     icon="🚨")
        elif canned is not None and not canned.matches:
            st.warning(tr("playground.overrejected"), icon="⚠️")
        parse = card.parse
        if parse is not None and not parse.ok:
            if parse.line is not None:
                text = tr("playground.parse_problem_at", code=parse.code, detail=card.parse_detail, line=parse.line,
                          column=parse.column, pos=parse.pos)
            else:
                text = tr("playground.parse_problem", code=parse.code, detail=card.parse_detail)
            st.error(plain(text))
        if card.hints:
            st.info("\n\n".join(plain(hint) for hint in card.hints), icon="💡")
        if card.notes:
            st.info("\n\n".join(plain(note) for note in card.notes), icon="ℹ️")
        if card.backend is not None and not card.backend.ok:
            st.warning(plain(tr("playground.backend_refused", code=card.backend.error["code"])), icon="🛑")
        tail = []
        if card.errors:
            tail += ["**" + tr("playground.errors", count=len(card.errors)) + "**", ""]
            tail += _error_lines(card.errors) + [""]
        action = card.harness_action
        if action is None and card.tool_result:
            tail.append(":small[" + tr("playground.send_back") + "]")  # looks like the caption below
        if tail:
            st.markdown("\n".join(tail))
        if action is not None:
            _show_harness_action(card, fmt or ANTHROPIC)
        if card.no_backend:
            st.info(plain(no_backend_message(tool_name or "?", lang())), icon="🧪")
        if card.tool_result:
            show_json(card.tool_result)
            st.caption(tr("wire.lands_label") + ": " + tr(f"wire.lands.{card.lands}"))
            if card.output_errors:
                st.warning(tr("wire.output_mismatch", count=len(card.output_errors)) + "\n\n"
                           + "\n".join(_error_lines(card.output_errors)), icon="📐")
            st.caption(tr("playground.content_as_read"))
            st.code(result_text(card.fmt, card.tool_result), language=None, wrap_lines=True)


def _stop_text(stop_reason: str, fmt: str) -> str:
    """How the stop reason reads in ``fmt``: ``stop_reason "max_tokens"``, ``finish_reason "length"``…"""
    name, value = STOP_WORDS.get(fmt, STOP_WORDS[ANTHROPIC])[stop_reason]
    return f'`{name}` "{value}"'


def _show_harness_action(card, fmt: str) -> None:
    """After a max_tokens stop: the re-request the harness sends (no tool_result), then what the
    tool_result would be had the response stopped with tool_use."""
    action = card.harness_action
    limit = MAX_TOKENS_FIELD.get(fmt, MAX_TOKENS_FIELD[ANTHROPIC])
    st.warning(tr("truncation.harness", stop=_stop_text(action.stop_reason, fmt), field=f"`{limit}`",
                  was=action.max_tokens, now=action.next_max_tokens), icon="✂️")
    show_json(action.request_fields(fmt))
    if card.tool_result:
        st.caption(tr("truncation.otherwise", stop=_stop_text(STOP_TOOL_USE, fmt)))


def _error_lines(errors, depth: int = 0) -> list[str]:
    """Markdown bullets for FieldErrors; every piece that may come from user input is escaped."""
    lines = []
    for err in errors:
        indent = "    " * depth
        pointer = boldable(plain(display_pointer(err.pointer, lang())))
        lines.append(indent + "- " + tr("playground.error_item", pointer=pointer,
                                         keyword=plain(err.keyword), expected=plain(err.expected),
                                         received=plain(err.received)))
        lines += [indent + "    - 💡 " + plain(hint) for hint in err.hints]
        lines += _error_lines(err.reasons, depth + 1)
    return lines
