"""The SQLite store follows its file: deleted while the class runs (an instructor resetting progress) or replaced
by another (a backup moved into place), the next transaction opens what is at the path now. Before, SQLite kept
writing to the file it had opened: every answer given after a delete went to a deleted file, "saved" without a
word, and was gone at the next restart. A file moved into place that is not SQLite is a setup problem."""

import os

import pytest

from toolcall.progress import DB_NAME, ProgressStore, StorageError

LEARNER = "swift-otter-7f3a9c41d2"


def _remove_database(folder):
    for name in os.listdir(folder):
        if name.startswith(DB_NAME):
            os.unlink(folder / name)


def test_an_answer_after_the_file_is_deleted_is_kept_in_a_new_file(tmp_path):
    store = ProgressStore(tmp_path)
    store.record(LEARNER, "ex1", "a", 1, 1)
    _remove_database(tmp_path)
    store.record(LEARNER, "ex2", "b", 1, 1)
    fresh = ProgressStore(tmp_path)  # what a restarted process reads
    assert fresh.get(LEARNER, "ex2").tries == 1 and fresh.get(LEARNER, "ex1") is None


def test_a_file_moved_into_place_is_the_one_read_and_written(tmp_path):
    (tmp_path / "live").mkdir()
    (tmp_path / "backup").mkdir()
    store = ProgressStore(tmp_path / "live")
    store.record(LEARNER, "ex1", "a", 1, 1)
    backup = ProgressStore(tmp_path / "backup")
    backup.record(LEARNER, "ex9", "z", 1, 1)
    backup.close()
    _remove_database(tmp_path / "live")
    os.replace(tmp_path / "backup" / DB_NAME, tmp_path / "live" / DB_NAME)
    assert store.get(LEARNER, "ex9").tries == 1 and store.get(LEARNER, "ex1") is None
    store.record(LEARNER, "ex9", "y", 0, 1)
    assert ProgressStore(tmp_path / "live").get(LEARNER, "ex9").tries == 2


def test_a_file_moved_into_place_that_is_not_sqlite_is_a_setup_problem(tmp_path):
    store = ProgressStore(tmp_path)
    store.record(LEARNER, "ex1", "a", 1, 1)
    _remove_database(tmp_path)
    (tmp_path / "other").write_bytes(b"not a database " * 500)
    os.replace(tmp_path / "other", tmp_path / DB_NAME)
    with pytest.raises(StorageError) as refused:
        store.record(LEARNER, "ex2", "b", 1, 1)
    assert refused.value.setup is True and "is not a SQLite database" in str(refused.value)
