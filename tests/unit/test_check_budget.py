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


def test_content_over_the_budget_is_refused_before_anything_is_read(tmp_path, monkeypatch):
    """Ten tool files of 10 074 bytes against a 35 000-byte budget: the sizes pass it at the fourth file; the line
    names the folder and the counts, and no content file was opened."""
    paths = _tree(tmp_path, "tools", 10)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 35_000)
    opened = _count_opens(monkeypatch)
    size = paths[0].stat().st_size
    assert [str(p) for p in run_checks(tmp_path)] == [
        f"{paths[0].parent}: $: more content than check reads in one run (5,000 files, 35,000 bytes): it passed the "
        f"budget here, at 4 files and {4 * size:,} bytes, so nothing was checked. Check a smaller folder, or remove "
        "files the course does not use"]
    # the content folders are opened to see they can be listed (content_folder_problems); no file in them is
    assert [path for path in opened if str(tmp_path) in path and not os.path.isdir(path)] == []
    assert paths[0].parent.as_posix() in opened


def test_content_of_too_many_files_is_refused_by_count(tmp_path, monkeypatch):
    _tree(tmp_path, "tools", 40)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_FILES", 25)
    problems = run_checks(tmp_path)
    assert len(problems) == 1 and "(25 files, 32,000,000 bytes): it passed the budget here, at 26 files" in str(
        problems[0])


def test_what_the_run_opens_is_held_too_and_says_where_it_stopped(tmp_path, monkeypatch):
    """The backstop: content within the budget whose run opens more (a run budget of 0.8 x the content budget here)
    stops at the file that would pass it: three names listed, two tools read (and the tool schema, unless an earlier
    check in this process read it), then the third."""
    paths = _tree(tmp_path, "tools", 3)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 31_000)
    monkeypatch.setattr(toolcall.check, "RUN_BUDGET_FACTOR", 0.8)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_LOG_BYTES", 0)  # the run budget is 0.8 x 31 000 plus this
    schema = (REPO_ROOT / "fixtures" / "schemas" / "tool.schema.json").stat().st_size
    size = paths[0].stat().st_size
    last = str(run_checks(tmp_path)[-1])
    assert last in [
        f"{paths[2]}: $: check stopped here: it had looked at or read {files} files ({read:,} bytes), and this file "
        f"({size:,} bytes) would pass what one run reads (4,000 files, 24,800 bytes); this file and the rest were not "
        "checked. Check a smaller folder, or remove files the course does not use"
        for files, read in ((5, 2 * size), (6, 2 * size + schema))], last


def _count_opens(monkeypatch) -> list:
    """Every path opened through toolcall.files from now on (the list fills as the test runs)."""
    opened: list = []
    real_open = os.open

    def counting_open(path, flags, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(toolcall.files.os, "open", counting_open)
    return opened


@pytest.mark.parametrize("kind", ["tools", "lessons", "exercises", "eval_runs"])
def test_what_check_opens_stays_within_its_budget_for_every_kind_of_content(tmp_path, monkeypatch, kind):
    """The kind: whatever the content, the bytes of the files check opens stay within MAX_CHECK_BYTES (main: every
    file, 30 × 10 KB here)."""
    _tree(tmp_path, kind, 30)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 60_000)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_LOG_BYTES", 60_000)  # the run logs' own budget
    opened = _count_opens(monkeypatch)
    problems = run_checks(tmp_path)
    assert sum(os.stat(path).st_size for path in opened if str(tmp_path) in path) <= 60_000
    assert "so nothing was checked" in str(problems[-1])


def test_the_command_prints_where_it_stopped_and_fails(tmp_path, monkeypatch, capsys):
    paths = _tree(tmp_path, "tools", 10)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 35_000)
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].startswith(f"{paths[3].parent}: $: more content than check reads in one run")
    assert err.startswith("problems: ")


def test_the_course_fits_its_budget_with_room():
    """The shipped content, checked whole, uses a small part of the budget (so the budget is no limit on a real
    course): under a tenth of the files and of the bytes."""
    assert toolcall.check.content_budget_problem(REPO_ROOT) is None
    with toolcall.files.read_budget(toolcall.check.MAX_CHECK_FILES, toolcall.check.MAX_CHECK_BYTES) as budget:
        toolcall.check._run_checks(REPO_ROOT, problems := [])
    assert problems == []
    assert budget.used_files * 10 < toolcall.check.MAX_CHECK_FILES
    assert budget.used_bytes * 10 < toolcall.check.MAX_CHECK_BYTES


def test_run_logs_are_held_to_their_own_budget_not_the_content_budget(tmp_path, monkeypatch):
    """The logs scripts/make_eval_runs.py draws at simulation.yaml's allowed 1 000 runs per case are 43 MB: in the
    32 MB content budget, the whole course was refused, "so nothing was checked" (break-it pass brk18new). Here 10
    logs of 10 KB against a 35 000-byte content budget are checked; past their own budget, one line says so."""
    paths = _tree(tmp_path, "eval_runs", 10)
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_BYTES", 35_000)
    assert toolcall.check.content_budget_problem(tmp_path) is None
    assert not any("nothing was checked" in str(p) for p in run_checks(tmp_path))
    monkeypatch.setattr(toolcall.check, "MAX_CHECK_LOG_BYTES", 35_000)
    size = paths[0].stat().st_size
    assert [str(p) for p in run_checks(tmp_path)] == [
        f"{paths[0].parent}: $: more recorded run logs than check reads in one run (35,000 bytes of *.jsonl): it "
        f"passed the budget here, at {4 * size:,} bytes, so nothing was checked. Draw fewer runs_per_case in "
        "simulation.yaml, or remove logs the course does not use"]


def test_the_logs_the_spec_allows_fit_the_budget():
    """The next member: four logs (2 versions x 2 languages) each as large as the selection lab reads fit the run
    logs' budget, and the rest of the course still fits the content budget beside them."""
    from toolcall.eval_import import MAX_BYTES
    from toolcall.i18n import LANGS
    assert len(LANGS) * 2 * MAX_BYTES <= toolcall.check.MAX_CHECK_LOG_BYTES
