"""What each bounded cache really keeps, against what it is charged, before and after issue 13's byte caps.

For every SizedCache (tests/cache_fill.py fills each through the app's own code with the largest realistic
values), in one run: the bytes only that cache keeps alive (tracemalloc, before and after ``clear()``; for the
compiled-pattern cache, the process's RSS growth in a fresh subprocess, since the programs live in Rust memory),
the sum of the old charges (characters of some text: the formulas each call site used before), and the new
charges (toolcall.memsize's walk). retained / charged over 1 means the cap understates the memory.

    python bench/cache_walk.py               # every cache
    python bench/cache_walk.py --patterns    # a compiled pattern's memory by shape and length (memsize.regex_bytes)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.cache_fill import FILLERS, retained_by  # noqa: E402


def _old_charge(name: str, key, value) -> int:
    """What the call site charged before issue 13's byte caps (the formulas at commit ab43ea3)."""
    if name.endswith("_patterns"):
        return len(key) + 64
    if name.endswith(("_checks", "_specs", "_counts", "_reviews", "_too_expensive")):
        return len(key[0] if isinstance(key, tuple) else key) if not name.endswith("_specs") else len(value)
    if name.endswith("_validators"):
        return len(key[0])
    if name.endswith("_canned"):
        return len(key[1]) + sum(len(c.output.raw) + len(str(c.card.tool_result)) for c in value)
    if name.endswith("_free"):
        return (len(key[0]) + len(key[1]) + len(str(value.tool_result)) + sum(map(len, value.notes))
                + sum(len(e.pointer) + len(e.expected) + len(e.received) + 100 for e in value.errors))
    if name.endswith("_regraded"):
        return len(key[3]) + sum(len(f.message) for f in value[1].findings)
    if name.endswith("_ref_json"):
        return len(value[1])
    if name.endswith("_written"):
        return len(key[0]) + sum(map(len, value))
    if name.endswith("_labels"):
        return sum(map(len, value[1].values())) + sum(map(len, value[2]))
    if name.endswith("_plans"):
        return sum(len(str(a)) for _, args, _ in value[2] for a in args)
    if name.endswith("_computed"):
        return 5 * len(key[1])  # 4 or 5 × the schema's JSON text (+ 6 per output row)
    raise KeyError(name)


def _cache(name: str):
    module, attr = name.rsplit(".", 1)
    __import__(module)
    return getattr(sys.modules[module], attr)


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(name: str) -> tuple[int, int, int, int]:
    """(entries, retained bytes, old charge, new charge) of cache ``name`` filled by its filler."""
    cache = _cache(name)
    cache.clear()
    if name.endswith("_patterns"):
        rss = _rss()
        FILLERS[name]()
        retained = _rss() - rss
    else:
        tracemalloc.start()
        FILLERS[name]()
    items, entries = list(cache._data.items()), len(cache)
    old = sum(_old_charge(name, k, v) for k, (v, _) in items)
    new = cache.cost
    if not name.endswith("_patterns"):
        del items
        retained = retained_by(cache)
        tracemalloc.stop()
    return entries, retained, old, new


#: Pattern shapes, one unit repeated to the length: from the least memory per character to the most found.
SHAPES = ["a", "[a-z]", ".", ".|", "[^\\p{L}]", "\\P{L}", "\\P{Lu}\\P{Ll}"]


def pattern_bytes(unit: str, length: int, count: int = 200) -> float:
    """RSS growth per pattern while holding ``count`` compiled patterns of ``unit`` repeated to about ``length``
    characters (whole units after a 4-digit prefix)."""
    import gc

    import corvus_regex_ecma262 as ecma

    patterns = [f"{i:04d}" + unit * ((length - 4) // len(unit)) for i in range(count)]
    gc.collect()
    before = _rss()
    held = [ecma.compile(p, "u", timeout=0.05) for p in patterns]
    gc.collect()
    grown = _rss() - before
    del held
    return grown / count


def patterns() -> None:
    """Each shape at 200 and 990 characters, each in a fresh process: bytes per pattern against
    memsize.regex_bytes (measured / estimate at most 1 for the estimate to be an upper bound)."""
    from toolcall.memsize import regex_bytes

    print(f"{'shape':16} {'chars':>6} {'bytes/pattern':>14} {'estimate':>10} {'measured/estimate':>18}")
    for unit in SHAPES:
        for length in (200, 990):
            out = subprocess.run([sys.executable, __file__, "--pattern", unit, str(length)], capture_output=True,
                                 text=True, cwd=REPO)
            if out.returncode:
                print(f"{unit:16} {length:6} refused by the engine: {out.stderr.strip().splitlines()[-1][:60]}")
                continue
            each, chars = out.stdout.split()
            estimate = regex_bytes("0000" + unit * ((length - 4) // len(unit)))  # the patterns measured
            print(f"{unit:16} {chars:>6} {float(each):14,.0f} {estimate:10,} {float(each) / estimate:18.2f}")


def main() -> None:
    if sys.argv[1:2] == ["--patterns"]:
        patterns()
        return
    if sys.argv[1:2] == ["--pattern"]:
        length = 4 + len(sys.argv[2]) * ((int(sys.argv[3]) - 4) // len(sys.argv[2]))
        print(pattern_bytes(sys.argv[2], int(sys.argv[3])), length)
        return
    if len(sys.argv) > 1:  # one cache, in its own process: nothing left over from another cache's filler
        print(*measure(sys.argv[1]))
        return
    print(f"{'cache':38} {'entries':>7} {'retained':>12} {'old charge':>12} {'ret/old':>8} {'new charge':>12} "
          f"{'ret/new':>8} {'cap':>10}")
    for name in FILLERS:
        out = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, cwd=REPO)
        if out.returncode:
            print(name, "failed:", out.stderr[-500:])
            continue
        entries, retained, old, new = map(int, out.stdout.split()[-4:])
        cap = _cache(name).max_bytes
        print(f"{name:38} {entries:7} {retained:12,} {old:12,} {retained / max(old, 1):8.2f} {new:12,} "
              f"{retained / max(new, 1):8.2f} {cap:10,}")


if __name__ == "__main__":
    main()
