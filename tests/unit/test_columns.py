"""toolcall.columns: table column widths that fit every cell, header included, in en and zh.

The measured widths are Chromium's (canvas measureText, 14 px "Source Sans", the grid's font) for texts
the Exercises table shows; an estimate below one would cut that text off."""

import pytest

from toolcall.columns import MAX_PX, MIN_PX, PADDING_PX, fit_widths, text_px

MEASURED = [("Harness scenario", 99.7), ("Who refuses what: Anthropic or OpenAI strict mode", 297.2),
            ("谁拒绝什么：Anthropic 和 OpenAI 的 strict 模式", 284.1), ("One call, step by step", 122.9),
            ("Schema playground", 117.2), ("Not started", 65.1), ("循环演练", 56.0), ("Best score", 59.5),
            ("abcdefghijklmnopqrstuvwxyz", 171.7), ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 206.1), ("0123456789", 69.6)]


@pytest.mark.parametrize("text, measured", MEASURED)
def test_estimates_cover_the_measured_width_and_stay_close(text, measured):
    assert measured <= text_px(text) + PADDING_PX - 16  # the grid's cell padding is 8 px a side
    assert text_px(text) <= measured * 1.12 + 4  # not so generous that a 6-column table stops fitting


def test_a_column_fits_its_widest_cell_found_anywhere():
    rows = [{"Type": "Choice"}] * 30 + [{"Type": "Harness scenario"}]  # the grid sized from the first rows
    assert fit_widths(rows) == {"Type": text_px("Harness scenario") + PADDING_PX}


def test_the_header_counts_and_chinese_counts_double():
    assert fit_widths([{"Tries": 3}]) == {"Tries": text_px("Tries") + PADDING_PX}
    assert fit_widths([{"n": 3}]) == {"n": MIN_PX}
    assert fit_widths([{"尝试次数": 3}]) == {"尝试次数": 4 * 14 + PADDING_PX}
    assert fit_widths([{"a": "x" * 1000}]) == {"a": MAX_PX}
    assert fit_widths([{"a": "x" * 1000}], max_px=200) == {"a": 200}
    assert fit_widths([{"a": None}]) == {"a": MIN_PX}
    assert fit_widths([]) == {}


def test_the_work_is_bounded_by_the_cells_not_their_length():
    """A cell of 8 000 or 800 000 characters is measured only as far as a column can widen."""
    from tests.workcount import lines_run

    short = [{"answer": "x" * 8_000}] * 3
    long = [{"answer": "x" * 800_000}] * 3
    (small, lines_small), (big, lines_big) = lines_run(fit_widths, short), lines_run(fit_widths, long)
    assert small == big == {"answer": MAX_PX}
    assert lines_big == lines_small
