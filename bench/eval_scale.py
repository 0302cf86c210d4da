"""Scale of the selection lab's analysis: load and analyse 100 000 recorded runs.

    python bench/eval_scale.py [--runs 100000] [--k 3]

Makes a native JSONL log of ``--runs`` runs with scripts/make_eval_runs.py (the shop cases,
vague descriptions, 100 runs per case, the case list repeated under new ids), then measures
in a fresh process: read_log (parse + check every line) and analyse (grade every run, per-case
pass^k, confusion matrix, taxonomy). Prints the times, runs per second and the process's peak
RSS (ru_maxrss), and the RSS after imports for comparison. Target: ≤ 5 s for 100 000 runs.
Not a timed test; tests/bench only keeps it running.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def measure(path: Path, k: int) -> dict:
    """Time read_log and analyse on ``path`` in this process; return the numbers."""
    from toolcall.eval_import import read_log
    from toolcall.evaluation import analyse

    data = path.read_bytes()
    after_imports = _rss_mb()
    c0, t0 = time.process_time(), time.perf_counter()
    log = read_log(data, "native")
    t1 = time.perf_counter()
    result = analyse(log, k)
    t2, c2 = time.perf_counter(), time.process_time()
    runs = len(log.runs)
    return {"runs": runs, "cases": len(result.cases), "bytes": len(data), "problems": len(log.problems),
            "load_s": round(t1 - t0, 3), "analyse_s": round(t2 - t1, 3), "total_s": round(t2 - t0, 3),
            "runs_per_s": round(runs / (t2 - t0)), "cpu_s": round(c2 - c0, 3),
            "load_average": round(__import__("os").getloadavg()[0], 1), "rss_after_imports_mb": round(after_imports, 1),
            "peak_rss_mb": round(_rss_mb(), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON only")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.k)))
        return 0
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_eval_runs", REPO / "scripts" / "make_eval_runs.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    per_case = 100
    copies = -(-args.runs // (31 * per_case))
    lines = make.generate_lines("en", "vague", runs=per_case, copies=copies)[: args.runs]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "runs.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out = subprocess.run([sys.executable, __file__, "--measure", str(path), "--k", str(args.k)],
                             capture_output=True, text=True, check=True, timeout=600)
    numbers = json.loads(out.stdout)
    if args.json:
        print(json.dumps(numbers))
        return 0
    print(f"{numbers['runs']:,} runs, {numbers['cases']:,} cases, {numbers['bytes'] / 1e6:.1f} MB of JSONL, "
          f"{numbers['problems']} problem(s)")
    print(f"load {numbers['load_s']} s + analyse {numbers['analyse_s']} s = {numbers['total_s']} s "
          f"({numbers['runs_per_s']:,} runs/s; target ≤ 5 s)")
    print(f"CPU time {numbers['cpu_s']} s (1-minute load average {numbers['load_average']} on "
          f"{__import__('os').cpu_count()} cores while measuring)")
    print(f"peak RSS {numbers['peak_rss_mb']} MB (after imports {numbers['rss_after_imports_mb']} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
