"""The class dashboard at class scale on SQLite (issue 13, break-it pass brk13scale): what one rerun of the
dashboard costs, and what it makes a student of the same process wait for.

Fills a fresh SQLite store straight into its tables (``--learners`` ids, ``--exercises`` rows each, ``--tries``
graded tries per row: 100 000 × 5 × 2 = 1 000 000 tries by default, about 250 MB and 20 s), then in ONE run:
  whole: ClassData.load(store) (every learner's rows: the exports' read),
  page:  ClassData.load(store, learners=MAX_LISTED_LEARNERS) (the page's read),
  (with --modes) the JSON and CSV exports built whole as the page built them before, and written a page of rows
  at a time into a file (write_export_json / write_export_csv: python -m toolcall export),
each with the tables the page draws, in a fresh process: wall, CPU and peak RSS; while each runs, a thread of the
same process reads one learner's row every 10 ms through the same store (what a student's page does) and the
longest of those reads is printed, then the ratios whole / page.

    python bench/dashboard_scale.py                                   # 100 000 × 5 × 2
    python bench/dashboard_scale.py --learners 2000 --exercises 3     # smoke run
    python bench/dashboard_scale.py --modes json_built,json_streamed,csv_built,csv_streamed   # the exports
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, UTC
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: One measurement, run in a fresh process (peak RSS is the process's).
MEASURE = r"""
import json, resource, sys, threading, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from toolcall.dashboard import MAX_LISTED_LEARNERS, ClassData, exercise_table, learner_table, overview
from toolcall.progress import ProgressStore
store = ProgressStore(Path(sys.argv[2]))
store.get("learner-000001", "ex_00")
waits, done = [], threading.Event()
def student():
    while not done.is_set():
        started = time.perf_counter()
        store.get("learner-000001", "ex_00")
        waits.append(time.perf_counter() - started)
        time.sleep(0.01)
thread = threading.Thread(target=student)
thread.start()
wall, cpu = time.perf_counter(), time.process_time()
mode, size = sys.argv[3], 0
if mode == "json_built":  # the JSON export as the page built it before it was streamed
    from toolcall.dashboard import export_json
    attempts, left_out = store.export_attempts()
    size = len(export_json(ClassData.load(store), {}, attempts, attempts_left_out=left_out).encode())
elif mode == "json_streamed":  # written to a file a page of rows at a time (python -m toolcall export)
    from toolcall.dashboard import write_export_json
    with open(sys.argv[2] + "/export.json", "wb") as out:
        write_export_json(store, {}, out)
        size = out.tell()
elif mode in ("csv_built", "csv_streamed"):
    from toolcall.dashboard import export_csv, write_export_csv
    if mode == "csv_built":
        size = len(export_csv(ClassData.load(store, answers=True)))
    else:
        with open(sys.argv[2] + "/export.csv", "wb") as out:
            write_export_csv(store, out)
            size = out.tell()
else:
    data = ClassData.load(store, learners=None if mode == "whole" else MAX_LISTED_LEARNERS)
    overview(data), exercise_table(data, {}), learner_table(data)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
done.set()
thread.join()
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "student_reads": len(waits), "student_max_wait_s": max(waits), "file_mb": size / 1e6}))
"""


def fill(folder: Path, learners: int, exercises: int, tries: int, seed: int = 7) -> None:
    """Write the class straight into the store's tables (the columns record() writes), tries over 3 hours."""
    from toolcall.progress import ProgressStore
    ProgressStore(folder).close()
    db = sqlite3.connect(folder / "progress.sqlite3")
    rng, now = random.Random(seed), datetime.now(UTC)
    db.execute("BEGIN")
    for n in range(learners):
        learner, progress, attempts = f"learner-{n:06d}", [], []
        for e in range(exercises):
            times = sorted(now - timedelta(seconds=rng.randrange(3 * 3600)) for _ in range(tries))
            for k in range(tries):
                correct = int(k == tries - 1 and rng.random() < 0.6)
                attempts.append((f"b{n:06d}e{e:02d}k{k}", learner, f"ex_{e:02d}", f"answer {rng.randrange(50)}",
                                 float(correct), 1.0, correct, times[k].isoformat(timespec="microseconds")))
            progress.append((learner, f"ex_{e:02d}", "answer", 1.0, 1.0, 1.0, tries, 1, 0, 0,
                             times[0].isoformat(timespec="seconds"), times[-1].isoformat(timespec="seconds")))
        db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", attempts)
        db.executemany("INSERT INTO progress VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", progress)
    db.execute("COMMIT")
    db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=100_000)
    parser.add_argument("--exercises", type=int, default=5)
    parser.add_argument("--tries", type=int, default=2)
    parser.add_argument("--modes", default="whole,page",
                        help="comma-separated: whole, page (the page's reads), json_built, json_streamed, csv_built, "
                             "csv_streamed (the exports, built whole as before or written a page at a time)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        fill(Path(folder), args.learners, args.exercises, args.tries)
        results = {}
        for mode in args.modes.split(","):
            out = subprocess.run([sys.executable, "-c", MEASURE, str(REPO), folder, mode], check=True,
                                 capture_output=True, text=True).stdout
            results[mode] = json.loads(out.strip().splitlines()[-1])
            print(mode, json.dumps({k: round(v, 3) for k, v in results[mode].items()}))
    for a, b in (("whole", "page"), ("json_built", "json_streamed"), ("csv_built", "csv_streamed")):
        if a in results and b in results:
            for key in ("wall_s", "cpu_s", "rss_mb"):
                print(f"{a} / {b} {key}: {results[a][key] / max(results[b][key], 1e-9):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
