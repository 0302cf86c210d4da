"""Issue 13: with "assert format" on, every format checker is called only on strings up to
format_limit(format) characters; a longer string is one ``format`` error saying it is too long to check.

Before the cap, ``format: iri`` on a 20 000-character string ran rfc3987_syntax's Earley parser for
16 s of CPU and 516 MB in one uninterrupted call. The cases are every checker the validator has
registered (jsonschema[format-nongpl] decides which), so a checker added by a new jsonschema is covered.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from toolcall.safe_validator import ASSERT_FORMATS, FormatTooLong, _capped, format_limit
from toolcall.validation import validate

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMATS = sorted(ASSERT_FORMATS.checkers)


def test_every_registered_checker_is_capped():
    assert set(Draft202012Validator.FORMAT_CHECKER.checkers) <= set(ASSERT_FORMATS.checkers)
    assert {"iri", "iri-reference"} <= set(FORMATS), "jsonschema[format-nongpl] is in requirements.txt"
    for name in FORMATS:
        check, raises = ASSERT_FORMATS.checkers[name]
        assert hasattr(check, "__wrapped__"), name
        assert FormatTooLong in raises, name


def test_the_checker_is_not_called_above_the_cap():
    calls: list[int] = []
    capped = _capped("iri", lambda s: calls.append(len(s)) or True)
    limit = format_limit("iri")
    assert capped("a" * limit) is True
    with pytest.raises(FormatTooLong) as caught:
        capped("a" * (limit + 1))
    assert calls == [limit]
    assert (caught.value.format, caught.value.size, caught.value.limit) == ("iri", limit + 1, limit)


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_string_is_one_too_long_error(name, lang):
    size = 20_000
    schema = {"type": "object", "properties": {"v": {"type": "string", "format": name}}}
    errors, _ = validate({"v": "http://a/" + "a" * (size - 9)}, schema, lang, assert_format=True)
    assert [(e.pointer, e.keyword) for e in errors] == [("/v", "format")]
    limit = format_limit(name)
    word = {"en": "Too long to check format", "zh": "字符串太长，没法检查"}[lang]
    assert len(errors[0].hints) == 1 and errors[0].hints[0].startswith(word)
    assert f"{size}" in errors[0].hints[0] and f"{limit}" in errors[0].hints[0] and name in errors[0].hints[0]
    assert f"{limit}" in errors[0].expected


def test_short_strings_are_checked_as_before():
    schema = {"type": "object", "properties": {"v": {"format": "iri"}}}
    assert validate({"v": "http://例子.测试/路径"}, schema, assert_format=True)[0] == []
    errors, _ = validate({"v": "a b"}, schema, assert_format=True)
    assert [(e.keyword, e.hints) for e in errors] == [("format", [])]
    assert "at most" not in errors[0].expected


_CPU_SCRIPT = """
import json, sys, time
from toolcall.safe_validator import ASSERT_FORMATS, format_limit
ASSERT_FORMATS.conforms("http://a", "iri")  # builds the rfc3987_syntax parser outside the measure
worst = {}
for name in sorted(ASSERT_FORMATS.checkers):
    n = format_limit(name)
    for s in ("a" * n, "http://x.org/" + "a" * (n - 13), "1" * n, "a." * (n // 2), ("%20:/?#@!$&'()*+,;=" * n)[:n]):
        t0 = time.process_time()
        try:
            ASSERT_FORMATS.conforms(s, name)
        except Exception:
            pass
        worst[name] = max(worst.get(name, 0.0), time.process_time() - t0)
print(json.dumps(worst))
"""


def test_every_checker_at_its_cap_stays_cheap():
    """CPU seconds of each checker on strings of exactly its cap, in a fresh process (generous bound:
    the whole validation budget, 0.5 s, per call; iri at 256 chars takes ~0.1 s on the course machine)."""
    out = subprocess.run([sys.executable, "-c", _CPU_SCRIPT], cwd=REPO_ROOT, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    worst = json.loads(out)
    assert set(worst) == set(FORMATS)
    slow = {name: round(cpu, 3) for name, cpu in worst.items() if cpu > 0.5}
    assert slow == {}
