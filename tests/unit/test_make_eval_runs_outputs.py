"""scripts/make_eval_runs.py writes each log into a new file of its own beside it, then renames it into place (as
``python -m toolcall export`` does): a FIFO where a log goes hung the script for good, and a link there had the log
written into the link's target, wherever it pointed."""

import os
import subprocess
import sys

from toolcall import FIXTURES_DIR, REPO_ROOT

LOGS = ["shop_vague.en.jsonl", "shop_good.en.jsonl", "shop_vague.zh.jsonl", "shop_good.zh.jsonl"]


def _make(out):
    return subprocess.run([sys.executable, "scripts/make_eval_runs.py", "--out", str(out)], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=60)


def test_a_fifo_and_a_link_where_logs_go_are_replaced_not_written_through(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "shop_vague.en.jsonl")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    (out / "shop_good.en.jsonl").symlink_to(victim)
    run = _make(out)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.splitlines() == [str(out / name) for name in LOGS]
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert sorted(os.listdir(out)) == sorted(LOGS)  # no .part file left
    for name in LOGS:
        assert not (out / name).is_symlink()
        assert (out / name).read_bytes() == (FIXTURES_DIR / "eval_runs" / name).read_bytes()


def test_a_folder_where_a_log_goes_is_named_and_no_part_file_is_left(tmp_path):
    (tmp_path / "shop_vague.en.jsonl").mkdir()
    run = _make(tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"{tmp_path / 'shop_vague.en.jsonl'}: not written (Is a directory)\n"
    assert os.listdir(tmp_path) == ["shop_vague.en.jsonl"]
