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

Then the converter (toolcall/convert.py, the pairing page's "Convert between forms"): a transcript of
N blocks in many turns (CONVERT_TURN: a text and two parallel calls, their results one an error, a
user's text; so reading, writing, the moving of texts and the ``changed`` safety net all run), written
in each form, converted into every other form: CPU seconds per size and the slope per pair. (Its
safety net once scanned every event per message: slope 1.2–2.1 at 10³→3·10³.) The converter has no
size limit of its own; the page gives it what the 1 MB box holds.

    python bench/pairing_scaling.py                    # both
    python bench/pairing_scaling.py --only converter   # or: --only checker
"""

from __future__ import annotations

import argparse
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


CONVERT_SIZES = (1_000, 3_000, 10_000, 30_000)


def convert_source(n: int) -> list[dict]:
    """About ``n`` blocks in Anthropic's form, in turns of six: an assistant's text and two parallel calls,
    then their two results (the second an error) and a user's text."""
    messages: list[dict] = [{"role": "user", "content": "go"}]
    for k in range(0, n, 6):
        messages += [{"role": "assistant", "content": [
                         {"type": "text", "text": "checking"},
                         {"type": "tool_use", "id": f"t{k}", "name": "get_order", "input": {"k": k}},
                         {"type": "tool_use", "id": f"t{k + 1}", "name": "get_user", "input": {}}]},
                     {"role": "user", "content": [
                         {"type": "tool_result", "tool_use_id": f"t{k}", "content": "ok"},
                         {"type": "tool_result", "tool_use_id": f"t{k + 1}", "content": "no", "is_error": True},
                         {"type": "text", "text": "and now?"}]}]
    return messages


def converter(runs: int = 2) -> None:
    """Print the converter's CPU seconds (fastest of ``runs``) per size and the slope, for every form pair."""
    from toolcall.convert import convert
    from toolcall.wire import ANTHROPIC, FORMATS

    print(f"\nconverter{'':<15}" + "".join(f"{n:>9}" for n in CONVERT_SIZES) + f"{'slope':>7}")
    for source in FORMATS:
        inputs = {n: convert_source(n) for n in CONVERT_SIZES}
        if source != ANTHROPIC:
            inputs = {n: convert(m, ANTHROPIC, source)[0] for n, m in inputs.items()}
        for target in (f for f in FORMATS if f != source):
            points = []
            for n in CONVERT_SIZES:
                best = math.inf
                for _ in range(runs):
                    start = time.process_time()
                    convert(inputs[n], source, target)
                    best = min(best, time.process_time() - start)
                points.append((n, best))
            print(f"{source + ' -> ' + target:<24}" + "".join(f"{s:>9.3f}" for _, s in points)
                  + f"{slope(points):>7.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("checker", "converter"), help="measure one of the two")
    args = parser.parse_args()
    if args.only != "converter":
        checker()
    if args.only != "checker":
        converter()
    return 0


def checker() -> None:
    """Print the pairing checker's CPU seconds per size and the slope, for each shape."""
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


if __name__ == "__main__":
    sys.exit(main())
