"""A run log whose case id is spelled two ways that read alike (another Unicode normalisation form, a
zero-width character, a soft hyphen, a trailing space: toolcall.text.reading_key, case kept) counts one
case, under its first spelling, and says so in a note (en, zh); the set's expectations reach the case
whichever spelling the log uses. Before, ``café`` (NFC) and ``café`` (NFD), or ``c1`` and ``c1 ``, were two
rows reading the same, each with half the runs. The eval command's table shows a look-alike tool name
(Cyrillic о) escaped, in its expected column and the confusion matrix, as the page does."""

import json
import unicodedata

import pytest

from toolcall.cli import main
from toolcall.eval_import import read_log
from toolcall.evaluation import analyse
from toolcall.i18n import t
from toolcall.selection import NO_TOOL
from toolcall.text import DEFAULT_IGNORABLE_RANGES, SEPARATORS

TOOLS = [{"name": "get_order", "description": "d", "input_schema": {"type": "object"}},
         {"name": "get_\u043erder", "description": "d", "input_schema": {"type": "object"}}]


def _log(*rows: tuple[str, str, str]) -> bytes:
    lines = [json.dumps({"case_id": case, "run": i, "model": "m", "tools": TOOLS,
                         "expected_calls": [{"name": expected, "arguments": {}}] if expected else [],
                         "actual_calls": [{"name": chosen, "arguments": {}}]})
             for i, (case, expected, chosen) in enumerate(rows)]
    return ("\n".join(lines) + "\n").encode()


#: One spelling of "café1" per way of writing it differently that reads the same: the NFD form, each hidden
#: range's first character inside it (toolcall.text.HIDDEN), a line separator, white space at either end.
ALIKE = ([unicodedata.normalize("NFD", "caf\u00e91")] + [f"caf\u00e9{chr(lo)}1" for lo, _ in DEFAULT_IGNORABLE_RANGES]
         + [f"caf\u00e9{sep}1" for sep in SEPARATORS] + ["caf\u00e91 ", " caf\u00e91", "caf\u00e91\t"])


@pytest.mark.parametrize("spelling", ALIKE, ids=[ascii(s) for s in ALIKE])
def test_a_spelling_that_reads_alike_counts_towards_one_case(spelling):
    log = read_log(_log(("caf\u00e91", "get_order", "get_order"), (spelling, "get_order", "get_order")))
    assert {run.case_id for run in log.runs} == {"caf\u00e91"}
    assert [(c.case_id, c.n, c.c) for c in analyse(log, 2).cases] == [("caf\u00e91", 2, 2)]
    assert [note.code for note in log.notes] == ["case_ids_read_alike"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_note_quotes_every_spelling_escaped(lang):
    log = read_log(_log(("c1", "get_order", "get_order"), ("c1 ", "get_order", "get_order"),
                        ("c1\u200b", "get_order", "get_order"), ("C1", "get_order", "get_order")))
    note = log.notes[0]
    assert note.params == {"ids": '"c1", "c1 ", "c1\\u200b"', "groups": 1}
    assert note.text(lang) == t("eval.notes.case_ids_read_alike", lang, ids='"c1", "c1 ", "c1\\u200b"', groups=1)
    assert [(c.case_id, c.n) for c in analyse(log, 1).cases] == [("c1", 3), ("C1", 1)]  # case is not folded


def test_ids_that_read_differently_are_not_merged_and_get_no_note():
    log = read_log(_log(("c1", "get_order", "get_order"), ("C1", "get_order", "get_order"),
                        ("c\u04411", "get_order", "get_order")))
    assert log.notes == [] and len({r.case_id for r in log.runs}) == 3


def test_the_sets_expectation_reaches_a_case_spelled_another_way():
    log = read_log(_log(("c1 ", "get_order", "get_order")))
    [case] = analyse(log, 1).cases
    assert (case.expected_tool, case.c) == ("get_order", 1)
    [case] = analyse(log, 1, {"c1": ()}).cases  # the set says: call no tool; before, ignored for "c1 "
    assert (case.case_id, case.expected_tool, case.c) == ("c1 ", NO_TOOL, 0)


def test_the_eval_table_shows_a_lookalike_tool_name_escaped(tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_log(("c1", "get_order", "get_\u043erder"), ("c2", "get_\u043erder", "get_\u043erder")))
    assert main(["eval", str(path), "--k", "1"]) == 0
    out = capsys.readouterr().out
    assert "c2                           get_\\u043erder      1    1" in out
    matrix = out.split("confusion matrix", 1)[1]
    assert "get_\\u043erder" in matrix and "\u043e" not in matrix
