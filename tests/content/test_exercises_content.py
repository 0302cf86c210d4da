"""The exercise files shipped with the course: sound, spread over the pages, bilingual."""

import json
from collections import Counter
from math import comb

from toolcall import REPO_ROOT
from toolcall.check import check_exercises
from toolcall.exercises import TYPES, load_exercises
from toolcall.pages_registry import EXERCISE_PAGE_IDS
from toolcall.grading import answer_text, grade, grading_inputs

LOADED = load_exercises()


def test_every_exercise_file_is_sound():
    """Schema-valid, unique ids, both languages, reference full marks, wrong answers not."""
    assert [str(p) for p in check_exercises(REPO_ROOT)] == []


def test_at_least_twelve_exercises_over_every_page_and_type():
    assert len(LOADED.exercises) >= 12
    assert set(Counter(ex.page for ex in LOADED.exercises)) == set(EXERCISE_PAGE_IDS)
    assert set(Counter(ex.type for ex in LOADED.exercises)) == set(TYPES)


def test_pass_k_answers_match_math_comb():
    """The reference pass^k figures are the unbiased estimator C(c,k)/C(n,k) and exact products."""
    ex = LOADED.by_id()
    assert abs(ex["pk_pass3"].answer - comb(8, 3) / comb(10, 3)) < 1e-6 and comb(8, 3) == 56
    assert abs(ex["pk_pass3"].wrong_answers[0]["answer"] - (8 / 10) ** 3) < 1e-12
    assert abs(ex["pk_retries"].answer - 0.3 ** 3) < 1e-12
    assert abs(ex["pk_ambiguity"].answer - 0.95 ** 20) <= ex["pk_ambiguity"].spec["tolerance"]
    assert abs(ex["pk_ambiguity"].wrong_answers[0]["answer"] - 0.95 ** 2) < 1e-12


def test_reference_answers_round_trip_through_the_answer_text():
    for ex in LOADED.exercises:
        assert grade(ex, answer_text(ex, ex.answer), grading_inputs(ex)).correct, ex.id


def _error_result(content: str) -> str:
    return json.dumps({"type": "tool_result", "tool_use_id": "toolu_01A", "is_error": True, "content": content},
                      ensure_ascii=False)


def test_send_the_error_back_asks_the_same_of_both_languages():
    """pg_error_result asks for the field and what arrived, as its hint says, in any language. Its old
    minLength 20 refused "amount_cents 必须是整数" (18 characters) and passed the same English sentence."""
    ex = LOADED.by_id()["pg_error_result"]
    results = {content: grade(ex, _error_result(content), grading_inputs(ex)) for content in (
        "amount_cents must be an integer", "amount_cents 必须是整数", 'amount_cents 要整数，收到 "19.99"',
        "amount_cents got 19x99")}
    assert {c: r.score for c, r in results.items()} == {
        "amount_cents must be an integer": 0, "amount_cents 必须是整数": 0, 'amount_cents 要整数，收到 "19.99"': 1,
        "amount_cents got 19x99": 0}  # the dot is a dot: "19.99" as a pattern passed 19x99
    assert [f.render("zh") for f in results["amount_cents 必须是整数"].feedback] == [
        '/content：期望：匹配 19\\.99 的字符串；实际收到：字符串 "amount_cents 必须是整数"。']
    assert ex.hints[1] == {"en": 'The content must be actionable: name amount_cents and quote what arrived ("19.99").',
                           "zh": 'content 要让模型能照着改：点名 amount_cents，并写出实际收到的值（"19.99"）。'}
