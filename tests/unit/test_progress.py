"""The SQLite progress store: survives a new store (a restart), keeps learners apart."""

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from toolcall.exercises import load_exercises
from toolcall.progress import (EXPORT_FIELDS, ProgressStore, data_dir, export_rows, new_learner_id, to_csv, to_json,
                               valid_learner)


def test_tries_best_score_and_reveal_survive_a_restart(tmp_path):
    store = ProgressStore(tmp_path)
    first = store.record("alice", "pk_pass3", "0.729", 0, 1)
    assert (first.tries, first.failed_tries, first.best_score, first.can_reveal) == (1, 1, 0, False)
    assert store.reveal("alice", "pk_pass3") is False  # one failed try is not enough
    store.record("alice", "pk_pass3", "0.5", 0, 1)
    assert store.reveal("alice", "pk_pass3") is True
    store.record("alice", "pk_pass3", "84/120", 1, 1)
    store.record("alice", "pk_pass3", "0.1", 0, 1)
    again = ProgressStore(tmp_path).get("alice", "pk_pass3")  # a new store: a server restart
    assert (again.last_answer, again.last_score, again.best_score, again.max_score) == ("0.1", 0, 1, 1)
    assert (again.tries, again.failed_tries, again.revealed, again.solved) == (4, 3, True, True)


def test_hints_are_capped_and_kept(tmp_path):
    store = ProgressStore(tmp_path)
    for _ in range(5):
        rec = store.show_hint("bob", "wt_order", 2)
    assert (rec.hints_shown, rec.tries) == (2, 0)


def test_two_learners_never_see_each_other(tmp_path):
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    store.record("bob", "pk_retries", "0.04", 0, 1)
    assert list(store.all("alice")) == ["pk_pass3"]
    assert list(store.all("bob")) == ["pk_retries"]
    assert store.get("bob", "pk_pass3") is None


@pytest.mark.parametrize("learner", ["", "a" * 65, "alice' OR '1'='1", "../etc", "名字", None, 12])
def test_invalid_learner_ids_are_refused(tmp_path, learner):
    assert not valid_learner(learner)
    with pytest.raises(ValueError):
        ProgressStore(tmp_path).all(learner)


def test_new_ids_are_valid_and_distinct():
    ids = {new_learner_id() for _ in range(200)}
    assert len(ids) == 200 and all(valid_learner(i) for i in ids)


def test_wal_mode_and_data_dir(tmp_path, monkeypatch):
    store = ProgressStore(tmp_path / "deep" / "er")
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"
    monkeypatch.delenv("TOOLCALL_DATA_DIR")
    assert data_dir().name == "data"


def test_export_lists_every_exercise_as_csv_and_json(tmp_path):
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "=HYPERLINK(\"x\")", 0, 1)
    exercises = load_exercises().exercises
    rows = export_rows("alice", exercises, store.all("alice"))
    assert len(rows) == len(exercises) and list(rows[0]) == list(EXPORT_FIELDS)
    tried = next(r for r in rows if r["exercise_id"] == "pk_pass3")
    assert (tried["tries"], tried["best_score"], tried["max_score"], tried["title"]) == (1, 0, 1, "pass^3 from 8 of 10")
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert next(r for r in parsed if r["exercise_id"] == "pk_pass3")["last_answer"] == "'=HYPERLINK(\"x\")"
    data = json.loads(to_json("alice", rows))
    assert data["learner"] == "alice" and data["exercises"] == rows


def test_export_in_chinese_with_max_scores_for_untried_exercises(tmp_path):
    exercises = load_exercises().exercises
    rows = export_rows("alice", exercises, {}, "zh", {"pk_pass3": 1, "pk_metric": 1})
    row = next(r for r in rows if r["exercise_id"] == "pk_pass3")
    assert (row["title"], row["max_score"], row["tries"]) == ("10 次对 8 次的 pass^3", 1, 0)
    assert (to_csv([row]).splitlines()[1].split(",")[5:7]) == ["0.0", "1.0"]  # best_score, max_score
    assert next(r for r in rows if r["exercise_id"] == "pk_retries")["max_score"] is None  # not given


def test_concurrent_sessions_all_get_written(tmp_path):
    """Sixteen sessions saving at once (threads, as Streamlit runs them): no write is lost
    and none fails with 'database is locked'."""
    import threading

    store, errors = ProgressStore(tmp_path), []

    def work(n: int) -> None:
        try:
            for _ in range(25):
                store.record(f"learner{n}", "pk_pass3", "0.5", 0, 1)
        except sqlite3.Error as exc:  # pragma: no cover - the failure being guarded against
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [store.get(f"learner{n}", "pk_pass3").tries for n in range(16)] == [25] * 16


def test_csv_export_leaves_empty_cells_empty():
    """Only cells that start like a formula get the leading apostrophe."""
    import csv
    import io

    from toolcall.progress import to_csv

    text = to_csv([{"exercise_id": "a", "last_answer": ""}, {"exercise_id": "b", "last_answer": "=1+1"}])
    assert [row["last_answer"] for row in csv.DictReader(io.StringIO(text))] == ["", "'=1+1"]


def test_learner_ids_carry_about_48_bits():
    """Issue 13: the docstring said "about 36 bits"; 20 × 20 × 16^6 is 32.6 bits. Now 16^10."""
    import math
    import re
    from toolcall.progress import _ADJECTIVES, _NOUNS, LEARNER_HEX_DIGITS
    assert re.fullmatch(r"[a-z]+-[a-z]+-[0-9a-f]{10}", new_learner_id())
    bits = math.log2(len(set(_ADJECTIVES)) * len(set(_NOUNS)) * 16 ** LEARNER_HEX_DIGITS)
    assert round(bits, 1) == 48.6
    assert "48.6 bits" in new_learner_id.__doc__


def test_data_dir_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "~/progress")
    assert data_dir() == tmp_path / "progress"
    store = ProgressStore()
    assert store.path == tmp_path / "progress" / "progress.sqlite3" and store.path.is_file()
    assert not (Path.cwd() / "~").exists()


def test_a_read_only_database_still_shows_progress(tmp_path, monkeypatch):
    """Issue 13: a database that cannot be written still shows existing progress (read-only);
    a save is refused with an sqlite3 error (the page turns it into a warning). Root ignores
    file modes, so there the writable open is made to fail as SQLite fails on a read-only file."""
    import os
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    store.close()
    for name in os.listdir(tmp_path):
        os.chmod(tmp_path / name, 0o444)
    os.chmod(tmp_path, 0o555)
    if os.geteuid() == 0:
        connect = sqlite3.connect

        def writable_fails(*args, **kwargs):
            if not kwargs.get("uri"):
                raise sqlite3.OperationalError("attempt to write a readonly database")
            return connect(*args, **kwargs)
        monkeypatch.setattr("toolcall.progress.sqlite3.connect", writable_fails)
    try:
        ro = ProgressStore(tmp_path)
        assert ro.read_only and ro.get("alice", "pk_pass3").best_score == 1.0
        with pytest.raises(sqlite3.OperationalError, match="is read-only: progress is shown, not saved"):
            ro.record("alice", "pk_pass3", "x", 0, 1)
        ro.close()
    finally:
        os.chmod(tmp_path, 0o755)
