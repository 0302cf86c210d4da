"""How the pairing checker's time grows with the transcript: 10³ … 10⁵ blocks.

Five shapes. Two are the worst the issue found: Anthropic, one assistant turn with N tool_use
blocks answered by 0.7·N results whose ids match none (every result an id_mismatch); OpenAI,
N/2 assistant turns each followed by a user message, all tool messages at the end (the old
checker rescanned the rest of the transcript at every turn). Three more, one per other wire form
(Responses, MCP, Gemini: N calls answered by N results; Gemini's matching once scanned every call
per response). Prints seconds per size and the
slope of log(time) against log(size): about 1 for linear work, 2 for quadratic. Not a timed
test: a report (bench/README.md quotes it). Sizes past the checker's 1 MB input limit
(MAX_CHARS) are measured with the limit lifted for this run: the point is the algorithm.

    python bench/pairing_scaling.py
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import toolcall.pairing as pairing  # noqa: E402
from toolcall.pairing import check_pairing  # noqa: E402

SIZES = (1_000, 3_000, 10_000, 30_000, 100_000)


def anthropic(n: int) -> str:
    uses = [{"type": "tool_use", "id": f"t{k}", "name": "f", "input": {}} for k in range(n)]
    results = [{"type": "tool_result", "tool_use_id": f"x{k}"} for k in range(int(0.7 * n))]
    return json.dumps([{"role": "user", "content": "go"}, {"role": "assistant", "content": uses},
                       {"role": "user", "content": results}], separators=(",", ":"))


def openai(n: int) -> str:
    turns: list[dict] = []
    for k in range(n // 2):
        turns += [{"role": "assistant", "tool_calls": [{"id": f"c{k}", "type": "function",
                                                        "function": {"name": "f", "arguments": "{}"}}]},
                  {"role": "user", "content": "x"}]
    turns += [{"role": "tool", "tool_call_id": f"c{k}", "content": "r"} for k in range(n // 2)]
    return json.dumps(turns, separators=(",", ":"))


def converted(fmt: str):
    """A builder for ``fmt``: one turn of N calls (seven names) answered by N results, written in
    Anthropic's form and converted (toolcall.convert), so every wire form is measured."""
    from toolcall.convert import convert

    def build(n: int) -> str:
        uses = [{"type": "tool_use", "id": f"t{k}", "name": f"f{k % 7}", "input": {}} for k in range(n)]
        results = [{"type": "tool_result", "tool_use_id": f"t{k}", "content": "r"} for k in range(n)]
        messages = [{"role": "user", "content": "go"}, {"role": "assistant", "content": uses},
                    {"role": "user", "content": results}]
        return json.dumps(convert(messages, "anthropic", fmt)[0], separators=(",", ":"))
    return build


def best_of(text: str, runs: int = 3) -> float:
    """Fastest of ``runs`` checks, in CPU seconds (the machine is shared)."""
    best = math.inf
    for _ in range(runs):
        start = time.process_time()
        check_pairing(text)
        best = min(best, time.process_time() - start)
    return best


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(seconds) against log(blocks)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(s, 1e-6)) for _, s in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> int:
    print(f"{'shape':<10}{'blocks':>8}{'chars':>11}{'CPU s':>9}")
    shapes = [("anthropic", anthropic), ("openai", openai)]
    shapes += [(f, converted(f)) for f in ("responses", "mcp", "gemini")]
    for name, build in shapes:
        points = []
        for n in SIZES:
            text = build(n)
            over = len(text) > pairing.MAX_CHARS
            limit, pairing.MAX_CHARS = pairing.MAX_CHARS, max(pairing.MAX_CHARS, len(text))
            try:
                seconds = best_of(text)
            finally:
                pairing.MAX_CHARS = limit
            points.append((n, seconds))
            print(f"{name:<10}{n:>8}{len(text):>11}{seconds:>9.3f}" + ("  (limit lifted)" if over else ""))
        print(f"{name}: slope of log(time) vs log(blocks) = {slope(points):.2f} (1 = linear, 2 = quadratic)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
