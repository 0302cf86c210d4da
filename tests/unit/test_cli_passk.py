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
