"""Peak memory of the selection lab's upload analysis (bench/README.md section T): a native log of ``--runs`` runs
(3 per case) that share nothing (each a distinct call against a distinct expectation, about 18 MB for 44 000, the
page's 20 MB cap), read by ``read_log`` and analysed by ``analyse`` as the page does it, in a fresh process per
mode: ``kept`` (release=False: the parsed log and the per-run table held, as the page did before) and ``released``
(release=True: each run dropped once graded, no per-run table: the page now). Prints, per mode, the peak of what
Python allocated (tracemalloc) while reading and while analysing, each as a multiple of the upload, and the ratio
kept / released, in one run.

    python bench/analyse_peak.py [--runs 44000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MEASURE = r"""
import json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from tests.unit.test_analyse_release import _distinct
from toolcall.eval_import import read_log
from toolcall.evaluation import analyse
data, release = _distinct(int(sys.argv[2])), sys.argv[3] == "released"
analyse(read_log(_distinct(30), "native"), 3, release=release)  # imports, validators
tracemalloc.start()
log = read_log(data, "native")
read_peak, parsed = tracemalloc.get_traced_memory()[1], tracemalloc.get_traced_memory()[0]
tracemalloc.reset_peak()
analyse(log, 3, release=release)
print(json.dumps({"upload": len(data), "runs": len(log.runs), "read_peak": read_peak, "parsed": parsed,
                  "analyse_peak": tracemalloc.get_traced_memory()[1]}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=44_000)
    args = parser.parse_args(argv)
    results = {}
    print("| mode | upload MB | parsed log MB | read_log peak | analyse peak (log included) | x upload |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode in ("kept", "released"):
        out = subprocess.run([sys.executable, "-c", MEASURE, str(REPO), str(args.runs), mode], check=True,
                             capture_output=True, text=True).stdout
        r = results[mode] = json.loads(out.strip().splitlines()[-1])
        mb = lambda b: f"{b / 1e6:.1f}"  # noqa: E731
        print(f"| {mode} | {mb(r['upload'])} | {mb(r['parsed'])} | {mb(r['read_peak'])} | {mb(r['analyse_peak'])} | "
              f"{r['analyse_peak'] / r['upload']:.2f} |")
    print(f"analyse peak kept / released: {results['kept']['analyse_peak'] / results['released']['analyse_peak']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
