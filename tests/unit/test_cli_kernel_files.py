"""A kernel's file (/proc, /sys) says its size is 0 and still has text: every file argument of every subcommand
read it as what it holds, never as "an empty file" (issue 13, command-line kind: the message names the actual
problem). Before: ``lint /proc/cpuinfo``, ``eval /proc/self/status``, ``strict /proc/version`` … said
``FILE /proc/cpuinfo: an empty file``. A file that is empty is still called so."""

import io
import os
import sys

import pytest

from tests.unit.test_cli_bad_inputs import ARGS, _argv
from toolcall.cli import label, main

KERNEL_FILE = "/proc/version"  # a regular file of size 0 holding one line of text


def _file_cases():
    for command, actions in sorted(ARGS.items()):
        for action in actions:
            if action.file_kind in ("text", "bytes"):
                yield pytest.param(command, action, id=f"{command}-{label(action)}")


def test_the_kernel_file_says_size_0_and_has_text():
    with open(KERNEL_FILE, "rb") as fh:
        assert (os.stat(KERNEL_FILE).st_size, fh.read(5)) == (0, b"Linux")


@pytest.mark.parametrize("command, action", list(_file_cases()))
def test_a_kernel_file_is_read_not_called_empty(capsys, monkeypatch, command, action):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code = main(_argv(command, action.dest, KERNEL_FILE))
    out, err = capsys.readouterr()
    assert (code, out, "empty" in err, "Traceback" in err) == (2, "", False, False), err
    assert "'Linux version" in err or "line 1, column 1" in err, err  # what it holds was read: not JSON


@pytest.mark.parametrize("command, action", list(_file_cases()))
def test_an_empty_file_is_still_called_empty(tmp_path, capsys, monkeypatch, command, action):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    (tmp_path / "empty").write_bytes(b"")
    assert main(_argv(command, action.dest, str(tmp_path / "empty"))) == 2
    assert capsys.readouterr().err == f"{label(action)} {tmp_path / 'empty'}: an empty file\n"
