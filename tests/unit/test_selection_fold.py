"""toolcall.selection.fold_edits applies a data editor's edit state as Streamlit does, in linear time, and
edits_to_fold says when the page must (issue 13, time kind; break-it pass brk10web: Streamlit adds pasted rows to
a DataFrame one at a time, a paste of 1 000 rows into the selection table cost 2.6-2.9 s of CPU on every rerun)."""

import random

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.elements.lib.column_config_utils import INDEX_IDENTIFIER, determine_dataframe_schema
from streamlit.elements.widgets.data_editor import _apply_dataframe_edits

from toolcall.selection import FOLD_ADDED_ROWS, INDEX_KEY, MAX_CASES, edits_to_fold, fold_edits

COLUMNS = ("id", "expected_tool", "request", "expected_arguments", "should_not_call")


def _rows(n: int, tag: str = "r") -> list[dict]:
    return [{c: f"{tag}{i}-{c}" for c in COLUMNS} for i in range(n)]


def _streamlit(rows: list[dict], edits: dict) -> list[dict]:
    """What st.data_editor returns for ``rows`` and ``edits`` (its own function), as rows of strings."""
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    schema = determine_dataframe_schema(df, pa.Table.from_pandas(df).schema)
    out = _apply_dataframe_edits(df.copy(), edits, schema)
    return out.astype(object).where(out.notna(), "").to_dict("records")


def test_the_index_key_is_streamlits():
    assert INDEX_KEY == INDEX_IDENTIFIER


@pytest.mark.parametrize("seed", range(20))
def test_fold_gives_what_streamlit_gives(seed):
    """Random cell edits, deletions and added rows (a None cell, a column left out) on a table of 0-30 rows."""
    rnd = random.Random(seed)
    rows = _rows(rnd.randrange(0, 31))
    n = len(rows)
    edits = {"edited_rows": {p: {rnd.choice(COLUMNS): rnd.choice(["x", "", None, "改"])} for p in
                             rnd.sample(range(n), min(n, rnd.randrange(0, 6)))},
             "deleted_rows": rnd.sample(range(n), min(n, rnd.randrange(0, 4))),
             "added_rows": [{c: f"a{i}" for c in rnd.sample(COLUMNS, rnd.randrange(0, 6))}
                            for i in range(rnd.randrange(0, 40))]}
    folded, dropped = fold_edits(rows, edits, COLUMNS)
    assert folded == _streamlit(rows, edits) and dropped == 0


def test_rows_past_the_limit_are_counted_not_kept():
    folded, dropped = fold_edits(_rows(30), {"added_rows": _rows(1_000, "a"), "deleted_rows": [0]}, COLUMNS)
    assert len(folded) == MAX_CASES and dropped == 1_000 - (MAX_CASES - 29)
    assert folded[0]["id"] == "r1-id" and folded[-1]["id"] == f"a{MAX_CASES - 30}-id"


def test_edits_naming_no_row_or_column_are_dropped():
    edits = {"edited_rows": {5: {"id": "x"}, -1: {"id": "y"}, 0: {"nope": "z", "id": "kept"}},
             "deleted_rows": [7, -1, True], "added_rows": ["not a row", {"id": "new"}]}
    folded, dropped = fold_edits(_rows(2), edits, COLUMNS)
    assert [r["id"] for r in folded] == ["kept", "r1-id", "new"] and dropped == 0


@pytest.mark.parametrize("edits,expected", [
    ({"edited_rows": {}, "added_rows": _rows(FOLD_ADDED_ROWS), "deleted_rows": []}, False),
    ({"edited_rows": {}, "added_rows": _rows(FOLD_ADDED_ROWS + 1), "deleted_rows": []}, True),
    ({"edited_rows": {1: {"id": "x"}}, "added_rows": [{INDEX_KEY: 3, "id": "y"}], "deleted_rows": [0]}, False),
    ({"edited_rows": {2: {"id": "x"}}, "added_rows": [], "deleted_rows": []}, True),  # past the table
    ({"edited_rows": {0: {"nope": "x"}}, "added_rows": [], "deleted_rows": []}, True),  # no such column
    ({"edited_rows": {}, "added_rows": [], "deleted_rows": [-1]}, True),
    ({"edited_rows": {}, "added_rows": [{"nope": 1}], "deleted_rows": []}, True),
    ({"edited_rows": {}, "added_rows": "rows", "deleted_rows": []}, True),
    (None, False),
])
def test_when_the_page_folds(edits, expected):
    assert edits_to_fold(edits, 2, COLUMNS) is expected
