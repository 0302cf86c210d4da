"""A run log that starts with a UTF-8 byte-order mark (Windows PowerShell's and older Notepad's "UTF-8") reads
like the same log without it, in every format, for the command line, the upload and the course's recorded logs.
Before, the mark broke line 1 of a native log, so every later line "must list the tools the model saw" (310
problems, no run), and a τ-bench list was taken for a native log."""

import codecs
import json

import pytest

from toolcall import FIXTURES_DIR
from toolcall.cli import main
from toolcall.eval_import import read_log, read_recorded

NATIVE = (FIXTURES_DIR / "eval_runs" / "shop_good.en.jsonl").read_bytes()
TAU = json.dumps([{"task_id": t, "trial": r, "reward": float((t + r) % 2), "info": {}, "traj": []}
                  for t in range(3) for r in range(2)]).encode()


@pytest.mark.parametrize("data", [NATIVE, TAU], ids=["native", "tau"])
def test_a_byte_order_mark_changes_nothing(data):
    plain, marked = read_log(data), read_log(codecs.BOM_UTF8 + data)
    assert (marked.fmt, len(marked.runs), marked.problems) == (plain.fmt, len(plain.runs), [])
    assert marked.runs == plain.runs


def test_the_command_line_and_a_recorded_log_read_it_whole(tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    path.write_bytes(codecs.BOM_UTF8 + NATIVE)
    assert main(["eval", str(path), "--k", "1"]) == 0
    assert capsys.readouterr().err == ""
    recorded = read_recorded(path)
    assert len(recorded.log.runs) == len(NATIVE.splitlines()) and recorded.requests[1]
