"""Issue 14: the regex engine's English never reaches a message. Each syntax-error kind the engine
names (REGEX_KINDS) has our own en and zh text; any other kind, or an error without an offset, gets
a translated fallback. Cases come from patterns the engine refuses, checked against its own text."""

import re

import pytest

from toolcall.i18n import catalogue, t
from toolcall.regex_errors import REGEX_KINDS, describe
from toolcall.safe_validator import MAX_PATTERN_CHARS, PatternError, UnsafePattern, compile_pattern
from toolcall.validation import check_schema

#: Bad patterns with the kind and offset the engine reports (one per kind we could provoke).
BAD = {
    "(?<=": ("unterminated_group", 4), ")": ("unmatched_paren", 0), "[": ("unterminated_class", 1),
    "a**": ("nothing_to_repeat", 2), "a{2,1}": ("quantifier_order", 5), "\\": ("trailing_backslash", 1),
    "(?": ("invalid_group", 2), "(?<": ("invalid_group_name", 3), "(?<n>a)(?<n>b)": ("duplicate_group_name", 12),
    "\\k<x>": ("unknown_group_name", 5), "\\p{Foo}": ("invalid_property", 7), "\\c": ("invalid_control_escape", 2),
    "\\u{110000}": ("invalid_u_escape", 2), "[z-a]": ("class_range_order", 4), "[\\d-z]": ("invalid_class_range", 5),
}
ENGLISH = re.compile(r"[A-Za-z]{3,}")


def _error(pattern: str) -> Exception:
    with pytest.raises((PatternError, UnsafePattern)) as caught:
        compile_pattern(pattern)
    return caught.value


@pytest.mark.parametrize("pattern", BAD)
def test_each_kind_is_recognised_and_translated(pattern):
    key, offset = BAD[pattern]
    exc = _error(pattern)
    assert str(exc).startswith(f"ecmaregex: {next(k for k, v in REGEX_KINDS.items() if v == key)} at offset {offset}")
    for lang in ("en", "zh"):
        assert describe(exc, lang) == t("regex.at_offset", lang, kind=t(f"regex.kind.{key}", lang), offset=offset)
    english = {word for word in ENGLISH.findall(str(exc)) if word != "ecmaregex"} | {"ecmaregex", "offset"}
    assert not english & set(ENGLISH.findall(describe(exc, "zh"))), describe(exc, "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_kind_has_text(lang):
    for key in REGEX_KINDS.values():
        assert catalogue(lang).get(f"regex.kind.{key}"), (lang, key)


def test_an_unknown_kind_gets_a_translated_fallback_with_its_offset():
    exc = PatternError('ecmaregex: some brand new complaint at offset 7 in "abc"')
    assert describe(exc, "zh") == t("regex.other", "zh", offset=7) == "位置 7 有语法错误"
    assert describe(ValueError("boom"), "zh") == t("regex.unusable", "zh")


def test_too_long_is_translated():
    exc = _error("a" * (MAX_PATTERN_CHARS + 1))
    assert describe(exc, "zh") == t("regex.too_long", "zh", length=MAX_PATTERN_CHARS + 1, limit=MAX_PATTERN_CHARS)


def test_a_schema_with_a_bad_pattern_in_chinese_has_no_engine_english():
    """The playground and lint show check_schema's message."""
    result = check_schema('{"type": "string", "pattern": "(?<="}', "zh")
    assert not result.ok
    assert "ecmaregex" not in result.message and "unterminated" not in result.message
    assert result.message.endswith(t("schema.bad_regex", "zh", value="(?<=", cause="分组缺少收尾的 )，位置 4"))
