"""Streamlit-side helpers shared by the pages: language, cached fixture loading, safe rendering.

Everything a student types is shown with st.code / st.text / st.dataframe, never as
Markdown or HTML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from toolcall import FIXTURES_DIR
from toolcall.fixtures import FixtureError, load_orders, load_outputs, load_tool
from toolcall.pairing import load_examples
from toolcall.transcripts import load_walkthrough
from toolcall.i18n import normalize_lang, t
from toolcall.validation import display_pointer

LANG_KEY = "app_lang"



def run_inside_app() -> None:
    """Make sure this page runs under app.py's navigation; call it first on every page.

    Streamlit treats an app with a pages/ folder as a legacy multipage app until app.py
    calls st.navigation, and AppTest resets that flag before every run. In that mode a
    deep link such as /playground (on a fresh server, or after AppTest.switch_page) runs the
    page alone: no sidebar, no language switch, every file in pages/ listed as a page.
    Switching the legacy mode off and rerunning runs app.py, which then runs this page.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


#: How each language is named in the sidebar switch (and so in the URL: ?app_lang=中文).
LANG_LABELS = {"en": "English", "zh": "中文"}


def lang() -> str:
    """The session's language (``en`` or ``zh``): the sidebar switch once it has a value;
    before that (the first run of a session), the one in the URL, else the browser's."""
    value = st.session_state.get(LANG_KEY)
    if value in LANG_LABELS:
        return value
    try:
        by_label = {label: code for code, label in LANG_LABELS.items()}
        return by_label.get(st.query_params.get(LANG_KEY, ""), normalize_lang(st.context.locale))
    except Exception:  # outside a script run (AppTest calls format_func there): no context
        return "en"


#: Widgets whose options are shown translated (format_func) under one key for both languages.
RELABELLED_KEYS = ("playground_preset", "playground_format", "pairing_format", "walkthrough_variant",
                   "walkthrough_step", "eval_drill_version", "eval_format")


def relabel_after_language_switch() -> None:
    """on_change of the language switch: hand every translated-option widget its own value again.

    Streamlit keeps such a widget's identity when its labels change, so the browser would keep
    showing, and send back, the old language's label ("Reference schema" where the options are
    now Chinese), which matches no option. A value set through st.session_state is sent to the
    browser with the next render, in the new language.
    """
    state = st.session_state
    keys = list(RELABELLED_KEYS) + [k for k in state if isinstance(k, str) and k.startswith("exercises_")
                                    and k.endswith("_answer")]  # single-choice radios (and text answers)
    for k in keys:
        if k in state:
            state[k] = state[k]


def tr(key: str, **params: Any) -> str:
    """Translate ``key`` into the session's language."""
    return t(key, lang(), **params)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


@st.cache_data(show_spinner=False, max_entries=8)
def _load(kind: str, path: str, mtime: float):
    loader = {"tool": load_tool, "outputs": load_outputs, "orders": load_orders,
              "walkthrough": load_walkthrough, "pairing": load_examples}[kind]
    return loader(Path(path))


def load(kind: str, relative: str):
    """Load a fixture (cached until the file changes). On a FixtureError, show every
    problem with its file and JSON path, then stop the page."""
    path = FIXTURES_DIR / relative
    try:
        return _load(kind, str(path), _mtime(path))
    except FixtureError as exc:
        st.error(tr("app.fixture_error"))
        st.code("\n".join(map(str, exc.problems)), language=None)
        st.stop()


def show_json(value: Any) -> None:
    """Pretty JSON in a copyable code block (never rendered as Markdown)."""
    st.code(json.dumps(value, ensure_ascii=False, indent=2), language="json", wrap_lines=True)


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>:$~&=\"'")
#: Characters of a raw output shown on a card; the rest is summarised.
RAW_DISPLAY_LIMIT = 3000


_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Bidirectional controls (U+202A-U+202E, U+2066-U+2069) would reverse the app's own sentence
# around them; they are shown as their escapes instead.
_CONTROL.update({chr(c): f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))})
_WORD_JOINER = "\u2060"
_AUTOLINK_WWW = re.compile(r"(?i)(www)\.")
_MATERIAL_ICON = re.compile(r"(?i):(?=material/)")


def plain(text: str) -> str:
    """Make user text show literally inside Markdown (st.markdown, st.error & co).

    CommonMark lets any ASCII punctuation be backslash-escaped, which defuses emphasis,
    links, images, HTML, Streamlit's ``:color[...]`` directives and ``$`` math. Newlines, tabs
    and bidirectional controls are shown as escapes (``\\n``, ``\\t``, ``\\u202e``) so text stays
    on its line and in its order, and an invisible word joiner breaks what Streamlit converts
    before Markdown sees the escapes: GitHub-style autolinks (``www.`` in any case, ``http://``,
    ``a@b.c``) and ``:material/icon:`` names.
    """
    for ch, shown in _CONTROL.items():
        text = text.replace(ch, shown)
    text = text.replace("://", ":" + _WORD_JOINER + "//")
    text = _AUTOLINK_WWW.sub(lambda m: m.group(1) + _WORD_JOINER + ".", text)
    text = _MATERIAL_ICON.sub(":" + _WORD_JOINER, text)
    text = text.replace("@", "@" + _WORD_JOINER)
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def show_raw(raw: str) -> None:
    """A raw model output in a code block, cut at RAW_DISPLAY_LIMIT characters."""
    if len(raw) > RAW_DISPLAY_LIMIT:
        st.code(raw[:RAW_DISPLAY_LIMIT], language=None, wrap_lines=True)
        st.caption(tr("common.raw_cut", shown=RAW_DISPLAY_LIMIT, total=len(raw)))
    else:
        st.code(raw if raw else " ", language="json", wrap_lines=True)


def badge(verdict: str) -> str:
    """A coloured badge for ``accepted`` / ``rejected`` (our own text only)."""
    colour = "green" if verdict == "accepted" else "red"
    return f":{colour}-badge[{tr('playground.' + verdict)}]"


def show_card(card, key: str, label: str | None = None, canned=None) -> None:
    """Render one playground Card: label and verdict, raw text, problems, the tool_result.

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
        tail.append(":small[" + tr("playground.send_back") + "]")  # looks like the caption below
        st.markdown("\n".join(tail))
        show_json(card.tool_result)
        st.caption(tr("playground.content_as_read"))
        st.code(card.tool_result["content"], language=None, wrap_lines=True)


def _boldable(text: str) -> str:
    """``text`` that still closes ``**…**`` when it starts or ends with a space (a key such as
    "a "): CommonMark will not close emphasis next to whitespace, so a word joiner stands guard."""
    return _WORD_JOINER + text + _WORD_JOINER if text[:1].isspace() or text[-1:].isspace() else text


def _error_lines(errors, depth: int = 0) -> list[str]:
    """Markdown bullets for FieldErrors; every piece that may come from user input is escaped."""
    lines = []
    for err in errors:
        indent = "    " * depth
        lines.append(indent + "- " + tr("playground.error_item", pointer=_boldable(plain(display_pointer(err.pointer, lang()))),
                                         keyword=plain(err.keyword), expected=plain(err.expected),
                                         received=plain(err.received)))
        lines += [indent + "    - 💡 " + plain(hint) for hint in err.hints]
        lines += _error_lines(err.reasons, depth + 1)
    return lines
