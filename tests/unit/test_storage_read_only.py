"""A progress database this user can read but not write is named as such everywhere, never taken for an
unreachable database: SQLite opens a read-only file (in a writable folder) without a word, and BEGIN IMMEDIATE
succeeds on it, so the store said read_only False, every save failed with "the progress database failed
(OperationalError)" (pages: "cannot be reached, keep this tab open"; it never comes back) and the class launcher
started the class. In a read-only folder the read-only fallback failed too (WAL mode cannot make its -shm
file: "attempt to write a readonly database"), reported as "cannot open the progress database
(OperationalError)". Now: read_only True, a save is a setup error naming the file, the launcher refuses."""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.progress import DB_NAME, ProgressStore, StorageError

sys.path.insert(0, str(REPO_ROOT / "deploy"))
from serve_class import main  # noqa: E402


@pytest.fixture
def unwritable_file(monkeypatch):
    """SQLite as it behaves on a file this user cannot write (root writes any file): every plain connection
    is opened read-only, so it succeeds and each write fails with SQLITE_READONLY."""
    connect = sqlite3.connect

    def read_only(database, *args, **kwargs):
        if kwargs.get("uri"):
            return connect(database, *args, **kwargs)
        return connect(f"{Path(database).resolve().as_uri()}?mode=ro", *args, **{**kwargs, "uri": True})
    return lambda: monkeypatch.setattr("toolcall.progress.sqlite3.connect", read_only)


def test_a_database_that_cannot_be_written_opens_read_only_and_a_save_is_a_setup_error(tmp_path, unwritable_file):
    ProgressStore(tmp_path).record("alice", "pk_pass3", "0.7", 1, 1)
    unwritable_file()
    store = ProgressStore(tmp_path)
    assert store.read_only and store.get("alice", "pk_pass3").best_score == 1.0
    with pytest.raises(StorageError) as refused:
        store.record("alice", "pk_pass3", "x", 0, 1)
    assert refused.value.setup is True
    assert str(refused.value).startswith(f"{tmp_path / DB_NAME} is read-only (the file or its folder cannot be "
                                         "written by this user)")


def test_the_class_launcher_refuses_a_database_it_cannot_write(tmp_path, monkeypatch, capsys, unwritable_file):
    ProgressStore(tmp_path).close()
    unwritable_file()
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr("serve_class.tempfile.mkdtemp", lambda **kw: pytest.fail("the class started"))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"progress storage: {tmp_path / DB_NAME} is read-only")


PROBE = """
import os, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import toolcall.files
from toolcall.progress import ProgressStore, StorageError
if os.geteuid() == 0:  # root writes any file: become nobody once everything is imported
    os.setgid(65534)
    os.setuid(65534)
store = ProgressStore(Path(sys.argv[2]))
print(store.read_only, store.get("alice", "pk_pass3").best_score)
try:
    store.record("alice", "pk_pass3", "x", 0, 1)
except StorageError as exc:
    print(exc.setup, str(exc).split(" (")[0])
"""


@pytest.mark.parametrize("folder_mode", [0o777, 0o555], ids=["writable_folder", "read_only_folder"])
def test_a_real_read_only_file_as_another_user(folder_mode):
    """The same with real file modes, run as nobody when the tests run as root."""
    folder = Path(tempfile.mkdtemp(prefix="toolcall-ro-", dir="/tmp"))
    try:
        ProgressStore(folder).record("alice", "pk_pass3", "0.7", 1, 1)
        for name in os.listdir(folder):
            os.chmod(folder / name, 0o444)
        os.chmod(folder, folder_mode)
        run = subprocess.run([sys.executable, "-c", PROBE, str(REPO_ROOT), str(folder)], capture_output=True,
                             text=True, timeout=120)
        assert run.stdout.splitlines() == ["True 1.0", f"True {folder / DB_NAME} is read-only"], run.stderr[-2000:]
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder, ignore_errors=True)


FIXED = """
import os, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import toolcall.files
import toolcall.progress as progress
folder = Path(sys.argv[2])
if os.geteuid() == 0:  # root writes any file: nobody, owning the folder, can take the write bit away and back
    os.chown(folder, 65534, 65534)
    os.setgid(65534)
    os.setuid(65534)
progress.ProgressStore(folder).record("alice", "pk_pass3", "0.7", 1, 1)
for name in os.listdir(folder):
    os.chmod(folder / name, 0o444)
os.chmod(folder, 0o555)
store = progress.ProgressStore(folder)
try:
    store.record("alice", "pk_pass3", "x", 0, 1)
except progress.StorageError as exc:
    print(store.read_only, exc.setup)
os.chmod(folder, 0o755)  # the operator does what the message says
for name in os.listdir(folder):
    os.chmod(folder / name, 0o644)
clock = progress.time.monotonic() + progress.READ_ONLY_RECHECK
progress.time.monotonic = lambda: clock
record = store.record("alice", "pk_pass3", "y", 0, 1)
print(store.read_only, record.tries, record.last_answer)
"""


def test_a_read_only_store_saves_again_once_the_operator_makes_it_writable():
    """The read-only message says 'make both writable'; the store decided once, when it opened, so every save still
    failed after the fix until each Streamlit process was restarted. Real file modes, as nobody under root."""
    folder = Path(tempfile.mkdtemp(prefix="toolcall-ro-", dir="/tmp"))
    try:
        os.chmod(folder, 0o777)
        run = subprocess.run([sys.executable, "-c", FIXED, str(REPO_ROOT), str(folder)], capture_output=True,
                             text=True, timeout=120)
        assert run.stdout.splitlines() == ["True True", "False 2 y"], run.stderr[-2000:]
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_store_looks_again_at_most_every_recheck_interval(tmp_path, unwritable_file, monkeypatch):
    """Every save of a class on a read-only store must not reopen the database: one look per READ_ONLY_RECHECK s
    (the files look writable to root, so each look reopens, and SQLite still opens the file read-only)."""
    import toolcall.progress as progress
    ProgressStore(tmp_path).record("alice", "pk_pass3", "0.7", 1, 1)
    unwritable_file()
    clock = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    store = ProgressStore(tmp_path)
    opens = []
    reopen = store._open
    monkeypatch.setattr(store, "_open", lambda: opens.append(clock[0]) or reopen())
    for step in range(30):  # 30 saves over 15 s
        clock[0] = 1000.0 + step * 0.5
        with pytest.raises(StorageError):
            store.record("alice", "pk_pass3", "x", 0, 1)
    assert opens == [1000.0, 1005.0, 1010.0]
    assert store.read_only and store.get("alice", "pk_pass3").tries == 1


def test_a_data_folder_to_be_made_on_a_read_only_mount_is_a_setup_error_named_as_such(tmp_path, monkeypatch, capsys):
    """TOOLCALL_DATA_DIR naming a folder to make on a read-only file system: "cannot open the progress database
    (OSError)", taken for a failure that may pass, so the launcher started the class and every page said the
    database could not be reached (break-it pass brk19ops)."""
    import errno
    folder = tmp_path / "ro" / "class"
    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == folder:
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real_mkdir(self, *args, **kwargs)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    with pytest.raises(StorageError) as info:
        ProgressStore(folder)
    why = (f"cannot create the data folder {folder}: its file system is mounted read-only (TOOLCALL_DATA_DIR, "
           "default <repo>/data)")
    assert str(info.value) == why and info.value.setup
    import serve_class
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(folder))
    assert serve_class.sqlite_problem() == why
