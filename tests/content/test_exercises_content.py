"""The exercise files shipped with the course: sound, spread over the pages, bilingual."""

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
