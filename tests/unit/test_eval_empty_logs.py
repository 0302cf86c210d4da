"""A run log that is read without a single problem but holds no run (an empty τ-bench list, τ²-bench Results
with no simulations, an Inspect log without samples, a JSONL file of blank lines) is called empty, in both
languages, by `python -m toolcall eval` and by the selection lab's upload: not "no usable runs (problems: 0)",
which names no problem. Cases: an empty document of every log format the reader detects (toolcall.eval_import)."""

import io
import sys

import pytest

from toolcall.cli import main
from toolcall.eval_import import read_log
from toolcall.i18n import t

#: An empty document per format, and the format the reader detects it as.
EMPTY = {"tau_list": (b"[]", "tau"), "tau2_results": (b'{"info": {"num_trials": 1}, "simulations": []}', "tau"),
         "inspect_no_samples": (b'{"eval": {"task": "t"}, "samples": []}', "inspect"),
         "inspect_bare_object": (b"{}", "inspect")}


@pytest.mark.parametrize("name", sorted(EMPTY))
def test_the_reader_finds_no_run_and_no_problem(name):
    data, fmt = EMPTY[name]
    log = read_log(data, "auto", "x")
    assert (log.fmt, log.runs, log.problems) == (fmt, [], [])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(EMPTY))
def test_the_command_line_calls_an_empty_log_empty(tmp_path, capsys, monkeypatch, name, lang):
    data, fmt = EMPTY[name]
    path = tmp_path / "runs.json"
    path.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["eval", str(path), "--k", "1", "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert err == f"{path}: {t('eval.empty_log', lang, format=t(f'eval.format_{fmt}', lang))}\n"
    assert "(problems: 0)" not in err and "0）" not in err


def test_a_log_with_only_bad_records_still_counts_them(tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    path.write_text('"x"\n5\n', encoding="utf-8")
    assert main(["eval", str(path), "--k", "1"]) == 2
    assert capsys.readouterr().err.endswith(f"{path}: {t('eval.cli.no_runs', 'en', count=2)}\n")


@pytest.mark.parametrize("name", ["runs.eval", "runs.json", "runs.jsonl"])
@pytest.mark.parametrize("data", [b"", b"  \n\n"])
def test_an_empty_file_of_any_name_is_an_empty_log_not_broken_json(name, data):
    """An empty file named .eval read "not JSON: the text stops at line 1, column 1"."""
    log = read_log(data, "auto", name)
    assert (log.runs, log.problems) == ([], [])


def test_a_jsonl_file_is_read_as_jsonl_whatever_its_first_line_holds():
    """A .jsonl file whose first line had no "case_id" was taken for an Inspect .json log ("expected an Inspect
    EvalLog object"): its lines are now each reported where they are wrong."""
    log = read_log(b'{"a": 1}\n{"b": 2}\n', "auto", "runs.jsonl")
    assert log.fmt == "native" and [p.line for p in log.problems] == [1, 2]
