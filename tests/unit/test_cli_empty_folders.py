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


@pytest.mark.parametrize("setup, expected", [
    ("loop", "fixtures/exercises: $: a symlink loop (the link points back to itself): no exercises can be loaded "
             "from it\n"),
    ("missing", "fixtures/exercises: $: no such folder: no exercises can be loaded from it\n"),
    ("file", "fixtures/exercises: $: not a folder: no exercises can be loaded from it\n"),
    ("empty", "{root}/fixtures/exercises: no exercise files (*.yaml, *.yml) in this folder\n"),
])
def test_grade_without_exercises_names_the_content_root_s_folder_alone(tmp_path, setup, expected):
    """grade without --exercises reads the content root's fixtures/exercises: a link to itself was "no such folder",
    and missing, a file or empty it was followed by "unknown exercise id 'pk_pass3'; known ids: none", blaming the id
    (break-it pass brk19new; --exercises said only the folder's problem)."""
    import os
    import shutil
    import subprocess

    from tests.content_copy import copy_content
    from toolcall import REPO_ROOT

    root = copy_content(tmp_path)
    folder = root / "fixtures" / "exercises"
    shutil.rmtree(folder)
    if setup == "loop":
        folder.symlink_to(folder)
    elif setup == "file":
        folder.write_text("x")
    elif setup == "empty":
        folder.mkdir()
    run = subprocess.run([sys.executable, "-m", "toolcall", "grade", "pk_pass3", "0.5"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=120,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root), "PYTHONPATH": str(REPO_ROOT)})
    assert (run.returncode, run.stdout, run.stderr) == (2, "", expected.format(root=root))
