"""Feedback that quotes an exercise's own text (an option, an item, a category) shows what the page showed: the
text's Markdown code spans without their backticks. Newcomer session 12 submitted "Pair these Responses items"
unsorted and read "Not sorted yet: `{"type": "function_call_output", …}`", backticks and all, under a prompt
whose items showed as code; the MCP choice exercise's "Not this one: `{"jsonrpc": …}`" the same."""

import json

import pytest

from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.markdown import unwrap_code

EX = load_exercises().by_id()


def _code(text: str) -> str:
    """The fixture's text, one code span, as it shows: without its single backticks."""
    assert text.startswith("`") and text.endswith("`") and "`" not in text[1:-1]
    return text[1:-1]


@pytest.mark.parametrize("lang, head", [("en", "Not sorted yet: "), ("zh", "还没归类：")])
def test_an_unsorted_item_is_named_as_it_was_shown(lang, head):
    ex = EX["ex_pair_responses_items"]
    result = grade(ex, "{}", grading_inputs(ex))
    assert result.malformed
    assert [f.render(lang) for f in result.feedback] == [head + _code(i["text"][lang]) for i in ex.spec["items"]]
    assert all("`" not in f.render(lang) for f in result.feedback)


@pytest.mark.parametrize("lang, head", [("en", "Not this one: "), ("zh", "这个不对：")])
def test_a_wrong_option_is_named_as_it_was_shown(lang, head):
    ex = EX["ex_mcp_unknown_tool"]
    wrong = next(o for o in ex.spec["options"] if o["id"] not in ex.answer and o["text"]["en"].startswith("`"))
    result = grade(ex, json.dumps([wrong["id"]]), grading_inputs(ex))
    lines = [f.render(lang) for f in result.feedback if f.render(lang).startswith(head)]
    assert len(lines) == 1 and lines[0].startswith(head + _code(wrong["text"][lang])) and "`" not in lines[0]


@pytest.mark.parametrize("text, shown", [
    ("`a`", "a"),
    ("call `get_order` then `refund_order`", "call get_order then refund_order"),
    ("`` a`b ``", "a`b"),
    ("`  `", "  "),
    ("\\`not code\\`", "\\`not code\\`"),
    ("an `open span", "an `open span"),
    ("no code", "no code"),
])
def test_unwrap_code(text, shown):
    assert unwrap_code(text) == shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboards_readable_answer_shows_items_without_backticks(lang):
    """The class dashboard's "most common wrong answers" and drill-down read a classify answer as "item → category";
    the items kept their backticks there too."""
    from toolcall.grading import answer_text, readable_answer

    ex = EX["ex_pair_responses_items"]
    items = {i["id"]: _code(i["text"][lang]) for i in ex.spec["items"]}
    cats = {c["id"]: c["text"][lang] for c in ex.spec["categories"]}
    sep = {"en": "; ", "zh": "；"}[lang]
    assert readable_answer(ex, answer_text(ex, ex.answer), lang) == sep.join(
        f"{items[k]} → {cats[v]}" for k, v in ex.answer.items())
