"""The confusion matrix of a run log is bounded by MAX_MATRIX_TOOLS names per axis, whatever the log names
(issue: 5 000 distinct expected and chosen tool names, a 0.8 MB upload, made a 25-million-cell table of about
400 MB and a chart of as many cells). Every run still counts: the names past the cap are summed under
OTHER_TOOLS, and the analysis says how many were folded."""

import json
import subprocess
import sys

import pandas as pd
import pytest

from toolcall import REPO_ROOT
from toolcall.eval_charts import confusion_chart, tool_label
from toolcall.eval_import import read_native
from toolcall.evaluation import MAX_MATRIX_TOOLS, OTHER_TOOLS, analyse, folded_confusion
from toolcall.i18n import t
from toolcall.selection import NO_TOOL

TOOLS = [{"name": "t", "input_schema": {"type": "object"}}]


def log_bytes(expected_names, chosen_names) -> bytes:
    """One run per pair; an empty chosen name is a run that calls nothing."""
    lines = []
    for i, (want, got) in enumerate(zip(expected_names, chosen_names)):
        record = {"case_id": f"c{i}", "run": 1, "model": "m", "expected_calls": [{"name": want, "arguments": {}}],
                  "actual_calls": [{"name": got, "arguments": {}}] if got else []}
        if i == 0:
            record["tools"] = TOOLS
        lines.append(json.dumps(record))
    return "\n".join(lines).encode()


def test_a_log_naming_hundreds_of_tools_gets_a_bounded_matrix_that_counts_every_run():
    """500 distinct names on each side: 20 x 20 cells, not 500 x 500; the folded names are counted."""
    n = 500
    result = analyse(read_native(log_bytes([f"e{i}" for i in range(n)], [f"a{i}" for i in range(n)])), 1)
    assert result.confusion.shape == (MAX_MATRIX_TOOLS, MAX_MATRIX_TOOLS)
    assert int(result.confusion.values.sum()) == n
    assert result.folded_tools == (n - (MAX_MATRIX_TOOLS - 1), n - (MAX_MATRIX_TOOLS - 1))
    assert list(result.confusion.index)[-1] == OTHER_TOOLS and list(result.confusion.columns)[-1] == OTHER_TOOLS


def test_the_most_frequent_names_and_no_tool_are_kept():
    """The frequent names keep their own row and column; NO_TOOL (a run that called nothing) is never folded."""
    expected = ["get_order"] * 50 + ["refund_order"] * 40 + [f"rare{i}" for i in range(100)]
    chosen = ["get_order"] * 50 + [""] * 40 + [f"odd{i}" for i in range(100)]
    result = analyse(read_native(log_bytes(expected, chosen)), 1)
    table = result.confusion
    assert table.loc["get_order", "get_order"] == 50 and table.loc["refund_order", NO_TOOL] == 40
    assert int(table.loc[OTHER_TOOLS].sum()) == 100 - (MAX_MATRIX_TOOLS - 3)
    assert list(table.columns)[-2:] == [OTHER_TOOLS, NO_TOOL]


@pytest.mark.parametrize("names", [5, MAX_MATRIX_TOOLS, MAX_MATRIX_TOOLS + 1, 3_000])
def test_any_number_of_names_gives_at_most_the_cap_per_axis_and_keeps_the_total(names):
    """Derived from the cap: the matrix and its chart never exceed MAX_MATRIX_TOOLS² cells, nothing folds
    below the cap, and the sum of the cells is the number of graded runs."""
    runs = 6_000
    graded = pd.DataFrame({"expected_tool": [f"e{i % names}" for i in range(runs)],
                           "chosen_tool": [f"c{(i * 11) % names}" for i in range(runs)]})
    table, folded = folded_confusion(graded)
    assert table.shape[0] <= MAX_MATRIX_TOOLS and table.shape[1] <= MAX_MATRIX_TOOLS
    assert int(table.values.sum()) == runs
    assert folded == ((0, 0) if names <= MAX_MATRIX_TOOLS else (names - MAX_MATRIX_TOOLS + 1,) * 2)
    data = confusion_chart(table, "en").to_dict()["datasets"]
    assert sum(len(rows) for rows in data.values()) <= MAX_MATRIX_TOOLS ** 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_other_row_is_labelled_in_the_page_language(lang):
    assert tool_label(OTHER_TOOLS, lang) == t("eval.other_tools", lang)
    assert "{" not in t("eval.matrix_folded", lang, kept=19, expected=3, chosen=4)


def test_cli_json_and_text_say_what_was_folded(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_bytes(log_bytes([f"e{i}" for i in range(60)], [f"a{i}" for i in range(60)]))
    out = subprocess.run([sys.executable, "-m", "toolcall", "eval", str(path), "--k", "1", "--out", "json"],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    folded = 60 - (MAX_MATRIX_TOOLS - 1)
    assert json.loads(out.stdout)["confusion"]["folded"] == {"expected": folded, "chosen": folded}
    text = subprocess.run([sys.executable, "-m", "toolcall", "eval", str(path), "--k", "1"],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120).stdout
    assert t("eval.matrix_folded", "en", kept=MAX_MATRIX_TOOLS - 1, expected=folded, chosen=folded) in text
