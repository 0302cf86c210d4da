"""Issue 13: with "assert format" on, every format checker is called only on strings up to
format_limit(format) characters; a longer string is one ``format`` error saying it is too long to check.

Before the cap, ``format: iri`` on a 20 000-character string ran rfc3987_syntax's Earley parser for
16 s of CPU and 516 MB in one uninterrupted call. The cases are every checker the validator has
registered (jsonschema[format-nongpl] decides which), so a checker added by a new jsonschema is covered.
"""

from __future__ import annotations


import pytest
from jsonschema import Draft202012Validator

from toolcall.safe_validator import ASSERT_FORMATS, FormatTooLong, _capped, format_limit
from toolcall.validation import validate

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
