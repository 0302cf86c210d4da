"""Column widths that fit a table's text, for st.dataframe (pure: the page turns them into column_config).

Streamlit's grid sizes a column from its first rows, so a longer cell further down (the Exercises
table's "Harness scenario" rows, after "Choice" and "JSON") is cut off, and a Chinese cell is as wide
as an English one twice its length. Widths here come from every cell and the header: a character
that East Asian width calls wide or full-width counts :data:`WIDE_PX`, a capital :data:`UPPER_PX`, any
other :data:`NARROW_PX`: the grid's 14 px Source Sans measured in Chromium (canvas measureText) gives
14 px per CJK character, 7.9 per capital, 6.6 per lower-case letter, 7.0 per digit, 3-4 per space or
punctuation mark, 10-12 for m, w, M, W.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping

#: Pixels per space or ASCII punctuation mark, other narrow character, capital, wide (CJK) character, and
#: around a cell's text (its padding); rounded up from the measures.
THIN_PX, NARROW_PX, UPPER_PX, WIDE_PX, PADDING_PX = 4, 6.8, 8, 14, 24
_THIN = set(" .,:;'\"!|()[]/-`")
#: No column is narrower or wider than this, in pixels (a wider text is cut and scrolls).
MIN_PX, MAX_PX = 56, 480


def _char_px(ch: str) -> float:
    if unicodedata.east_asian_width(ch) in "WF":
        return WIDE_PX
    if ch in "mwMW":
        return UPPER_PX + 3
    return THIN_PX if ch in _THIN else UPPER_PX if ch.isupper() else NARROW_PX


def text_px(text: str) -> int:
    """Pixels ``text`` takes in the grid's font (rounded up), by counting thin, narrow, capital and wide
    characters."""
    return math.ceil(sum(map(_char_px, str(text))))


def fit_widths(rows: Iterable[Mapping[str, object]], max_px: int = MAX_PX) -> dict[str, int]:
    """``{column: width in pixels}`` for a table given as rows (dicts with the same keys): the widest
    of the header and every cell (:func:`text_px` + :data:`PADDING_PX`), within MIN_PX..``max_px``.
    No rows: no widths. Only a cell's first ``max_px / THIN_PX`` characters are measured (no more can fit), so
    the work is bounded by the number of cells, not by their length (an 8 000-character answer)."""
    enough = int(max_px // THIN_PX) + 1  # characters past this many cannot widen a column any more
    widest: dict[str, int] = {}
    for row in rows:
        for column, value in row.items():
            text = "" if value is None else str(value)[:enough]
            widest[column] = max(widest.get(column, text_px(str(column)[:enough])), text_px(text))
    return {column: max(MIN_PX, min(max_px, px + PADDING_PX)) for column, px in widest.items()}
