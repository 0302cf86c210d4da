"""One helper for every widget whose options are shown translated: :func:`translated`.

The widget's values are option *ids* (``"anthropic"``, ``"strict"``); the current language's
labels are only shown, through ``format_func``. Streamlit keeps a keyed widget's identity when
its labels change, so after a language switch the browser would keep showing, and send back,
the old language's label, which matches no option. The helper notices that the language changed
since it last drew this key and hands the widget its own value again through st.session_state
before drawing it; Streamlit then sends that value to the browser in the new language. Nothing
else has to list the key, and no copy of it is kept per language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import streamlit as st

from ui.common import PERSIST, lang, plain, tr

#: Session-state key of {widget key: language it was last drawn in}.
_DRAWN_IN = "_translated_widget_lang"

_KINDS = {"radio": st.radio, "selectbox": st.selectbox, "multiselect": st.multiselect,
          "segmented_control": st.segmented_control, "pills": st.pills}


def own_words(kind: str) -> dict[str, Any]:
    """Keyword arguments that replace Streamlit's English inside a ``kind`` widget with the session's
    language: the placeholder of a selectbox or a multiselect ("Choose an option", "Choose options"),
    and no "Select all" in a multiselect (its text cannot be set). Empty for other kinds. Pass them to
    every st.selectbox / st.multiselect drawn without :func:`translated` (which adds them itself)."""
    if kind == "selectbox":
        return {"placeholder": tr("widgets.placeholder.selectbox")}
    if kind == "multiselect":
        return {"placeholder": tr("widgets.placeholder.multiselect"), "select_all": False}
    return {}


def translated(kind: str, label: str, options: Iterable[Any], labels: Mapping[Any, str] | Callable[[Any], str], *,
               key: str, where: Any = None, **kwargs: Any) -> Any:
    """Draw a ``kind`` widget (radio, selectbox, multiselect, segmented_control, pills) under
    ``key`` whose values are ``options`` (ids) and whose shown text is ``labels[id]`` (a mapping
    or a function, already in the session's language), and return its value (an id, a list of
    ids, or None). ``where`` is a container (st.sidebar, a column) to draw into; other keyword
    arguments go to the widget unchanged (``horizontal``, ``on_change``, ``placeholder`` …). The value is kept for
    the session when a run does not draw the widget (ui.common.PERSIST).
    KeyError for an unknown ``kind``."""
    if kind not in _KINDS:
        raise KeyError(kind)
    draw = getattr(where, kind) if where is not None else _KINDS[kind]
    shown = dict(labels) if isinstance(labels, Mapping) else None  # bound now: format_func may run outside the script
    state, language = st.session_state, lang()
    drawn_in = state.setdefault(_DRAWN_IN, {})
    if drawn_in.get(key, language) != language and key in state:
        state[key] = state[key]
    drawn_in[key] = language
    return draw(label, list(options), key=key, format_func=shown.__getitem__ if shown is not None else labels,
                **{**own_words(kind), **PERSIST, **kwargs})


def css_string(text: str) -> str:
    """``text`` as a CSS string literal: every character but an ASCII letter or digit is a six-digit hex
    escape ending in the space CSS reads as its end (``"`` is ``\\000022 ``; a space is escaped too, since a
    space after an escape belongs to it), so no text can end the string or the rule."""
    return '"' + "".join(c if c.isascii() and c.isalnum() else f"\\{ord(c):06x} " for c in text) + '"'


def uploader_css(key: str, limit_mb: int, types: Iterable[str]) -> str:
    """The ``<style>`` rule that shows the session's words in the file uploader keyed ``key`` where Streamlit
    draws its own English and has no parameter for it: the button ("Upload") and the line of limits
    ("20MB per file • JSONL, JSON"). The words are the app's own (``widgets.uploader.*``), never a student's."""
    box = f".st-key-{key} [data-testid=stFileUploaderDropzone]"
    words = {f"{box} > span button [data-testid=stMarkdownContainer] p": tr("widgets.uploader.button"),
             f"{box} [data-testid=stFileUploaderDropzoneInstructions] span": tr(
                 "widgets.uploader.limits", limit=limit_mb, types=tr("widgets.uploader.type_gap").join(
                     t.upper() for t in types))}
    # the element keeps its box (font-size 0 hides its own text); ::after draws ours at Streamlit's 14 px
    return "<style>" + " ".join(f"{sel} {{ font-size: 0; }} {sel}::after {{ content: {css_string(text)}; "
                                f"font-size: 0.875rem; }}" for sel, text in words.items()) + "</style>"


#: The element under a text box or number box where Streamlit writes its own English hint ("Press Enter to
#: apply") and, for a box with max_chars, the count "12/400" after it (a second span).
_HINTS = "[data-testid=InputInstructions]"
#: (widget test id, hint key): text inputs and number inputs take one line (Enter), text areas several.
_HINT_BOXES = (("stTextInput", "line"), ("stNumberInput", "line"), ("stTextArea", "lines"))


def input_hints_css() -> str:
    """The ``<style>`` rule that shows Streamlit's hint under an edited box in the session's words
    (``widgets.hint.*``): "Press Enter to apply" on a number box and "Press Ctrl+Enter to apply" on the
    playground's schema editor were English on every Chinese page while a student typed, and "Press Enter
    to submit form" on the dashboard's sign-in.

    Streamlit writes the hint as the first span of the hint line, before the character count. Every text
    box here has ``max_chars`` (tests/unit/test_text_boxes_bounded.py), so on a text box the hint is the
    first of two spans (a lone span is the count, shown before any edit); a number box has no count, so
    its first span is the hint. A box in a form that submits on Enter says "submit" (Streamlit: "submit
    form"); a form that does not shows no hint at all."""
    rules = []
    for verb, scope in (("apply", ""), ("submit", "[data-testid=stForm] ")):
        for box, lines in _HINT_BOXES:
            first = "span:first-child" if box == "stNumberInput" else "span:first-child:not(:last-child)"
            sel = f"{scope}[data-testid={box}] {_HINTS} > {first}"
            rules.append(f"{sel} {{ font-size: 0; }} {sel}::after {{ content: "
                         f"{css_string(tr(f'widgets.hint.{verb}_{lines}'))}; font-size: 0.75rem; }}")
    return "<style>" + " ".join(rules) + "</style>"


#: Hides the "Download as CSV" button of st.dataframe's toolbar. Streamlit's browser side writes that file itself,
#: every cell as it is: a learner's answer ``=HYPERLINK("http://…","Click for grade")``, shown in the dashboard's
#: learner detail, became a live formula in the instructor's spreadsheet (break-it pass brk19web). The page's own
#: CSV (toolcall.progress.write_csv) prefixes such a cell with '; it is the only CSV the dashboard hands out.
NO_TABLE_CSV_CSS = ("<style>[data-testid=stElementToolbarButton]:has(button[aria-label='Download as CSV'])"
                    " { display: none; }</style>")


def no_table_csv() -> None:
    """Hide the CSV download of every st.dataframe on this page (a style only; see NO_TABLE_CSV_CSS)."""
    st.html(NO_TABLE_CSV_CSS)


def input_hints() -> None:
    """Show Streamlit's hint under an edited text or number box in the session's language (a style only)."""
    st.html(input_hints_css())


def file_uploader(label: str, *, key: str, types: list[str], limit_mb: int, where: Any = None,
                  on_change: Callable[[], None] | None = None) -> Any:
    """``st.file_uploader`` keyed ``key`` for one file of ``types`` (extensions, no dot) of at most
    ``limit_mb`` megabytes (the server refuses a larger one before holding it), with its button and its
    line of limits in the session's language (:func:`uploader_css`). ``where`` is a container to draw
    into; ``on_change`` runs before the script when a file is added or removed.

    The extension is checked here, not by Streamlit: Streamlit's refusal of a wrong type was an English
    tooltip on a red icon (no reason at all on a phone, where nothing hovers); here it is
    ``widgets.uploader.wrong_type`` under the box in the session's language. Returns Streamlit's
    UploadedFile, or None when there is none or it has another extension."""
    where = where or st
    st.html(uploader_css(key, limit_mb, types))
    upload = where.file_uploader(label, key=key, max_upload_size=limit_mb, on_change=on_change)
    if upload is not None and not accepted_name(upload.name, types):
        where.error(wrong_type_message(upload.name, types), icon="📄")
        return None
    return upload


def accepted_name(name: str, types: Iterable[str]) -> bool:
    """True when the file ``name`` ends in ``.`` and one of ``types`` (any letter case: ``RUN.JSONL``)."""
    return any(name.lower().endswith("." + t.lower()) for t in types)


#: Longest file name quoted in a refusal (its start and end around …).
SHOWN_NAME_CHARS = 80


def shown_name(name: str) -> str:
    """An uploaded file's ``name`` to quote in Markdown: plain text, at most SHOWN_NAME_CHARS characters (its start
    and end around …)."""
    if len(name) > SHOWN_NAME_CHARS:
        name = name[: SHOWN_NAME_CHARS - 11] + "…" + name[-10:]
    return plain(name)


def wrong_type_message(name: str, types: list[str]) -> str:
    """The refusal of an upload named ``name`` (quoted as plain text, at most SHOWN_NAME_CHARS characters)
    that ends in none of ``types``, in the session's language."""
    gap = tr("widgets.uploader.type_gap")
    return tr("widgets.uploader.wrong_type", name=shown_name(name), types=gap.join(t.upper() for t in types),
              dots=gap.join("." + t for t in types))
