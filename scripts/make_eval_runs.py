"""Generate the SIMULATED run logs in fixtures/eval_runs/ (no real model output is involved).

For every case of fixtures/selection/shop.<lang>.yaml and every version of the tool
descriptions (vague, good), draw ``runs_per_case`` outcomes from the per-request
probabilities in fixtures/eval_runs/simulation.yaml with a seeded numpy generator, turn each
outcome into a tool call (see that file's header), and write native JSONL:

    .venv/bin/python scripts/make_eval_runs.py            # rewrites fixtures/eval_runs/shop_*.jsonl

The same seed draws the same outcomes in both languages, so the English and Chinese logs
tell the same story. ``generate_lines`` (toolcall.simulation) is also used by bench/eval_scale.py. A spec
``python -m toolcall check`` would refuse is refused here too, each problem with the file and JSON path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from toolcall import FIXTURES_DIR  # noqa: E402
from toolcall.fixtures import read_data  # noqa: E402
from toolcall.simulation import generate_lines, spec_problems  # noqa: E402

#: Read from the content root (TOOLCALL_CONTENT_ROOT when set), as the app reads the logs: it read the checkout's
#: own files, so an instructor's copy got logs of the shipped set and the reproducibility test failed on it.
SPEC = FIXTURES_DIR / "eval_runs" / "simulation.yaml"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(FIXTURES_DIR / "eval_runs"))
    args = parser.parse_args(argv)
    if problems := spec_problems(FIXTURES_DIR.parent):  # each with the file and JSON path, as check prints them
        print("\n".join(map(str, problems)), file=sys.stderr)
        return 1
    spec = read_data(SPEC)
    for lang in ("en", "zh"):
        for version in spec["versions"]:
            path = Path(args.out) / f"shop_{version}.{lang}.jsonl"
            path.write_text("\n".join(generate_lines(lang, version)) + "\n", encoding="utf-8")
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
