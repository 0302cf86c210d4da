"""Scale of the selection lab's analysis: load and analyse 100 000 recorded runs.

    python bench/eval_scale.py [--runs 100000] [--k 3] [--baseline REV] [--rounds 3]

Makes a native JSONL log of ``--runs`` runs with scripts/make_eval_runs.py (the shop cases,
vague descriptions, 100 runs per case, the case list repeated under new ids), then measures
in a fresh process: read_log (parse + check every line) and analyse (grade every run, per-case
pass^k, confusion matrix, taxonomy). Prints the times, runs per second and the process's peak
RSS (ru_maxrss), and the RSS after imports for comparison. Target: ≤ 5 s for 100 000 runs.
With ``--baseline REV`` the ``toolcall`` package of git revision REV (``git archive``) is
measured on the same file in the same run, rounds alternating (REV, this tree, REV, …), so
the two sets of numbers share the machine's load; the fastest round of each is compared.
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
    """Time read_log and analyse on ``path`` in this process; return the numbers. pandas and
    the string catalogue are loaded before the clock starts (the lab's page has both loaded)."""
    import pandas  # noqa: F401

    from toolcall.eval_import import read_log
    from toolcall.evaluation import analyse
    from toolcall.i18n import catalogue

    catalogue("en")
    data = path.read_bytes()
    after_imports = _rss_mb()
    c0, t0 = time.process_time(), time.perf_counter()
    log = read_log(data, "native")
    t1 = time.perf_counter()
    result = analyse(log, k)
    t2, c2 = time.perf_counter(), time.process_time()
    runs = len(log.runs)
    from toolcall.evaluation import case_rows_json

    answer = {"cases": case_rows_json(result.cases), "taxonomy": result.taxonomy,
              "confusion": result.confusion.to_dict(), "passed": result.graded["passed"].tolist()}
    digest = __import__("hashlib").sha256(json.dumps(answer, sort_keys=True).encode()).hexdigest()[:16]
    return {"digest": digest, "runs": runs, "cases": len(result.cases), "bytes": len(data),
            "problems": len(log.problems),
            "load_s": round(t1 - t0, 3), "analyse_s": round(t2 - t1, 3), "total_s": round(t2 - t0, 3),
            "runs_per_s": round(runs / (t2 - t0)), "cpu_s": round(c2 - c0, 3),
            "load_average": round(__import__("os").getloadavg()[0], 1), "rss_after_imports_mb": round(after_imports, 1),
            "peak_rss_mb": round(_rss_mb(), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", metavar="REV", help="also measure git revision REV's toolcall, alternating")
    parser.add_argument("--rounds", type=int, default=1, help="measurements per version (default 1)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON only")
    args = parser.parse_args(argv)
    if args.code:
        sys.path.insert(0, args.code)
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
        versions = {"this tree": str(REPO)}
        if args.baseline:
            base = Path(tmp) / "baseline"
            base.mkdir()
            archive = subprocess.run(["git", "archive", args.baseline, "toolcall"], cwd=REPO, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            versions = {args.baseline: str(base), **versions}
        results: dict[str, list[dict]] = {name: [] for name in versions}
        for _ in range(max(1, args.rounds)):
            for name, code in versions.items():
                out = subprocess.run([sys.executable, __file__, "--code", code, "--measure", str(path),
                                      "--k", str(args.k)], capture_output=True, text=True, check=True, timeout=600)
                results[name].append(json.loads(out.stdout))
    best = {name: min(rounds, key=lambda r: r["cpu_s"]) for name, rounds in results.items()}
    same = len({r["digest"] for rounds in results.values() for r in rounds}) == 1
    if args.json:
        print(json.dumps(best if args.baseline else best["this tree"]))
        return 0
    for name, numbers in best.items():
        if args.baseline:
            rounds = ", ".join(f"{r['cpu_s']} / {r['total_s']}" for r in results[name])
            print(f"--- {name} (fastest of {len(results[name])} by CPU; each round CPU / wall: {rounds} s)")
        print(f"{numbers['runs']:,} runs, {numbers['cases']:,} cases, {numbers['bytes'] / 1e6:.1f} MB of JSONL, "
              f"{numbers['problems']} problem(s)")
        print(f"load {numbers['load_s']} s + analyse {numbers['analyse_s']} s = {numbers['total_s']} s "
              f"({numbers['runs_per_s']:,} runs/s; target ≤ 5 s)")
        print(f"CPU time {numbers['cpu_s']} s (1-minute load average {numbers['load_average']} on "
              f"{__import__('os').cpu_count()} cores while measuring)")
        print(f"peak RSS {numbers['peak_rss_mb']} MB (after imports {numbers['rss_after_imports_mb']} MB)")
    if args.baseline:
        print(f"same results (per-case n, c, pass^k, pass@k, naive, refusals, confusion, taxonomy, every run's "
              f"pass) in every round: {'yes' if same else 'NO'}")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
