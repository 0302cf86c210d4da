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


FOREIGN = {
    "text_version": ("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES ('two')",
                     "{path} is not a progress database of this app: its schema_version table holds 'two', not a "
                     "version number; it is left as it is; {move}"),
    # quoted as drawn, look-alikes escaped: repr drew Cyrillic о as a Latin o, and 40 tag characters as 402
    "look_alike_version": ("CREATE TABLE schema_version (version INTEGER NOT NULL); "
                           "INSERT INTO schema_version VALUES ('tw\u043e')",
                           "{path} is not a progress database of this app: its schema_version table holds "
                           "'tw\\u043e', not a version number; it is left as it is; {move}"),
    "hidden_version": ("CREATE TABLE schema_version (version INTEGER NOT NULL); "
                       "INSERT INTO schema_version VALUES ('" + "\U000e0041" * 100 + "')",
                       "{path} is not a progress database of this app: its schema_version table holds "
                       "'" + "\\udb40\\udc41" * 3 + "…', not a version number; it is left as it is; {move}"),
    "newer_version": ("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (7)",
                      "{path} was written by a newer version of this app (schema version 7; this one knows up to 2); "
                      "it is left as it is; update the app, or {move}"),
    "other_tables": ("CREATE TABLE users (id INTEGER, name TEXT); INSERT INTO users VALUES (1, 'ada'); "
                     "CREATE TABLE orders (id INTEGER)",
                     "{path} is not a progress database of this app: it holds tables of another program (orders, "
                     "users); it is left as it is; {move}"),
    "other_columns": ("CREATE TABLE schema_version (id INTEGER, applied_at TEXT)",
                      "{path} is not a progress database of this app: its schema_version table has the columns id, "
                      "applied_at, not version; it is left as it is; {move}"),
}
MOVE = "move it away, or point TOOLCALL_DATA_DIR at another folder"


def _foreign(folder: Path, sql: str) -> tuple[Path, bytes]:
    import sqlite3

    path = folder / DB_NAME
    with sqlite3.connect(path) as db:
        db.executescript(sql)
    db.close()
    return path, path.read_bytes()


@pytest.mark.parametrize("kind", FOREIGN)
def test_a_database_of_another_program_is_a_setup_error_and_left_as_it_is(tmp_path, kind):
    """A schema_version holding 'two' raised TypeError ('>' not supported between 'int' and 'str'), a newer
    version failed as "cannot open the progress database (OperationalError)", another program's tables got
    progress, attempts and schema_version made among them (and the file was switched to WAL mode)."""
    sql, message = FOREIGN[kind]
    path, before = _foreign(tmp_path, sql)
    with pytest.raises(StorageError) as refused:
        open_store("", tmp_path)
    assert (str(refused.value), refused.value.setup) == (message.format(path=path, move=MOVE), True)
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == [DB_NAME]


@pytest.mark.parametrize("kind", ["text_version", "other_tables"])
def test_a_database_of_another_program_in_a_read_only_folder_is_the_same_setup_error(tmp_path, kind):
    """Read-only (as nobody under root, real modes): "cannot open the progress database (OperationalError)"."""
    import subprocess
    import tempfile

    sql, message = FOREIGN[kind]
    folder = Path(tempfile.mkdtemp(prefix="toolcall-foreign-", dir="/tmp"))
    try:
        path, before = _foreign(folder, sql)
        os.chmod(path, 0o444)
        os.chmod(folder, 0o555)
        probe = ("import os, sys; sys.path.insert(0, sys.argv[1]); import toolcall.files, toolcall.i18n\n"
                 "from toolcall.progress import ProgressStore, StorageError\n"
                 "if os.geteuid() == 0: os.setgid(65534); os.setuid(65534)\n"
                 "try: ProgressStore(__import__('pathlib').Path(sys.argv[2]))\n"
                 "except StorageError as exc: print(exc.setup, exc)")
        run = subprocess.run([sys.executable, "-c", probe, str(REPO_ROOT), str(folder)], capture_output=True,
                             text=True, timeout=120)
        assert run.stdout == f"True {message.format(path=path, move=MOVE)}\n", run.stderr[-2000:]
        assert path.read_bytes() == before and sorted(os.listdir(folder)) == [DB_NAME]
    finally:
        os.chmod(folder, 0o755)
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def test_our_own_first_release_file_is_still_upgraded(tmp_path):
    import sqlite3

    from toolcall.progress import MIGRATIONS

    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute(MIGRATIONS[0][1][0].format(real="REAL"))
    db.close()
    store = open_store("", tmp_path)
    assert store.schema_version() == 2
    store.close()
