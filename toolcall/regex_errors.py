"""The regex engine's errors in the student's language.

corvus-regex-ecma262 (the ECMA-262 engine in toolcall.safe_validator) raises ``ecma.error`` whose
text is English: ``ecmaregex: <kind> at offset <n> in "<pattern>"``. ``describe(exc, lang)``
turns the kinds we recognise (REGEX_KINDS: the engine's own wording -> our key) into our own
en/zh text with the offset; any other kind gets a translated generic message that still gives the
offset, so no engine English reaches a Chinese page. The kinds were read from the engine's
compiled messages (``strings _native.abi3.so``, corvus-regex-ecma262 as installed).
"""

from __future__ import annotations

import re

from toolcall.i18n import t

#: The engine's wording of a syntax error kind -> the key of our text (``regex.kind.<key>``).
REGEX_KINDS: dict[str, str] = {
    "unterminated group": "unterminated_group",
    "unmatched ')'": "unmatched_paren",
    "unterminated character class": "unterminated_class",
    "nothing to repeat": "nothing_to_repeat",
    "numbers out of order in quantifier": "quantifier_order",
    "malformed quantifier": "malformed_quantifier",
    "\\ at end of pattern": "trailing_backslash",
    "invalid group": "invalid_group",
    "invalid group name": "invalid_group_name",
    "duplicate group name": "duplicate_group_name",
    "invalid group modifier": "invalid_group_modifier",
    "repeated group modifier": "repeated_group_modifier",
    "invalid named reference": "invalid_named_reference",
    "reference to an unknown group name": "unknown_group_name",
    "reference to a group that does not exist": "unknown_group_number",
    "invalid property name": "invalid_property",
    "invalid control escape": "invalid_control_escape",
    "invalid decimal escape": "invalid_decimal_escape",
    "invalid \\x escape": "invalid_x_escape",
    "invalid \\u escape": "invalid_u_escape",
    "invalid escape": "invalid_escape",
    "range out of order in character class": "class_range_order",
    "invalid character class range": "invalid_class_range",
    "negated character class may contain strings": "negated_class_strings",
    "invalid set operation in character class": "invalid_set_operation",
    "invalid character in character class": "invalid_class_character",
    "lone bracket": "lone_bracket",
    "expected a number": "expected_number",
}

_SYNTAX = re.compile(r"ecmaregex: (?P<kind>.+?) at offset (?P<offset>\d+)(?: in \"|$)", re.S)
_TOO_LONG = re.compile(r"pattern is (?P<length>\d+) characters; the limit is (?P<limit>\d+)")


def describe(exc: BaseException, lang: str) -> str:
    """Why a pattern does not compile, in ``lang``, from the engine's error (PatternError),
    UnsafePattern (too long) or any other exception compiling raised. Never the engine's
    English: a kind not in REGEX_KINDS is ``regex.other`` with its offset, an error without an
    offset ``regex.unusable``."""
    text = str(exc)
    if found := _TOO_LONG.search(text):
        return t("regex.too_long", lang, length=int(found["length"]), limit=int(found["limit"]))
    if found := _SYNTAX.search(text):
        key = REGEX_KINDS.get(found["kind"])
        offset = int(found["offset"])
        if key is None:
            return t("regex.other", lang, offset=offset)
        return t("regex.at_offset", lang, kind=t(f"regex.kind.{key}", lang), offset=offset)
    return t("regex.unusable", lang)
