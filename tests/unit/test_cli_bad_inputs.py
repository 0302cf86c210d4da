"""Every file, folder and stdin argument of every subcommand, given each kind of bad input,
gets one line on stderr naming the argument and the file, exit code 2 and no traceback
(issue 13). The cases come from the argparse definition (toolcall.cli.file_arguments): a new
subcommand or file argument is covered as soon as it is declared with _file_arg, and this test
fails until VALID says how to call the new subcommand correctly."""

import io
import os
import sys
from pathlib import Path

import pytest

from toolcall.cli import _build_parser, file_arguments, label, main

REPO = Path(__file__).resolve().parents[2]
TOOL = str(REPO / "fixtures" / "tools" / "refund_order.json")

#: A correct call of each subcommand that takes a file, folder or stdin: {dest: value} (positionals
#: in order first) plus fixed arguments. The bad value replaces one dest at a time.
VALID = {
    "result": ({"tool": TOOL, "input": "{}"}, []),
    "check": ({"dir": str(REPO)}, []),
    "conformance": ({"suite": str(REPO)}, []),
    "grade": ({"exercise_id": "pk_pass3", "answer": "1"}, []),
    "pairing": ({"file": str(REPO / "fixtures" / "tools" / "refund_order.json")}, []),
    "strict": ({"tool": TOOL}, ["--provider", "openai"]),
    "eval": ({"runs": str(REPO / "fixtures" / "eval_runs" / "shop_vague.en.jsonl")}, ["--k", "1"]),
    "lint": ({"file": TOOL}, []),
}

PARSER = _build_parser()
ARGS = file_arguments(PARSER)
FILE_KINDS = ("missing", "folder", "fifo", "dev_zero", "link_to_dev_zero", "loop", "not_utf8", "empty", "blank",
              "too_big")
FOLDER_KINDS = ("missing", "file", "fifo", "dev_zero", "loop")
STDIN_KINDS = {"not_utf8": b"\xff{}", "empty": b"", "blank": b" \n"}


def _cases():
    for command, actions in sorted(ARGS.items()):
        for action in actions:
            if action.file_kind == "folder":
                kinds = FOLDER_KINDS
            elif action.file_kind == "stdin":
                kinds = ()
            else:
                kinds = FILE_KINDS
            for kind in kinds:
                yield pytest.param(command, action, kind, id=f"{command}-{label(action)}-{kind}")


def _stdin_cases():
    for command, actions in sorted(ARGS.items()):
        for action in actions:
            if action.reads_stdin:
                for kind in STDIN_KINDS:
                    yield pytest.param(command, action, kind, id=f"{command}-{label(action)}-stdin-{kind}")


def _argv(command: str, dest: str, value: str) -> list[str]:
    assert command in VALID, f"add a correct call of the new subcommand {command!r} to VALID"
    values, extra = VALID[command]
    values = {**values, dest: value}
    argv = [command]
    for action in next(a for a in PARSER._actions if hasattr(a, "choices") and a.choices)\
            .choices[command]._actions:
        if action.dest in values and not action.option_strings:
            argv.append(values[action.dest])
        elif action.dest in values:
            argv += [action.option_strings[0], values[action.dest]]
    return argv + extra


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    os.symlink("loop", root / "loop")
    os.symlink("/dev/zero", root / "link_to_dev_zero")
    (root / "not_utf8").write_bytes(b'{"a": "\xff"}')
    (root / "empty").write_bytes(b"")
    (root / "blank").write_bytes(b"  \n\n")
    (root / "file").write_text("{}")
    with open(root / "too_big", "wb") as fh:  # sparse: over every limit, never read
        fh.truncate(2 ** 30)
    paths = {kind: str(root / kind) for kind in FILE_KINDS + FOLDER_KINDS}
    paths["dev_zero"] = "/dev/zero"
    return paths


def _one_clear_line(capsys, code, *named):
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert (code, out) == (2, ""), err
    assert len(lines) == 1 and "Traceback" not in err, err
    for name in named:
        assert name in lines[0], lines[0]
    return lines[0]


def test_every_subcommand_with_a_file_argument_has_a_correct_call():
    assert set(ARGS) - {c for c, a in ARGS.items() if not a} <= set(VALID)
    for command in VALID:  # the correct calls themselves are accepted
        assert ARGS[command], f"{command} takes no file argument any more: remove it from VALID"


@pytest.mark.parametrize("command, action, kind", list(_cases()))
def test_a_bad_file_or_folder_argument_gets_one_line_and_exit_2(bad, capsys, monkeypatch, command, action, kind):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    path = bad[kind]
    code = main(_argv(command, action.dest, path))
    _one_clear_line(capsys, code, label(action), path)


@pytest.mark.parametrize("command, action, kind", list(_stdin_cases()))
def test_a_bad_stdin_gets_one_line_and_exit_2(capsys, monkeypatch, command, action, kind):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(STDIN_KINDS[kind]), encoding="utf-8"))
    code = main(_argv(command, action.dest, "-"))
    line = _one_clear_line(capsys, code, label(action), "- (stdin)")
    if kind == "not_utf8":
        assert line.endswith("not UTF-8 text (byte 0)")


def test_the_messages_the_closing_note_listed(bad, capsys, monkeypatch):
    assert main(["check", "/nonexistent"]) == 2
    assert _one_clear_line(capsys, 2, "/nonexistent") == "DIR /nonexistent: no such folder"
    runs = VALID["eval"][0]["runs"]
    assert main(["eval", runs, "--k", "1", "--selection", bad["not_utf8"]]) == 2
    line = _one_clear_line(capsys, 2, bad["not_utf8"])
    assert line == f"--selection {bad['not_utf8']}: not UTF-8 text (byte 7)" and runs not in line
    assert main(["eval", bad["not_utf8"], "--k", "1"]) == 2
    assert _one_clear_line(capsys, 2) == f"RUNS {bad['not_utf8']}: not UTF-8 text (byte 7)"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"a": 1}\xff'), encoding="utf-8"))
    assert main(["result", "--tool", TOOL, "--input", "-"]) == 2
    assert _one_clear_line(capsys, 2) == "--input - (stdin): not UTF-8 text (byte 8)"


def test_every_argument_that_names_a_file_is_declared_as_one():
    """An argument whose help speaks of a file, folder, stdin, JSON, YAML or a log must be added with
    _file_arg, or the checks above (and main's) would not know it."""
    import argparse
    import re

    sub = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction))
    undeclared = [
        f"{command} {label(action)}"
        for command, parser in sub.choices.items()
        for action in parser._actions
        if action.help and not getattr(action, "file_kind", None) and action.type is None and not action.choices
        and re.search(r"\b(file|folder|stdin|JSON|JSONL|YAML|log|DIR)\b", action.help)
    ]
    assert undeclared == []
