"""Server CPU of ONE schema edit's judging of every canned output (judge.evaluate_canned), for $ref chains that
double at each step (d_i = allOf of two references to d_{i+1}), against the shared CANNED_BUDGET and the expansion
cap (validation.MAX_EXPANDED_SUBSCHEMAS). Each depth is a new schema (no cache has it). Prints a Markdown table;
bench/README.md section Q holds one run before and after. A benchmark, not a test.

    python bench/edit_budget.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolcall.fixtures import load_orders, load_outputs  # noqa: E402
from toolcall.judge import evaluate_canned  # noqa: E402
from toolcall import validation  # noqa: E402
from toolcall.validation import check_schema  # noqa: E402


def chain(k: int) -> dict:
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(k)}
    defs[f"d{k}"] = {"type": "object"}
    return {"$ref": "#/$defs/d0", "$defs": defs, "$comment": f"bench {time.time()}"}


def main() -> None:
    """One table with the expansion cap, then one without it (what the shared budget alone bounds)."""
    table("with the expansion cap")
    validation.MAX_EXPANDED_SUBSCHEMAS = 10 ** 12
    table("expansion cap lifted: the shared budget alone")


def table(title: str) -> None:
    outputs, book = load_outputs().outputs, load_orders()
    print(f"\n{title}\n")
    print(f"| depth | schema chars | check CPU s | judge CPU s ({len(outputs)} outputs) | verdicts |")
    print("|---|---|---|---|---|")
    for k in (8, 10, 11, 12, 13, 14, 15, 18):
        text = json.dumps(chain(k))
        start = time.process_time()
        check = check_schema(text)
        checked = time.process_time() - start
        if not check.ok:
            print(f"| {k} | {len(text)} | {checked:.3f} | 0 | refused: {check.code} |")
            continue
        start = time.process_time()
        cards = evaluate_canned(outputs, check.schema, "refund_order", book)
        judged = time.process_time() - start
        verdicts = " ".join(c.card.verdict[0] for c in cards)
        print(f"| {k} | {len(text)} | {checked:.3f} | {judged:.2f} | {verdicts} |")


if __name__ == "__main__":
    main()
