"""The selection lab's table holds at most MAX_TABLE_CHARS characters (issue 13; break-it pass brk12web). Its rows were
capped at MAX_CASES and each column at its max_chars, but not the whole: 500 rows of full cells (13.1 million
characters measured) were kept, and every rerun of the page took 0.7 s and sent the table to the browser again. An
edit that would take the table past the cap is now not kept: the table stays as it was, and the page names the cells
of that edit (a dozen at most, each text cut at FOLD_EDIT_CHARS) with the size and the cap, in en and zh."""

import pytest

import toolcall.selection as selection
from tests.app.conftest import fresh_app
from toolcall.i18n import t
from toolcall.markdown import plain

ARGS = 20_000


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    return data_dir


def _rows(numbers):
    return [{"id": f"big{i}", "expected_tool": "", "request": f"req {i}", "expected_arguments": "x" * ARGS,
             "should_not_call": ""} for i in numbers]


def _table(at):
    """The table as the page last read it (AppTest's data_editor value is the editor's start, without its edits)."""
    return at.session_state["eval_set_state"]["rows"]


def _cell(lang, row, column, text):
    fold = selection.FOLD_EDIT_CHARS
    shown = text if len(text) <= fold else text[:fold] + "…"
    heads = {"id": "eval.col_id", "request": "eval.col_request", "expected_arguments": "eval.col_args"}
    return t("eval.set_edit_cell", lang, row=f"{row:,}", column=t(heads[column], lang), chars=f"{len(text):,}",
             text=plain(shown))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("added", [15, 40], ids=["applied-by-streamlit", "folded-by-the-page"])
def test_an_edit_past_the_table_cap_is_not_kept_and_named(lang, added):
    at = fresh_app(lang, page="pages/eval_lab.py")
    key = f"eval_set_editor_{lang}"
    shipped = at.data_editor(key=key).value
    n = len(shipped)
    first = _rows(range(10))  # 10 rows of 20 000 characters: kept
    at.session_state[key] = {"edited_rows": {}, "added_rows": first, "deleted_rows": []}
    at.run()
    assert not at.exception and not at.warning
    table = shipped.astype(object).where(shipped.notna(), "").to_dict("records") + first
    assert _table(at) == table
    assert selection.table_chars(table) <= selection.MAX_TABLE_CHARS
    more = _rows(range(10, 10 + added))
    at.session_state[key] = {"edited_rows": {}, "added_rows": first + more, "deleted_rows": []}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    size = selection.table_chars(table + more)
    assert size > selection.MAX_TABLE_CHARS
    cells = [_cell(lang, n + 11 + i // 3, c, more[i // 3][c]) for i, c in
             zip(range(12), ["id", "request", "expected_arguments"] * 4)]
    edits = t("eval.set_edits_sep", lang).join(cells + [t("eval.set_edits_more", lang, count=f"{3 * added - 12:,}")])
    assert [w.value for w in at.warning] == [t("eval.set_chars_not_kept", lang, edits=edits, size=f"{size:,}",
                                               limit=f"{selection.MAX_TABLE_CHARS:,}")]
    assert _table(at) == table  # the table as it was, and the editor starts from it
    assert at.data_editor[0].value.astype(object).to_dict("records") == table
    at.run()
    assert not at.warning and _table(at) == table


def test_an_edit_after_the_table_started_over_is_still_checked():
    """After an edit not kept the editor starts afresh (a new key): the next edit is counted from the kept table."""
    at = fresh_app("en", page="pages/eval_lab.py")
    at.session_state["eval_set_editor_en"] = {"edited_rows": {}, "added_rows": _rows(range(30)), "deleted_rows": []}
    at.run()
    assert len(at.warning) == 1 and _table(at) is None  # still the shipped set
    key = at.data_editor[0].key
    assert key == "eval_set_editor_en_1"
    shipped = at.data_editor[0].value.astype(object).to_dict("records")
    at.session_state[key] = {"edited_rows": {0: {"request": "mine"}}, "added_rows": _rows(range(20)),
                             "deleted_rows": []}
    at.run()
    assert not at.warning
    table = _table(at)
    assert len(table) == len(shipped) + 20 and table[0]["request"] == "mine"
    long = "y" * 100_000
    at.session_state[key] = {"edited_rows": {0: {"request": "mine"}, 1: {"request": long}},
                             "added_rows": _rows(range(20)), "deleted_rows": []}
    at.run()
    size = selection.table_chars(table) - len(table[1]["request"]) + len(long)
    assert [w.value for w in at.warning] == [t("eval.set_chars_not_kept", "en", edits=_cell("en", 2, "request", long),
                                               size=f"{size:,}", limit=f"{selection.MAX_TABLE_CHARS:,}")]
    assert _table(at) == table


def test_each_editor_column_holds_more_than_the_set_reads_so_a_longer_paste_is_reported():
    """Streamlit's browser side cuts a cell's paste at the column's max_chars without a word; the columns held exactly
    what from_rows reads, so a 2 500-character request became its first 2 000 silently (break-it pass brk12web)."""
    import json

    from ui.common import box_chars

    at = fresh_app("en", page="pages/eval_lab.py")
    config = json.loads(at.data_editor[0].proto.columns)
    assert {c: config[c]["type_config"]["max_chars"] for c in selection.CELL_LIMITS} == {
        c: box_chars(limit) for c, limit in selection.CELL_LIMITS.items()}
