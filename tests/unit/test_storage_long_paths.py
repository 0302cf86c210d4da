"""A data folder whose name the OS or SQLite refuses is named as such, never a traceback or a wrong reason.

TOOLCALL_DATA_DIR=/tmp/<300 characters> ended the class launcher in a traceback (OSError: File name too long,
raised by Path.is_file() while the store looked for the reason it could not open); a folder whose database path
is over SQLite's limit (504 bytes: its -journal's name must fit in 512) was reported as "the folder cannot be
written", which chmod does not fix.
"""

import errno
import os
import sys

import pytest

from toolcall import REPO_ROOT
from toolcall.files import os_failure
from toolcall.progress import DB_NAME, SQLITE_MAX_PATH, ProgressStore, StorageError

sys.path.insert(0, str(REPO_ROOT / "deploy"))
import serve_class  # noqa: E402

SETTING = "TOOLCALL_DATA_DIR, default <repo>/data"
TOO_LONG = str(os_failure(OSError(errno.ENAMETOOLONG, "File name too long")))
NAME_MAX = os.pathconf("/", "PC_NAME_MAX")


def _refused(folder) -> str:
    """The store's error for ``folder``, which must be a setup error, and the launcher's, which must equal it."""
    with pytest.raises(StorageError) as caught:
        ProgressStore(folder)
    assert caught.value.setup
    os.environ["TOOLCALL_DATA_DIR"] = str(folder)
    assert serve_class.sqlite_problem() == str(caught.value)
    return str(caught.value)


def test_a_folder_name_too_long_for_the_file_system_is_named(tmp_path, monkeypatch):
    """The example."""
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "")
    folder = tmp_path / ("a" * (NAME_MAX + 1))
    assert _refused(folder) == f"the data folder {folder} ({SETTING}) cannot be used: {folder}: {TOO_LONG}"


@pytest.mark.parametrize("parts", [
    lambda: ["a" * (NAME_MAX + 1), "data"],  # a parent's name
    lambda: ["data", "a" * (NAME_MAX + 1), "x"],  # one in the middle
    lambda: ["b" * 200] * 21,  # the whole path over PATH_MAX (4096)
])
def test_every_name_the_os_refuses_is_a_setup_error_naming_the_folder(tmp_path, monkeypatch, parts):
    """The sweep: wherever the name the OS refuses is, no OSError escapes (the launcher's traceback)."""
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "")
    folder = tmp_path.joinpath(*parts())
    message = _refused(folder)
    assert message.startswith(f"the data folder {folder} ({SETTING}) cannot be used: ") and TOO_LONG in message


def test_a_database_path_over_sqlites_limit_is_named_and_one_at_the_limit_opens(tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "")
    spare = SQLITE_MAX_PATH - len(os.fsencode(str(tmp_path))) - len("/" + DB_NAME) - 1  # one "/" between parts
    halves = [spare // 2, spare - spare // 2 - 1]
    at_limit = tmp_path / ("c" * halves[0]) / ("d" * halves[1])
    assert len(os.fsencode(str(at_limit / DB_NAME))) == SQLITE_MAX_PATH
    ProgressStore(at_limit).record("alice", "pk_pass3", "1", 1, 1)
    over = tmp_path / ("c" * halves[0]) / ("d" * (halves[1] + 1))
    path = over / DB_NAME
    assert _refused(over) == (f"{path} is {SQLITE_MAX_PATH + 1} bytes long, more than SQLite opens "
                              f"({SQLITE_MAX_PATH}: its -journal's name must fit in 512); choose a shorter data "
                              f"folder ({SETTING})")
