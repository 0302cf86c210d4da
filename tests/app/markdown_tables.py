"""Read back the small tables the pages draw as Markdown (toolcall.markdown.table) in AppTest."""

from __future__ import annotations

import re

from toolcall.markdown import _WORD_JOINER


def _cells(line: str) -> list[str]:
    """The cells of one table line, backslash escapes undone (``\\|`` is a pipe inside a cell)."""
    cells, current, i, text = [], [], 1, line.strip()
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            current.append(text[i + 1])
            i += 2
            continue
        if text[i] == "|":
            cells.append("".join(current).strip().replace(_WORD_JOINER, ""))
            current = []
        else:
            current.append(text[i])
        i += 1
    return cells


def read_table(body: str) -> list[dict[str, str]] | None:
    """The rows (header -> cell text, escapes undone) of a Markdown table body, or None when ``body`` is
    not exactly one table."""
    lines = body.strip().splitlines()
    if len(lines) < 2 or not all(line.startswith("|") and line.endswith("|") for line in lines) \
            or not re.fullmatch(r"\|(-+:?\|)+", lines[1]):
        return None
    heads = _cells(lines[0])
    return [dict(zip(heads, _cells(line))) for line in lines[2:]]


def tables(at) -> list[list[dict[str, str]]]:
    """Every Markdown table on the page, in order."""
    return [rows for rows in (read_table(m.value) for m in at.markdown) if rows is not None]
