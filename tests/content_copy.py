"""A copy of the shipped content (fixtures/ and lessons/) for tests that break it, and check's problems on it."""

import shutil
from pathlib import Path

from toolcall import CONTENT_ROOT
from toolcall.check import run_checks


def copy_content(folder: Path) -> Path:
    """``folder`` holding a copy of the shipped fixtures/ and lessons/."""
    shutil.copytree(CONTENT_ROOT / "fixtures", folder / "fixtures", dirs_exist_ok=True)
    shutil.copytree(CONTENT_ROOT / "lessons", folder / "lessons", dirs_exist_ok=True)
    return folder


def problem_set(root: Path) -> set[tuple[str, str, str]]:
    """Every problem ``python -m toolcall check`` finds under ``root``, as (file, JSON path, message)."""
    return {(p.file, p.path, p.message) for p in run_checks(root)}



def edited_copy(folder: Path, file: str, old: str, new: str) -> Path:
    """A copy of the content in ``folder`` (copy_content) whose ``file`` (relative to the root) has its first ``old``
    replaced by ``new``; ``old`` must be there (a test of a change no one made would pass for nothing)."""
    root = copy_content(folder)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{file} no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root
