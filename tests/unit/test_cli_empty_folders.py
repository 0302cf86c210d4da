"""Every folder argument of every subcommand, given an empty folder, gets one line naming the argument or the
folder and saying there is nothing in it, and a non-zero exit: never a message about something else.

Before: `grade pk_pass3 0.7 --exercises EMPTY` said "unknown exercise id 'pk_pass3'; known ids: none", blaming the
id. Cases come from the argparse definition (toolcall.cli.file_arguments, file_kind "folder"): a new folder
argument is covered as soon as it is declared."""

import io
import sys

import pytest

from tests.unit.test_cli_bad_inputs import _argv
from toolcall.cli import _build_parser, file_arguments, label, main

PARSER = _build_parser()
#: What each folder argument must say about an empty folder (the words after the folder's name).
SAYS = {("check", "DIR"): "nothing to check",
        ("conformance", "SUITE_DIR"): "no tests/draft2020-12 folder",
        ("grade", "--exercises"): "no exercise files (*.yaml, *.yml) in this folder"}


def _cases():
    for command, actions in sorted(file_arguments(PARSER).items()):
        for action in actions:
            if action.file_kind == "folder":
                yield pytest.param(command, action, id=f"{command}-{label(action)}")


def test_every_folder_argument_has_its_words():
    assert {(c.values[0], label(c.values[1])) for c in _cases()} == set(SAYS)


@pytest.mark.parametrize("command, action", list(_cases()))
def test_an_empty_folder_is_called_empty(tmp_path, capsys, monkeypatch, command, action):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code = main(_argv(command, action.dest, str(tmp_path)))
    out, err = capsys.readouterr()
    # check prints its problems on stdout and their count on stderr; the others print one line on stderr
    lines = [line for line in (out + err).splitlines() if not line.startswith("problems: ")]
    assert code in (1, 2) and len(lines) == 1, err
    assert str(tmp_path) in lines[0] and SAYS[(command, label(action))] in lines[0], lines[0]
    assert "unknown" not in lines[0]
