"""Smoke run of bench/eval_scale.py on 2 000 runs: not a timed test, it keeps the benchmark working."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_two_thousand_runs():
    out = subprocess.run([sys.executable, "bench/eval_scale.py", "--runs", "2000", "--json"], cwd=REPO,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    numbers = json.loads(out.stdout)
    assert (numbers["runs"], numbers["problems"]) == (2000, 0)
    assert numbers["cases"] == 20  # 100 runs per case and numbers["runs_per_s"] > 0 and numbers["peak_rss_mb"] > 0
