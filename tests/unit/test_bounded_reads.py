"""Issue 13: the command line and the loaders read only what they can afford.

Every reader goes through toolcall/files.py: not a regular file (device, FIFO, folder), a
symlink loop, a huge sparse file and a file one character over the limit are refused with
their reason, before or without reading them whole.
"""

import io
import os
import shutil
import subprocess
import sys

import pytest

from toolcall import REPO_ROOT
from toolcall.check import run_checks
from toolcall.cli import main
from toolcall.files import ReadError, read_stream_bounded, read_text_bounded
from toolcall.fixtures import FixtureError, read_data
from toolcall.lessons import load_lessons


@pytest.fixture
def hostile(tmp_path):
    """A folder of things that are not affordable files."""
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "loop1.json").symlink_to(tmp_path / "loop2.json")
    (tmp_path / "loop2.json").symlink_to(tmp_path / "loop1.json")
    os.mkfifo(tmp_path / "fifo.json")
    with open(tmp_path / "sparse.json", "wb") as fh:
        fh.truncate(1 << 30)  # 1 GB, no blocks on disk
    (tmp_path / "folder.json").mkdir()
    return tmp_path


@pytest.mark.parametrize("name, reason", [
    ("zero.json", "a character device, not a regular file"),
    ("fifo.json", "a FIFO (named pipe), not a regular file"),
    ("loop1.json", "a symlink loop (the link points back to itself)"),
    ("folder.json", "a folder, not a regular file"),
    ("sparse.json", "too large: 1,073,741,824 bytes; the limit is 2,000,000 characters"),
    ("missing.json", "no such file")])
def test_what_is_not_an_affordable_file_is_refused_with_its_reason(hostile, name, reason):
    with pytest.raises(ReadError) as exc:
        read_text_bounded(hostile / name)
    assert str(exc.value) == reason
    with pytest.raises(FixtureError) as exc:
        read_data(hostile / name)
    assert exc.value.problems[0].message == f"cannot read file: {reason}"


def test_at_most_limit_plus_one_characters_are_read(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("é" * 10, encoding="utf-8")  # 10 characters, 20 bytes
    assert read_text_bounded(path, 10) == "é" * 10
    path.write_text("é" * 11, encoding="utf-8")
    with pytest.raises(ReadError, match="too large: more than 10 characters"):
        read_text_bounded(path, 10)
    stream = io.StringIO("x" * 1000)
    with pytest.raises(ReadError):
        read_stream_bounded(stream, 10)
    assert stream.tell() == 11  # limit + 1, not the whole stream


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolcall", *args], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, err", [
    (["pairing", "/dev/zero"], "FILE /dev/zero: a character device, not a regular file\n"),
    (["result", "--tool", "/dev/zero", "--input", "{}"], "--tool /dev/zero: a character device, not a regular file\n")])
def test_the_command_line_refuses_dev_zero_at_once(args, err):
    run = _cli(*args)
    assert (run.returncode, run.stderr) == (2, err)


def test_pairing_refuses_a_fifo_a_loop_and_a_sparse_file_without_hanging(hostile, capsys):
    for name, reason in [("fifo.json", "a FIFO (named pipe), not a regular file"),
                         ("loop1.json", "a symlink loop (the link points back to itself)"),
                         ("sparse.json", "too large: 1,073,741,824 bytes; the limit is 4,000,004 bytes")]:
        assert main(["pairing", str(hostile / name)]) == 2
        assert capsys.readouterr().err == f"FILE {hostile / name}: {reason}\n"


def test_stdin_is_read_only_up_to_the_limit(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("[" * 2_000_000))
    assert main(["pairing", "-"]) == 2
    assert "too large: more than 1,000,000 characters" in capsys.readouterr().err
    assert sys.stdin.tell() == 1_000_001


def test_check_reports_links_to_devices_and_loops_in_a_tree(tmp_path, capsys):
    root = tmp_path / "content"
    shutil.copytree(REPO_ROOT / "fixtures", root / "fixtures")
    tools = root / "fixtures" / "tools"
    (tools / "zero.json").symlink_to("/dev/zero")
    (tools / "loop.json").symlink_to(tools / "loop.json")
    os.mkfifo(tools / "fifo.json")
    problems = [str(p) for p in run_checks(root)]
    assert sorted(p for p in problems if "cannot read" in p) == sorted([
        f"{tools / 'fifo.json'}: $: cannot read file: a FIFO (named pipe), not a regular file",
        f"{tools / 'loop.json'}: $: cannot read file: a symlink loop (the link points back to itself)",
        f"{tools / 'zero.json'}: $: cannot read file: a character device, not a regular file"])


def test_check_on_a_folder_with_nothing_to_check_says_so(tmp_path, capsys):
    (tmp_path / "fixtures").mkdir()
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "nothing to check: no fixture or lesson files" in out


def test_grade_with_a_missing_exercises_folder_says_the_folder_is_missing(tmp_path, capsys):
    assert main(["grade", "pk_pass3", "84/120", "--exercises", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err == f"--exercises {tmp_path / 'missing'}: no such folder\n"
    assert "unknown exercise id" not in err


def test_a_lesson_that_is_a_fifo_is_reported_not_waited_for(tmp_path):
    folder = tmp_path / "lessons" / "en"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "01-pipe.md")
    loaded = load_lessons("en", tmp_path)
    assert [p.message for p in loaded.problems] == ["cannot read file: a FIFO (named pipe), not a regular file"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_dangling_link_is_named_as_a_link_to_its_missing_target(tmp_path, lang):
    """A link whose target is gone was "no such file" (没有这个文件), though `ls` lists it in its folder: `check` said
    so of fixtures/exercises/extra.yaml -> /nonexistent/x.yaml (issue 13, round 6). Its target is now named, on one
    line and cut after MAX_TARGET_CHARS characters."""
    from toolcall.files import MAX_TARGET_CHARS, ReadError, check_path, read_text_bounded

    link, far = tmp_path / "extra.yaml", tmp_path / "long"
    link.symlink_to("/nonexistent/x\ny.yaml")
    far.symlink_to("/" + "d/" * 150)
    expected = {"en": "a link to /nonexistent/x\\u000ay.yaml, which does not exist",
                "zh": "指向 /nonexistent/x\\u000ay.yaml 的符号链接，而 /nonexistent/x\\u000ay.yaml 不存在"}[lang]
    for read in (read_text_bounded, lambda p: check_path(p, "file"), lambda p: check_path(p, "folder")):
        with pytest.raises(ReadError) as caught:
            read(link)
        assert caught.value.text(lang) == expected
    with pytest.raises(ReadError) as caught:
        read_text_bounded(far)
    assert str(caught.value) == f"a link to {('/' + 'd/' * 150)[:MAX_TARGET_CHARS]}…, which does not exist"
    with pytest.raises(ReadError) as caught:
        read_text_bounded(tmp_path / "missing.yaml")
    assert caught.value.text(lang) == {"en": "no such file", "zh": "没有这个文件"}[lang]
