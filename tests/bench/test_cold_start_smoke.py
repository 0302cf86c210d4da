"""Smoke run of bench/cold_start.py on the app and on Streamlit's floor (bench/minimal_app.py), one round.

Not a timed test: it keeps the benchmark's phase bookkeeping right (the frames it counts, the order of the
phases, one script run per first visit now that the server starts out of the legacy pages/ mode)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def test_one_round_of_the_app_and_the_floor(tmp_path):
    if not shutil.which(CHROMIUM):
        if os.environ.get("TOOLCALL_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} not installed")
    out = tmp_path / "cold.json"
    run = subprocess.run([sys.executable, "bench/cold_start.py", "--rounds", "1", "--app", "app.py", "--app",
                          "bench/minimal_app.py", "--json", str(out)], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    runs = json.loads(out.read_text())
    assert set(runs) == {"new", "new, bench/minimal_app.py"}
    app, floor = runs["new"][0], runs["new, bench/minimal_app.py"][0]
    for r in (app, floor):
        for visit in (r["first"], r["second"]):
            assert 0 < visit["requested_s"] <= visit["finished_s"] <= visit["usable_s"]
            assert visit["runs"] == 1 and visit["resources"] > 0
        assert r["cold_start_s"] == r["healthy_s"] + r["first"]["usable_s"]
    assert app["first"]["msgs"] > 10 * floor["first"]["msgs"] > 0  # the app's page is the app's, not the floor
