"""Smoke run of the classroom load client: 2 sessions, 3 seconds, both pages.

Not a timed test: it only keeps bench/load.py speaking Streamlit's protocol correctly.
"""

import json
import math
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_two_sessions_three_seconds(tmp_path):
    """Every session reruns the page at least once, with no error, and the ratio prints."""
    out = tmp_path / "smoke.json"
    run = subprocess.run([sys.executable, "bench/load.py", "--sessions", "2", "--seconds", "3", "--json", str(out)],
                         cwd=REPO, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    results = {r["page"]: r for r in json.loads(out.read_text())}
    assert set(results) == {"playground", "bare"}
    for r in results.values():
        assert r["errors"] == 0, r["error_samples"]
        assert r["min_reruns_per_session"] >= 1
        assert r["server_cpu_ms_per_rerun"] > 0
    ratio = float(re.search(r"^ratio playground/bare p50: (\S+)$", run.stdout, re.M).group(1))
    assert math.isfinite(ratio) and ratio > 0


def test_bare_tree_serves_the_bare_page_as_app_py(tmp_path):
    """``--deploy N --pages bare`` serves a copy of the tree whose app.py is bench/bare_app.py (serve_class.py
    always runs app.py), with the fixtures the bare page reads and without the repository's history."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import load
    finally:
        sys.path.remove(str(REPO / "bench"))
    copy = load.bare_tree(REPO, tmp_path)
    assert (copy / "app.py").read_bytes() == (REPO / "bench" / "bare_app.py").read_bytes()
    assert (copy / "deploy" / "serve_class.py").is_file()
    assert (copy / "fixtures" / "tools" / "refund_order.json").is_file()
    assert not (copy / ".git").exists() and not (copy / ".venv").exists()
