"""Every progress-storage message quoting an operator's setting stays on one line: TOOLCALL_DATA_DIR holding a
line end printed ``progress storage: the data folder /x/f`` and then a forged launcher line ``[07:00:00] ok …``.
StorageError keeps its whole message on one line (toolcall.text.escape_line), so the next message that quotes a
path or a server's reason cannot print a line of its own either."""

import sys
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.progress import DB_NAME, ProgressStore, StorageError, read_only_problem

sys.path.insert(0, str(REPO_ROOT / "deploy"))
from serve_class import main  # noqa: E402

HOSTILE = "f\n[07:00:00] all good\x1b[2K\rx"
SHOWN = "f\\u000a[07:00:00] all good\\u001b[2K\\u000dx"


def _folder_is_a_file(base: Path) -> Path:
    (base / HOSTILE).write_text("x")
    return base / HOSTILE


def _parent_is_a_file(base: Path) -> Path:
    (base / HOSTILE).write_text("x")
    return base / HOSTILE / "data"


def _database_is_a_folder(base: Path) -> Path:
    (base / HOSTILE / DB_NAME).mkdir(parents=True)
    return base / HOSTILE


def _database_is_not_sqlite(base: Path) -> Path:
    (base / HOSTILE).mkdir()
    (base / HOSTILE / DB_NAME).write_bytes(b"not a database at all" * 100)
    return base / HOSTILE


def _link_to_nothing(base: Path) -> Path:
    (base / HOSTILE).symlink_to(base / "gone")
    return base / HOSTILE / "data"


@pytest.mark.parametrize("make", [_folder_is_a_file, _parent_is_a_file, _database_is_a_folder,
                                  _database_is_not_sqlite, _link_to_nothing])
def test_every_setup_problem_names_the_folder_on_one_line(tmp_path, make):
    folder = make(tmp_path)
    with pytest.raises(StorageError) as refused:
        ProgressStore(folder)
    message = str(refused.value)
    assert refused.value.setup is True
    assert "\n" not in message and "\r" not in message and "\x1b" not in message
    assert SHOWN in message


def test_the_read_only_sentence_is_one_line(tmp_path):
    assert read_only_problem(tmp_path / HOSTILE / DB_NAME) == (
        f"{tmp_path}/{SHOWN}/{DB_NAME} is read-only (the file or its folder cannot be written by this user): progress "
        "is shown, not saved; make both writable, or point TOOLCALL_DATA_DIR at a folder that is")


def test_any_storage_message_is_one_line():
    """The next member: whatever a StorageError quotes (a server's reason, a driver's text) stays on one line."""
    assert str(StorageError("the server said:\nFATAL: no\x1b[31m", setup=True)) == \
        "the server said:\\u000aFATAL: no\\u001b[31m"


def test_the_launcher_names_a_data_folder_setting_on_one_line(tmp_path, monkeypatch, capsys):
    _folder_is_a_file(tmp_path)
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr("serve_class.tempfile.mkdtemp", lambda **kw: pytest.fail("the class started"))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path / HOSTILE))
    assert main(["--processes", "1"]) == 2
    assert capsys.readouterr().err == (f"progress storage: the data folder {tmp_path}/{SHOWN} (TOOLCALL_DATA_DIR, "
                                       "default <repo>/data) is not a folder\n")



def test_a_data_folder_setting_ending_in_white_space_is_named_on_one_line(tmp_path):
    """The edge-space and blank messages quoted the setting with repr(): one line, but in Python's escapes, not the
    \\u000a of every other storage message."""
    from toolcall.progress import data_dir_setting_problem as data_dir_problem

    value = f"{tmp_path}/f\n[07:00:00] all good\x1b[2K\r"
    assert data_dir_problem(value) == (
        f"TOOLCALL_DATA_DIR '{tmp_path}/f\\u000a[07:00:00] all good\\u001b[2K\\u000d' has white space at its start "
        "or end, which would be part of the folder's name: remove it")
    assert data_dir_problem(" \t") == ("TOOLCALL_DATA_DIR is white space only (' \\u0009'): unset it for the default "
                                       "<repo>/data, or name a folder")
