"""Characters that change how text reads without being seen, and how to show them.

Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) reorder the
sentence around them; zero-width and other invisible characters (Unicode's default-ignorable
code points: U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD, tags, variation selectors…) hide a
difference ("expected damaged, received damaged"). Wherever the app
quotes text a student or a model wrote — cards, errors, the message sent back, the pairing
report — these are shown as their ``\\uXXXX`` escapes. Pure: no Streamlit.
"""

from __future__ import annotations

import codecs
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

#: Bidirectional controls: embeddings/overrides, isolates, and the marks.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C))
#: Unicode's Default_Ignorable_Code_Point ranges (characters a renderer shows as nothing):
#: https://www.unicode.org/Public/UCD/latest/ucd/DerivedCoreProperties.txt (UAX #44). Among them
#: zero-width space/non-joiner/joiner, word joiner, the invisible operators U+2061–U+2064, soft
#: hyphen, BOM, Hangul fillers, variation selectors and the tag characters U+E0000–U+E0FFF (which
#: can carry a whole hidden ASCII text). tests/unit/test_invisible_and_caps.py compares this list
#: with the ``regex`` module's ``\\p{Default_Ignorable_Code_Point}`` when that module is present.
DEFAULT_IGNORABLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                            (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                            (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                            (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
                            (0xE0000, 0xE0FFF))
#: Line and paragraph separators: a line break in some renderers, nothing in others.
SEPARATORS = frozenset("\u2028\u2029")
#: Zero-width and invisible characters: every default-ignorable one (bidi controls included) and
#: the two separators.
INVISIBLE = frozenset(chr(c) for lo, hi in DEFAULT_IGNORABLE_RANGES for c in range(lo, hi + 1)) | SEPARATORS
#: Control characters a browser draws as nothing: C0 controls but tab, line feed and carriage return (which
#: the places that show text on one line escape themselves: toolcall.markdown, escape_line), DEL and the C1
#: controls U+0080–U+009F. "damaged\x7f" (typed as ``"damaged\u007f"`` in JSON) read as "damaged", and an
#: exercise's "\"12\x1b\" is not a number" as "\"12\" is not a number" (issue 13, break-it pass brk10web).
CONTROLS = frozenset(chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\t\n\r")
#: Every character shown escaped.
HIDDEN = BIDI_CONTROLS | INVISIBLE | CONTROLS


def blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only white space, control characters and HIDDEN ones (``"   "``,
    ``"\u200b"``, ``"\t\n"``, ``"\u3000"``)."""
    return all(c.isspace() or c in HIDDEN or unicodedata.category(c) in ("Cc", "Cf") for c in text)


def clip(text: str, limit: int) -> str:
    """``text`` when it has at most ``limit`` characters, else its first ``limit`` and "…". Cut before escaping
    (escape_lookalikes, escape_line), so that an escape is never cut in half and "…" stays one character."""
    return text if len(text) <= limit else text[:limit] + "…"


def escaped_tail(text: str, limit: int) -> str:
    """``text`` with look-alike and hidden characters escaped (escape_lookalikes), at most ``limit`` characters of it:
    a longer one keeps its end after "…" (a deep path's end says where), and no escape is cut in half. Linear."""
    shown = escape_lookalikes(text)
    if len(shown) <= limit:
        return shown
    kept, size = [], 1
    for ch in reversed(text):
        piece = escape_lookalikes(ch)
        if size + len(piece) > limit:
            break
        kept.append(piece)
        size += len(piece)
    return "…" + "".join(reversed(kept))


def _escape(ch: str) -> str:
    """``\\uXXXX``; above U+FFFF its UTF-16 surrogate pair (``\\udb40\\udc01``), as JSON writes it, so
    the escape means the same character inside a JSON string and reads unambiguously elsewhere."""
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


_TABLE = {ord(ch): _escape(ch) for ch in HIDDEN}


#: What a terminal would obey rather than show: C0 controls except tab and newline (ESC starts
#: an escape sequence, BEL rings, CR overwrites the line), DEL and the C1 controls (U+0080–U+009F,
#: CSI among them), plus HIDDEN.
TERMINAL_CONTROLS = CONTROLS | {"\r"}
#: The lone surrogates (U+D800–U+DFFF): what Python makes of the bytes of a file name, an argument or an
#: environment value that is not UTF-8 (os.fsdecode's surrogateescape: byte 0xff is U+DCFF), and what a JSON
#: ``"\\udcff"`` reads as. No text of any encoding holds one: printed, it raised UnicodeEncodeError, or, on a
#: stream with surrogateescape (the C locale, or PYTHONIOENCODING=utf-8:surrogateescape), came out as the raw
#: byte, so `check` wrote "lessons/en/11-bad\xff.md has no zh version" as invalid UTF-8 (issue 13, break-it pass
#: brk12cli). escape_terminal and escape_line show each as its ``\\udcxx`` escape.
SURROGATES = frozenset(chr(c) for c in range(0xD800, 0xE000))
_TERMINAL_TABLE = {**_TABLE, **{ord(ch): _escape(ch) for ch in TERMINAL_CONTROLS | SURROGATES}}


def escape_terminal(text: str) -> str:
    """``text`` safe to print to a terminal: every character of TERMINAL_CONTROLS, SURROGATES and HIDDEN as
    its ``\\uXXXX`` escape; tab and newline kept."""
    return text.translate(_TERMINAL_TABLE)


#: escape_terminal's table plus line end and tab.
_LINE_TABLE = {**_TERMINAL_TABLE, ord("\n"): _escape("\n"), ord("\t"): _escape("\t")}


def escape_line(text: str) -> str:
    """``text`` as one line a terminal shows as written: escape_terminal, and line ends and tabs as ``\\uXXXX``
    too. For a name quoted inside a message (a file path, a setting's value): a path holding
    ``\\nall content checks passed\\n`` must not print a line of its own."""
    return text.translate(_LINE_TABLE)


def escape_unencodable(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler (registered as ``toolcall.escape``): what an output encoding cannot write (Chinese
    under ``PYTHONIOENCODING=ascii``, a lone surrogate) as ``\\uXXXX``, which inside a JSON string means the
    same character and elsewhere reads unambiguously."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(_escape(ch) for ch in exc.object[exc.start:exc.end]), exc.end


codecs.register_error("toolcall.escape", escape_unencodable)


def escape_identifier(text: str) -> str:
    """An id or a name quoted from a transcript, with every non-ASCII character (and every control, hidden
    or invisible one) as its ``\\uXXXX`` escape. Ids and names are ASCII in every wire form the course
    shows (``toolu_…``, ``call_…``, tool names ``[a-zA-Z0-9_-]``), so a non-ASCII letter in one is almost
    surely a look-alike: ``toolu_01\\u0430`` (Cyrillic а), not ``toolu_01a``, which a report would
    otherwise show as "result for toolu_01a, but the turn before called: toolu_01a" (issue 13)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(ch if " " <= ch <= "~" else _escape(ch) for ch in text)


def escaped_head(text: str, limit: int, escape: Callable[[str], str] = escape_identifier) -> str:
    """``escape(text)`` when that is at most ``limit`` characters, else the longest start of it that is, whole
    escapes only, then "…". The limit counts what is drawn: an id of 64 zero-width spaces was cut at 64 characters
    and drawn as 384 (768 for characters past U+FFFF), so a list of a dozen such ids, repeated in each row of a
    pairing report, grew a 36 KB paste into 2.2 MB per rerun, and 500 learners' names of 100 such characters made
    the dashboard 1.3 MB per rerun (brk16web). Text whose characters are drawn as themselves is cut as before: its
    first ``limit`` characters. ``escape`` maps text to what is drawn, character by character (escape_identifier,
    escape_invisible). Linear; ``limit`` must be at least 12 (the longest escape)."""
    shown = escape(text[: limit + 1])
    if len(text) <= limit and len(shown) <= limit:
        return shown
    kept, size = [], 0
    for ch in text[:limit]:
        piece = escape(ch)
        if size + len(piece) > limit:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept) + "…"


#: One piece of what repr draws: an escape (``\\``, ``\n``, ``\xff``, ``\u200b``, ``\U000e0041``) or a character.
_REPR_PIECE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)|.", re.S)


def repr_head(value: Any, limit: int) -> str:
    """``repr(value)`` when that is at most ``limit`` characters, else the longest start of it that is, whole escapes
    only, then "…": repr's text cut as drawn. Cut at ``limit`` characters, ``'x\\u200b\\u200b…`` ended ``\\u20…``, an
    escape cut in half, in check's "… is too long" for a title of zero-width spaces (break-it pass brk19new)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    end = 0
    for piece in _REPR_PIECE.finditer(text, 0, limit + 10):
        if piece.end() > limit:
            break
        end = piece.end()
    return text[:end] + "…"


def quoted_head(text: str, limit: int) -> str:
    """``text`` in single quotes as a message quotes a name or a value: at most ``limit`` characters as drawn
    (escaped_head), line ends, controls, hidden characters and look-alike letters as their ``\\uXXXX`` escapes
    (escape_line over escape_lookalikes): ``'l\\u0430bel'``, where repr drew Cyrillic а as 'lаbel' and the repr of
    its first 40 characters drew 40 tag characters as 400 (break-it pass brk17new). ``limit`` at least 12."""
    return f"'{escaped_head(text, limit, lambda piece: escape_line(escape_lookalikes(piece)))}'"


#: Blocks of letters drawn like Latin ones that neither of the course's languages writes (every character of
#: them is escaped: their combining letters and the Greek question mark ";" too): Greek, Cyrillic
#: (with its supplement and extensions), Armenian, Cherokee and the fullwidth Latin letters (U+FF21–U+FF3A,
#: U+FF41–U+FF5A; not the fullwidth punctuation Chinese text uses). Cyrillic а, е, о, р, с, у, х and Greek ο
#: are the usual look-alikes of a, e, o, p, c, y, x and o: https://www.unicode.org/Public/security/latest/
#: confusables.txt (UTS #39) lists them.
LOOKALIKE_BLOCKS = ((0x0370, 0x03FF), (0x0400, 0x052F), (0x0530, 0x058F), (0x13A0, 0x13FF), (0x1C80, 0x1C8F),
                    (0x1F00, 0x1FFF), (0x2DE0, 0x2DFF), (0xA640, 0xA69F), (0xAB70, 0xABBF), (0xFF21, 0xFF3A),
                    (0xFF41, 0xFF5A))
_LOOKALIKE_TABLE = {c: _escape(chr(c)) for lo, hi in LOOKALIKE_BLOCKS for c in range(lo, hi + 1)}


def escape_lookalikes(text: str) -> str:
    """``text`` with every character of LOOKALIKE_BLOCKS (Cyrillic а in ``["а"]``, Greek ο, fullwidth ａ) as its
    ``\\uXXXX`` escape, and HIDDEN characters too: for free text in English or Chinese (Chinese characters
    and punctuation are kept, unlike escape_identifier, which escapes every non-ASCII character), where two
    answers that differ by one such letter would otherwise read the same."""
    return escape_invisible(text).translate(_LOOKALIKE_TABLE)


#: The full-width forms of ASCII (U+FF01 to U+FF5E: ``０``-``９``, ``．``, ``／``, ``％``, ``－``, ``ｅ``…) and the
#: ideographic space, as the ASCII they stand for: what a Chinese input method's full-width mode types.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def fold_full_width(text: str) -> str:
    """``text`` with its full-width forms of ASCII (and the ideographic space) as ASCII, every other character as it
    is. For a number typed in a box: NFKC also folds superscripts, subscripts and circled digits into plain digits,
    so ``10²`` was read as 102, ``0.7²`` as 0.72 and ``⑩`` as 10 (break-it pass brk20new). Never longer than
    ``text``."""
    return text.translate(_FULL_WIDTH)


def reading_key(text: str, fold_case: bool = True, form: str = "NFKC") -> str:
    """What ``text`` reads as, for "are these the same?": Unicode NFKC (fullwidth ``Ｗ`` is ``W``; ``form`` "NFC"
    merges only the spellings Unicode calls the same text, ``é`` and ``e`` + combining acute, keeping ``x²`` apart
    from ``x2``), every HIDDEN character dropped (a zero-width space or a soft hyphen changes nothing a reader
    sees), case folded unless ``fold_case`` is False (ids: ``C1`` and ``c1`` read differently), runs of white
    space as one space. Two texts with one key look alike; look-alike letters of other scripts (Cyrillic а) keep
    their own key: show those with escape_lookalikes."""
    folded = unicodedata.normalize(form, text).translate(_DROP_HIDDEN)
    return " ".join((folded.casefold() if fold_case else folded).split())


_DROP_HIDDEN = {ord(ch): None for ch in HIDDEN}


def drop_hidden(text: str) -> str:
    """``text`` without its HIDDEN characters (what a reader sees of it: a zero-width space, a byte-order mark or a
    soft hyphen is nothing on the page)."""
    return text.translate(_DROP_HIDDEN)


def escape_invisible(text: str) -> str:
    """``text`` with every character of HIDDEN replaced by its ``\\uXXXX`` escape (6 characters; 12, a
    surrogate pair, above U+FFFF)."""
    return text.translate(_TABLE)


def _ranges_class(chars: frozenset[str]) -> str:
    """A regular-expression character class matching exactly ``chars`` (runs of code points as ranges)."""
    codes, runs = sorted(map(ord, chars)), []
    for code in codes:
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "[" + "".join(f"\\U{lo:08x}" + (f"-\\U{hi:08x}" if hi > lo else "") for lo, hi in runs) + "]"


_HIDDEN_RE = re.compile(_ranges_class(HIDDEN))


def hidden_places(text: str, limit: int) -> tuple[int, list[tuple[int, int, str]]]:
    """Where ``text`` holds HIDDEN characters: (how many in all, the first ``limit`` as (1-based line, 1-based
    column, ``\\uXXXX`` escape)). Linear, and a regular-expression scan when there is none."""
    first = _HIDDEN_RE.search(text)
    if first is None:
        return 0, []
    places = []
    for match in _HIDDEN_RE.finditer(text, first.start()):
        if len(places) == limit:
            break
        at = match.start()
        places.append((text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at), _escape(match.group())))
    return len(text) - len(text.translate(_DROP_HIDDEN)), places  # one string, not a list of every match


def visible_json(value: Any, **kwargs: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **kwargs)`` with HIDDEN characters escaped: the
    same JSON value (they can only occur inside strings, where ``\\uXXXX`` means the same)."""
    return escape_invisible(json.dumps(value, ensure_ascii=False, **kwargs))


#: How :func:`bounded_json` wrote a value: indented, compact on one line, or compact and cut.
PRETTY, COMPACT, CUT = "pretty", "compact", "cut"


def _indented_within(value: Any, limit: int, indent: int, sort_keys: bool, escape: bool) -> str | None:
    """``value`` as indented JSON (HIDDEN escaped when ``escape``) if that is at most ``limit`` characters, else
    None. Written chunk by chunk and abandoned at the limit, so the indented text is never built whole:
    indentation multiplies the size of deeply nested values (64 levels: about 64 times the compact text)."""
    parts: list[str] = []
    size = 0
    for chunk in json.JSONEncoder(ensure_ascii=False, indent=indent, sort_keys=sort_keys).iterencode(value):
        if escape:
            chunk = escape_invisible(chunk)
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
    return "".join(parts)


def bounded_json(value: Any, limit: int, indent: int = 2, sort_keys: bool = False) -> tuple[str, str]:
    """``(text, how)`` for showing ``value``: :func:`visible_json` indented by ``indent`` (``how`` PRETTY) when
    that is at most ``limit`` characters; else compact (COMPACT) when that fits; else the first ``limit``
    characters of the compact text (CUT). The compact text is about as long as the JSON the value was read
    from; the indented one is never built past the limit."""
    text = _indented_within(value, limit, indent, sort_keys, escape=True)
    if text is not None:
        return text, PRETTY
    compact = visible_json(value, separators=(",", ":"), sort_keys=sort_keys)
    return (compact, COMPACT) if len(compact) <= limit else (compact[:limit], CUT)


def editable_json(value: Any, limit: int, indent: int = 2) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=indent)`` when that is at most ``limit`` characters, else
    the whole compact JSON (for a box the student edits and applies: never cut, never escaped, and no longer
    than the value's own JSON however deep it nests)."""
    text = _indented_within(value, limit, indent, False, escape=False)
    return text if text is not None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


#: Letters of other scripts that read as a Latin letter (a subset of UTS #39 confusables.txt: Cyrillic, Greek and IPA
#: letters a reader cannot tell from a, c, e, o, p …), as the letter they read as. Fullwidth letters are folded by NFKC.
CONFUSABLE_LATIN = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ο": "o", "ι": "i", "ν": "v", "κ": "k", "α": "a", "ρ": "p", "υ": "u",
    "ɑ": "a", "ɡ": "g", "ı": "i", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "Ј": "J", "І": "I", "Α": "A", "Β": "B", "Ε": "E", "Ι": "I", "Κ": "K",
    "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ζ": "Z"})


def reads_as(text: str, words: frozenset[str]) -> str | None:
    """The word of ``words`` that ``text`` reads as without being it, else None: ``text`` is not in ``words``, and
    with its HIDDEN characters dropped, NFKC applied (fullwidth ｒ is r) and CONFUSABLE_LATIN letters read as the
    Latin ones (Cyrillic о in ``rоle``) it is the word (``role\u200b`` too). Linear in ``text``."""
    if text in words or text.isascii():
        return None
    read = unicodedata.normalize("NFKC", text.translate(_DROP_HIDDEN)).translate(CONFUSABLE_LATIN)
    return read if read in words else None
