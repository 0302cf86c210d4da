"""A folder this program may open files in but not list (mode 311: ``x`` without ``r``) is named as such, by every
folder argument of every subcommand and by ``check`` for a content folder, with a non-zero exit: never a traceback,
never "nothing there".

Before (break-it pass brk16cli): ``check`` on content whose ``fixtures/exercises`` was mode 711 ended in a
``PermissionError`` traceback (exit 1, from ``unread_file_problems``); with ``lessons/zh`` so, every English lesson
was "missing: … has no zh version"; ``grade --exercises`` on such a folder said "no exercise files". Root lists any
folder, so when the tests run as root the command runs as ``nobody`` (uid 65534, through util-linux's ``setpriv``)."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.content_copy import copy_content
from tests.unit.test_cli_empty_folders import _cases  # every folder argument of every subcommand
from toolcall import REPO_ROOT
from toolcall.cli import label

NOBODY = 65534
SAYS = "permission denied (the folder's permissions do not let this program list the files in it)"
#: The arguments each folder argument is given with (the folder goes where "{dir}" is).
ARGV = {("check", "DIR"): ["check", "{dir}"],
        ("conformance", "SUITE_DIR"): ["conformance", "{dir}"],
        ("grade", "--exercises"): ["grade", "pk_pass3", "0.4666667", "--exercises", "{dir}"]}


def _run(argv: list[str], cwd: Path = Path("/"), content_root: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m toolcall argv`` as a user whom a folder's permissions bind (nobody when the tests run as root)."""
    drop = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv (util-linux): root lists any folder")
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HOME": "/nonexistent"}
    env.pop("TOOLCALL_CONTENT_ROOT", None)
    if content_root is not None:
        env["TOOLCALL_CONTENT_ROOT"] = str(content_root)
    return subprocess.run([*drop, sys.executable, "-m", "toolcall", *argv], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


@pytest.fixture
def shared_dir():
    """A folder every user may enter (tmp_path's parents are mode 700), removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="toolcall-unlistable-"))
    folder.chmod(0o755)
    probe = _run(["passk", "--n", "2", "--c", "1", "--k", "1"])
    if probe.returncode != 0:
        shutil.rmtree(folder)
        pytest.skip(f"python -m toolcall cannot run as another user here: {probe.stderr[-300:]}")
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(folder)


def _readable(root: Path) -> Path:
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


def test_every_folder_argument_is_listed_here():
    assert {(c.values[0], label(c.values[1])) for c in _cases()} == set(ARGV)


@pytest.mark.parametrize("command, action", list(_cases()))
def test_a_folder_that_cannot_be_listed_is_named(shared_dir, command, action):
    folder = shared_dir / "exercises"
    shutil.copytree(REPO_ROOT / "fixtures" / "exercises", folder)
    _readable(folder).chmod(0o311)
    run = _run([part.replace("{dir}", str(folder)) for part in ARGV[(command, label(action))]])
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"{label(action)} {folder}: {SAYS}\n")


def test_check_names_each_content_folder_it_cannot_list(shared_dir):
    root = _readable(copy_content(shared_dir / "content"))
    (root / "fixtures" / "exercises").chmod(0o311)
    (root / "lessons" / "zh").chmod(0o311)
    run = _run(["check", str(root)], cwd=shared_dir)  # check names a path from the folder it runs in
    said = f"cannot read folder: {SAYS}: nothing in it is checked"
    assert run.stdout.splitlines() == [f"content/fixtures/exercises: $: {said}", f"content/lessons/zh: $: {said}"]
    assert (run.returncode, run.stderr) == (1, "problems: 2\n")


def test_every_content_folder_that_cannot_be_listed_is_named(shared_dir):
    """The next member: any folder check reads files from (check.content_folders), each alone."""
    from toolcall.check import content_folders

    root = _readable(copy_content(shared_dir / "content"))
    for folder in content_folders(root):
        if not folder.is_dir() or folder == root / "lessons":
            continue
        folder.chmod(0o311)
        run = _run(["check", str(root)], cwd=shared_dir)
        folder.chmod(0o755)
        shown = folder.relative_to(shared_dir)
        assert f"{shown}: $: cannot read folder: {SAYS}: nothing in it is checked" in run.stdout.splitlines()
        assert "Traceback" not in run.stderr and run.returncode == 1, run.stderr[-500:]
        assert "has no zh version" not in run.stdout and "has no en version" not in run.stdout


def test_grade_names_the_content_roots_exercises_folder_it_cannot_list(shared_dir):
    """Without --exercises, grade reads the content root's fixtures/exercises: it said "unknown exercise id
    'pk_pass3'; known ids: none", blaming the id."""
    root = _readable(copy_content(shared_dir / "content"))
    (root / "fixtures" / "exercises").chmod(0o311)
    run = _run(["grade", "pk_pass3", "0.4666667"], content_root=root)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"{root}/fixtures/exercises: {SAYS}\n")
