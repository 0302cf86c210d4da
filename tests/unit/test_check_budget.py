"""``python -m toolcall check`` holds what one run reads in all, not only each file (issue 13, memory kind): each
file is capped (MAX_FILE_CHARS), but a tree of many files each under its cap was read whole and kept parsed in the
run's memo, so CI's check of submitted content took time and memory without end. Bytes are counted, no clock."""

from __future__ import annotations

import json
import os

import pytest

import toolcall.check
import toolcall.files
from toolcall import REPO_ROOT
from toolcall.check import run_checks
from toolcall.cli import main

SIZE = 10_000


def _tool(n: int) -> str:
    return json.dumps({"name": f"tool_{n}", "description": "x" * SIZE, "input_schema": {"type": "object"}}) + "\n"


def _tree(root, kind: str, count: int) -> list:
    """``count`` files of one content kind, each about SIZE bytes (far under every per-file cap)."""
    folder, name, text = {
        "tools": ("fixtures/tools", "t{n:02d}.json", _tool),
        "lessons": ("lessons/en", "{n:02d}-lesson.md", lambda n: "---\ntitle: t\n---\n" + "word " * (SIZE // 5)),
        "exercises": ("fixtures/exercises", "e{n:02d}.yaml", lambda n: "exercises: []\n# " + "x" * SIZE + "\n"),
        "eval_runs": ("fixtures/eval_runs", "r{n:02d}.jsonl", lambda n: "{}\n" * (SIZE // 3)),
    }[kind]
    (root / folder).mkdir(parents=True)
    (root / "fixtures").mkdir(exist_ok=True)
    paths = []
    for n in range(count):
        path = root / folder / name.format(n=n)
        path.write_text(text(n))
        paths.append(path)
    return paths


def test_check_stops_at_its_read_budget_and_says_where(tmp_path, monkeypatch):
    """Ten tool files of 10 074 bytes with a 35 000-byte budget: the listing (10 names), the tool schema and three
    tools fit; the fourth tool is where it stops, named with what was read and the budget."""
    paths = _tree(tmp_path, "tools", 10)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 35_000)
    schema = (REPO_ROOT / "fixtures" / "schemas" / "tool.schema.json").stat().st_size
    problems = run_checks(tmp_path)
    size = paths[3].stat().st_size
    assert str(problems[-1]) == (
        f"{paths[3]}: $: check stopped here: it had looked at or read 14 files ({schema + 3 * size:,} bytes), and "
        f"this file ({size:,} bytes) would pass what one run reads (5,000 files, 35,000 bytes); this file and the "
        "rest were not checked. Check a smaller folder, or remove files the course does not use")
    assert not [p for p in problems if str(paths[4]) in str(p)]  # the files after it: not read


def test_check_counts_every_name_it_lists(tmp_path, monkeypatch):
    """A folder of many small files the app never reads: each is a name listed, counted against the files."""
    folder = tmp_path / "fixtures" / "tools"
    folder.mkdir(parents=True)
    (folder / "a.json").write_text(_tool(0))
    for n in range(40):
        (folder / f"note{n:02d}.txt").write_text("x")
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_FILES", 25)
    problems = run_checks(tmp_path)
    assert len(problems) == 1 and "check stopped here: it had looked at or read 25 files (0 bytes)" in str(problems[0])
    assert str(problems[0]).startswith(f"{folder}/") and "(25 files, 32,000,000 bytes)" in str(problems[0])


@pytest.mark.parametrize("kind", ["tools", "lessons", "exercises", "eval_runs"])
def test_what_check_opens_stays_within_its_budget_for_every_kind_of_content(tmp_path, monkeypatch, kind):
    """The kind: whatever the content, the bytes of the files check opens stay within MAX_CHECK_BYTES (main: every
    file, 30 × 10 KB here)."""
    _tree(tmp_path, kind, 30)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 60_000)
    opened = []
    real_open = os.open

    def counting_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        opened.append(os.fstat(fd).st_size)
        return fd

    monkeypatch.setattr(toolcall.files.os, "open", counting_open)
    problems = run_checks(tmp_path)
    assert sum(opened) <= 60_000, sum(opened)
    assert "check stopped here" in str(problems[-1])


def test_the_command_prints_where_it_stopped_and_fails(tmp_path, monkeypatch, capsys):
    paths = _tree(tmp_path, "tools", 10)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 35_000)
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].startswith(f"{paths[3]}: $: check stopped here:")
    assert err.startswith("problems: ")


def test_the_course_fits_its_budget_with_room():
    """The shipped content, checked whole, uses a small part of the budget (so the budget is no limit on a real
    course): under a tenth of the files and of the bytes."""
    with toolcall.files.read_budget(toolcall.check.MAX_CHECK_FILES, toolcall.check.MAX_CHECK_BYTES) as budget:
        toolcall.check._run_checks(REPO_ROOT, problems := [])
    assert problems == []
    assert budget.used_files * 10 < toolcall.check.MAX_CHECK_FILES
    assert budget.used_bytes * 10 < toolcall.check.MAX_CHECK_BYTES
