"""Every bounded cache is bounded in bytes, not in characters (issue 13): what a cache keeps alive, measured by
tracemalloc (or by RSS for the Rust memory of compiled patterns), stays within its max_bytes, whatever a student
makes it keep; every SizedCache in the code is one of those measured here; the walk that charges an entry stops
at its cap."""

import dataclasses
import json
import re
import subprocess
import sys
import textwrap
import tracemalloc

import pytest

from tests.cache_fill import FILLERS, retained_by
from toolcall import REPO_ROOT, memsize
from toolcall.safe_validator import CACHE_BUDGET_BYTES, PATTERN_CACHE_BYTES, SizedCache, compile_pattern

#: The cap every cache gets in the fill test: small, so that the fillers' values pass it several times over.
TEST_CAP = 1024 ** 2
#: Bytes tracemalloc may see freed beyond what a cache charged: allocator-level effects no charge can see (a dict's
#: spare slots, a lazily made UTF-8 copy of a string). Full runs measured 9 over 846 733 and 317 over 846 801 for
#: ui.pairing_checks._reports, where the same test alone kept under its charge; a cache undercounting by even a byte
#: per character of a 40 000-character entry still fails.
ALLOCATOR_SLACK = 4_096


def _cache(name: str) -> SizedCache:
    module, attr = name.rsplit(".", 1)
    __import__(module)
    return getattr(sys.modules[module], attr)


def _defined_in_source() -> set[str]:
    """"module.name" of every ``name = SizedCache(`` in toolcall/, ui/ and pages/."""
    found = set()
    for folder in ("toolcall", "ui", "pages"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            module = ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
            for name in re.findall(r"^(\w+)\s*(?::[^=]+)?=\s*SizedCache\(", path.read_text(encoding="utf-8"), re.M):
                found.add(f"{module}.{name}")
    return found


ENUMERATE = textwrap.dedent("""
    import gc, importlib, json, pkgutil, sys
    sys.argv = ["x"]
    import toolcall, ui
    from toolcall.safe_validator import SizedCache
    for package in (toolcall, ui):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    named = {id(v): f"{m.__name__}.{n}" for m in list(sys.modules.values()) if m.__name__.startswith(("toolcall", "ui"))
             for n, v in list(vars(m).items()) if isinstance(v, SizedCache)}
    made = [o for o in gc.get_objects() if isinstance(o, SizedCache)]
    print(json.dumps({"named": sorted(named.values()), "unnamed": sum(id(o) not in named for o in made)}))
""")


def test_every_sized_cache_in_the_code_is_filled_and_measured_here():
    """A cache added anywhere (a module-level name, or made inside a function or a class) is caught: it has no
    filler in tests/cache_fill.py, so no test shows what it holds in bytes."""
    out = subprocess.run([sys.executable, "-c", ENUMERATE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["unnamed"] == 0
    assert set(found["named"]) == set(FILLERS) == _defined_in_source()
    assert len(FILLERS) == 20


@pytest.fixture
def small_caches(monkeypatch):
    """Every cache replaced by an empty one of the same entry bound and a TEST_CAP byte cap, for this test."""
    for name in FILLERS:
        cache = _cache(name)
        monkeypatch.setattr(sys.modules[name.rsplit(".", 1)[0]], name.rsplit(".", 1)[1],
                            SizedCache(cache.max_entries, TEST_CAP))


@pytest.mark.parametrize("name", [n for n in FILLERS if not n.endswith("._patterns")])
def test_what_a_cache_keeps_alive_is_at_most_what_it_is_charged_and_its_cap(name, small_caches):
    """Filled through the app's code with the largest values a student can make (a schema whose characters each
    hold 24 bytes of dicts, a 98 000-character output with an error per key, a 20 000-character move …): the
    bytes only this cache keeps alive (tracemalloc, before and after clear) are at most what it charged, and
    what it charged is at most its cap. Charged by characters, _validators kept 19 bytes per character charged,
    _ref_json 18, _computed 5.6 (bench/README.md, "Caches in bytes")."""
    tracemalloc.start()
    try:
        FILLERS[name]()
        cache = _cache(name)
        entries, charged = len(cache), cache.cost
        retained = retained_by(cache)
    finally:
        tracemalloc.stop()
    assert entries >= 1 and 0 < charged <= TEST_CAP
    assert retained <= charged + ALLOCATOR_SLACK, (retained, charged)


def test_compiled_patterns_hold_no_more_memory_than_their_cap():
    """The Rust memory of compiled patterns (which tracemalloc cannot see) by RSS, in a fresh process: 300 patterns
    of the shape holding the most per character fill the cache. Charged by characters (64 000), the cache held
    64 patterns of 1.31 MB: 83 MB; charged by memsize.regex_bytes, 11 patterns and at most PATTERN_CACHE_BYTES."""
    code = textwrap.dedent("""
        import os, sys
        sys.path.insert(0, ".")
        from toolcall.safe_validator import _patterns
        from tests.cache_fill import FILLERS
        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        before = rss()
        FILLERS["toolcall.safe_validator._patterns"]()
        print(rss() - before, len(_patterns), _patterns.cost)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    grown, entries, charged = map(int, out.stdout.split())
    assert entries == 11 and charged <= PATTERN_CACHE_BYTES
    assert grown <= PATTERN_CACHE_BYTES, grown


def test_a_schema_at_the_pattern_cap_is_compiled_once(monkeypatch):
    """MAX_SCHEMA_PATTERNS patterns of 100 characters all stay in the pattern cache (charged 68 KB each): a schema
    at the cap is not compiled again on every edit, as it would be if the estimate charged them 148 KB each."""
    from toolcall import safe_validator
    from toolcall.validation import MAX_SCHEMA_PATTERNS

    monkeypatch.setattr(safe_validator, "_patterns", SizedCache(safe_validator.PATTERN_CACHE_SIZE, PATTERN_CACHE_BYTES))
    for i in range(MAX_SCHEMA_PATTERNS):
        compile_pattern(f"^{i:03d}-" + "[A-Z]{3}\\d+" * 9 + "[a-z]")  # 100 characters
    assert len(safe_validator._patterns) == MAX_SCHEMA_PATTERNS == 200


def test_the_caps_add_up_to_at_most_the_budget_and_the_readme_lists_them():
    caps = {name: _cache(name).max_bytes for name in FILLERS}
    assert sum(caps.values()) <= CACHE_BUDGET_BYTES == 154 * 1024 ** 2
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Caches, bounded in bytes", 1)[1].split("\n## ", 1)[0]
    for name, cap in caps.items():
        assert f"| `{name}` | {cap // 1024 ** 2} |" in section, name
    assert f"| total | {sum(caps.values()) // 1024 ** 2} |" in section


def test_put_charges_the_measured_bytes_and_keeps_nothing_over_the_cap():
    cache, entry = SizedCache(10, 100_000), SizedCache.ENTRY_BYTES
    assert cache.put("k", "x" * 1000) == entry + sys.getsizeof(("k", "")) + sys.getsizeof("k") + sys.getsizeof("x" * 1000)
    assert cache.put("n", None, native=5_000) == entry + 5_000 + sys.getsizeof(("n", None)) + sys.getsizeof("n")
    assert cache.cost == cache.put("k", "x" * 1000) + entry + 5_000 + sys.getsizeof(("n", None)) + sys.getsizeof("n")
    assert cache.put("big", ["y" * 200_000]) > 100_000 and "big" not in cache and len(cache) == 2
    assert cache.put("native", None, native=100_001) > 100_000 and "native" not in cache


@dataclasses.dataclass(slots=True)
class _Slotted:
    a: str
    b: list


class _Plain:
    def __init__(self, value):
        self.value = value


def test_the_walk_counts_each_object_once_and_sees_slots_dicts_and_patterns():
    shared = "s" * 100
    value = [shared, shared, (shared,)]
    assert memsize.measure(value, 10 ** 6) == memsize.Measure(
        sys.getsizeof(value) + sys.getsizeof(shared) + sys.getsizeof((shared,)), 3, True)
    slotted = _Slotted("a" * 50, [1.5])
    assert memsize.retained_bytes(slotted, 10 ** 6) == (sys.getsizeof(slotted) + sys.getsizeof("a" * 50)
                                                       + sys.getsizeof([1.5]) + sys.getsizeof(1.5))
    plain = _Plain(b"b" * 70)
    assert memsize.retained_bytes(plain, 10 ** 6) == (sys.getsizeof(plain) + sys.getsizeof(vars(plain))
                                                     + sys.getsizeof("value") + sys.getsizeof(b"b" * 70))
    pattern = "[^\\p{L}]" * 10
    compiled = compile_pattern(pattern)
    assert memsize.retained_bytes(compiled, 10 ** 7) == sys.getsizeof(compiled) + 8_192 + 1_400 * 80
    assert memsize.regex_bytes("[^a]" * 20) == 8_192 + 600 * 80  # no property escape: at most 330 bytes a char
    assert memsize.retained_bytes([len, json, int], 10 ** 6) == sys.getsizeof([len, json, int])  # shared code


def test_a_validator_is_not_charged_for_the_metaschemas_it_shares():
    """Every validator refers to the process's metaschema registry (through its resolver): counted, a validator of
    {"type": "string"} weighed 51 707 bytes (169 592 with our registry and format checkers); shared, a few KB."""
    from toolcall.validation import _validator_for

    assert memsize.retained_bytes(_validator_for('{"type": "string"}', False), 10 ** 6) < 4_000


def test_the_walk_stops_at_its_cap():
    """A chain of 200 000 nested tuples (11 MB) measured against a 10 000-byte cap: the walk visits a few hundred
    objects, not 400 000, and says it stopped; without a cap it sees them all, without recursing."""
    chain: tuple = ()
    for i in range(200_000):
        chain = (chain, i + 1_000)
    stopped = memsize.measure(chain, 10_000)
    assert not stopped.complete and stopped.bytes > 10_000
    assert stopped.objects <= 10_000 // sys.getsizeof(1_000) + 1
    whole = memsize.measure(chain, 10 ** 9)
    assert whole.complete and whole.objects == 400_001


class _Refusing(dict):
    def keys(self):
        raise RuntimeError("no")


class _NoAttributes:
    __slots__ = ("a",)

    def __getattribute__(self, name):
        raise RuntimeError(name)


def test_the_walk_never_raises_for_an_object_that_refuses_to_be_read():
    refusing, hidden = _Refusing(a="x" * 1000), _NoAttributes()
    assert memsize.retained_bytes(refusing, 10 ** 6) == sys.getsizeof(refusing)
    assert memsize.retained_bytes([hidden], 10 ** 6) == sys.getsizeof([hidden]) + sys.getsizeof(hidden)
    assert SizedCache(4, 10 ** 6).put("k", refusing) > sys.getsizeof(refusing)
