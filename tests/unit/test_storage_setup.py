"""Progress storage that is set up wrongly is named as such, with the setting, everywhere: not "cannot be
reached, keep this tab open" (waiting never fixes a data folder that is a file or a database file that is not
SQLite), and the class launcher refuses to start with it instead of every student being told progress is lost.

Before: ProgressStore said "cannot open the progress database (FileExistsError)" / "(DatabaseError)", pages
said "the database cannot be reached", and serve_class.py blamed "--database-url" for a bad
TOOLCALL_DATABASE_URL the operator had set in the environment. Cases: every broken setup in BROKEN."""

import os
import sys
from pathlib import Path

import pytest

from toolcall.progress import DB_NAME, ProgressStore, StorageError, open_store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy"))
from serve_class import main  # noqa: E402


def _data_dir_is_a_file(tmp: Path) -> tuple[Path, str]:
    (tmp / "data").write_text("notes")
    return tmp / "data", "is not a folder"


def _data_dir_is_a_device(tmp: Path) -> tuple[Path, str]:
    return Path("/dev/null"), "is not a folder"


def _database_is_a_folder(tmp: Path) -> tuple[Path, str]:
    (tmp / DB_NAME).mkdir()
    return tmp, "is not a regular file"


def _database_is_text(tmp: Path) -> tuple[Path, str]:
    (tmp / DB_NAME).write_text("this is not SQLite " * 100)
    return tmp, "is not a SQLite database"


def _database_is_random_bytes(tmp: Path) -> tuple[Path, str]:
    (tmp / DB_NAME).write_bytes(os.urandom(8192))
    return tmp, "is not a SQLite database"


def _data_dir_is_a_symlink_loop(tmp: Path) -> tuple[Path, str]:
    (tmp / "data").symlink_to("data")
    return tmp / "data", "a symlink loop"


def _data_dir_is_a_link_to_nothing(tmp: Path) -> tuple[Path, str]:
    (tmp / "data").symlink_to(tmp / "gone")
    return tmp / "data", "a link to nothing"


def _data_dir_is_below_a_link_to_nothing(tmp: Path) -> tuple[Path, str]:
    (tmp / "mnt").symlink_to(tmp / "unmounted")
    return tmp / "mnt" / "class", f"{tmp / 'mnt'}: a link to nothing"


def _data_dir_is_below_a_file(tmp: Path) -> tuple[Path, str]:
    (tmp / "notes").write_text("x")
    return tmp / "notes" / "data", "a part of the path is a file, not a folder"


def _database_is_a_symlink_loop(tmp: Path) -> tuple[Path, str]:
    (tmp / DB_NAME).symlink_to(DB_NAME)
    return tmp, "a symlink loop"


def _database_is_a_link_to_nothing(tmp: Path) -> tuple[Path, str]:
    (tmp / DB_NAME).symlink_to(tmp / "elsewhere" / DB_NAME)
    return tmp, "a link to nothing"


#: Before the links and the file on the path were added, they read "cannot open the progress database
#: (FileExistsError)" / "(NotADirectoryError)" (not a setup problem: the class started and every student was
#: told the database could not be reached) or "the folder cannot be written".
BROKEN = [_data_dir_is_a_file, _data_dir_is_a_device, _database_is_a_folder, _database_is_text,
          _database_is_random_bytes, _data_dir_is_a_symlink_loop, _data_dir_is_a_link_to_nothing,
          _data_dir_is_below_a_link_to_nothing, _data_dir_is_below_a_file, _database_is_a_symlink_loop,
          _database_is_a_link_to_nothing]


@pytest.mark.parametrize("broken", BROKEN, ids=lambda f: f.__name__.strip("_"))
def test_a_broken_setup_is_a_setup_error_naming_the_path(tmp_path, broken):
    folder, words = broken(tmp_path)
    with pytest.raises(StorageError) as refused:
        open_store("", folder)
    assert refused.value.setup is True
    assert words in str(refused.value) and str(folder) in str(refused.value)
    assert "Error)" not in str(refused.value)  # not a Python exception name in place of the problem


def test_a_sound_folder_opens_and_a_bad_url_is_a_setup_error(tmp_path):
    ProgressStore(tmp_path / "new" / "deeper").close()  # made as needed
    from toolcall.progress_pg import PostgresProgressStore

    with pytest.raises(StorageError) as refused:
        PostgresProgressStore("postgresql://u@host:99999/db")
    assert refused.value.setup is True


@pytest.fixture
def no_nginx_needed(monkeypatch):
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr("serve_class.tempfile.mkdtemp", lambda **kw: pytest.fail("the class started"))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)


@pytest.mark.parametrize("broken", BROKEN, ids=lambda f: f.__name__.strip("_"))
def test_the_class_launcher_refuses_a_broken_sqlite_setup_before_starting(tmp_path, monkeypatch, capsys,
                                                                          no_nginx_needed, broken):
    folder, words = broken(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(folder))
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("progress storage: ") and words in err and str(folder) in err


def test_the_class_launcher_names_the_environment_when_the_url_came_from_it(monkeypatch, capsys):
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "sqlite:///class.db")
    with pytest.raises(SystemExit):
        main(["--processes", "1"])
    err = capsys.readouterr().err
    assert "TOOLCALL_DATABASE_URL (environment) must start with postgresql://" in err and "--database-url must" not in err
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "postgresql://u@host:99999/db")
    with pytest.raises(SystemExit):
        main(["--processes", "1"])
    assert "TOOLCALL_DATABASE_URL (environment): the progress database URL's port" in capsys.readouterr().err


def test_a_relative_data_folder_means_where_the_operator_typed_it(tmp_path, monkeypatch, capsys, no_nginx_needed):
    """The processes run in the repository: a relative TOOLCALL_DATA_DIR was another folder for them than for
    the launcher's check (which would have made a stray database where the operator stood)."""
    from serve_class import REPO, child_env

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "class-data")
    assert child_env("")["TOOLCALL_DATA_DIR"] == str(tmp_path / "class-data")
    (tmp_path / "class-data").write_text("not a folder")
    assert main(["--processes", "1"]) == 2
    assert str(tmp_path / "class-data") in capsys.readouterr().err
    assert not (REPO / "class-data").exists()


def test_an_answer_the_full_queue_cannot_keep_is_counted_as_dropped():
    """The 501st answer of an outage was neither saved nor kept, while the page said "kept in this tab: 500"."""
    from toolcall.progress import PendingAnswers

    class Down:
        def record(self, **kwargs):
            raise StorageError("down")

        def get(self, *args):
            raise StorageError("down")

    pending = PendingAnswers(limit=2)
    for _ in range(5):
        assert pending.save(Down(), "alice", "pk_pass3", "0.5", 0, 1) is None
    assert (len(pending), pending.dropped) == (2, 3)


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_database_url_in_quotes_is_named_as_quoted_not_as_another_scheme(monkeypatch, capsys, tmp_path, quote):
    """An env file or a systemd Environment= line keeps the quotes of TOOLCALL_DATABASE_URL="postgresql://…": the
    app, the class launcher and its secrets check said it "must start with postgresql://", which it seemed to do
    (issue 13, round 6). The URL (it may hold a password) is still never repeated."""
    url = f"{quote}postgresql://teacher:s3cret@db.example/class{quote}"
    with pytest.raises(ValueError) as caught:
        open_store(url, tmp_path)
    assert str(caught.value) == "TOOLCALL_DATABASE_URL is written in quotes, which are read as part of the URL: remove them"
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", url)
    with pytest.raises(ValueError) as caught:
        open_store(None, tmp_path)
    assert str(caught.value) == "TOOLCALL_DATABASE_URL is written in quotes, which are read as part of the URL: remove them"
    with pytest.raises(SystemExit):
        main(["--processes", "1"])
    err = capsys.readouterr().err
    assert err.endswith("error: TOOLCALL_DATABASE_URL (environment) is written in quotes, which are read as part of "
                        "the URL: remove them\n") and "s3cret" not in err
    with pytest.raises(SystemExit):
        main(["--processes", "1", "--database-url", url])
    assert capsys.readouterr().err.endswith("error: --database-url is written in quotes, which are read as part of the "
                                            "URL: remove them\n")
    with pytest.raises(ValueError) as caught:
        open_store("mysql://h/db", tmp_path)
    assert str(caught.value) == "TOOLCALL_DATABASE_URL must start with postgresql:// (or be empty for SQLite)"


@pytest.mark.parametrize("url", [" ", "\t\n"])
def test_a_url_of_white_space_is_sqlite_for_the_launcher_as_for_the_app(tmp_path, monkeypatch, capsys,
                                                                       no_nginx_needed, url):
    """open_store strips TOOLCALL_DATABASE_URL (white space only is SQLite); the class launcher refused it, "must start
    with postgresql://" (break-it pass brk19new). It checks the SQLite setup instead, as for an unset one."""
    folder, words = _data_dir_is_a_file(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(folder))
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", url)
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("progress storage: ") and words in err and "postgresql" not in err
    with pytest.raises(StorageError):
        open_store(None, folder)  # the app: the same SQLite folder, refused for the same reason
