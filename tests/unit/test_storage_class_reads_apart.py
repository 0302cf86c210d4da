"""The dashboard's reads of the whole class never hold up a learner's page (issue 13, break-it pass brk13scale).

A SQLite store shares one connection between every session of a process, behind one lock. The class-wide reads
ran on it and held that lock from their first row to their last: at 100 000 learners and 1 000 000 tries each took
1.6–2.4 s, and a student's read of their own row waited up to 2.5 s on every rerun of the dashboard. They now run on
a connection of their own. Here a class-wide read is held inside SQLite (a progress handler that waits) while a
learner reads and saves: both finish before it is let go."""

import sqlite3
import threading

import pytest

import toolcall.progress as progress
from toolcall.progress import ProgressStore

from tests.unit.test_storage_reads_under_a_write_lock import READS, read_all

#: Every class-wide read of the store, with arguments (the dashboard's and its exports').
CLASS_READS = {name: args for name, args in READS.items() if name.startswith(("class_", "export_"))}


def test_every_class_read_is_listed():
    import inspect

    public = {name for name, _ in inspect.getmembers(progress.SqlProgressStore, inspect.isfunction)
              if name.startswith("class_") or name.startswith("export_")}
    assert public == set(CLASS_READS)


@pytest.mark.parametrize("method", sorted(CLASS_READS))
def test_a_learner_reads_and_saves_while_a_class_read_is_under_way(tmp_path, monkeypatch, method):
    held, release = threading.Event(), threading.Event()
    reader: list[int] = []
    connect = sqlite3.connect

    def pause() -> int:  # runs in the thread executing a statement; only the dashboard's thread is held
        if reader and threading.get_ident() == reader[0] and not held.is_set():
            held.set()  # held once: before the fix the learner's read below waited these 5 s
            release.wait(5)
        return 0

    def watched(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_progress_handler(pause, 1)
        return conn

    monkeypatch.setattr(progress.sqlite3, "connect", watched)
    store = ProgressStore(tmp_path)
    for n in range(3):
        store.record(f"learner-{n}", "pk_pass3", f"0.{n}", 0, 1)
    order: list[str] = []

    def dashboard():
        reader.append(threading.get_ident())
        read_all(getattr(store, method)(*CLASS_READS[method]))
        order.append("class read done")

    thread = threading.Thread(target=dashboard)
    thread.start()
    assert held.wait(5)
    assert store.get("learner-1", "pk_pass3").tries == 1
    assert store.record("learner-1", "pk_pass3", "0.9", 1, 1).tries == 2
    order.append("learner read and saved" if not release.is_set() else "learner waited")
    release.set()
    thread.join(10)
    store.close()
    assert order == ["learner read and saved", "class read done"]


def test_a_class_read_sees_the_last_save_and_a_replaced_file(tmp_path):
    """Its own connection reads what the shared one committed, and follows a file moved into place (as the
    shared connection does: an instructor resetting the class)."""
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    assert [r[0] for r in store.class_progress(as_tuples=True)] == ["alice"]
    store.record("bob", "pk_pass3", "0.5", 0, 1)
    assert [r[0] for r in store.class_progress(as_tuples=True)] == ["alice", "bob"]
    other = ProgressStore(tmp_path / "other")
    other.record("carol", "pk_pass3", "0.1", 0, 1)
    other.close()
    (tmp_path / "other" / progress.DB_NAME).replace(tmp_path / progress.DB_NAME)
    for companion in ("-wal", "-shm"):
        (tmp_path / (progress.DB_NAME + companion)).unlink(missing_ok=True)
    assert [r[0] for r in store.class_progress(as_tuples=True)] == ["carol"]
    assert store.class_attempt_summary("2000-01-01T00:00:00+00:00")["count"] == 1
    store.close()
