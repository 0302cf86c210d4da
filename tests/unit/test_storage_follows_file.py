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


_WORKER = """
import sys
from pathlib import Path
from toolcall.progress import ProgressStore
store = ProgressStore(Path(sys.argv[1]))
for line in sys.stdin:
    store.record("swift-otter-7f3a9c41d2", "ex1", line.strip(), 1, 1)
    print("saved", flush=True)
"""


class _Process:
    """A process of the class with the store open (a Streamlit process of deploy/serve_class.py): each answer()
    saves one answer there and returns once it is saved."""

    def __init__(self, folder):
        import subprocess
        import sys
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, str(folder)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=os.path.dirname(os.path.dirname(
                                         os.path.dirname(os.path.abspath(__file__)))))

    def answer(self, times: int = 1) -> list[str]:
        said = []
        for _ in range(times):
            self.proc.stdin.write("a\n")
            self.proc.stdin.flush()
            said.append(self.proc.stdout.readline().strip())
        return said

    def stop(self) -> None:
        self.proc.stdin.close()
        assert self.proc.wait(30) == 0


def _replace_with_copy(path):
    copy = path.with_name(path.name + ".copy")
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)


@pytest.mark.parametrize("companions, change", [
    (("-wal", "-shm"), os.unlink), (("-wal",), os.unlink), (("-shm",), os.unlink), (("-wal",), _replace_with_copy),
], ids=["both-deleted", "wal-deleted", "shm-deleted", "wal-replaced"])
def test_answers_of_every_process_are_kept_when_the_wal_is_deleted_under_the_class(tmp_path, companions, change):
    """Three processes of a class over one file; the -wal and -shm beside it are deleted ("cleaning up" the data
    folder) or replaced; one process is then restarted. Before: 3 of 14 answers were in the file afterwards, each
    of the 14 reported saved."""
    first, second = _Process(tmp_path), _Process(tmp_path)
    said = first.answer() + second.answer()
    for suffix in companions:
        change(tmp_path / (DB_NAME + suffix))
    said += first.answer(3) + second.answer(3)
    first.stop()  # killed, and started again by the launcher
    third = _Process(tmp_path)
    said += second.answer(3) + third.answer(3)
    second.stop()
    third.stop()
    assert said == ["saved"] * 14
    assert ProgressStore(tmp_path).get(LEARNER, "ex1").tries == 14
