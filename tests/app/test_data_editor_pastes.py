"""A paste of many rows into a data editor is applied once, by the page, in linear time (issue 13, time kind;
break-it pass brk10web). Streamlit adds an editor's added rows to a DataFrame one at a time, each copying the table,
and again on every rerun while they stay in the editor's state: 1 000 rows pasted into the selection lab's table
cost 2.6-2.9 s of server CPU on every rerun of the page (4 000 rows: 27 s), every other student of the process
waiting. The sweep opens every page and pastes into every data editor it draws, so an editor added later without
the fold is caught here."""

import pytest
import streamlit.elements.widgets.data_editor as data_editor

from tests.app.conftest import PAGES, fresh_app
from toolcall.i18n import t
from toolcall.selection import FOLD_ADDED_ROWS, MAX_CASES

PASTED = 1_000


def _paste(at, editor, count: int, edited: dict | None = None, deleted: list | None = None):
    """Seed ``editor``'s edit state (what the browser sends after a paste) with ``count`` added rows."""
    columns = list(editor.value.columns)
    rows = [{c: f"p{i}-{c}" for c in columns} for i in range(count)]
    at.session_state[editor.key] = {"edited_rows": edited or {}, "added_rows": rows, "deleted_rows": deleted or []}


@pytest.fixture
def row_additions(monkeypatch):
    """The number of rows each call of Streamlit's own row-by-row addition was given."""
    calls: list[int] = []
    real = data_editor._apply_row_additions
    monkeypatch.setattr(data_editor, "_apply_row_additions", lambda df, added, schema: calls.append(len(added))
                        or real(df, added, schema))
    return calls


def _pages_with_editors():
    found = []
    for page in PAGES:
        at = fresh_app("en", page=page)
        found += [(page, e.key) for e in at.data_editor if e.editing_mode in ("dynamic", "add")]
    return found


EDITORS = _pages_with_editors()


def test_the_sweep_finds_the_selection_table():
    assert ("pages/eval_lab.py", "eval_set_editor_en") in EDITORS


@pytest.mark.parametrize("page,key", EDITORS)
def test_every_editor_applies_a_paste_once_and_never_row_by_row(page, key, row_additions):
    at = fresh_app("en", page=page)
    _paste(at, at.data_editor(key=key), PASTED)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    at.run()
    assert not at.exception
    assert all(n <= FOLD_ADDED_ROWS for n in row_additions), row_additions
    assert len(at.data_editor[0].value) <= MAX_CASES


@pytest.mark.parametrize("page,key", EDITORS)
def test_an_edit_naming_no_row_or_column_stops_no_page(page, key):
    """Only a forged message sends these; Streamlit's own code raised IndexError / KeyError on them."""
    at = fresh_app("en", page=page)
    editor = at.data_editor(key=key)
    n = len(editor.value)
    at.session_state[key] = {"edited_rows": {n + 5: {"id": "x"}, 0: {"no_such_column": "x"}}, "added_rows": [],
                             "deleted_rows": [n + 9]}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.data_editor[0].value) == n


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_paste_past_the_tables_rows_keeps_the_first_and_says_how_many_were_not_added(lang, row_additions):
    at = fresh_app(lang, page="pages/eval_lab.py")
    editor = at.data_editor(key=f"eval_set_editor_{lang}")
    shipped = editor.value.to_dict("records")
    _paste(at, editor, PASTED, edited={0: {"request": "edited"}}, deleted=[1])
    at.run()
    assert not at.exception
    table = at.data_editor[0].value.to_dict("records")
    kept = MAX_CASES - (len(shipped) - 1)
    assert table[0] == {**shipped[0], "request": "edited"}
    assert table[1:len(shipped) - 1] == shipped[2:]
    assert [r["id"] for r in table[len(shipped) - 1:]] == [f"p{i}-id" for i in range(kept)]
    assert [w.value for w in at.warning] == [t("eval.set_rows_not_added", lang, count=f"{PASTED - kept:,}",
                                               limit=f"{MAX_CASES:,}")]
    at.slider(key="eval_k").set_value(4).run()
    assert not at.exception and row_additions == [] and at.warning.len == 0
    assert at.data_editor[0].value.to_dict("records") == table
