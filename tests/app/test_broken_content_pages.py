"""An instructor's typo in a course file is reported on the page in the page's language.

A copy of the content (as tests/content/test_instructor_adds_files.py makes one) gets one malformed
file of each kind a page loads; each page, opened in Chinese under ``TOOLCALL_CONTENT_ROOT``, shows
the translated lead (telling the instructor to run ``python -m toolcall check``) and then the
technical detail (file and JSON path) as a plain code block, never as Markdown, with no traceback.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.i18n import t

#: One broken file per kind, the page that loads it, the lead it must show and whether the page stops.
BROKEN = [
    ("fixtures/exercises/zz-typo.yaml", "exercises:\n  - id: [typo\n", "pages/exercises.py", "exercises", False),
    ("fixtures/scenarios/zz-typo.yaml", "id: typo\norder: [\n", "pages/harness_lab.py", "scenarios", False),
    ("fixtures/selection/shop.zh.yaml", "cases:\n  - [\n", "pages/eval_lab.py", "page", True),
    ("fixtures/outputs/refund_order.yaml", "outputs: [\n", "pages/playground.py", "page", True),
    ("lessons/zh/99-typo.md", "---\ntitle: [\n---\n正文\n", "pages/lessons.py", "lessons", False),
    # text that parses but cannot be built: a date that does not exist, nesting past any reader (RecursionError
    # and ValueError tracebacks before; tests/unit/test_content_text_never_raises.py derives the rest)
    ("fixtures/exercises/zz-date.yaml", "exercises:\n  - id: x\n    when: 2024-02-30\n", "pages/exercises.py",
     "exercises", False),
    ("lessons/zh/98-deep.md", "---\ntitle: " + "[" * 2000 + "]" * 2000 + "\n---\n正文\n", "pages/lessons.py",
     "lessons", False),
    ("fixtures/transcripts/refund_walkthrough.yaml", "variants: " + "[" * 100 + "]" * 100 + "\n",
     "pages/walkthrough.py", "page", True),
]


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    for relative, text, *_ in BROKEN:
        (root / relative).write_text(text, "utf-8")
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "zh", *{b[2] for b in BROKEN}],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("relative, page, kind, stops", [(b[0], b[2], b[3], b[4]) for b in BROKEN],
                         ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_reported_in_chinese_with_its_detail_as_plain_text(shown, relative, page, kind, stops):
    seen = shown[page]
    assert seen["exception"] == []
    lead = t(f"load_problems.{kind}", "zh")
    assert "python -m toolcall check" in lead and "老师" in lead
    assert lead in (seen["error"] if stops else seen["warning"])
    detail = [c for c in seen["code"] if relative in c]
    assert len(detail) == 1 and f"{relative}: $" in detail[0], seen["code"]
    assert not any(relative in m for m in seen["markdown"] + seen["warning"] + seen["error"])


def test_every_lead_is_translated():
    """Each lead exists in both languages and differs (not an English copy on the Chinese page)."""
    for kind in {b[3] for b in BROKEN}:
        assert t(f"load_problems.{kind}", "en") != t(f"load_problems.{kind}", "zh")
        assert "python -m toolcall check" in t(f"load_problems.{kind}", "en")
