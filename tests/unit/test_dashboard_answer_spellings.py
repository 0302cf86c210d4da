"""The class dashboard's most common wrong answers count one answer once, however it was spelled: another
Unicode normalisation form (``café`` with a combining accent), a zero-width character, a soft hyphen or a bidi
mark inside it are not a second answer. Before, ``café`` (NFC) and ``café`` (NFD) were two entries that read
exactly the same (the cell escapes hidden characters, not combining accents). Look-alike letters of other
scripts stay apart and read differently (tests/unit/test_dashboard_answer_cells.py). Cases: each hidden range
of toolcall.text."""

import unicodedata

import pytest

from toolcall.dashboard import ClassData, common_wrong_cell, exercise_table, normalize_answer
from toolcall.progress import ProgressStore
from toolcall.text import DEFAULT_IGNORABLE_RANGES

SPELLINGS = ([unicodedata.normalize("NFD", "Caf\u00e9 0.7")]
             + [f"Caf\u00e9 0.{chr(lo)}7" for lo, _ in DEFAULT_IGNORABLE_RANGES] + ["  caf\u00e9   0.7 "])


@pytest.mark.parametrize("spelling", SPELLINGS, ids=[ascii(s) for s in SPELLINGS])
def test_a_spelling_of_one_answer_is_counted_with_it(tmp_path, spelling):
    store = ProgressStore(tmp_path)
    store.record("swift-otter-7f3a9c41d2", "ex1", "Caf\u00e9 0.7", 0, 1)
    store.record("swift-otter-7f3a9c41d3", "ex1", spelling, 0, 1)
    [row] = exercise_table(ClassData.load(store), {"ex1": "E"})
    assert row["common_wrong"] == [{"answer": "caf\u00e9 0.7", "count": 2}]
    assert common_wrong_cell(row["common_wrong"]) == '"caf\u00e9 0.7" (×2)'


def test_what_reads_differently_is_kept_apart():
    assert normalize_answer("x\u00b2") != normalize_answer("x2")  # a superscript is not a plain digit
    assert normalize_answer("caf\u0435") != normalize_answer("cafe")  # Cyrillic е: shown escaped, counted apart
