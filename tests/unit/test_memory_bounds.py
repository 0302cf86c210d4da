"""Student patterns cannot drive memory: judging under an address-space limit (issue 13).

Each hostile pattern goes through check_schema and, when accepted, through the playground's
evaluate() on inputs that make the engine work, in a subprocess whose address space is capped
by resource.setrlimit(RLIMIT_AS). Every case must end in a clear refusal or a verdict (never a
traceback or MemoryError), and the peak RSS must stay within a small margin of the baseline.
"""

import json
import subprocess
import sys
import textwrap

import pytest

from toolcall import REPO_ROOT

#: (?x) and other inline flags are not ECMA-262: refused as syntax. The rest are valid ECMA-262
#: and compile without unrolling; matching is bounded by the per-match timeout.
HOSTILE = [
    "(?x)(?:x{65 535}){1 00}", "(?x)(?:x{65 535}){2 00}", "(?x)(?:(?:x{6 5535}){6 5535}){1 00}",
    "(?i)(?:x{65535}){100}", "(?s)(?:.{65535}){100}",
    "(?:x{65535}){100}", "(?:(?:x{65535}){65535}){65535}", "(?:(?:(?:x{65535}){65535}){65535}){65535}",
    "^(?:(a|b){65535}){65535}\\1$", "(?<=(?:x{65535}){65535})y", "(?:[\\s\\S]{0,65535}){65535}z",
    "(?:(a*)*\\1){100}b", "(?:\\p{L}{65535}){65535}", "(" * 200 + "a" + ")" * 200,
    "|".join(["(?:a{65535}){65535}"] * 45),
]

SCRIPT = textwrap.dedent("""
    import json, resource, sys
    sys.path.insert(0, {root!r})
    from toolcall.judge import evaluate
    from toolcall.validation import check_schema
    evaluate('{{"a": "x"}}', {{"properties": {{"a": {{"type": "string"}}}}}}, "t")  # warm every import
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    limit = {limit}
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = []
    for pattern in json.loads(sys.argv[1]):
        schema_text = json.dumps({{"type": "object", "properties": {{"a": {{"type": "string", "pattern": pattern}}}},
                                  "patternProperties": {{pattern: {{}}}}, "unevaluatedProperties": False}})
        checked = check_schema(schema_text)
        verdicts = []
        if checked.ok:
            for text in ("x" * 70000, "ab" * 20000 + "!", "a" * 5000):
                card = evaluate(json.dumps({{"a": text, text[:100]: 1}}), checked.schema, "t")
                verdicts.append(card.verdict)
        out.append([pattern, checked.ok, checked.code, checked.message[:200], verdicts])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({{"base_kb": base, "peak_kb": peak, "cases": out}}))
""")

#: Address space the judging process may map (bytes), and how far its RSS may grow (KiB).
LIMIT = 2 * 1024 ** 3
MAX_GROWTH_KB = 150 * 1024


def test_hostile_patterns_are_refused_or_judged_in_bounded_memory():
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(REPO_ROOT), limit=LIMIT), json.dumps(HOSTILE)],
                          capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    cases = {c[0]: c for c in report["cases"]}
    for pattern in HOSTILE[:5]:  # inline flags: refused as not ECMA-262, naming the pattern
        _, ok, code, message, _ = cases[pattern]
        assert (ok, code) == (False, "SCHEMA_INVALID")
        assert "is not a usable regular expression" in message and "invalid group" in message
    for pattern in HOSTILE[5:]:
        _, ok, code, message, verdicts = cases[pattern]
        assert ok or code == "SCHEMA_INVALID", (pattern, message)
        assert all(v in ("accepted", "rejected") for v in verdicts)
    print("RSS base/peak KiB:", report["base_kb"], report["peak_kb"])
    assert report["peak_kb"] - report["base_kb"] < MAX_GROWTH_KB, report


def test_memory_error_in_check_schema_becomes_a_refusal(monkeypatch):
    import toolcall.validation as validation

    def boom(*_a, **_k):
        raise MemoryError

    monkeypatch.setattr(validation, "_check_schema", boom)
    checked = validation.check_schema('{"type": "string"}')
    assert (checked.ok, checked.code) == (False, "SCHEMA_INVALID")
    assert checked.message.startswith("Checking this schema needed more memory")


def test_memory_error_in_validate_becomes_one_error(monkeypatch):
    import toolcall.validation as validation

    def boom(*_a, **_k):
        raise MemoryError

    monkeypatch.setattr(validation, "_validator_for", boom)
    errors, _ = validation.validate({"a": 1}, {"type": "object", "title": "memory-test"})
    assert [(e.keyword, e.received) for e in errors] == [("$memory", "a validation that ran out of memory")]


@pytest.mark.parametrize("cache_name", ["_patterns"])
def test_pattern_cache_is_capped_by_size(cache_name):
    from toolcall import safe_validator

    from toolcall import memsize

    cache = getattr(safe_validator, cache_name)
    for i in range(400):
        last = f"^{i}" + "a" * 900 + "$"
        safe_validator.compile_pattern(last)
    assert cache.cost <= safe_validator.PATTERN_CACHE_BYTES and len(cache) <= safe_validator.PATTERN_CACHE_SIZE
    each = cache.ENTRY_BYTES + memsize.retained_bytes((last, cache.get(last)), 10 ** 9)  # its Rust program too
    assert each > memsize.regex_bytes(last) == 8_192 + 600 * 905
    assert len(cache) == safe_validator.PATTERN_CACHE_BYTES // each == 30  # 30 of 400, not 256
