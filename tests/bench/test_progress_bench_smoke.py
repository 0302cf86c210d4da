"""Smoke runs of the progress benchmarks (not timed): bench/progress_load.py against the test
PostgreSQL (2 learners, 4 s, every answer counted once) and bench/dashboard_render.py on a
small class."""

import json
import subprocess
import sys
from pathlib import Path

from tests.pg import fresh_schema

REPO = Path(__file__).resolve().parents[2]


def test_progress_load_counts_every_answer_once(tmp_path):
    out = tmp_path / "smoke.json"
    with fresh_schema() as url:
        run = subprocess.run([sys.executable, "bench/progress_load.py", "--database-url", url, "--sessions", "2",
                              "--seconds", "4", "--period", "1", "--processes", "1", "--json", str(out)],
                             cwd=REPO, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(out.read_text())
    assert result["answers"] >= 2 and result["counted_in_db"] == result["answers"]
    assert (result["lost"], result["extra"], result["errors"]) == (0, 0, 0)


def test_dashboard_render_runs_on_a_small_class(tmp_path):
    out = tmp_path / "dash.json"
    run = subprocess.run([sys.executable, "bench/dashboard_render.py", "--learners", "20", "--exercises", "3",
                          "--repeat", "1", "--json", str(out)], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(out.read_text())
    assert (result["attempts"], result["learners"]) == (120, 20) and result["page_s"] > 0
