"""A selection-table cell longer than its column reads is reported, not cut without a word (break-it pass brk12web).
The editor's columns held exactly what from_rows reads (max_chars = the limit), and Streamlit's browser side cuts a
longer paste at max_chars and keeps the rest silently (its TextColumn validateInput slices the text; Streamlit 1.67):
typed into the selection lab in Chromium, a 2 500-character request became its first 2 000 and the page said
"The set follows every rule". The editor now holds ui.common.BOX_FACTOR times the limit, and
from_rows names each cell past its limit: the case, the column, its length and the limit, in en and zh."""

import pytest

import toolcall.selection as selection
from toolcall.i18n import t


def _row(**cells):
    return {"id": "c1", "request": "refund ORD-20260917", "expected_tool": "", "expected_arguments": "",
            "should_not_call": "", **cells}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("column", list(selection.CELL_LIMITS))
def test_a_cell_past_its_limit_is_reported_with_its_length(column, lang):
    limit = selection.CELL_LIMITS[column]
    text = "c1" + "x" * (limit - 1) if column == "id" else "x" * (limit + 1)
    cases, problems = selection.from_rows([_row(**{column: text})])
    found = [p for p in problems if p.code == "cell_too_long"]
    # an id is quoted cut around "…" (selection.MAX_QUOTED_CHARS; break-it pass brk14lab): its first 40 and last 20
    case = f"{text[:40]}…{text[limit - 20:limit]}" if column == "id" else "c1"
    assert [p.message(lang) for p in found] == [t("eval.set.cell_too_long", lang, case=case, column=column,
                                                  size=limit + 1, limit=limit)]
    at_limit, problems = selection.from_rows([_row(**{column: text[:limit]})])
    assert not [p for p in problems if p.code == "cell_too_long"]
    assert len(cases) == len(at_limit) == 1


def test_the_shipped_sets_have_no_cell_past_its_limit():
    for lang in ("en", "zh"):
        sset = selection.load_set(selection_path(lang))
        assert not [p for p in selection.from_rows(selection.to_rows(sset.cases))[1] if p.code == "cell_too_long"]


def selection_path(lang):
    from toolcall import FIXTURES_DIR
    return FIXTURES_DIR / "selection" / f"shop.{lang}.yaml"
