"""Class dashboard render time for a large class: 1,000 learners × 30 exercises.

Fills a fresh SQLite progress store (one row per learner and exercise, 2 graded tries each:
60,000 tries over the last 3 hours), then times, best of ``--repeat``:
  core: ClassData.load + overview + exercise_table + learner_table + activity chart,
  exports: the CSV and the JSON of everything (built only when a download is clicked),
  page: one AppTest run of pages/dashboard.py for a signed-in instructor (app.py included).
Wall time (``*_s``) and this process's CPU time (``*_cpu_s``: on a busy shared machine the wall
time mostly measures waiting for a core; the load average is printed too).

    python bench/dashboard_render.py                 # 1000 × 30
    python bench/dashboard_render.py --learners 50 --exercises 5 --repeat 1     # smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from datetime import datetime, timedelta, UTC
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcall.dashboard import (  # noqa: E402
    ClassData,
    activity_chart,
    exercise_table,
    export_csv,
    export_json,
    learner_table,
    overview,
)
from toolcall.progress import ProgressStore  # noqa: E402

PASSPHRASE = "bench passphrase 0123"


def fill(folder: Path, learners: int, exercises: int, seed: int = 7) -> None:
    """Write the class straight into the store's tables (same columns record() writes)."""
    rng, now = random.Random(seed), datetime.now(UTC)
    ProgressStore(folder).close()  # create and migrate
    progress, attempts = [], []
    for n in range(learners):
        for e in range(exercises):
            times = sorted(now - timedelta(seconds=rng.randrange(3 * 3600)) for _ in range(2))
            answers = [f"{rng.choice('abcdefgh')}" for _ in range(2)]
            correct = [0, int(rng.random() < 0.6)]
            for k in range(2):
                attempts.append(
                    (
                        f"b{n:04d}e{e:02d}k{k}",
                        f"learner-{n:04d}",
                        f"ex_{e:02d}",
                        answers[k],
                        float(correct[k]),
                        1.0,
                        correct[k],
                        times[k].isoformat(timespec="microseconds"),
                    )
                )
            progress.append(
                (
                    f"learner-{n:04d}",
                    f"ex_{e:02d}",
                    answers[1],
                    float(correct[1]),
                    float(correct[1]),
                    1.0,
                    2,
                    2 - correct[1],
                    rng.randrange(3),
                    int(rng.random() < 0.1),
                    times[0].isoformat(timespec="seconds"),
                    times[1].isoformat(timespec="seconds"),
                )
            )
    with sqlite3.connect(folder / "progress.sqlite3") as db:
        db.executemany("INSERT INTO progress VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", progress)
        db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", attempts)
    db.close()


def time_core(folder: Path) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    store = ProgressStore(folder)
    data = ClassData.load(store)
    titles = {f"ex_{e:02d}": f"Exercise {e}" for e in range(30)}
    overview(data), exercise_table(data, titles), learner_table(data)
    activity_chart(data, "en").to_dict()
    store.close()
    return time.perf_counter() - start, time.process_time() - cpu


def time_exports(folder: Path) -> float:
    start = time.perf_counter()
    store = ProgressStore(folder)
    data = ClassData.load(store, answers=True)  # the CSV export reads the last answers, as the page does
    attempts, left_out = store.export_attempts()
    export_csv(data), export_json(data, {}, attempts, attempts_left_out=left_out)
    store.close()
    return time.perf_counter() - start


def time_page() -> tuple[float, float]:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import AppTest

    original = PagesManager.__init__

    def init(self, *args, **kwargs):  # as tests/app/conftest.py: AppTest reruns app.py like the server
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.session_state["app_lang"] = "en"
    at.session_state["dashboard_instructor"] = True
    at.run()
    at.switch_page("pages/dashboard.py").run()  # first run: imports, caches
    assert not at.exception and at.metric, "the dashboard did not render"
    start, cpu = time.perf_counter(), time.process_time()
    at.run()
    elapsed = time.perf_counter() - start, time.process_time() - cpu
    assert not at.exception and at.metric[0].value
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="dashboard_render.py", description=__doc__.splitlines()[0])
    ap.add_argument("--learners", type=int, default=1000)
    ap.add_argument("--exercises", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if not (1 <= args.learners <= 10_000 and 1 <= args.exercises <= 100 and 1 <= args.repeat <= 20):
        ap.error("learners 1..10000, exercises 1..100, repeat 1..20")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fill(folder, args.learners, args.exercises)
        os.environ.update(TOOLCALL_DATA_DIR=tmp, TOOLCALL_INSTRUCTOR_PASSPHRASE=PASSPHRASE)
        os.environ.pop("TOOLCALL_DATABASE_URL", None)
        core = min(time_core(folder) for _ in range(args.repeat))
        exports = min(time_exports(folder) for _ in range(args.repeat))
        page = min(time_page() for _ in range(args.repeat))
    result = {
        "learners": args.learners,
        "exercises": args.exercises,
        "attempts": 2 * args.learners * args.exercises,
        "core_s": round(core[0], 3),
        "core_cpu_s": round(core[1], 3),
        "exports_s": round(exports, 3),
        "page_s": round(page[0], 3),
        "page_cpu_s": round(page[1], 3),
        "loadavg_1min": os.getloadavg()[0],
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
