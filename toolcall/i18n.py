"""The UI string catalogue: ``toolcall/locales/<lang>.yaml`` plus one file per area under
``toolcall/locales/<lang>/*.yaml`` (so a new page brings its own strings in its own file).

Keys are dotted paths (``playground.title``); values are ``str.format`` templates, so a
literal brace is written twice (``{{}}``). An English noun that follows a count is written with both its forms,
``{count} {count:plural:message|messages}``: the first form when the count is 1 ("Checked 1 message"), the second
otherwise (:func:`fill`). Chinese has no plural and writes the count alone.
Both catalogues must hold exactly the same keys (tests/content checks this).
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any


from toolcall.yaml_io import safe_load

LANGS: tuple[str, ...] = ("en", "zh")
DEFAULT_LANG = "en"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, path + "."))
        else:
            flat[path] = str(value)
    return flat


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Return the flat ``{dotted key: template}`` catalogue for ``lang``.

    Raises ValueError for a language other than those in ``LANGS`` or a key defined in two
    files; FileNotFoundError
    or yaml.YAMLError if the catalogue file is missing or malformed.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    files = [LOCALES_DIR / f"{lang}.yaml", *sorted((LOCALES_DIR / lang).glob("*.yaml"))]
    flat: dict[str, str] = {}
    for path in files:
        with open(path, encoding="utf-8") as fh:
            part = _flatten(safe_load(fh) or {})
        clash = sorted(set(part) & set(flat))
        if clash:
            raise ValueError(f"{path}: keys defined twice in the {lang} catalogue: {', '.join(clash[:5])}")
        flat.update(part)
    return flat


def normalize_lang(value: str | None) -> str:
    """Map a locale such as ``zh-CN``, ``zh_Hans`` or ``en-US`` to ``zh`` or ``en``.

    Anything unknown or empty falls back to ``DEFAULT_LANG``.
    """
    if not value:
        return DEFAULT_LANG
    head = value.replace("_", "-").split("-")[0].lower()
    return head if head in LANGS else DEFAULT_LANG


def in_language(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """``params`` with every value written in each language (``{"en": …, "zh": …}``, e.g. parsing.json_reason's
    sentence) replaced by its ``lang`` text (English when missing), for :func:`t`; other values unchanged."""
    return {k: (v.get(lang) or v[DEFAULT_LANG]) if isinstance(v, dict) and DEFAULT_LANG in v else v
            for k, v in params.items()}


PLURAL = "plural:"


class _Plural(string.Formatter):
    """``str.format`` plus the ``plural:one|other`` format spec (see the module docstring)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec.startswith(PLURAL):
            return super().format_field(value, format_spec)
        one, other = format_spec[len(PLURAL):].split("|")
        return one if _is_one(value) else other


def _is_one(value: Any) -> bool:
    """Whether a count reads as one: 1, 1.0 (a schema may write ``"minItems": 1.0``) or the text "1"."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == 1
    return str(value).replace(",", "").strip() == "1"


_PLURAL = _Plural()


def fill(template: str, **params: Any) -> str:
    """``template.format(**params)``, where ``{n:plural:item|items}`` writes ``item`` when ``n`` is 1 (1, 1.0, or a
    number already written, such as ``"1"``) and ``items`` for any other value. Raises what ``str.format`` raises
    (KeyError for a missing parameter, ValueError for a bad spec or a plural spec without exactly one ``|``)."""
    return _PLURAL.vformat(template, (), params) if PLURAL in template else template.format(**params)


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    """Translate ``key`` into ``lang`` and fill ``{placeholders}`` from ``params``.

    A key missing from ``lang`` falls back to English; a key missing everywhere
    raises KeyError (the content test makes sure that never ships).
    """
    lang = normalize_lang(lang)
    table = catalogue(lang)
    template = table.get(key)
    if template is None:
        template = catalogue(DEFAULT_LANG)[key]
    return fill(template, **params)


def sentence_gap(lang: str) -> str:
    """What goes between two sentences joined in ``lang``: a space in English, nothing in Chinese (a Chinese
    sentence ends with a full-width 。 that carries its own spacing)."""
    return "" if normalize_lang(lang) == "zh" else " "


def name_list(items, lang: str, limit: int | None = None) -> str:
    """Short names (keywords, tools, fields) listed in ``lang``: "maxLength, minimum" in English, "maxLength、minimum"
    in Chinese, which lists with the enumeration comma (an ASCII ", " read as English left in: newcomer session 7).
    ``limit``: list at most that many, then how many more (``word.more``), for names a student writes."""
    items = list(items)
    shown = t("word.name_sep", lang).join(map(str, items if limit is None else items[:limit]))
    return shown if limit is None or len(items) <= limit else shown + t("word.more", lang, count=len(items) - limit)
