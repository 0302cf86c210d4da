"""Instructor Markdown that Streamlit shows otherwise than its author meant: what ``check`` reports.

Lessons, exercise prompts and scenario texts are rendered with ``st.markdown`` (trusted, not escaped), and
Streamlit reads Markdown its own way: raw HTML is escaped and shown as its tags (``<details>`` appears as
text), a pair of ``$`` is a LaTeX formula ("a refund of $12 and a fee of $3" shows "12 and a fee of" as
math), and a code fence left open turns the rest of the text into code. The text is parsed by a CommonMark
parser (markdown-it-py), as Streamlit's own parser reads it; code spans and code blocks are left alone.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.html_blocks import block_names

from toolcall.text import HIDDEN, escape_invisible, escaped_head, quoted_head

_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
#: Inline code spans (shown literally), then a ``$`` no backslash escapes.
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_DOLLAR = re.compile(r"(?<!\\)\$")
_SHOWN = 60
#: The longest text parsed. The parser is linear but slow on hostile text (about 40 µs a character for ``"[\n"``
#: repeated), and a fixture file may hold 2 MB: one such text held ``check`` for over a minute. A longer text is
#: reported as too long (no one reads 50 000 characters in an exercise prompt) and not parsed.
MAX_MARKDOWN_CHARS = 50_000
#: HTML an author means as HTML: CommonMark's block elements and the common inline ones. A placeholder such as
#: ``<amount>`` is a tag to CommonMark too, but shown as text it reads as written.
HTML_ELEMENTS = frozenset(block_names) | {"a", "abbr", "b", "br", "code", "del", "em", "font", "i", "img", "ins",
                                          "kbd", "mark", "pre", "s", "script", "small", "span", "strong", "style",
                                          "sub", "sup", "u", "video", "audio", "input", "button", "svg", "math"}
_TAGS = re.compile(r"<(!--|/?([A-Za-z][A-Za-z0-9-]*))")


def _html(raw: str, line: int) -> list[str]:
    """The message for raw HTML ``raw`` when it holds a comment or an HTML element (not a ``<placeholder>``)."""
    meant = any(m.group(1) == "!--" or (m.group(2) or "").lower() in HTML_ELEMENTS for m in _TAGS.finditer(raw))
    return [f"line {line}: raw HTML {_short(raw)} is shown as text (the app renders no HTML, and a comment is "
            "not hidden); write it in Markdown"] if meant else []


#: Fenced code blocks and inline code spans (what Markdown shows literally), then an inline link or image target.
_CODE = re.compile(r"(?ms)^ {0,3}(```|~~~).*?^ {0,3}\1|`[^`\n]*`")
_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)")


def dead_links(text: str) -> list[str]:
    """A message for each Markdown link or image target in ``text`` that is not an ``https://`` or ``http://``
    address: inline (``[tool choice](05-tool-choice.md)``, ``![](img/x.png)``) or by reference
    (``[tool choice][tc]`` with ``[tc]: 05-tool-choice.md``, which the parser resolves). The app serves no file
    beside the lessons, so each was a dead link or a broken image in class."""
    if len(text) > MAX_MARKDOWN_CHARS:
        return []  # markdown_hazards reports it as too long
    env: dict = {}
    _PARSER.parse(text, env)
    targets = _TARGET.findall(_CODE.sub("", text)) + [ref["href"] for ref in env.get("references", {}).values()]
    return [f"link to {target!r}: the app serves no files beside the lessons; link an https:// address (a page "
            "of the app: name it in the text)" for target in targets
            if not target.lower().startswith(("https://", "http://"))]


def source_problems(url: str) -> list[str]:
    """Why ``url``, a source a lesson or a scenario cites (shown under it as a link, toolcall.markdown.link), would
    not reach the page its author copied, or would show another address than it opens; empty when it would: no
    host (``https://``), white space or a character the page shows as nothing or that reorders the text
    (toolcall.text.HIDDEN, named as escapes: a zero-width space pasted with the address was percent-encoded into
    the link, which then opened an error page), a host with a character outside ASCII (``plаtform.openai.com``
    with a Cyrillic а is another site that reads the same: write an international name in its ``xn--`` form).
    Only the address is read: nothing is fetched."""
    found: list[str] = []
    odd = [c for c in url if c.isspace() or c in HIDDEN]
    if odd:
        listed = ", ".join(escape_invisible(c) if c in HIDDEN else repr(c) for c in odd[:_HIDDEN_LISTED])
        more = f" and {len(odd) - _HIDDEN_LISTED} more" if len(odd) > _HIDDEN_LISTED else ""
        found.append(f"holds {listed}{more}: white space or a character the page shows as nothing (pasted with the "
                     "address?); the link would open another address: delete it")
    try:
        host = urlsplit(url).hostname or ""
    except ValueError as exc:  # an unclosed [ of an IPv6 host, a port that is no number
        return [*found, f"is no web address: {exc}"]
    if not host:
        found.append("names no host: write the whole address, https://host/path")
    foreign = [c for c in host if not c.isascii() and c not in HIDDEN]
    if foreign:
        shown = ", ".join(f"{c} (U+{ord(c):04X})" for c in foreign[:_HIDDEN_LISTED])
        found.append(f"its host '{escaped_head(host, _SHOWN, escape_invisible)}' "
                     f"holds {shown}, outside ASCII: a look-alike of a Latin "
                     "letter opens another site that reads the same; write the host in ASCII (an international name "
                     "in its xn-- form)")
    return found


def quoted_source(url: str) -> str:
    """``url`` in quotes for a message: its hidden characters as escapes, at most _SHOWN characters as drawn
    (escaped_head: escaped and then cut, an escape was cut in half)."""
    return f"'{escaped_head(url, _SHOWN, escape_invisible)}'"


def _short(text: str) -> str:
    text = " ".join(text.split())
    # quoted cut as drawn (quoted_head): repr of its first 60 characters drew 60 tag characters as 600
    return quoted_head(text, _SHOWN)


def _fence_closed(token, lines: list[str]) -> bool:
    """Whether the fenced block ``token`` has its closing fence (an open one runs to the end of the text)."""
    start, end = token.map
    if end - 1 <= start or end > len(lines):
        return False
    last = lines[end - 1].strip()
    return len(last) >= len(token.markup) and set(last) == {token.markup[0]}


#: What an emoji is made of that toolcall.text.HIDDEN lists: the zero-width joiner (👩‍💻), variation selectors (❤️)
#: and the tag characters of a subdivision flag (the black flag U+1F3F4, tags, then the cancel tag U+E007F).
_EMOJI_PARTS = frozenset("\u200d") | frozenset(chr(c) for c in range(0xFE00, 0xFE10))
_FLAG_TAGS = re.compile("\U0001F3F4[\U000E0020-\U000E007F]+")
#: Characters of a line a message quotes as escapes, at most.
_HIDDEN_LISTED = 3


def hidden_text(text: str) -> str | None:
    """The problem of a one-value text (a label, an id, an item's name) holding a character the page shows as nothing
    or that reorders the text around it (as :func:`hidden_hazards`, without a line: the first few as escapes), or
    None."""
    hidden = [c for c in _FLAG_TAGS.sub("", text) if c in HIDDEN and c not in _EMOJI_PARTS and c != "\r"]
    if not hidden:
        return None
    listed = ", ".join(escape_invisible(c) for c in hidden[:_HIDDEN_LISTED])
    more = f" and {len(hidden) - _HIDDEN_LISTED} more" if len(hidden) > _HIDDEN_LISTED else ""
    return (f"holds {listed}{more}: a character the page shows as nothing or that reorders the text around it "
            "(pasted from a document?); delete it")


def hidden_hazards(text: str, first_line: int = 1) -> list[str]:
    """One message per line of ``text`` that holds a character a page draws as nothing or that reorders the text
    (toolcall.text.HIDDEN: a zero-width space, a soft hyphen, a byte-order mark, a direction override, tag
    characters, a control character), naming the first few as escapes. A lesson pasted from a document brings
    them along, and the app renders instructor Markdown as written: "A cust\u202eomer writes" shows reversed, a
    hidden instruction in tag characters reaches the students unseen. Emoji joiners, variation selectors and a
    subdivision flag's tags are part of what they draw, so they are not named."""
    found: list[str] = []
    for n, line in enumerate(_FLAG_TAGS.sub("", text).split("\n")):
        hidden = [c for c in line if c in HIDDEN and c not in _EMOJI_PARTS and c != "\r"]
        if hidden:
            listed = ", ".join(escape_invisible(c) for c in hidden[:_HIDDEN_LISTED])
            more = f" and {len(hidden) - _HIDDEN_LISTED} more" if len(hidden) > _HIDDEN_LISTED else ""
            found.append(f"line {first_line + n}: {listed}{more}: a character the page shows as nothing or that "
                         "reorders the text around it (pasted from a document?); delete it")
    return found


def _heading(tokens: list, i: int, line: int, outranks: tuple[int, str]) -> list[str]:
    """The message for the heading that opens at ``tokens[i]`` when its level is ``outranks[0]`` or higher (a smaller
    number): it is drawn as large as ``outranks[1]``, the heading the text sits under, or larger."""
    level, under = outranks
    depth = int(tokens[i].tag[1:])
    if depth > level:
        return []
    title = tokens[i + 1].content if i + 1 < len(tokens) and tokens[i + 1].type == "inline" else ""
    fix = f"write {'#' * (level + 1)} (or more #) before it" if level < 6 else "write it as **bold** text instead"
    return [f"line {line}: the heading {_short(title)} ({'#' * depth}) is drawn as large as {under} or larger, so "
            f"the text reads as several; {fix}"]


def markdown_hazards(text: str, first_line: int = 1, hidden: bool = True,
                     outranks: tuple[int, str] | None = None) -> list[str]:
    """One message per place in ``text`` that Streamlit's ``st.markdown`` renders otherwise than written:
    raw HTML meant as HTML (shown as its tags; a comment is shown too), an unescaped pair of ``$`` outside
    code (a LaTeX formula), a code fence never closed (the rest of the text becomes code). Each names the
    line (``first_line`` = the text's first: a lesson's body starts after its front matter) and what is there.
    Also a character the page shows as nothing or that reorders the text around it (:func:`hidden_hazards`), unless
    ``hidden`` is False (a fixture's texts: toolcall.fixtures.hidden_text_problems names them at their JSON path).
    With ``outranks`` = (level, what), also each heading of that level or a larger one (``##`` for 2): the text is
    shown under a heading of that level (a lesson under its title, ``st.header``; an exercise's texts under its
    ``####`` title), and a heading as large reads as the start of another lesson or exercise. Level 6 names every
    heading (a scenario's or the walkthrough's short texts sit between bold labels: bold text is the fix there).
    Empty for plain Markdown. A text over MAX_MARKDOWN_CHARS characters is not parsed: its one message says so."""
    if len(text) > MAX_MARKDOWN_CHARS:
        return [f"the text is {len(text):,} characters; a text shown as Markdown may have at most "
                f"{MAX_MARKDOWN_CHARS:,} (it was not checked further)"]
    lines = text.splitlines()
    found: list[str] = hidden_hazards(text, first_line) if hidden else []
    tokens = _PARSER.parse(text)
    for i, token in enumerate(tokens):
        line = (token.map[0] if token.map else 0) + first_line
        if token.type == "heading_open" and outranks:
            found += _heading(tokens, i, line, outranks)
        elif token.type == "html_block":
            found += _html(token.content, line)
        elif token.type == "fence" and not _fence_closed(token, lines):
            found.append(f"line {line}: the code block opened with {token.markup} is never closed, so the "
                         "rest of the text shows as code")
        elif token.type == "inline":
            found += [m for child in token.children or () if child.type == "html_inline"
                      for m in _html(child.content, line)]
            if len(_DOLLAR.findall(_CODE_SPAN.sub("", token.content))) >= 2:
                found.append(f"line {line}: {_short(token.content)} has two $ signs, and the text between them "
                             "is shown as a LaTeX formula; write \\$ for a dollar sign")
    return found


def structure(text: str) -> dict[str, list]:
    """The parts of ``text`` a translation keeps: its code blocks (by their language, ``json``, or ``""``), its
    headings (by level, ``h2``) and its tables (by their number of columns). A lesson's languages are compared
    on it: a translation that drops a code block or a table passed check, and half the class read less.
    A text over MAX_MARKDOWN_CHARS characters is not parsed (its shape is empty; markdown_hazards reports it)."""
    tokens = _PARSER.parse(text) if len(text) <= MAX_MARKDOWN_CHARS else []
    columns, counting, shape = 0, False, {"code blocks": [], "headings": [], "tables": []}
    for token in tokens:
        if token.type in ("fence", "code_block"):
            shape["code blocks"].append(token.info.strip().split(" ")[0] if token.type == "fence" else "")
        elif token.type == "heading_open":
            shape["headings"].append(token.tag)
        elif token.type == "table_open":
            columns, counting = 0, True
        elif token.type == "th_open" and counting:
            columns += 1
        elif token.type == "thead_close" and counting:
            shape["tables"].append(columns)
            counting = False
    return shape
