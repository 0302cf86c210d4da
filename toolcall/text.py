"""Characters that change how text reads without being seen, and how to show them.

Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) reorder the
sentence around them; zero-width and other invisible characters (U+200B–U+200D, U+2060,
U+FEFF, U+00AD) hide a difference ("expected damaged, received damaged"). Wherever the app
quotes text a student or a model wrote — cards, errors, the message sent back, the pairing
report — these are shown as their ``\\uXXXX`` escapes. Pure: no Streamlit.
"""

from __future__ import annotations

import json
from typing import Any

#: Bidirectional controls: embeddings/overrides, isolates, and the marks.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C))
#: Zero-width and invisible characters (zero-width space/non-joiner/joiner, word joiner,
#: zero-width no-break space / BOM, soft hyphen).
INVISIBLE = frozenset(chr(c) for c in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD))
#: Every character shown escaped.
HIDDEN = BIDI_CONTROLS | INVISIBLE
_TABLE = {ord(ch): f"\\u{ord(ch):04x}" for ch in HIDDEN}


#: What a terminal would obey rather than show: C0 controls except tab and newline (ESC starts
#: an escape sequence, BEL rings, CR overwrites the line), DEL and the C1 controls (U+0080–U+009F,
#: CSI among them), plus HIDDEN.
TERMINAL_CONTROLS = frozenset(chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\t\n")
_TERMINAL_TABLE = {**_TABLE, **{ord(ch): f"\\u{ord(ch):04x}" for ch in TERMINAL_CONTROLS}}


def escape_terminal(text: str) -> str:
    """``text`` safe to print to a terminal: every character of TERMINAL_CONTROLS and HIDDEN as
    its ``\\uXXXX`` escape; tab and newline kept."""
    return text.translate(_TERMINAL_TABLE)


def escape_invisible(text: str) -> str:
    """``text`` with every character of HIDDEN replaced by its ``\\uXXXX`` escape (6 characters)."""
    return text.translate(_TABLE)


def visible_json(value: Any, **kwargs: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **kwargs)`` with HIDDEN characters escaped: the
    same JSON value (they can only occur inside strings, where ``\\uXXXX`` means the same)."""
    return escape_invisible(json.dumps(value, ensure_ascii=False, **kwargs))
