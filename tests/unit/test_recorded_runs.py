"""The selection lab's recorded run logs (fixtures/eval_runs/*.jsonl) are read as every other course file:
bounded, through toolcall.files, and a file the page cannot show is a problem naming the file (and the
line and JSON path), the same for ``check`` and the page (toolcall.eval_import.read_recorded). The page
read them with Path.read_bytes(): a FIFO hung it, a folder or a missing file was an IsADirectoryError /
FileNotFoundError traceback, a first blank line (which check accepts) a JSONDecodeError, and a tool
description that is a number a TypeError."""

import json
import os
import shutil

import pytest

from toolcall import FIXTURES_DIR
from toolcall.check import check_selection_and_runs
from toolcall.eval_import import read_recorded
from toolcall.fixtures import FixtureError

GOOD = FIXTURES_DIR / "eval_runs" / "shop_good.en.jsonl"


def _lines() -> list[dict]:
    return [json.loads(line) for line in GOOD.read_text(encoding="utf-8").splitlines()]


def _write(path, records, prefix: str = "") -> None:
    path.write_text(prefix + "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")


@pytest.mark.parametrize("kind, reason", [
    ("fifo", "a FIFO (named pipe), not a regular file"),
    ("folder", "a folder, not a regular file"),
    ("dangling", "a link to {tmp_path}/nowhere, which does not exist"),
    ("loop", "a symlink loop (the link points back to itself)"),
    ("not_utf8", "not UTF-8 text (byte 0)"),
    ("sparse", "too large: 4,294,967,296 bytes; the limit is 50,000,000 bytes"),
])
def test_a_recorded_log_that_cannot_be_read_is_a_problem_naming_it(tmp_path, kind, reason):
    path = tmp_path / "shop_good.en.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "not_utf8":
        path.write_bytes(b"\xff{}\n")
    else:
        with open(path, "wb") as fh:
            fh.truncate(1 << 32)
    with pytest.raises(FixtureError) as exc:
        read_recorded(path)
    assert [(p.path, p.message) for p in exc.value.problems] == [
        ("$", f"cannot read file: {reason.format(tmp_path=tmp_path)}")]
    assert exc.value.problems[0].file.endswith("shop_good.en.jsonl")


def test_a_first_blank_line_is_read_as_check_reads_it(tmp_path):
    path = tmp_path / "runs.jsonl"
    _write(path, _lines(), prefix="\n")
    recorded = read_recorded(path)
    assert [name for name, _ in recorded.tools] == [t["name"] for t in _lines()[0]["tools"]]
    assert recorded.requests[2] == _lines()[0]["request"]  # line numbers count the blank line


@pytest.mark.parametrize("field, where", [("description", "$.tools[1].description"), ("request", "$.request")])
def test_a_field_the_page_shows_that_is_not_a_string_is_a_problem_for_check_too(tmp_path, field, where):
    root = tmp_path
    shutil.copytree(FIXTURES_DIR / "selection", root / "fixtures" / "selection")
    shutil.copytree(FIXTURES_DIR / "tools", root / "fixtures" / "tools")
    records = _lines()
    if field == "description":
        records[0]["tools"][1]["description"] = 5
    else:
        records[0]["request"] = ["not", "text"]
    (root / "fixtures" / "eval_runs").mkdir()
    path = root / "fixtures" / "eval_runs" / "shop_good.en.jsonl"
    _write(path, records)
    with pytest.raises(FixtureError) as exc:
        read_recorded(path)
    assert [(p.path, p.message) for p in exc.value.problems] == [(f"line 1: {where}", "must be a string")]
    assert [(p.path, p.message) for p in check_selection_and_runs(root)] == [(f"line 1: {where}", "must be a string")]


def test_the_course_logs_read_whole():
    for path in sorted((FIXTURES_DIR / "eval_runs").glob("*.jsonl")):
        recorded = read_recorded(path)
        assert len(recorded.log.runs) == len(path.read_text(encoding="utf-8").splitlines())
        assert recorded.tools and all(isinstance(d, str) and d for _, d in recorded.tools)
