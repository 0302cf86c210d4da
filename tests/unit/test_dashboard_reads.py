"""The dashboard's page reads no learner's last answer: only its CSV export does, when clicked.

Before: every render read every progress row whole, each ``last_answer`` up to MAX_STORED_ANSWER_CHARS (8 000)
characters, learners × exercises of them (learner ids cost nothing to make: ``?learner=…``), and showed none.
Counted in characters loaded, never timed."""

import csv
import io

from toolcall.dashboard import ClassData, export_csv, exercise_table, learner_table, overview
from toolcall.progress import MAX_STORED_ANSWER_CHARS, ProgressStore

LEARNERS, EXERCISES = 20, 5


def _store(tmp_path) -> ProgressStore:
    store = ProgressStore(tmp_path)
    for i in range(LEARNERS):
        for e in range(EXERCISES):
            store.record(f"l{i}", f"ex{e}", "x" * (MAX_STORED_ANSWER_CHARS + 50), 0, 1)
    return store


def test_a_render_loads_no_last_answer(tmp_path):
    store = _store(tmp_path)
    data = ClassData.load(store)
    assert len(data.progress) == LEARNERS * EXERCISES
    assert sum(len(a) for a in data.progress["last_answer"]) == 0
    assert overview(data)["learners"] == LEARNERS and len(learner_table(data)) == LEARNERS
    assert exercise_table(data, {})[0]["common_wrong"][0]["count"] == LEARNERS  # grouped by the database


def test_the_csv_export_still_holds_every_last_answer(tmp_path):
    store = _store(tmp_path)
    rows = list(csv.DictReader(io.StringIO(export_csv(ClassData.load(store, answers=True)).decode("utf-8-sig"))))
    assert len(rows) == LEARNERS * EXERCISES
    assert {len(r["last_answer"]) for r in rows} == {MAX_STORED_ANSWER_CHARS}



def test_a_drill_down_reads_and_shows_a_bounded_part_of_each_answer(tmp_path):
    """Up to MAX_STORED_ATTEMPTS tries per exercise, each up to 8 000 characters, went whole into the
    instructor's drill-down table (tens of MB for one hostile learner)."""
    from toolcall.dashboard import DETAIL_ANSWER_CHARS, learner_detail, shown_answer
    from toolcall.progress import MAX_STORED_ATTEMPTS

    store = ProgressStore(tmp_path)
    for _ in range(MAX_STORED_ATTEMPTS + 5):
        store.record("mallory", "ex0", "y" * MAX_STORED_ANSWER_CHARS, 0, 1)
    detail = learner_detail(store, "mallory")
    assert len(detail["attempts"]) == MAX_STORED_ATTEMPTS
    assert {len(a["answer"]) for a in detail["attempts"]} == {DETAIL_ANSWER_CHARS + 1}
    assert shown_answer(detail["attempts"][0]["answer"], DETAIL_ANSWER_CHARS) == "y" * DETAIL_ANSWER_CHARS + "…"
    assert shown_answer("short", DETAIL_ANSWER_CHARS) == "short"
    assert len(store.attempts("mallory")[0]["answer"]) == MAX_STORED_ANSWER_CHARS  # the store still keeps all
