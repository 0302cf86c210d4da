"""Show untrusted text literally inside Markdown (Streamlit's st.markdown, st.error & co).

Pure functions, no streamlit: tests/unit/test_markdown.py checks with hypothesis that any text
renders as itself and never as a link, image, icon, directive, LaTeX or HTML.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote, urlsplit

from toolcall.text import HIDDEN, escape_invisible, escaped_head

_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>:$~&=\"'")
_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Bidirectional controls would reverse the app's own sentence around them, and invisible
# characters hide a difference: all are shown as their escapes (the set: toolcall/text.py).
_CONTROL.update({ch: escape_invisible(ch) for ch in HIDDEN})
_CONTROL_TABLE = str.maketrans(_CONTROL)  # one pass, however many characters the set holds
_WORD_JOINER = "\u2060"
_AUTOLINK_WWW = re.compile(r"(?i)(www)\.")
_MATERIAL_ICON = re.compile(r"(?i):(?=material/)")


def _defuse(text: str) -> str:
    """Controls and invisible characters as their escapes; a word joiner inside what Streamlit turns into
    a link before Markdown sees any escape (``://``, ``www.``, ``a@b``)."""
    text = text.translate(_CONTROL_TABLE)
    text = text.replace("://", ":" + _WORD_JOINER + "//")
    text = _AUTOLINK_WWW.sub(lambda m: m.group(1) + _WORD_JOINER + ".", text)
    return text.replace("@", "@" + _WORD_JOINER)


def plain(text: str) -> str:
    """Make user text show literally inside Markdown (st.markdown, st.error & co).

    CommonMark lets any ASCII punctuation be backslash-escaped, which defuses emphasis,
    links, images, HTML, Streamlit's ``:color[...]`` directives and ``$`` math. Newlines, tabs,
    bidirectional controls and invisible characters are shown as escapes (``\\n``, ``\\t``,
    ``\\u202e``, ``\\u200b``) so text stays on its line and in its order, and an invisible word
    joiner breaks what Streamlit converts before Markdown sees the escapes: GitHub-style autolinks
    (``www.`` in any case, ``http://``, ``a@b.c``) and ``:material/icon:`` names.
    """
    text = _MATERIAL_ICON.sub(":" + _WORD_JOINER, _defuse(text))
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


#: ASCII punctuation: what a backslash escapes in CommonMark (a backslash before anything else is a backslash).
_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
_ORDERED_START = re.compile(r"\d{1,9}[.)](?=\s|$)")
#: What makes a line a heading, quote, bullet or rule: its first character is escaped ("-5 points" needs nothing).
_BLOCK_START = re.compile(r"#{1,6}(?:\s|$)|>|[-+](?:\s|$)|-(?:\s*-){2,}\s*$")


def label_head(text: str, limit: int) -> str:
    """:func:`label` of ``text`` cut at ``limit`` characters as drawn (escaped_head: a control or invisible character
    counts as its escape, 6 or 12 characters), then "…". The pass^k lab cut a sentence at 200 characters and then
    escaped it: 200 characters past U+FFFF (tag characters) were a 2 390-character label, 30 of them 72 KB on every
    rerun (break-it pass brk17new). Markdown's backslashes are not drawn and not counted: at most one per
    character. ``limit`` must be at least 12."""
    return label(escaped_head(text, limit, lambda piece: piece.translate(_CONTROL_TABLE)))


def label(text: str) -> str:
    """Make text show literally as a widget label or option (st.checkbox, st.radio …), with a backslash
    only where Markdown would otherwise change the text.

    A label is read aloud from its Markdown source (the aria-label), so :func:`plain`'s escape before
    every punctuation mark is read out: "cancel backslash underscore order, 19 backslash dot 99".
    Here ``_`` inside a word (``cancel_order``), ``.``, ``(``, ``"``, ``-`` and the like stay bare;
    what is escaped: a backslash before punctuation, ``` ` ``` ``*`` ``~`` ``$`` ``[`` (code, emphasis,
    strikethrough, LaTeX, links), ``_`` beside a space or punctuation, ``<`` opening a tag or autolink,
    ``&`` opening an entity, ``:`` before a letter (``:red[…]``, ``:material/…:``, ``:smile:``) and a
    heading, quote, list or rule marker at the start. Controls, invisible characters and autolinks are
    handled as in :func:`plain`. tests/unit/test_markdown.py checks with a CommonMark parser that any
    text renders as itself.
    """
    text = _defuse(text)
    out = []
    for i, ch in enumerate(text):
        before, after = text[i - 1] if i else " ", text[i + 1] if i + 1 < len(text) else " "
        if (
            ch in "`*~$["
            or (ch == "\\" and after in _ASCII_PUNCT)
            or (ch == "_" and not (before.isalnum() and after.isalnum()))
            or (ch == "<" and (after.isalpha() or after in "/!?"))
            or (ch == "&" and _ENTITY.match(text, i))
            or (ch == ":" and after.isascii() and after.isalpha())
            or (i == 0 and _BLOCK_START.match(text))
        ):
            out.append("\\" + ch)
        else:
            out.append(ch)
    ordered = _ORDERED_START.match(text)
    if ordered:  # "1. x", "2) x" would start a numbered list
        out[ordered.end() - 1] = "\\" + text[ordered.end() - 1]
    return "".join(out)


_CODE_SPAN = re.compile(r"(?<![`\\])(?:\\\\)*(?P<code>(`+)(?!`).+?(?<!`)\2(?!`))", re.S)  # unescaped `…`
_BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)([\[\]])")  # a bracket after an even run of backslashes (none escaped)


def link_text(text: str) -> str:
    """``text`` (Markdown, as an instructor writes a lesson title) to put between the brackets of a link,
    ``[…](#anchor)``, so that the link shows what ``text`` shows on its own: a bracket that is not escaped
    already is, and a final backslash is doubled. Without this a title ``Arrays]`` or ``C:\\`` left the
    link's Markdown as raw text, and ``Step [1`` made only ``1`` the link (break-it pass brk10web2)."""
    spans = [m.span("code") for m in _CODE_SPAN.finditer(text)]  # inside code a backslash shows: kept bare
    cuts = [0, *[i for span in spans for i in span], len(text)]
    text = "".join(piece if n % 2 else _BRACKET.sub(lambda m: m[1] + "\\" + m[2], piece)
                   for n, piece in enumerate(text[a:b] for a, b in zip(cuts, cuts[1:])))
    trailing = len(text) - len(text.rstrip("\\"))
    return text + "\\" if trailing % 2 else text


def unwrap_code(text: str) -> str:
    """``text`` (Markdown an instructor wrote: an option, an item) with each code span shown as the page shows
    it, its content without the backticks (one space stripped from each side when both sides have one and the
    content is not all spaces, as CommonMark does), for a sentence that quotes it as plain text (an exercise's
    feedback, passed through :func:`plain`): "Not sorted yet: `{…}`" showed its backticks."""
    def inner(m: re.Match) -> str:
        body = m["code"][len(m[2]):-len(m[2])]
        return body[1:-1] if len(body) > 2 and body[0] == body[-1] == " " and body.strip(" ") else body
    return _CODE_SPAN.sub(lambda m: m[0][:m.start("code") - m.start()] + inner(m), text)


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


#: Most characters of a link's text (link); a longer last part of the address ends in "…".
LINK_CHARS = 48


def link(url: str) -> str:
    """A Markdown link to an ``http(s)`` address whose text is short: the host and the last part of the
    address (its ``#fragment``, else its last path segment that is not a number), e.g.
    ``[platform.claude.com › strict-tool-use](…)``.
    A full address as text broke mid-word in a narrow cell (the strict panel's Source column). The text is
    escaped (:func:`plain`); the target has spaces, parentheses, angle brackets and pipes percent-encoded, so
    it cannot end the link or a table cell. Anything else (no scheme, other schemes) comes back as
    :func:`plain` text, never as a link, and so does an address urlsplit refuses (``https://[docs]/x``, a host in
    brackets that is no IPv6 address: it raised ValueError, and a lesson citing one passed check and failed the
    lessons page in class). Raises nothing for any str."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return plain(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return plain(url)
    host = parts.hostname.removeprefix("www.")
    last = parts.fragment or next((seg for seg in reversed(parts.path.split("/")) if seg and not seg.isdigit()), "")
    text = f"{host} › {unquote(last)}" if last else host
    if len(text) > LINK_CHARS:
        text = text[:LINK_CHARS - 1] + "…"
    target = quote(url.strip(), safe=":/?#[]@!$&'*+,;=%~")
    return f"[{plain(text)}]({target})"


def table(rows: list[dict], markdown: tuple[str, ...] = ()) -> str:
    """A GitHub-flavoured Markdown table of ``rows`` (dicts with the same keys, in order: the header),
    every header and cell escaped with :func:`plain` (a ``|`` in a cell stays a character, ``\\|``).

    Drawn with ``st.markdown`` where a small table needs no sorting or scrolling: unlike
    ``st.dataframe`` it needs no pandas / pyarrow (their import is ≈ 1 s of a cold first page, and the
    conversion ≈ 1-2 ms per table per rerun; bench/README.md, section H). Numbers are right-aligned.
    An empty ``rows`` gives "" (no table). ``tests/app/markdown_tables.py`` reads one back.
    Cells of the columns named in ``markdown`` are already Markdown (:func:`link`) and go in as they are:
    only for text built here, on one line with no bare ``|``.
    """
    if not rows:
        return ""
    heads = list(rows[0])
    align = ["---:" if isinstance(rows[0][h], (int, float)) and not isinstance(rows[0][h], bool) else "---"
             for h in heads]
    lines = ["| " + " | ".join(plain(str(h)) for h in heads) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(row[h]) if h in markdown else plain(str(row[h])) for h in heads) + " |"
              for row in rows]
    return "\n".join(lines)
