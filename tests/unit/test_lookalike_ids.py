"""Ids, names and roles quoted from a transcript show a look-alike character escaped (issue 13).

A result whose tool_use_id differs from its call's id by one Cyrillic letter read "Result for
toolu_01a, but the turn before called: toolu_01a."; now the odd letter shows as ``\\u0430``. Cases are
derived: the same broken Anthropic transcript converted to every wire form the checker reads.
"""

import json

import pytest

from tests.transcript_builders import USER, assistant, result, use, user
from toolcall.convert import convert
from toolcall.pairing import check_pairing
from toolcall.text import escape_identifier
from toolcall.i18n import t
from toolcall.wire import ANTHROPIC, PAIRING_CHOICES

CYRILLIC_A = "\u0430"  # а, drawn like the Latin a
FORMS = [f for f in PAIRING_CHOICES if f != "auto"]


def _lookalike_transcript():
    """A call toolu_01a answered by toolu_01а (Cyrillic), and a call named refund_order answered by name
    refund_оrder (Cyrillic о) where the form pairs by name."""
    return [USER, assistant(use("toolu_01a")), user(result("toolu_01" + CYRILLIC_A))]


@pytest.mark.parametrize("fmt", FORMS)
def test_a_lookalike_id_is_shown_escaped_in_every_form(fmt):
    messages, _ = convert(_lookalike_transcript(), ANTHROPIC, fmt) if fmt != ANTHROPIC else (
        _lookalike_transcript(), [])
    report = check_pairing(json.dumps(messages, ensure_ascii=False), fmt)
    assert report.violations, fmt
    text = " ".join(v.detail + " " + v.advice for v in report.violations)
    assert CYRILLIC_A not in text
    if "toolu_01" + CYRILLIC_A in json.dumps(messages, ensure_ascii=False):  # the form carries the id
        assert "toolu_01\\u0430" in text


def test_a_lookalike_role_is_shown_escaped():
    report = check_pairing(json.dumps([USER, {"role": "\u0430ssistant", "content": "hi"}], ensure_ascii=False),
                           ANTHROPIC)
    details = [v.detail for v in report.violations if v.rule == "wrong_content_type"]
    assert details and all("\\u0430ssistant" in d and "\u0430" not in d for d in details)


@pytest.mark.parametrize("text, shown", [
    ("toolu_01a", "toolu_01a"), ("toolu_01\u0430", "toolu_01\\u0430"), ("a\u200bb", "a\\u200bb"),
    ("x\x1b[2J", "x\\u001b[2J"), ("get_\U000e0041", "get_\\udb40\\udc41"), ("订单", "\\u8ba2\\u5355"),
])
def test_escape_identifier(text, shown):
    assert escape_identifier(text) == shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lookalike_letter_in_a_tool_name_is_named_by_its_code_point(lang):
    from toolcall.tooldef import check_name

    problem = check_name("refund_\u043erder", lang)
    assert problem.code == "NAME_CHARS"
    assert "'\u043e' (U+043E)" in problem.message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_confusion_chart_and_the_pages_tables_escape_a_lookalike_tool_name(lang):
    """A model that calls get_оrder (Cyrillic о) was a second column of the heatmap reading exactly
    get_order; every tool label of the selection lab goes through escape_identifier."""
    import pandas as pd

    from toolcall.eval_charts import confusion_chart
    from toolcall.evaluation import Analysis, CaseRow
    from toolcall.selection import NO_TOOL
    from ui.eval_lab import _case_rows

    chosen = ["get_order", "get_\u043erder", "get_order\u200b", NO_TOOL]
    confusion = pd.DataFrame([[1, 1, 1, 1]], index=["get_order"], columns=chosen)
    spec = confusion_chart(confusion, lang).to_dict()
    values = next(iter(spec["datasets"].values()))
    assert [v["chosen"] for v in values] == ["get_order", "get_\\u043erder", "get_order\\u200b",
                                             t("eval.no_tool", lang)]
    result = Analysis(None, [CaseRow("c1", "get_\u043erder", 1, 1, 1, 1.0, 1.0, 1.0)], None, {}, 0, 0)
    assert list(_case_rows(result, 1)[0].values())[1] == "get_\\u043erder"


def _first_of_type(kind):
    from toolcall.exercises import load_exercises

    return next(ex for ex in load_exercises().exercises if ex.type == kind)


@pytest.mark.parametrize("kind", ["classify", "choice"])
def test_an_answers_lookalike_id_is_quoted_escaped_in_the_feedback(kind):
    """Ids typed in an answer (grade CLI, JSON) that match nothing are quoted with look-alikes escaped: an
    item id with a Cyrillic letter read 'There is no item "x"' where x looked like a listed id."""
    from toolcall.grading import grade

    ex = _first_of_type(kind)
    key = "items" if kind == "classify" else "options"
    first = next(iter(ex.labels(key)))
    fake = first.replace("a", CYRILLIC_A, 1) if "a" in first else first + CYRILLIC_A
    if kind == "classify":
        answer = {i: next(iter(ex.labels("categories"))) for i in ex.labels("items") if i != first}
        answer[fake] = next(iter(ex.labels("categories")))
    else:
        answer = [fake]
    result = grade(ex, json.dumps(answer, ensure_ascii=False))
    texts = [item.render("en") for item in result.feedback]
    assert any(escape_identifier(fake) in text for text in texts), texts
    assert not any(CYRILLIC_A in text for text in texts), texts
