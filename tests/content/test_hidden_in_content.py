"""check names a character the page draws as nothing or that reorders the text, in every instructor text rendered
as Markdown (issue 13: invisible characters shown raw). The app renders lessons and fixture texts as written, so a
lesson pasted from a document with a direction override read reversed in class ("A cust\u202eomer writes"), and tag
characters could carry a sentence no one saw; check said nothing. Emoji joiners and variation selectors are part of
the emoji they draw and are not named."""

import copy
import functools

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall import CONTENT_ROOT
from toolcall.fixtures import json_path
from toolcall.markdown_hazards import hidden_hazards

LESSON = "lessons/en/01-model-proposes.md"
SAID = "a character the page shows as nothing or that reorders the text around it (pasted from a document?); delete it"


def test_a_lesson_body_with_a_direction_override_is_named_at_its_line(tmp_path):
    root = edited_copy(tmp_path, LESSON, "A customer writes:", "A cust\u202eomer writes:")
    line = (root / LESSON).read_text(encoding="utf-8").split("A cust")[0].count("\n") + 1
    assert {(where, message) for file, where, message in problem_set(root) if file == LESSON} == {
        ("$.body", f"line {line}: \\u202e: {SAID}")}


@pytest.mark.parametrize("text, found", [
    ("Re\u200btries and a soft\u00adhyphen", ["line 1: \\u200b, \\u00ad: " + SAID]),
    ("one\ntwo \U000e0041\U000e0042\U000e0043\U000e0044 three", ["line 2: \\udb40\\udc41, \\udb40\\udc42, \\udb40\\udc43"
                                                                 " and 1 more: " + SAID]),
    ("\ufeffTitle", ["line 1: \\ufeff: " + SAID]),
    ("👩\u200d💻 codes, ❤\ufe0f, 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f flies", []),
    ("plain text\r\nwith CRLF line ends\r\n", [])])
def test_hidden_hazards(text, found):
    assert hidden_hazards(text) == found


HELD = SAID


def test_hidden_characters_in_labels_ids_items_and_requests_are_named_at_their_path(tmp_path):
    """Only texts rendered as Markdown were checked: an output's label, an order's item and customer id, a selection
    request and expected argument passed with a zero-width space or a direction override (issue 13, break-it pass
    brk14content); the customer id turned every refund of that order into ORDER_NOT_OWNED, and check named only
    the business case whose error changed."""
    root = edited_copy(tmp_path, "fixtures/orders/orders.yaml", "    customer_id: CUST-1001\n    paid_cents: 1500",
                       "    customer_id: \"CUST-1001\\u200b\"\n    paid_cents: 1500")
    edits = [("fixtures/orders/orders.yaml", 'item: {en: "Notebook"', 'item: {en: "Note\\u202ebook"'),
             ("fixtures/selection/shop.en.yaml", 'query: ["desk lamp"', 'query: ["desk\\u200b lamp"'),
             ("fixtures/selection/shop.en.yaml", 'request: "Which of my orders', 'request: "Wh\\u202eich of my orders'),
             ("fixtures/outputs/refund_order.yaml", 'label: {en: "Valid call"', 'label: {en: "Valid\\u200b call"')]
    for file, old, new in edits:
        text = (root / file).read_text(encoding="utf-8")
        assert old in text
        (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    assert {(file.split("fixtures/")[-1], where, message) for file, where, message in problem_set(root)} == {
        ("orders/orders.yaml", "$.orders[1].customer_id", f"holds \\u200b: {HELD}"),
        ("orders/orders.yaml", "$.orders[1].item.en", f"holds \\u202e: {HELD}"),
        ("selection/shop.en.yaml", "$.cases[0].expected_arguments.query[0]", f"holds \\u200b: {HELD}"),
        ("selection/shop.en.yaml", "$.cases[1].request", f"holds \\u202e: {HELD}"),
        ("outputs/refund_order.yaml", "$.outputs[0].label.en", f"holds \\u200b: {HELD}")}


def test_a_hidden_character_in_an_exercise_prompt_is_named_once(tmp_path):
    root = edited_copy(tmp_path, "fixtures/exercises/general.yaml", 'en: "Each failed evaluation run',
                       'en: "Each\\u200b failed evaluation run')
    assert {(where, message) for file, where, message in problem_set(root) if file.endswith("general.yaml")} == {
        ("$.exercises[0].prompt.en", f"holds \\u200b: {HELD}")}


def _strings(value, parts=()):
    if isinstance(value, str):
        yield list(parts)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*parts, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*parts, i))


def _kind(path) -> str:
    folder = path.parent.name
    return {"outputs": "outputs", "orders": "orders", "selection": "selection", "scenarios": "scenario",
            "transcripts": "walkthrough", "pairing": "pairing", "exercises": "exercise"}[folder]


@pytest.mark.parametrize("path", sorted(p for p in (CONTENT_ROOT / "fixtures").rglob("*.yaml")
                                        if p.parent.name != "eval_runs"), ids=lambda p: p.name)
def test_every_shown_text_of_every_shipped_file_is_covered(path):
    """A zero-width space put into each string students read ({en, zh} values but the pairing transcripts) or that is
    compared as written (orders, selection) is named at that string's path: a new text field is covered too."""
    from toolcall.fixtures import hidden_text_problems, read_data
    from toolcall.i18n import LANGS

    data, kind = read_data(path), _kind(path)
    covered = 0
    for parts in _strings(data):
        holder = functools.reduce(lambda v, k: v[k], parts[:-1], data)
        texts = isinstance(holder, dict) and set(holder) == set(LANGS) \
            and not (kind == "pairing" and parts[-2] == "text")
        if not (texts or kind in ("orders", "selection")):
            continue
        broken = copy.deepcopy(data)
        target = functools.reduce(lambda v, k: v[k], parts[:-1], broken)
        target[parts[-1]] = "\u200b" + target[parts[-1]]
        assert [p.path for p in hidden_text_problems(broken, "f", kind)] == [json_path(parts)]
        covered += 1
    assert covered > 0
