"""Every column of the Exercises table and the class dashboard's tables is as wide as its widest text,
header included, in English and Chinese: the grid sized columns from their first rows and cut the
Exercises table's type column ("Harness scenario" rows come after "Choice" and "JSON"; newcomer pass,
session 5). Widths are read from the column configuration the page sends; the text measure is
toolcall.columns (held to Chromium's measures in tests/unit/test_columns.py)."""

import json

import pytest

from tests.app.conftest import fresh_app
from toolcall.columns import MAX_PX, PADDING_PX, text_px
from toolcall.i18n import t
from toolcall.progress import ProgressStore

PASSPHRASE = "correct horse battery staple"


def cut_cells(frame) -> dict:
    """``{column: (width, widest text)}`` for each column whose width is unset or narrower than a text in it."""
    widths = {name: spec.get("width") for name, spec in json.loads(frame.proto.columns).items()}
    table = frame.value
    cut = {}
    for column in table.columns:
        texts = [str(column)] + ["" if v is None else str(v) for v in table[column]]
        widest = max(texts, key=text_px)
        need = min(MAX_PX, text_px(widest) + PADDING_PX)
        if not isinstance(widths.get(column), int) or widths[column] < need:
            cut[column] = (widths.get(column), widest)
    return cut


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_exercises_table_fits_its_texts(lang, data_dir):
    at = fresh_app(lang, page="pages/exercises.py")
    assert len(at.dataframe) == 1 and len(at.dataframe[0].value) > 20
    assert cut_cells(at.dataframe[0]) == {}


#: Pixels the main column gives a table at 1280 x 900 with the sidebar open (Streamlit's centered layout,
#: measured in Chromium: the grid spans x = 380..1200).
MAIN_PX_AT_1280 = 820


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_exercises_table_shows_the_status_without_scrolling(lang, data_dir):
    """A student's question, "which have I solved?", is answered without scrolling the table sideways at
    1280 px: Status comes right after the exercise's title and the type last (newcomer pass, session 11: the
    fitted columns added up to 927 px, and Status was the one cut off at the right edge)."""
    at = fresh_app(lang, page="pages/exercises.py")
    frame = at.dataframe[0]
    assert list(frame.value.columns) == [t(f"exercises.col_{c}", lang)
                                         for c in ("page", "title", "status", "score", "tries", "type")]
    widths = {name: spec.get("width") for name, spec in json.loads(frame.proto.columns).items()}
    through_status = [widths[t(f"exercises.col_{c}", lang)] for c in ("page", "title", "status")]
    assert sum(through_status) <= MAIN_PX_AT_1280, through_status


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboard_tables_fit_their_texts(lang, data_dir, monkeypatch):
    store = ProgressStore(data_dir)
    store.record("swift-otter-7f3a9c", "pk_pass3", "0.512", 0, 1)
    store.record("swift-otter-7f3a9c", "ex_misconceptions", '["strict_validate", "cap_retries"]', 0, 1)
    store.close()
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = fresh_app(lang, page="pages/dashboard.py")
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    at.selectbox(key="dashboard_learner").select("swift-otter-7f3a9c").run()
    assert not at.exception and len(at.dataframe) == 4
    assert [cut_cells(frame) for frame in at.dataframe] == [{}, {}, {}, {}]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_selection_labs_tables_fit_their_texts(lang):
    """The per-tool counts, both versions' per-case tables and the drill-down (the editable set is the
    student's table, with its own widths); newcomer pass, session 6: they were sized from their first rows."""
    at = fresh_app(lang, page="pages/eval_lab.py")
    assert not at.exception
    frames = [f for f in at.dataframe if not f.proto.editing_mode]
    assert len(frames) == 4  # counts, vague cases, good cases, drill-down runs
    assert [cut_cells(frame) for frame in frames] == [{}, {}, {}, {}]
