"""`check` and the loaders read every content folder (toolcall.check.CONTENT_PATTERNS) without a
traceback, whatever an instructor's copy holds in it, and name what they could not read by its own
name: a symlink loop among the lessons raised RuntimeError from Path.resolve() and a dangling link was
named by its target; a content folder replaced by a file, a FIFO, a dangling link or a loop was skipped
without a word. The cases are derived from CONTENT_PATTERNS, so a new kind of content is covered."""

import os
from pathlib import Path

import pytest

from toolcall.check import CONTENT_PATTERNS, content_folders, run_checks
from toolcall.lessons import load_lessons

#: Each hostile thing planted under a name the checkers read, and the reason they must give.
HOSTILE = {
    "fifo": "a FIFO (named pipe), not a regular file",
    "loop": "a symlink loop (the link points back to itself)",
    "dangling": "cannot read file: a link to ",  # then its target (…/nowhere), ", which does not exist"
    "folder": "a folder, not a regular file",
    "sparse": "too large",
}


def _plant(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "dangling":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as fh:
            fh.truncate(1 << 32)  # 4 GB, no blocks on disk


def _name(pattern: str, kind: str) -> str:
    ext = pattern.rsplit(".", 1)[1].replace("y*ml", "yaml")
    return f"9{list(HOSTILE).index(kind)}-{kind}.{ext}"  # also a valid lesson name (NN-slug.md)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    paths = {}
    for pattern in CONTENT_PATTERNS:
        folders = [root / "lessons" / "en"] if pattern.startswith("lessons/") else [root / pattern.rsplit("/", 1)[0]]
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            for kind in HOSTILE:
                path = folder / _name(pattern, kind)
                _plant(path, kind)
                paths[path] = kind
    return root, paths


def test_every_hostile_content_file_is_named_by_itself_with_its_reason(planted):
    root, paths = planted
    problems = [str(p) for p in run_checks(root)]  # no traceback
    for path, kind in paths.items():
        rel = path.relative_to(root).as_posix()
        mine = [p for p in problems if p.startswith((f"{path}:", f"{rel}:"))]
        assert any(HOSTILE[kind] in p for p in mine), (rel, mine, problems)


def test_a_symlink_loop_among_the_lessons_is_a_problem_not_a_traceback(tmp_path):
    folder = tmp_path / "lessons" / "en"
    folder.mkdir(parents=True)
    (folder / "01-loop.md").symlink_to("02-loop.md")
    (folder / "02-loop.md").symlink_to("01-loop.md")
    (folder / "03-gone.md").symlink_to("nowhere.md")
    loaded = load_lessons("en", tmp_path)
    assert [(p.file, p.message) for p in loaded.problems] == [
        ("lessons/en/01-loop.md", "cannot read file: a symlink loop (the link points back to itself)"),
        ("lessons/en/02-loop.md", "cannot read file: a symlink loop (the link points back to itself)"),
        ("lessons/en/03-gone.md", "cannot read file: a link to nowhere.md, which does not exist")]


def _replace(folder: Path, kind: str) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    if kind == "file":
        folder.write_text("not a folder\n")
    elif kind == "fifo":
        os.mkfifo(folder)
    elif kind == "loop":
        folder.symlink_to(folder.name)
    else:
        folder.symlink_to(folder.parent / "nowhere")


FOLDER_REASONS = {"file": "a file, not a folder", "fifo": "a FIFO (named pipe), not a folder",
                  "loop": "a symlink loop (the link points back to itself)",
                  "dangling": "a link to {folder}/nowhere, which does not exist"}


@pytest.mark.parametrize("kind", FOLDER_REASONS)
def test_a_content_folder_that_is_not_a_folder_is_named(tmp_path, kind):
    (tmp_path / "fixtures").mkdir()
    folders = [f for f in content_folders(tmp_path) if f.name not in ("fixtures", "lessons")]
    for folder in folders:
        _replace(folder, kind)
    problems = [str(p) for p in run_checks(tmp_path)]
    for folder in folders:
        reason = FOLDER_REASONS[kind].format(folder=folder.parent)
        assert f"{folder}: $: cannot read folder: {reason}: nothing in it is checked" in problems, \
            (folder, problems)


def test_the_content_folders_cover_every_pattern():
    """A new CONTENT_PATTERNS entry is covered by the folder check without a code change."""
    root = Path("/r")
    folders = {f.relative_to(root).as_posix() for f in content_folders(root)}
    for pattern in CONTENT_PATTERNS:
        folder = pattern.rsplit("/", 1)[0]
        assert folder in folders or folder == "lessons/*", pattern
    assert {"lessons/en", "lessons/zh"} <= folders
