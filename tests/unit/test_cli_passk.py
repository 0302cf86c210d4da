"""``python -m toolcall passk --n N --c C --k K`` (the contract in DESIGN.md)."""

import json
import subprocess
import sys

import pytest

from toolcall import REPO_ROOT
from toolcall.cli import main


def test_prints_the_three_estimates_as_json(capsys):
    assert main(["passk", "--n", "10", "--c", "9", "--k", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"n": 10, "c": 9, "k": 3, "pass^k": 0.7, "pass@k": 1.0, "naive": 0.729,
                   "decimal": {"pass^k": "0.7", "pass@k": "1", "naive": "0.729"},
                   "exact": {"pass^k": "7/10", "pass@k": "1", "naive": "729/1000"}}


@pytest.mark.parametrize("args, words", [
    (["--n", "3", "--c", "1", "--k", "5"], "k = 5 is larger than n = 3"),
    (["--n", "3", "--c", "-1", "--k", "2"], "c must not be negative"),
    (["--n", "3", "--c", "4", "--k", "2"], "c = 4 passes cannot exceed n = 3"),
])
def test_bad_input_exits_2_with_a_message(args, words, capsys):
    assert main(["passk", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and words in captured.err


def test_non_integers_are_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as info:
        main(["passk", "--n", "10", "--c", "8.5", "--k", "3"])
    assert info.value.code == 2 and "invalid int value: '8.5'" in capsys.readouterr().err


def test_module_entry_point():
    run = subprocess.run([sys.executable, "-m", "toolcall", "passk", "--n", "10", "--c", "0", "--k", "3"],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert json.loads(run.stdout)["pass@k"] == 0.0


@pytest.mark.parametrize("typed", ["1_0", "\u0661\u0660", "10²", "1e1"])
def test_a_count_is_read_as_the_page_reads_it(typed, capsys):
    """int() read "1_0" as 10 and Arabic-Indic "١٠" as 10, which the pass^k page refuses (passk.read_whole); a
    full-width "１０" is read by both (break-it pass brk20new)."""
    with pytest.raises(SystemExit) as info:
        main(["passk", "--n", typed, "--c", "9", "--k", "3"])
    assert info.value.code == 2 and capsys.readouterr().err.endswith(
        f"error: argument --n: invalid int value: '{typed}'\n")
    assert main(["passk", "--n", "１０", "--c", "9", "--k", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["n"] == 10


@pytest.mark.parametrize("argv, named", [(["passk", "--n", "10", "--c", "9", "--k"], "--k"),
                                         (["eval", "runs.jsonl", "--k"], "--k"),
                                         (["result", "--tool", "t", "--input", "x", "--max-tokens"], "--max-tokens")])
def test_a_refused_number_argument_is_quoted_at_most_40_characters(argv, named, capsys):
    """argparse echoed it whole: 100 000 characters on one line (break-it pass brk20new)."""
    with pytest.raises(SystemExit) as info:
        main([*argv, "9" * 50 + "x" * 100_000])
    err = capsys.readouterr().err
    assert info.value.code == 2 and len(err) < 1_000 and f"'{'9' * 40}…'" in err and named in err
