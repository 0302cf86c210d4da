"""The selection set's rules hold against characters nobody sees, and its messages never make two different
names read the same.

Before: a copy of a shipped case whose request carried a zero-width space, a soft hyphen or a fullwidth letter
passed the "no duplicate requests" rule; an id ``c1`` followed by a zero-width space passed "no id twice"; and
``get_оrder`` (Cyrillic о) was reported as "there is no tool named get_order". Cases are derived: every
character of toolcall.text.HIDDEN, every fullwidth form NFKC folds to ASCII, every look-alike letter the dashboard
test finds by name, applied to the shipped English set."""

import unicodedata

import pytest

from tests.unit.test_dashboard_answer_cells import LOOKALIKES
from toolcall import FIXTURES_DIR
from toolcall.selection import check_set, from_rows, load_set, load_tool_schemas, to_rows
from toolcall.text import HIDDEN

SET = load_set(FIXTURES_DIR / "selection" / "shop.en.yaml")
SCHEMAS = load_tool_schemas(SET.tools, FIXTURES_DIR / "tools")
ROWS = to_rows(SET.cases)
FULLWIDTH = [chr(c) for c in range(0xFF01, 0xFF5F) if unicodedata.normalize("NFKC", chr(c)).isascii()]


def _problems(rows):
    cases, problems = from_rows(rows)
    return problems + check_set(cases, SCHEMAS, SET.tools)


def test_the_shipped_set_is_clean():
    assert _problems(ROWS) == []


def _codes(rows) -> list[str]:
    return [p.code for p in _problems(rows)]


@pytest.mark.parametrize("chars", [sorted(HIDDEN), FULLWIDTH], ids=["hidden", "fullwidth"])
def test_a_copy_that_differs_only_by_what_nobody_sees_is_a_duplicate(chars):
    first = ROWS[0]
    missed = []
    for ch in chars:
        request = first["request"]
        if ch in HIDDEN:
            copy = request[:3] + ch + request[3:]
        else:  # the first letter of the request that has this fullwidth form, in that form
            plain = unicodedata.normalize("NFKC", ch)
            if plain not in request:
                continue
            copy = request.replace(plain, ch, 1)
        rows = ROWS + [{**first, "id": "copy", "request": copy}]
        if _codes(rows) != ["duplicate_request"]:
            missed.append(f"U+{ord(ch):04X}")
    assert missed == []


@pytest.mark.parametrize("ch", sorted(HIDDEN)[::97] + ["\u200b", "\u00ad", "\u2060"],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_an_id_that_differs_only_by_an_invisible_character_is_used_twice(ch):
    second = {**ROWS[1], "id": ROWS[0]["id"] + ch}
    assert _codes([ROWS[0], second] + ROWS[2:]) == ["duplicate_id"]
    assert ch not in _problems([ROWS[0], second] + ROWS[2:])[0].message("en")


IN_TOOL_NAMES = [(latin, alike) for latin, alike in LOOKALIKES if any(latin in tool for tool in SET.tools)]


def test_there_are_lookalikes_of_the_tool_names_letters():
    assert len(IN_TOOL_NAMES) > 20


@pytest.mark.parametrize("latin, alike", IN_TOOL_NAMES[::3], ids=lambda v: f"U+{ord(v):04X}")
def test_a_lookalike_tool_name_is_shown_escaped(latin, alike):
    tool = next(t for t in SET.tools if latin in t)
    odd = tool.replace(latin, alike, 1)
    rows = [{**ROWS[0], "expected_tool": odd}] + ROWS[1:]
    unknown = [p for p in _problems(rows) if p.code == "unknown_tool"]
    assert len(unknown) == 1 and alike not in unknown[0].message("en")
    assert f"\\u{ord(alike):04x}" in unknown[0].message("en") and unknown[0].message("en") != \
        unknown[0].message("en").replace(f"\\u{ord(alike):04x}", latin)
