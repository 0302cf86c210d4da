"""Show untrusted text literally inside Markdown (Streamlit's st.markdown, st.error & co).

Pure functions, no streamlit: tests/unit/test_markdown.py checks with hypothesis that any text
renders as itself and never as a link, image, icon, directive, LaTeX or HTML.
"""

from __future__ import annotations

import re

_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>:$~&=\"'")
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


def boldable(text: str) -> str:
    """``text`` that still closes ``**…**`` when it starts or ends with a space (a key such as
    "a "): CommonMark will not close emphasis next to whitespace, so a word joiner stands guard."""
    return _WORD_JOINER + text + _WORD_JOINER if text[:1].isspace() or text[-1:].isspace() else text
