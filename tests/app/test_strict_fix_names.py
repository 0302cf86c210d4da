"""The strict panel's OpenAI fix lists the property names it changed as it lists other names a student writes (issue
13: at most a dozen per message, look-alike letters escaped). The fix makes every optional property required and
nullable: with 150 optional properties "Now required and nullable" and each "was valid and is now rejected" line
listed all 150, one text of 37 081 characters on every rerun of the open fix, and an optional "nоte" (Cyrillic о) read
as "note" there and in its probe row, while the findings table showed it escaped (break-it pass brk13web)."""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_strict_panel import matrix
from toolcall.i18n import name_list, t
from toolcall.validation import MAX_LISTED

LOOKALIKE = "n\u043ete"  # "nоte": Cyrillic о
SHOWN = "n\\u043ete"
OPTIONAL = [f"optional_field_{i:03d}_" + "x" * 40 for i in range(150)]
SCHEMA = {"type": "object",
          "properties": {"order_id": {"type": "string"}, "amount_cents": {"type": "integer"},
                         "reason": {"type": "string"}, LOOKALIKE: {"type": "string", "maxLength": 200},
                         **{name: {"type": "string"} for name in OPTIONAL}},
          "required": ["order_id", "amount_cents", "reason"]}

NULLABLE = {
    "en": "Now required and nullable: {names} … (+139 more). A call that leaves them out is rejected until it sends "
          "`null` for each.",
    "zh": "现在必填且可为 null：{names} ……（另有 139 个）。不传这些字段的调用会被拒绝，要传 `null` 才行。",
}


def fix_lines_of(lang: str, schema: dict):
    """The playground with ``schema`` in the editor, the strict panel open and its OpenAI fix shown: (the app, the
    lines of its text elements)."""
    at = fresh_app(lang, page="pages/playground.py")
    at.toggle(key="playground_strict_open").set_value(True).run()
    at.text_area(key="schema_editor").input(json.dumps(schema, ensure_ascii=False)).run()
    at.button(key="playground_strict_fix").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at, "\n".join(x.value for x in at.text).split("\n")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fix_lists_a_dozen_changed_names_escaped_then_counts_the_rest(lang):
    at, lines = fix_lines_of(lang, SCHEMA)
    names = t("word.name_sep", lang).join([SHOWN, *OPTIONAL[:MAX_LISTED - 1]])
    assert NULLABLE[lang].format(names=names) in lines
    fix_lines = [line for line in lines if OPTIONAL[0] in line]
    assert len(fix_lines) >= 2  # the nullable line and at least one "was valid and is now rejected" line
    assert all(len(line) < 2_000 and OPTIONAL[MAX_LISTED] not in line and LOOKALIKE not in line for line in fix_lines)
    probes = [label for label in matrix(at, lang) if SHOWN in label]
    assert probes and not any(LOOKALIKE in label for label in matrix(at, lang))


@pytest.mark.parametrize(("lang", "listed"), [("en", "a, b … (+2 more)"), ("zh", "a、b ……（另有 2 个）")])
def test_name_list_counts_the_names_past_its_limit(lang, listed):
    assert name_list("abcd", lang, 2) == listed
    assert name_list("abcd", lang) == t("word.name_sep", lang).join("abcd")
    assert name_list("ab", lang, 2) == t("word.name_sep", lang).join("ab")


#: Three optional properties named by 850 zero-width spaces after "o0", "o1", "o2" (7.9 KB typed, within the strict
#: panel's caps): the fix's lines quoted each name whole, 79 000 characters of escapes on every rerun of the open fix
#: (break-it pass brk14web). Each name is now at most MAX_SHOWN_NAME_CHARS characters as drawn, escapes included:
#: cut at 64 characters and then escaped, it was still drawn as 386.
HIDDEN_NAMES = [f"o{i}" + "\u200b" * 850 for i in range(3)]
NULLABLE_ALL = {"en": "Now required and nullable: {names}. A call that leaves them out is rejected until it sends `null` "
                      "for each.",
                "zh": "现在必填且可为 null：{names}。不传这些字段的调用会被拒绝，要传 `null` 才行。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fix_cuts_each_long_name_as_drawn(lang):
    from toolcall.lint import MAX_SHOWN_NAME_CHARS

    schema = {"type": "object", "properties": {"order_id": {"type": "string"}, "amount_cents": {"type": "integer"},
                                               "reason": {"type": "string"},
                                               **{name: {"type": "string"} for name in HIDDEN_NAMES}},
              "required": ["order_id", "amount_cents", "reason"]}
    _, lines = fix_lines_of(lang, schema)
    shown = [f"o{i}" + "\\u200b" * 10 + "…" for i in range(3)]  # 2 + 10 × 6 = 62 of 64 drawn; an 11th is 68
    assert MAX_SHOWN_NAME_CHARS == 64 and all(len(name) == 63 for name in shown)
    assert NULLABLE_ALL[lang].format(names=t("word.name_sep", lang).join(shown)) in lines
    fix_lines = [line for line in lines if shown[0] in line]
    assert len(fix_lines) >= 2 and all(len(line) < 2_000 for line in fix_lines), [len(x) for x in fix_lines]
