"""Show untrusted text literally inside Markdown (Streamlit's st.markdown, st.error & co).

Pure functions, no streamlit: tests/unit/test_markdown.py checks with hypothesis that any text
renders as itself and never as a link, image, icon, directive, LaTeX or HTML.
"""

from __future__ import annotations

import re

from toolcall.text import HIDDEN, escape_invisible

_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>:$~&=\"'")
_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Bidirectional controls would reverse the app's own sentence around them, and invisible
# characters hide a difference: all are shown as their escapes (the set: toolcall/text.py).
_CONTROL.update({ch: escape_invisible(ch) for ch in HIDDEN})
_CONTROL_TABLE = str.maketrans(_CONTROL)  # one pass, however many characters the set holds
_WORD_JOINER = "\u2060"
_AUTOLINK_WWW = re.compile(r"(?i)(www)\.")
_MATERIAL_ICON = re.compile(r"(?i):(?=material/)")


def plain(text: str) -> str:
    """Make user text show literally inside Markdown (st.markdown, st.error & co).

    CommonMark lets any ASCII punctuation be backslash-escaped, which defuses emphasis,
    links, images, HTML, Streamlit's ``:color[...]`` directives and ``$`` math. Newlines, tabs,
    bidirectional controls and invisible characters are shown as escapes (``\\n``, ``\\t``,
    ``\\u202e``, ``\\u200b``) so text stays on its line and in its order, and an invisible word
    joiner breaks what Streamlit converts before Markdown sees the escapes: GitHub-style autolinks
    (``www.`` in any case, ``http://``, ``a@b.c``) and ``:material/icon:`` names.
    """
    text = text.translate(_CONTROL_TABLE)
    text = text.replace("://", ":" + _WORD_JOINER + "//")
    text = _AUTOLINK_WWW.sub(lambda m: m.group(1) + _WORD_JOINER + ".", text)
    text = _MATERIAL_ICON.sub(":" + _WORD_JOINER, text)
    text = text.replace("@", "@" + _WORD_JOINER)
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def boldable(text: str) -> str:
    """``text`` that still closes ``**…**`` when it starts or ends with a space (a key such as
    "a "): CommonMark will not close emphasis next to whitespace, so a word joiner stands guard."""
    return _WORD_JOINER + text + _WORD_JOINER if text[:1].isspace() or text[-1:].isspace() else text



def code(text: str) -> str:
    """``text`` as a Markdown code span (`` `…` ``) that shows it literally: no escapes inside.

    Backslash escapes do not work inside a code span (CommonMark 0.31, section 6.1: the backslash shows),
    so :func:`plain` text must never be put between backticks. Instead the fence is one backtick longer
    than the longest run of backticks in ``text``, padded with a space when ``text`` begins or ends with a
    backtick or with spaces on both sides (the parser strips one space from each side); newlines, tabs,
    bidirectional controls and invisible characters show as their escapes, as with :func:`plain`.
    Streamlit's own additions (``:material/…:``, ``:color[…]``, ``$…$``, autolinks) apply to text, not
    to code spans. ``""`` gives a span holding one space (an empty pair of backticks would show as-is).
    """
    text = text.translate(_CONTROL_TABLE) or " "
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip(" ")) \
        else ""
    return fence + pad + text + pad + fence


def table(rows: list[dict]) -> str:
    """A GitHub-flavoured Markdown table of ``rows`` (dicts with the same keys, in order: the header),
    every header and cell escaped with :func:`plain` (a ``|`` in a cell stays a character, ``\\|``).

    Drawn with ``st.markdown`` where a small table needs no sorting or scrolling: unlike
    ``st.dataframe`` it needs no pandas / pyarrow (their import is ≈ 1 s of a cold first page, and the
    conversion ≈ 1-2 ms per table per rerun; bench/README.md, section H). Numbers are right-aligned.
    An empty ``rows`` gives "" (no table). ``tests/app/markdown_tables.py`` reads one back.
    """
    if not rows:
        return ""
    heads = list(rows[0])
    align = ["---:" if isinstance(rows[0][h], (int, float)) and not isinstance(rows[0][h], bool) else "---"
             for h in heads]
    lines = ["| " + " | ".join(plain(str(h)) for h in heads) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(plain(str(row[h])) for h in heads) + " |" for row in rows]
    return "\n".join(lines)
