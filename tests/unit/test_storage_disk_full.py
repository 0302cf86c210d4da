"""A data folder on a full disk is named as a full disk, never as an unreachable database.

On a 512 KiB tmpfs filled up, a save in a running class failed with "the progress database failed
(OperationalError)" (SQLite's own words, "database or disk is full", were dropped), a store opened on it with
"cannot open the progress database (OperationalError)", and the class launcher started a class that saved
nothing. SQLite's limit on a file's pages (PRAGMA max_page_count) gives the same SQLITE_FULL without a full disk.
"""

import sqlite3
import sys
from collections import namedtuple

import pytest

from toolcall import REPO_ROOT
from toolcall.progress import FULL_BELOW, ProgressStore, StorageError, disk_full, disk_full_problem

sys.path.insert(0, str(REPO_ROOT / "deploy"))
import serve_class  # noqa: E402

Usage = namedtuple("Usage", "total used free")


def _fill(store: ProgressStore) -> None:
    """SQLITE_FULL from the next page the file needs, as on a full disk."""
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")


@pytest.mark.parametrize("write", [
    lambda s: s.record("alice", "pk_pass3", "0.7" * 3000, 1, 1),
    lambda s: s.show_hint("alice", "pk_pass3", 3),
    lambda s: s.reveal("alice", "pk_pass3"),
])
def test_every_write_on_a_full_disk_names_the_full_disk_and_resumes_once_space_is_freed(tmp_path, write):
    """The example (a save in a running class) and the sweep over every write of the store."""
    store = ProgressStore(tmp_path)
    store.record("bob", "pk_pass3", "1", 1, 1)
    _fill(store)
    with pytest.raises(StorageError) as caught:
        for _ in range(50):  # a write may fit in the last page; a few more cannot
            write(store)
            store.record("bob", "pk_pass3", "x" * 5000, 0, 1)
    assert (str(caught.value), caught.value.setup, caught.value.full) == (disk_full_problem(tmp_path), False, True)
    store._db.execute("PRAGMA max_page_count = 1073741823")
    assert store.record("carol", "pk_pass3", "1", 1, 1).tries == 1


def test_opening_on_a_full_disk_names_it_and_the_launcher_does_not_start_the_class(tmp_path, monkeypatch):
    """The migration of a new file cut short by a full disk leaves an empty file; it was 'cannot open …'."""
    def full(self):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(ProgressStore, "migrate", full)
    with pytest.raises(StorageError) as caught:
        ProgressStore(tmp_path)
    assert (str(caught.value), caught.value.setup, caught.value.full) == (disk_full_problem(tmp_path), False, True)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    assert serve_class.sqlite_problem() == disk_full_problem(tmp_path)


def test_an_io_error_is_a_full_disk_only_when_the_folder_has_no_room(tmp_path, monkeypatch):
    """SQLite says 'disk I/O error' when its shared-memory file cannot grow on a full tmpfs."""
    io_error = sqlite3.OperationalError("disk I/O error")
    wrapped = StorageError("the progress database failed (OperationalError)")
    wrapped.__cause__ = io_error
    for free, expected in [(0, True), (FULL_BELOW - 1, True), (FULL_BELOW, False), (10**9, False)]:
        monkeypatch.setattr("toolcall.progress.shutil.disk_usage", lambda _, free=free: Usage(10**9, 0, free))
        assert (disk_full(tmp_path, io_error), disk_full(tmp_path, wrapped)) == (expected, expected)
    assert disk_full(tmp_path, sqlite3.OperationalError("database is locked")) is False
    assert disk_full(tmp_path, None) is False


@pytest.mark.parametrize("code", ["ENOSPC", "EDQUOT"])
def test_a_data_folder_that_cannot_be_made_for_want_of_space_is_a_full_disk(tmp_path, monkeypatch, code):
    """No inode left (a small tmpfs) or the user's quota reached when the data folder is made: "cannot open the
    progress database (OSError)", which named nothing (break-it pass brk19ops)."""
    import errno
    import os
    from pathlib import Path
    folder = tmp_path / "class"
    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == folder:
            raise OSError(getattr(errno, code), os.strerror(getattr(errno, code)), str(self))
        return real_mkdir(self, *args, **kwargs)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    with pytest.raises(StorageError) as info:
        ProgressStore(folder)
    assert str(info.value) == (f"the disk holding {folder} is full: progress is shown, not saved, until space is "
                               "freed there (TOOLCALL_DATA_DIR, default <repo>/data)")
    assert info.value.full and not info.value.setup
    assert disk_full(folder, OSError(errno.EACCES, "Permission denied")) is False
