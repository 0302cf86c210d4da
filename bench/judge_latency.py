"""Judging latency of the playground's canned outputs: this tree against an older commit, in one run.

The playground rejudges every canned output on every schema edit (``evaluate_canned``). This
prints the time per full judgement (all canned outputs of fixtures/outputs/refund_order.yaml)
for two code trees, each in its own fresh Python process, alternating runs so both see the same
machine load, and the ratio new / old:

- warm: the same reference schema every time (the validator and pattern caches are hit), what a
  rerun without an edit costs;
- edited: a schema that differs on each judgement (a new description), so the validator is
  built and the pattern compiled again, what a student's edit costs.

    python bench/judge_latency.py                 # old = 5688029 (before ECMA-262 patterns)
    python bench/judge_latency.py --base HEAD~3 --rounds 7

The old tree is ``git archive``d into a temporary folder; both trees use the current fixtures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Run inside each tree: prints {"warm_ms": [...], "edited_ms": [...]} (ms per full judgement).
PROBE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from toolcall.fixtures import load_orders, load_outputs, load_tool
try:
    from toolcall.judge import evaluate_canned
except ImportError:  # a revision from before the judge module was named
    from toolcall.playground import evaluate_canned
tool, outputs, book = load_tool(), load_outputs(), load_orders()
n = int(sys.argv[2])
def judge(schema):
    start = time.perf_counter()
    evaluate_canned(outputs.outputs, schema, tool.name, book)
    return (time.perf_counter() - start) * 1000
judge(tool.input_schema)
warm = [judge(tool.input_schema) for _ in range(n)]
edited = []
for i in range(n):
    schema = dict(tool.input_schema, description=f"edit {i} {time.time_ns()}")
    edited.append(judge(schema))
print(json.dumps({"warm_ms": warm, "edited_ms": edited}))
"""


def export(rev: str, into: Path) -> Path:
    """``git archive`` the toolcall package of ``rev`` into ``into``; returns the tree root."""
    data = subprocess.run(["git", "archive", rev, "toolcall"], cwd=REPO, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    (into / "fixtures").symlink_to(REPO / "fixtures")  # both trees judge the same, current fixtures
    return into


def probe(root: Path, n: int) -> dict[str, list[float]]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(root), str(n)], cwd=REPO, capture_output=True,
                         text=True, timeout=600)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="5688029", help="the old commit (default: before ECMA-262 patterns)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating old/new processes per tree")
    parser.add_argument("--n", type=int, default=200, help="judgements per process and kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_root = export(args.base, Path(tmp))
        runs: dict[str, dict[str, list[float]]] = {"old": {"warm_ms": [], "edited_ms": []},
                                                    "new": {"warm_ms": [], "edited_ms": []}}
        for _ in range(args.rounds):
            for name, root in (("old", old_root), ("new", REPO)):
                for kind, values in probe(root, args.n).items():
                    runs[name][kind].extend(values)
    outputs = len(__import__("yaml").safe_load((REPO / "fixtures/outputs/refund_order.yaml").read_text())["outputs"])
    print(f"judging {outputs} canned outputs; {args.rounds} × {args.n} judgements per tree and kind; old = {args.base}")
    print("| kind | old median ms | new median ms | old p95 | new p95 | new / old (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind in ("warm_ms", "edited_ms"):
        old, new = runs["old"][kind], runs["new"][kind]
        p95 = lambda xs: statistics.quantiles(xs, n=20)[18]  # noqa: E731
        print(f"| {kind[:-3]} | {statistics.median(old):.2f} | {statistics.median(new):.2f} | {p95(old):.2f} | "
              f"{p95(new):.2f} | {statistics.median(new) / statistics.median(old):.2f} |")


if __name__ == "__main__":
    main()
