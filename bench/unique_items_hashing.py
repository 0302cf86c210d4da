"""CPU seconds of one uniqueItems check on arrays a student can paste into the free box (under toolcall.parsing.
MAX_INPUT_CHARS), numbers that Python's own hash puts in one bucket (multiples of 2**61 - 1) against ordinary numbers
of the same count, and the ratio, measured in one run. Before numbers were hashed as text (break-it pass brk14web),
4 000 multiples of 2**61 - 1 took 0.52 s in one uninterruptible keyword, against 0.04 s. Not a timed test: a report
(bench/README.md).

    python bench/unique_items_hashing.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from toolcall.judge import evaluate  # noqa: E402
from toolcall.parsing import MAX_INPUT_CHARS  # noqa: E402

P = 2**61 - 1
SCHEMA = {"type": "object", "properties": {"a": {"type": "array", "uniqueItems": True}}}
#: name -> item k; with ``ordinary`` (P + 1)·k instead of P·k: as many digits, hashed k apart by Python.
SHAPES = {"numbers": lambda k, m: m * k, "one-number arrays": lambda k, m: [m * k]}


def cpu(items: list) -> float:
    """CPU seconds of judging ``{"a": items}`` (under the input cap) against SCHEMA, the best of three."""
    raw = json.dumps({"a": items}, separators=(",", ":"))
    assert len(raw) <= MAX_INPUT_CHARS, len(raw)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        evaluate(raw, SCHEMA, "t")
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    print("| items | colliding (s) | ordinary (s) | ratio |")
    print("|---|---|---|---|")
    for name, make in SHAPES.items():
        n = 3_900
        colliding = cpu([make(k, P) for k in range(1, n)])
        ordinary = cpu([make(k, P + 1) for k in range(1, n)])
        print(f"| {n - 1} {name} | {colliding:.3f} | {ordinary:.3f} | {colliding / ordinary:.1f} |")


if __name__ == "__main__":
    main()
