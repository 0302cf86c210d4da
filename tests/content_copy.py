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

