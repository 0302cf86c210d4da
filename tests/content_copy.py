"""A copy of the shipped content (fixtures/ and lessons/) for tests that break it, check's problems on it, and what
a page shows of it."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from toolcall import CONTENT_ROOT, REPO_ROOT
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


def shown_on_page(root: Path, lang: str, page: str) -> dict:
    """What ``page`` (``pages/playground.py``) shows in ``lang`` with TOOLCALL_CONTENT_ROOT at ``root``: the dict
    tests/app/broken_content_probe.py prints for it (exception, warning, error, code, markdown, caption lists). The
    probe runs in a subprocess because the content root is read at import; it must exit 0."""
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", lang, page],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])[page]
