"""What one learner can make the progress store keep is bounded, on both back ends: the stored
answer is cut to MAX_STORED_ANSWER_CHARS and only the newest MAX_STORED_ATTEMPTS tries per
(learner, exercise) are kept, while the counters and the best score still count every try; the
student is told, in both languages, when a cap applied (issue 13)."""

import re
from datetime import datetime, UTC

import pytest

from tests.unit import test_progress
from toolcall.i18n import LANGS, t
from toolcall.progress import (MAX_STORED_ANSWER_CHARS, MAX_STORED_ATTEMPTS, PendingAnswers, cap_notes,
                               stored_answer)

EXTRA = 25
#: The store fixtures of test_progress: each test runs on SQLite and on PostgreSQL.
location, make_store = test_progress.location, test_progress.make_store


def test_a_flood_of_tries_keeps_the_newest_attempts_and_every_count(make_store):
    store = make_store()
    total = MAX_STORED_ATTEMPTS + EXTRA
    for i in range(total):  # try 3 is the only correct one: it falls out of the kept attempts
        rec = store.record("mallory", "pk_pass3", f"answer {i}", 1 if i == 3 else 0, 1, attempt_id=f"try-{i:05d}")
    store.record("alice", "pk_pass3", "0.7", 0, 1)
    assert (rec.tries, rec.failed_tries, rec.best_score, rec.last_answer, rec.solved) == (
        total, total - 1, 1, f"answer {total - 1}", True)
    kept = [a["answer"] for a in store.attempts("mallory")]
    assert kept == [f"answer {i}" for i in range(EXTRA, total)]
    assert [a["answer"] for a in store.attempts("alice")] == ["0.7"]  # another learner is untouched
    again = store.record("mallory", "pk_pass3", f"answer {total - 1}", 0, 1, attempt_id=f"try-{total - 1:05d}")
    assert again.tries == total  # a retried save of a kept try still counts once
    assert make_store().class_attempt_summary("2000-01-01")["count"] == MAX_STORED_ATTEMPTS + 1


def test_the_cap_is_per_exercise(make_store):
    store = make_store()
    for i in range(MAX_STORED_ATTEMPTS + 1):
        store.record("bob", "pk_pass3", str(i), 0, 1)
    store.record("bob", "pk_retries", "x", 0, 1)
    by_exercise = {}
    for a in store.attempts("bob"):
        by_exercise[a["exercise_id"]] = by_exercise.get(a["exercise_id"], 0) + 1
    assert by_exercise == {"pk_pass3": MAX_STORED_ATTEMPTS, "pk_retries": 1}


def test_a_long_answer_is_graded_whole_but_stored_cut(make_store):
    store = make_store()
    answer = "9" * (3 * MAX_STORED_ANSWER_CHARS)
    rec = store.record("carol", "pk_pass3", answer, 1, 1)
    assert (len(rec.last_answer), rec.best_score) == (MAX_STORED_ANSWER_CHARS, 1)
    assert [len(a["answer"]) for a in store.attempts("carol")] == [MAX_STORED_ANSWER_CHARS]
    assert cap_notes(answer, rec) == [("progress.caps.answer_cut", {"limit": f"{MAX_STORED_ANSWER_CHARS:,}",
                                                                     "size": f"{len(answer):,}"})]


@pytest.mark.parametrize("answer, kept", [("a\x00b", "a\ufffdb"), ("a\ud800b", "a\ufffdb"), ("零\U0001F600", "零\U0001F600")])
def test_any_text_saves_the_same_on_both_back_ends(make_store, answer, kept):
    """PostgreSQL refuses NUL in text and neither driver encodes a lone surrogate: before, such an
    answer failed to save (and, queued, blocked every later save of the session)."""
    rec = make_store().record("dave", "pk_pass3", answer, 0, 1)
    assert rec.last_answer == kept


def test_cap_notes_are_empty_under_the_caps_and_say_which_cap_applied():
    assert cap_notes("0.7", None) == []
    store_row = type("R", (), {"tries": MAX_STORED_ATTEMPTS})()
    assert cap_notes("0.7", store_row) == []
    store_row.tries += 1
    assert cap_notes("0.7", store_row) == [("progress.caps.attempts_kept", {"limit": MAX_STORED_ATTEMPTS,
                                                                             "tries": MAX_STORED_ATTEMPTS + 1})]


@pytest.mark.parametrize("lang", LANGS)
def test_every_cap_note_reads_in_each_language(lang):
    row = type("R", (), {"tries": MAX_STORED_ATTEMPTS + 1})()
    notes = cap_notes("x" * (MAX_STORED_ANSWER_CHARS + 1), row)
    assert len(notes) == 2
    for key, params in notes:
        text = t(key, lang, **params)
        assert str(MAX_STORED_ATTEMPTS if "attempts" in key else f"{MAX_STORED_ANSWER_CHARS:,}") in text
        if lang == "zh":
            assert re.search(r"[\u4e00-\u9fff]", text) and not re.search(r"[A-Za-z]{3,}", text), text


def test_the_pending_queue_keeps_the_stored_copy_only():
    pending = PendingAnswers(limit=2)
    assert pending.add("erin", "pk_pass3", "x" * (2 * MAX_STORED_ANSWER_CHARS), 0, 1)
    assert len(pending.items[0]["answer"]) == MAX_STORED_ANSWER_CHARS
    assert stored_answer("fine") == "fine"


def test_the_dashboard_reads_a_class_on_both_back_ends(make_store):
    """The activity count grouped by a parameterised expression: PostgreSQL refused it
    (GroupingError), so the dashboard said "cannot be reached" on every PostgreSQL class."""
    from toolcall.dashboard import ClassData, overview

    store = make_store()
    store.record("alice", "pk_pass3", "0.5", 0, 1, at="2026-11-30T11:30:00+00:00")
    store.record("alice", "pk_pass3", "0.729", 1, 1, at="2026-11-30T11:31:00+00:00")
    data = ClassData.load(store, datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    assert overview(data) == {"learners": 1, "active_last_hour": 1, "attempts": 2}
    assert data.activity[["correct", "tries"]].values.tolist() == [[0, 1], [1, 1]]


def test_wrong_answers_are_grouped_in_the_database_on_a_prefix(make_store):
    """Issue 13: class_attempt_summary grouped on whole answers (up to 8 000 characters per try);
    now on the first WRONG_PREFIX_CHARS characters, and at most WRONG_GROUPS_PER_EXERCISE groups
    per exercise, most frequent first. Short answers count exactly as before."""
    from toolcall.progress import WRONG_GROUPS_PER_EXERCISE, WRONG_PREFIX_CHARS
    store = make_store()
    for learner, answer in (("a", "0.5"), ("b", "0.5"), ("c", "0.8"), ("d", "中文答案")):
        store.record(learner, "pk_pass3", answer, 0, 1)
    store.record("e", "pk_pass3", "1", 1, 1)  # correct: not a wrong answer
    head = "x" * WRONG_PREFIX_CHARS
    for i in range(5):  # five long answers that differ only after the prefix: one group
        store.record(f"long{i}", "pk_pass3", head + str(i) * 7_000, 0, 1)
    for i in range(WRONG_GROUPS_PER_EXERCISE + 20):  # minted learners, each a different wrong answer
        store.record(f"m{i:04d}", "harness_order", f"guess {i:04d}", 0, 1)
    store.record("m9999", "harness_order", "guess 0007", 0, 1)
    wrong = make_store().class_attempt_summary("2000-01-01")["wrong"]
    pass3 = [row for row in wrong if row[0] == "pk_pass3"]
    assert pass3 == [("pk_pass3", head, 5), ("pk_pass3", "0.5", 2), ("pk_pass3", "0.8", 1),
                     ("pk_pass3", "中文答案", 1)]
    order = [row for row in wrong if row[0] == "harness_order"]
    assert len(order) == WRONG_GROUPS_PER_EXERCISE
    assert order[0] == ("harness_order", "guess 0007", 2)
    assert order[1:] == [("harness_order", f"guess {i:04d}", 1) for i in range(WRONG_GROUPS_PER_EXERCISE) if i != 7]
    assert max(len(row[1]) for row in wrong) == WRONG_PREFIX_CHARS
