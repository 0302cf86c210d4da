"""The UI catalogues: every key in both languages, every placeholder the same."""

import string

import pytest

from toolcall.i18n import LANGS, catalogue, normalize_lang, t


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_catalogues_have_the_same_keys():
    """A string added in one language only must fail here, naming the key."""
    en, zh = set(catalogue("en")), set(catalogue("zh"))
    assert sorted(en - zh) == [], "missing from zh.yaml"
    assert sorted(zh - en) == [], "missing from en.yaml"


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_placeholders_match_across_languages(key):
    """A translation that drops or renames a {placeholder} would raise at run time."""
    assert _fields(catalogue("en")[key]) == _fields(catalogue("zh")[key])


def test_no_empty_strings():
    for lang in LANGS:
        empty = [k for k, v in catalogue(lang).items() if not v.strip()]
        assert empty == [], f"{lang}: empty strings"


@pytest.mark.parametrize("locale, expected", [("zh-CN", "zh"), ("zh_Hans_CN", "zh"), ("en-US", "en"),
                                               ("fr-FR", "en"), (None, "en"), ("", "en")])
def test_locale_follows_the_browser(locale, expected):
    assert normalize_lang(locale) == expected


def test_translation_fills_placeholders():
    assert t("playground.summary", "en", matched=5, total=6) == "5 of 6 outputs got their expected verdict."
    assert t("playground.summary", "zh", matched=5, total=6) == "6 个输出中有 5 个得到了预期的结论。"
