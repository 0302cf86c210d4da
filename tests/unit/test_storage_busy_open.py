"""A new class's processes open one new SQLite file together (deploy/serve_class.py starts them at once): while one
holds the file's write lock for its setup, another's ``PRAGMA journal_mode=WAL`` is refused at once as busy (SQLite's
way out of a deadlock; the busy timeout does not wait there), and that process failed to open the store: "cannot open
the progress database (OperationalError)". Seen in a full test run (tests/unit/test_storage_follows_file.py, two
processes started together). toolcall.progress._busy_retry tries it again for the busy timeout."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from toolcall.progress import DB_NAME, ProgressStore, _busy_retry

LEARNER = "swift-otter-7f3a9c41d2"


def _hold_write_lock(path, seconds: float) -> tuple[threading.Event, threading.Thread]:
    """Another process's setup: the write lock of the new, still empty file (rollback mode), held ``seconds``."""
    held = threading.Event()

    def run():
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("BEGIN IMMEDIATE")
        held.set()
        time.sleep(seconds)
        db.execute("COMMIT")
        db.close()

    thread = threading.Thread(target=run)
    thread.start()
    held.wait(10)
    return held, thread


def test_a_store_opened_while_another_process_sets_up_the_new_file_waits_and_opens(tmp_path):
    path = tmp_path / DB_NAME
    _, thread = _hold_write_lock(path, 0.5)
    try:
        store = ProgressStore(tmp_path)  # before: StorageError at once
    finally:
        thread.join()
    assert (store.read_only, store.read_only_problem) == (False, "")
    store.record(LEARNER, "ex1", "a", 1, 1)
    assert store.get(LEARNER, "ex1") is not None


def test_the_pragma_alone_is_refused_at_once_without_the_retry(tmp_path):
    """What _busy_retry is for: the busy timeout (here 30 s) is not waited; the refusal comes while the lock is
    still held."""
    path = tmp_path / DB_NAME
    _, thread = _hold_write_lock(path, 3.0)
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError) as refused:
            db.execute("PRAGMA journal_mode=WAL")
        assert thread.is_alive()  # refused while the other still holds the lock, not after it let go
        assert refused.value.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
        with pytest.raises(sqlite3.OperationalError) as still:  # past its own limit it gives the busy error up
            _busy_retry(db, "PRAGMA journal_mode=WAL", seconds=0.1)
        assert str(still.value) == "database is locked"
        db.close()
    finally:
        thread.join()


def test_any_other_error_is_raised_at_once(tmp_path):
    db = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    tries = []
    db.set_trace_callback(tries.append)
    with pytest.raises(sqlite3.OperationalError, match='near "PRAGMAX": syntax error'):
        _busy_retry(db, "PRAGMAX journal_mode=WAL")
    assert tries == []  # never prepared, so never run, and not tried again
