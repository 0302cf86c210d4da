"""Every page opens without a traceback when an instructor's content folder holds a link to nothing or
a symlink loop (the exercise and harness pages built their cache keys from ``Path.stat()`` and raised
FileNotFoundError / OSError ELOOP; the lessons page went through Path.resolve()). The folders come
from toolcall.check.content_folders and the pages from the page registry, so a new kind of content or a
new page is covered."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.check import CONTENT_PATTERNS, content_folders
from toolcall.pages_registry import PAGES


def _ext(folder) -> str:
    rel = folder.relative_to(folder.parents[1]).as_posix() if folder.parent.name == "lessons" else None
    if rel is not None:
        return "md"
    pattern = next(p for p in CONTENT_PATTERNS if p.startswith(f"fixtures/{folder.name}/"))
    return pattern.rsplit(".", 1)[1].replace("y*ml", "yaml")


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    for folder in content_folders(root):
        if folder.name in ("fixtures", "lessons"):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        ext = _ext(folder)
        (folder / f"97-gone.{ext}").symlink_to(folder / "nowhere")
        (folder / f"98-loop.{ext}").symlink_to(f"98-loop.{ext}")
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "en", *[p.script for p in PAGES]],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=900,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("page", [p.script for p in PAGES])
def test_a_dangling_link_or_a_loop_in_any_content_folder_is_no_traceback(shown, page):
    assert shown[page]["exception"] == []


def test_the_pages_that_load_them_name_them(shown):
    """The exercise, harness and lessons pages list the unreadable file with its reason."""
    for page, folder in [("pages/exercises.py", "fixtures/exercises"), ("pages/harness_lab.py", "fixtures/scenarios")]:
        codes = "\n".join(shown[page]["code"])
        assert f"{folder}/97-gone.yaml: $: cannot read file: a link to " in codes, codes  # then its missing target
        assert f"{folder}/nowhere, which does not exist" in codes, codes
        assert f"{folder}/98-loop.yaml: $: cannot read file: a symlink loop" in codes, codes


@pytest.fixture(scope="module")
def eval_lab(tmp_path_factory):
    """The selection lab with one recorded log a FIFO (it hung the page) and the other starting with a blank
    line (check accepts it; the page raised JSONDecodeError)."""
    root = tmp_path_factory.mktemp("recorded")
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    runs = root / "fixtures" / "eval_runs"
    (runs / "shop_vague.en.jsonl").unlink()
    os.mkfifo(runs / "shop_vague.en.jsonl")
    good = runs / "shop_good.en.jsonl"
    good.write_text("\n" + good.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "en", "pages/eval_lab.py"],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])["pages/eval_lab.py"]


def test_a_recorded_log_that_cannot_be_read_is_named_and_the_rest_of_the_page_works(eval_lab):
    from toolcall.i18n import t

    assert eval_lab["exception"] == []
    assert t("load_problems.recorded", "en") in eval_lab["warning"]
    assert ("fixtures/eval_runs/shop_vague.en.jsonl: $: cannot read file: a FIFO (named pipe), not a regular file"
            in eval_lab["code"])
    assert any(m.startswith("**search\\_orders**") for m in eval_lab["markdown"])  # the good log's descriptions
