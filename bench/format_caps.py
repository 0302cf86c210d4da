"""CPU seconds of every format checker on strings of exactly its cap (toolcall.safe_validator.format_limit).

With "assert format" on, a checker only ever sees strings up to its cap; this prints what the worst of a
few shapes of such a string costs each checker, so the caps can be judged against the validation budget
(0.5 s). Before the caps, ``format: iri`` on 20 000 characters took 16 s of CPU. Runs in this process;
rfc3987_syntax's parser is built before the measure. Not a timed test: a report (bench/README.md).

    python bench/format_caps.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from toolcall.safe_validator import ASSERT_FORMATS, VALIDATION_BUDGET, format_limit  # noqa: E402


def shapes(n: int) -> tuple[str, ...]:
    """Strings of exactly ``n`` characters: plain, URL-like, digits, dotted, every reserved URI character."""
    return ("a" * n, "http://x.org/" + "a" * (n - 13), "1" * n, ("a." * n)[:n], ("%20:/?#@!$&'()*+,;=" * n)[:n])


def worst_cpu() -> dict[str, tuple[int, float]]:
    """Format name -> (its cap in characters, the most CPU seconds one call took on a string of that length)."""
    ASSERT_FORMATS.conforms("http://a", "iri")  # builds the parser outside the measure
    worst: dict[str, tuple[int, float]] = {}
    for name in sorted(ASSERT_FORMATS.checkers):
        n = format_limit(name)
        for text in shapes(n):
            start = time.process_time()
            try:
                ASSERT_FORMATS.conforms(text, name)
            except Exception:  # a checker that raises on bad input is as cheap as one that returns
                pass
            took = time.process_time() - start
            worst[name] = (n, max(worst.get(name, (n, 0.0))[1], took))
    return worst


def main() -> None:
    budget = VALIDATION_BUDGET
    print(f"{'format':<24}{'cap':>6}{'worst CPU ms':>14}{'of budget':>11}")
    for name, (cap, cpu) in sorted(worst_cpu().items(), key=lambda item: -item[1][1]):
        print(f"{name:<24}{cap:>6}{cpu * 1000:>14.1f}{cpu / budget:>10.0%}")


if __name__ == "__main__":
    main()
