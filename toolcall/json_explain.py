"""Explain a ``json.JSONDecodeError`` in plain words, pointing at the place a person must fix.

Python's decoder names the place where it gave up, which is often not the place to fix: a
missing comma after ``"is_error": true`` on line 4 is reported at the quote that opens the
next key on line 5. :func:`explain` turns the error into a :class:`Explained`: a kind (the key
of its wording under ``json_error.explain.``), the 1-based line and column to fix, a short
excerpt of the text that ends at that place, and the parser's own message and place. What a
person reads names one place only, the place to fix, with the parser's message (not its place: it
gave up one column past a cut-off text, or at the key after a missing comma) as a detail.
Every caller that reports JSON that does not parse (the playground, the pairing
checker, exercises, the harness, tool definitions, schemas) shows this one wording through
``parsing.localized_detail``.

The decoder's messages are the ones in CPython's ``json`` package (``json/decoder.py``,
``json/scanner.py``, ``Modules/_json.c``):
https://github.com/python/cpython/blob/3.11/Lib/json/decoder.py
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

#: How many characters of the line that ends at the place to fix are quoted back.
EXCERPT_CHARS = 40

#: The decoder's message (the C scanner's wording, and the pure-Python one where it differs,
#: without its ``{0!r}`` part) -> the kind it is explained as, before the place is looked at.
DECODER_KINDS = {
    "Expecting value": "expecting_value",
    "Expecting property name enclosed in double quotes": "expecting_property_name",
    "Expecting ':' delimiter": "expecting_colon",
    "Expecting ',' delimiter": "expecting_comma",
    "Unterminated string starting at": "unterminated_string",
    "Invalid control character at": "invalid_control_character",
    "Invalid control character": "invalid_control_character",
    "Invalid \\escape": "invalid_escape",
    "Invalid \\uXXXX escape": "invalid_unicode_escape",
    "Extra data": "extra_data",
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": "bom",
}

#: Every kind :func:`explain` can return; each has a wording in en and zh under ``json_error.explain.``.
KINDS = ("expecting_property_name", "expecting_colon", "expecting_comma", "unterminated_string",
         "invalid_control_character", "invalid_escape", "invalid_unicode_escape", "extra_data", "bom",
         "ends_early", "trailing_comma", "single_quotes", "not_a_value", "unknown")


@dataclass(frozen=True)
class Explained:
    """Where to fix a JSON text and why. ``line``/``column`` are 1-based, in characters, and
    name the place to fix (for a missing comma: the last character of the value before it);
    ``excerpt`` is at most EXCERPT_CHARS characters of that line ending there (starting there for
    an unterminated string; blank-trimmed, ``…`` when the line is blank there); ``raw``,
    ``raw_line``, ``raw_column`` are the parser's message and place."""

    kind: str
    line: int
    column: int
    excerpt: str
    raw: str
    raw_line: int
    raw_column: int

    def params(self) -> dict[str, object]:
        """The parameters of the ``json_error.explain.<kind>`` wording."""
        return {"line": self.line, "column": self.column, "excerpt": self.excerpt, "raw": words_without_place(self.raw),
                "raw_line": self.raw_line, "raw_column": self.raw_column}


def words_without_place(msg: str) -> str:
    """A decoder message as shown without its place: Python's json writes two of them to be followed by one
    (``Unterminated string starting at``, ``Invalid control character at``); the trailing ``at`` goes with it."""
    return re.sub(r"(?: starting)? at$", "", msg)


def message_kind(msg: str) -> str:
    """The kind of a decoder message (``Invalid \\escape: 'x'`` is ``invalid_escape``);
    ``unknown`` for a message this module does not know."""
    if msg in DECODER_KINDS:
        return DECODER_KINDS[msg]
    for known, kind in DECODER_KINDS.items():
        if msg.startswith(known):
            return kind
    return "unknown"


def place(text: str, pos: int) -> tuple[int, int]:
    """1-based (line, column) of the 0-based offset ``pos`` in ``text``, counted as json does
    (lines split at ``\\n`` only)."""
    pos = max(0, min(pos, len(text)))
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def excerpt_at(text: str, pos: int) -> str:
    """At most EXCERPT_CHARS characters of the line holding offset ``pos``, ending with it."""
    start = text.rfind("\n", 0, pos) + 1
    shown = text[max(start, pos + 1 - EXCERPT_CHARS):pos + 1].strip()
    return shown or "…"


def _previous(text: str, pos: int) -> int:
    """The offset of the last non-blank character before ``pos`` (-1 when there is none)."""
    i = pos - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    return i


def explain(text: str, exc: json.JSONDecodeError) -> Explained:
    """Why ``text`` does not parse, as ``exc`` (raised by ``json.loads(text)``) says, and where to
    fix it. Linear in the text's length; reads only ``text``."""
    kind = message_kind(exc.msg)
    pos = min(exc.pos, len(text))
    fix = pos
    if kind != "bom" and not text[pos:].strip():
        kind = "ends_early"                                   # a cut-off text: nothing after the break
        fix = max(_previous(text, len(text)), 0)
    elif kind in ("expecting_comma", "expecting_colon"):
        fix = max(_previous(text, pos), 0)                    # after the last value (or key) before the break
    elif kind in ("expecting_value", "expecting_property_name"):
        before = _previous(text, pos)
        if before >= 0 and text[before] == "," and text[pos] in "]}":
            kind, fix = "trailing_comma", before
        elif text[pos] == "'":
            kind = "single_quotes"
        elif kind == "expecting_value":
            kind = "not_a_value"
    line, column = place(text, fix)
    if kind == "unterminated_string":  # the string runs to the end of the text: show where it starts
        shown = text[fix:fix + EXCERPT_CHARS].split("\n")[0].strip() or "…"
    else:
        shown = excerpt_at(text, fix)
    return Explained(kind, line, column, shown, exc.msg, exc.lineno, exc.colno)
