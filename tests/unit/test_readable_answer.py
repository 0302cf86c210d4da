"""toolcall.grading.readable_answer: a stored answer as the student saw it, for the class dashboard (its
"common wrong answers" listed option ids such as ``["strict_validate", "cap_retries"]``: newcomer pass,
session 5). Cases come from the shipped exercises: every listed wrong answer and reference answer of every
type whose widgets show texts for ids, as the dashboard groups it (normalize_answer), in both languages."""

import json

import pytest

from toolcall.dashboard import normalize_answer
from toolcall.exercises import load_exercises
from toolcall.grading import answer_text, readable_answer
from toolcall.i18n import LANGS
from toolcall.markdown import unwrap_code

EXERCISES = load_exercises()
#: Each type whose answer names ids, with the kinds of labels the student saw for them.
KINDS = {"choice": ("options",), "order": ("steps",), "classify": ("items", "categories")}
CASES = [(ex, value) for ex in EXERCISES.exercises if ex.type in KINDS
         for value in [ex.answer, *(w["answer"] for w in ex.wrong_answers)]]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ex, value", CASES, ids=[f"{ex.id}-{i}" for i, (ex, _) in enumerate(CASES)])
def test_every_answer_naming_ids_is_shown_with_their_texts(ex, value, lang):
    text = normalize_answer(answer_text(ex, value))  # what the dashboard has: case folded, spaces collapsed
    shown = readable_answer(ex, text, lang)
    assert shown != text
    # each text as the page shows it: a code span without its backticks (newcomer pass, session 12)
    labels = {kind: {i: {lg: unwrap_code(text) for lg, text in texts.items()} for i, texts in ex.labels(kind).items()}
              for kind in KINDS[ex.type]}
    if ex.type == "classify":
        expected = [f"{labels['items'][i][lang]} → {labels['categories'][c][lang]}" for i, c in value.items()]
    else:
        expected = [labels[KINDS[ex.type][0]][i][lang] for i in value]
    position = [shown.index(part) for part in expected]  # every text, in the answer's order
    assert position == sorted(position)
    try:  # not the JSON of ids (a text may itself be JSON: an MCP response, a Responses item)
        parsed = json.loads(shown)
    except ValueError:
        parsed = None
    assert parsed != json.loads(text)


def test_shipped_answers_read_exactly():
    by_id = EXERCISES.by_id()
    ex = by_id["ex_misconceptions"]
    assert readable_answer(ex, json.dumps(["strict_validate", "cap_retries"]), "en") == (
        "With strict tool use you still validate the arguments before the refund runs; "
        "Retries in the same context are not independent, so cap them")
    assert readable_answer(ex, "cap_retries", "zh") == "同一上下文里的重试并不独立，所以要设上限"
    order = by_id["wt_order"]
    assert readable_answer(order, json.dumps(["send", "run", "tool_use", "result", "final"]), "en").startswith(
        "You send a request: the user's message in messages, refund_order in tools → Your code validates")


def test_text_answers_and_unreadable_text_stay_as_they_are():
    by_type = {ex.type: ex for ex in reversed(EXERCISES.exercises)}
    assert readable_answer(by_type["number"], "84/120", "zh") == "84/120"
    assert readable_answer(by_type["json"], '{"a": 1}', "en") == '{"a": 1}'
    assert readable_answer(by_type["choice"], '["no_such_option"]', "en") == '["no_such_option"]'
    assert readable_answer(by_type["classify"], '{"cut short', "en") == '{"cut short'
