"""A SQLite progress database that can be read but not written is named for what is wrong with it: every
failure to write was put down to permissions ("is read-only (the file or its folder cannot be written by this
user)", even running as root), and a ``-wal`` that is a FIFO opened without a word, then failed every save as
"the progress database failed (OperationalError)" (pages: cannot be reached, keep this tab open). Now a damaged
file says damaged, a file SQLite keeps beside the database (``-wal``, ``-shm``, ``-journal``) that is no regular
file is named, both are setup errors (waiting will not help) and the class launcher refuses them."""

import os
import sys
import threading
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.progress import DB_NAME, ProgressStore, StorageError, open_store

sys.path.insert(0, str(REPO_ROOT / "deploy"))
from serve_class import sqlite_problem  # noqa: E402

LEARNER = "swift-otter-0123456789"


def _saved(folder: Path) -> Path:
    store = ProgressStore(folder)
    store.record(LEARNER, "pk_pass3", "0.7", 1, 1)
    store.close()
    return folder / DB_NAME


def _opened(folder: Path):
    """open_store in a thread given 10 s: a ``-journal`` FIFO made SQLite wait on it for ever."""
    opened: list = []
    worker = threading.Thread(target=lambda: opened.append(open_store("", folder)), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "opening the store hangs"
    return opened[0]


def _save_refusal(folder: Path) -> StorageError:
    store = _opened(folder)
    with pytest.raises(StorageError) as refused:
        store.record(LEARNER, "pk_pass3", "0.5", 0, 1)
    return refused.value


def test_a_damaged_database_is_called_damaged_not_read_only(tmp_path):
    path = _saved(tmp_path)
    with open(path, "r+b") as fh:  # pages 2 and 3 (of 4 096 bytes): the tables' pages, the header intact
        fh.seek(4096)
        fh.write(b"\xff" * 8192)
    refused = _save_refusal(tmp_path)
    assert refused.setup is True
    assert str(refused) == (f"{path} is damaged (SQLite: database disk image is malformed): nothing new is saved; "
                            "move it away and a new one is made (TOOLCALL_DATA_DIR, default <repo>/data)")


def _folder(companion: Path) -> str:
    companion.mkdir()
    return "is a folder, not a regular file (SQLite keeps it beside the database)"


def _fifo(companion: Path) -> str:
    os.mkfifo(companion)
    return "is a FIFO (named pipe), not a regular file (SQLite keeps it beside the database)"


def _device(companion: Path) -> str:
    companion.symlink_to("/dev/zero")
    return "is a character device, not a regular file (SQLite keeps it beside the database)"


def _link_to_nothing(companion: Path) -> str:
    companion.symlink_to(companion.parent / "gone")
    return ": a link to nothing (its target does not exist)"


def _loop(companion: Path) -> str:
    companion.symlink_to(companion.name)
    return ": a symlink loop (the link points back to itself)"


ODD = [_folder, _fifo, _device, _link_to_nothing, _loop]


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
@pytest.mark.parametrize("odd", ODD, ids=lambda f: f.__name__.strip("_"))
def test_a_companion_file_that_is_no_regular_file_is_named(tmp_path, suffix, odd):
    """Every file SQLite keeps beside the database x every kind of path that is no regular file: a save is a
    setup error naming that file (never "read-only", never an exception name), what was saved is shown
    (read-only), and the launcher refuses it; opening never waits on it."""
    path = _saved(tmp_path)
    companion = path.with_name(path.name + suffix)
    if os.path.lexists(companion):
        companion.unlink()
    words = odd(companion)
    expected = f"{companion}{' ' if not words.startswith(':') else ''}{words}; move it away " \
               "(TOOLCALL_DATA_DIR, default <repo>/data)"
    refused = _save_refusal(tmp_path)
    assert (str(refused), refused.setup) == (expected, True)
    store = _opened(tmp_path)  # what was saved is still shown
    assert (store.read_only, store.get(LEARNER, "pk_pass3").best_score) == (True, 1.0)
    os.environ["TOOLCALL_DATA_DIR"] = str(tmp_path)
    try:
        assert sqlite_problem() == expected
    finally:
        del os.environ["TOOLCALL_DATA_DIR"]


def test_a_sound_database_is_no_setup_problem(tmp_path, monkeypatch):
    _saved(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    assert sqlite_problem() is None
    store = open_store("", tmp_path)
    assert (store.read_only, store.read_only_problem, store.get(LEARNER, "pk_pass3").best_score) == (False, "", 1.0)
