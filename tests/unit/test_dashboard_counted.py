"""The dashboard's page reads the rows of the learners it lists and lets the database count the class (issue 13,
break-it pass brk13scale). It read a row for every learner and exercise to list 500 of them: 100 000 learners with
5 exercises each cost 6.9 s and 594 MB on every rerun (168 MB after). The counted numbers are those of a whole
load, on both back ends; the exports still read every learner."""

import pytest

from tests.unit.test_progress import location, make_store  # noqa: F401 (fixtures: SQLite and PostgreSQL)
from toolcall.dashboard import ClassData, exercise_table, learner_table, overview

NOW = "2026-12-07T07:00:00+00:00"


def _fill(store) -> None:
    """Nine learners: l0 … l8, the higher the number the more recent; tries 1 … 4 on ex_a, a reveal, a solve."""
    for n in range(9):
        for k in range(n % 4 + 1):
            correct = k == n % 4 and n % 2 == 0
            store.record(f"l{n}", "ex_a", f"answer {k}", 1 if correct else 0, 1,
                         at=f"2026-12-07T06:{10 + n}:{k:02d}.000000+00:00")
        if n % 3 == 0:
            store.record(f"l{n}", "ex_b", "b", 0, 2, at=f"2026-12-07T05:{10 + n}:00.000000+00:00")
    for n in (0, 3):
        store.record(f"l{n}", "ex_b", "b again", 0, 2, at="2026-12-07T05:00:00.000000+00:00")
        assert store.reveal(f"l{n}", "ex_b")


@pytest.fixture
def filled(make_store):  # noqa: F811
    store = make_store()
    _fill(store)
    # the order the learners were last active in: their rows' updated_at, written as now; made distinct here
    with store._tx() as execute:
        for n in range(9):
            execute("UPDATE progress SET updated_at = ? WHERE learner = ?", (f"2026-12-07T06:{10 + n}:30+00:00",
                                                                               f"l{n}"))
    return store


def test_the_counted_load_reads_the_listed_learners_and_counts_as_a_whole_load(filled):
    from datetime import datetime
    now = datetime.fromisoformat(NOW)
    whole = ClassData.load(filled, now=now)
    listed = ClassData.load(filled, now=now, learners=3)
    assert sorted(set(listed.progress["learner"])) == ["l6", "l7", "l8"]
    assert len(listed.progress) == 2 + 1 + 1  # l6 has ex_a and ex_b
    assert [r["learner"] for r in learner_table(listed)] == ["l8", "l7", "l6"]
    assert learner_table(listed) == learner_table(whole)[:3]
    assert overview(listed) == overview(whole) == {"learners": 9, "active_last_hour": 9, "attempts": 26}
    titles = {"ex_a": "A", "ex_b": "B"}
    assert exercise_table(listed, titles) == exercise_table(whole, titles)
    rows = {r["exercise_id"]: r for r in exercise_table(listed, titles)}
    assert [rows["ex_a"][k] for k in ("tried", "solved", "revealed", "median_tries")] == [9, 5, 0, 2.0]
    assert [rows["ex_b"][k] for k in ("tried", "solved", "revealed", "median_tries")] == [3, 0, 2, 2.0]


def test_the_median_of_an_even_number_of_learners_is_the_mean_of_the_middle_two(make_store):  # noqa: F811
    store = make_store()
    for n, tries in enumerate((1, 2, 5, 9)):
        for k in range(tries):
            store.record(f"m{n}", "ex_a", f"a{k}", 0, 1)
    [row] = exercise_table(ClassData.load(store, learners=1), {"ex_a": "A"})
    assert row["median_tries"] == 3.5 and row["tried"] == 4


def test_the_counted_load_of_an_empty_class(make_store):  # noqa: F811
    data = ClassData.load(make_store(), learners=500)
    assert overview(data) == {"learners": 0, "active_last_hour": 0, "attempts": 0}
    assert learner_table(data) == []
    assert exercise_table(data, {"ex_a": "A"})[0]["median_tries"] is None


def test_the_csv_export_holds_its_budget_of_last_answers_each_cut_to_an_equal_share(make_store, monkeypatch):  # noqa: F811
    """The CSV read every last answer whole: learners × exercises × 8 000 characters (100 000 × 5 are 4 GB in one
    process). Past progress.MAX_CSV_ANSWER_CHARS, summed by the database, each is cut to budget ÷ rows and ends
    in "…"; an answer within its share is whole."""
    import csv
    import io

    import toolcall.progress as progress
    from toolcall.dashboard import export_csv

    store = make_store()
    for n in range(10):
        for e in range(4):
            store.record(f"l{n}", f"ex{e}", ("é" if e else "短") * (progress.MAX_STORED_ANSWER_CHARS + 5), 0, 1)
    store.record("l0", "ex9", "short", 0, 1)
    rows = list(csv.DictReader(io.StringIO(export_csv(ClassData.load(store, answers=True)).decode("utf-8-sig"))))
    assert len(rows) == 41 and {len(r["last_answer"]) for r in rows} == {progress.MAX_STORED_ANSWER_CHARS, 5}
    monkeypatch.setattr(progress, "MAX_CSV_ANSWER_CHARS", 41 * 100)
    rows = list(csv.DictReader(io.StringIO(export_csv(ClassData.load(store, answers=True)).decode("utf-8-sig"))))
    assert len(rows) == 41
    answers = {(r["learner"], r["exercise_id"]): r["last_answer"] for r in rows}
    assert answers[("l3", "ex0")] == "短" * 100 + "…" and answers[("l3", "ex2")] == "é" * 100 + "…"
    assert answers[("l0", "ex9")] == "short"
    assert sum(len(a) for a in answers.values()) == 40 * 101 + 5


def test_the_minutes_are_counted_in_one_pass_over_the_tries(tmp_path, monkeypatch):
    """ClassData.load read the minutes from the first hour with a try, which every try is at or after: SQLite then
    walked the time index and looked up each try's row (2.5 s for 1 000 000 tries against 0.8 s for one pass over
    the table, on every rerun of the dashboard). It reads them all, and the store's query has no start."""
    import sqlite3

    import toolcall.progress as progress
    from toolcall.progress import ProgressStore

    statements: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(progress.sqlite3, "connect", traced)
    store = ProgressStore(tmp_path)
    store.record("l0", "ex_a", "a", 0, 1, at="2026-12-07T06:10:00.000000+00:00")
    store.record("l0", "ex_a", "b", 1, 1, at="2026-12-07T06:11:30.000000+00:00")
    statements.clear()
    from datetime import datetime
    data = ClassData.load(store, now=datetime.fromisoformat(NOW), learners=500)
    assert data.bucket == "1min" and data.activity["tries"].tolist() == [1, 1]
    minutes = [s for s in statements if s.startswith("SELECT substr(at, 1, 16)")]
    assert minutes == ["SELECT substr(at, 1, 16), correct, COUNT(*) FROM attempts GROUP BY 1, 2 ORDER BY 1, 2"]
    plan = store._class_db.execute("EXPLAIN QUERY PLAN " + minutes[0]).fetchall()
    assert [row[3] for row in plan][0] == "SCAN attempts"
    store.close()
