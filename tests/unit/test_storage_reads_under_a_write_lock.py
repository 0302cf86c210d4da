"""Reading progress never waits for a write lock held elsewhere: every read took SQLite's write lock up front
(BEGIN IMMEDIATE) like a save, so another connection holding it (another process's save, an operator's sqlite3
shell or backup) made each page read wait up to 30 s, one after the other (one connection per process, shared by
every session). With WAL a read sees the last commit without waiting. Busy timeout 0 here: a read that waits
fails at once instead of after 30 s."""

import sqlite3
from collections.abc import Iterator

import pytest

from toolcall.progress import DB_NAME, ProgressStore, StorageError

#: Every read of the store, with arguments (a new read must be added here: see the sweep's first test).
READS = {
    "get": ("alice", "pk_pass3"),
    "all": ("alice",),
    "attempts": ("alice",),
    "attempt_count": ("alice",),
    "class_progress": (),
    "class_attempts": (),
    "export_attempts": (),
    "class_attempt_summary": ("2000-01-01T00:00:00+00:00",),
    "class_activity": (13,),
    "class_version": (),
    "class_recent_progress": (500,),
    "class_counts": ("2000-01-01T00:00:00+00:00",),
    "schema_version": (),
    "class_learner_pages": (),
    "class_progress_pages": (),
    "export_attempt_pages": (),
}


@pytest.fixture
def locked(tmp_path):
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    store._db.execute("PRAGMA busy_timeout = 0")
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield store
    other.execute("ROLLBACK")
    other.close()
    store.close()


def test_every_public_read_is_listed():
    import inspect

    from toolcall.progress import SqlProgressStore
    writes = {"record", "show_hint", "reveal", "migrate", "close"}
    public = {name for name, _ in inspect.getmembers(SqlProgressStore, inspect.isfunction) if not name.startswith("_")}
    assert public - writes == set(READS)


@pytest.mark.parametrize("method", sorted(READS))
def test_a_read_does_not_wait_for_a_write_lock_held_elsewhere(locked, method):
    read_all(getattr(locked, method)(*READS[method]))


def read_all(result):
    """``result`` of a read, with the pages of an export's read (an iterator, alone or in a tuple) read: they are
    read as they are used."""
    return tuple(list(part) if isinstance(part, Iterator) else part for part in result) \
        if isinstance(result, tuple) else list(result) if isinstance(result, Iterator) else result


def test_a_save_still_waits_for_it(locked, monkeypatch):
    monkeypatch.setattr("toolcall.progress.WRITE_WAIT", 0.0)  # one try
    with pytest.raises(StorageError) as refused:
        locked.record("alice", "pk_pass3", "x", 0, 1)
    assert str(refused.value) == "the progress database failed (OperationalError)"
    assert locked.get("alice", "pk_pass3").tries == 1


def test_a_save_waiting_for_the_lock_lets_the_processs_reads_through(tmp_path, monkeypatch):
    """The save waited for the lock holding the connection's shared lock, so every other session's read in the
    process waited behind it (up to 30 s). It now tries in short steps and lets go in between: a read made while
    it waits returns, and the save lands once the lock is released."""
    import threading

    import toolcall.progress as progress
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    waiting = threading.Event()
    sleep = progress.time.sleep
    monkeypatch.setattr(progress.time, "sleep", lambda s: (waiting.set(), sleep(s)))
    saved = []
    writer = threading.Thread(target=lambda: saved.append(store.record("alice", "pk_pass3", "y", 0, 1).tries))
    writer.start()
    try:
        assert waiting.wait(10), "the save never let go of the lock to try again"
        assert store.get("alice", "pk_pass3").tries == 1 and writer.is_alive()  # a read while the save waits
    finally:
        other.execute("ROLLBACK")
        other.close()
        writer.join(60)
    assert saved == [2]
    store.close()
