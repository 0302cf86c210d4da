"""The confusion matrix's size is bounded by its cells, not by how long the tool names are (issue 13, floods; break-it
pass brk14lab). The chart's data repeat the expected and the chosen name in each of its up to 21 × 21 cells, and a
name may be 200 characters, each look-alike or invisible one shown as a six-character \\uXXXX: 20 × 20 names of 200
Cyrillic letters (a 16 KB upload) made a 1.08 MB chart, sent on every rerun of the selection lab. Each label is now
cut at CHART_LABEL_CHARS (never inside an escape) and names cut alike are told apart."""

import json

import pandas as pd
import pytest

from toolcall.eval_charts import CHART_LABEL_CHARS, axis_labels, confusion_chart
from toolcall.evaluation import MAX_MATRIX_TOOLS, OTHER_TOOLS
from toolcall.i18n import t
from toolcall.selection import NO_TOOL


def _matrix(expected: list[str], chosen: list[str]) -> pd.DataFrame:
    return pd.DataFrame([[i + j for j in range(len(chosen))] for i in range(len(expected))], index=expected,
                        columns=chosen)


def test_a_long_lookalike_name_is_cut_between_escapes():
    name = "00" + "\u0430" * 198
    assert axis_labels([name], "en") == ["00" + "\\u0430" * 6 + "…"]  # 38 characters, a 7th escape would pass 39


def test_names_cut_alike_are_told_apart_and_short_ones_are_whole():
    long_a, long_b = "x" * 50 + "a", "x" * 50 + "b"
    cut = "x" * (CHART_LABEL_CHARS - 1) + "…"
    assert axis_labels(["get_order", long_a, long_b, NO_TOOL, OTHER_TOOLS], "zh") == [
        "get_order", f"(1) {cut}", f"(2) {cut}", t("eval.no_tool", "zh"), t("eval.other_tools", "zh")]
    # a name of exactly the limit is whole; a name's own "…" is escaped, so an uncut label never reads as a cut one
    assert axis_labels(["y" * CHART_LABEL_CHARS, "ab\u2026"], "en") == ["y" * CHART_LABEL_CHARS, "ab\\u2026"]


def test_the_twenty_by_twenty_lookalike_matrix_keeps_its_cells_and_sends_under_80_kb():
    expected = [f"{i:02d}" + "\u0430" * 198 for i in range(MAX_MATRIX_TOOLS)]
    chosen = [f"{i:02d}" + "\u0431" * 198 for i in range(MAX_MATRIX_TOOLS)]
    spec = confusion_chart(_matrix(expected, chosen), "en").to_dict()
    values = next(iter(spec["datasets"].values()))
    assert len(values) == MAX_MATRIX_TOOLS ** 2
    assert len({v["expected"] for v in values}) == len({v["chosen"] for v in values}) == MAX_MATRIX_TOOLS
    assert sum(v["runs"] for v in values) == int(_matrix(expected, chosen).values.sum())
    assert len(json.dumps(spec, ensure_ascii=False)) < 80_000  # 1 248 253 characters before, 66 413 after


#: The next member of the kind: names of any characters and any length a log may carry (MAX_ID_CHARS = 200), an
#: escape of 6 or 12 characters each; the chart's size stays within a bound of its cells alone.
SHAPES = {"ascii": "n", "cyrillic": "\u0430", "zero width": "\u200b", "astral": "\U0001F600", "cjk": "\u5de5"}


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_any_names_make_a_chart_bounded_by_its_cells(shape, lang):
    names = [f"{i:02d}" + SHAPES[shape] * 198 for i in range(MAX_MATRIX_TOOLS + 1)]
    spec = json.dumps(confusion_chart(_matrix(names, names), lang).to_dict(), ensure_ascii=False)
    cells = (MAX_MATRIX_TOOLS + 1) ** 2
    assert len(spec) <= cells * (2 * (CHART_LABEL_CHARS + 4) + 60) + 10_000
    labels = axis_labels(names, lang)
    assert len(set(labels)) == len(names) and max(map(len, labels)) <= CHART_LABEL_CHARS
