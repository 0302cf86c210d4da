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
import unicodedata
from dataclasses import dataclass

from toolcall.text import HIDDEN

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
         "ends_early", "trailing_comma", "single_quotes", "not_a_value", "lookalike_punctuation", "odd_space",
         "hidden_character", "unknown")

#: What JSON reads as white space (RFC 8259, section 2); Python's str.strip() also strips U+3000, U+00A0 and more.
JSON_SPACE = " \t\n\r"

#: Punctuation an input method in Chinese or full-width mode types (and a word processor's curly quotes), by the
#: ASCII character JSON needs in its place. Where the parser stops at one, the decoder's own reason named the
#: ASCII one as missing: '{"order_id"：1}' read "A colon is missing after this key", "，" "A comma is missing",
#: '{“order_id”: 1}' "a key is text in double quotes" (issue 13, look-alikes; break-it pass brk13text).
LOOKALIKE_PUNCTUATION = {
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\uff02\u2018\u2019\u201a\u201b\u2032\uff07\u300c\u300d", '"'),
    "\uff1a": ":", "\uff0c": ",", "\u3001": ",", "\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]",
    "\u3010": "[", "\u3011": "]", "\uff0d": "-", "\uff0e": ".",
    **{chr(0xFF10 + d): str(d) for d in range(10)},
}


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
    #: The character the parser stopped at, for the three kinds that name it (``lookalike_punctuation``,
    #: ``odd_space``, ``hidden_character``); empty otherwise.
    found: str = ""

    def params(self) -> dict[str, object]:
        """The parameters of the ``json_error.explain.<kind>`` wording: with ``char`` (the character, for
        punctuation), ``code`` (``U+FF1A``) and ``instead`` (the ASCII character JSON needs) when ``found``."""
        params: dict[str, object] = {"line": self.line, "column": self.column, "excerpt": self.excerpt,
                                     "raw": words_without_place(self.raw), "raw_line": self.raw_line,
                                     "raw_column": self.raw_column}
        if self.found:
            params.update(char=self.found, code=f"U+{ord(self.found):04X}",
                          instead=LOOKALIKE_PUNCTUATION.get(self.found, " "))
        return params


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
    found = stray_character(text[pos]) if kind != "bom" and pos < len(text) else None
    if found == "lookalike_punctuation" and kind == "extra_data":
        found = None  # after a whole value ('{"a": 1}，'): typing the ASCII one leaves the same extra text
    if found is not None:
        kind = found                                          # the character is the reason: name it, not a gap
    elif kind != "bom" and not text[pos:].strip(JSON_SPACE):
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
    return Explained(kind, line, column, shown, exc.msg, exc.lineno, exc.colno,
                     found=text[pos] if found is not None else "")


def stray_character(ch: str) -> str | None:
    """The kind naming ``ch`` when it is the reason a JSON text stops where it does, else None:
    ``lookalike_punctuation`` (LOOKALIKE_PUNCTUATION: ``：`` for ``:``), ``odd_space`` (a space that is not JSON's:
    no-break U+00A0, ideographic U+3000, the line separators; "{"a": 1}\u3000" read "The text stops … before the
    JSON is complete", as Python's strip() took the space for the end), ``hidden_character`` (one a page draws as
    nothing: a zero-width space, a control character)."""
    if ch in LOOKALIKE_PUNCTUATION:
        return "lookalike_punctuation"
    if ch in JSON_SPACE:
        return None
    if unicodedata.category(ch) == "Zs" or ch in "\u2028\u2029":
        return "odd_space"
    if ch in HIDDEN:
        return "hidden_character"
    return None
