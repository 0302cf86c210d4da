"""TOOLCALL_DATA_DIR set to white space, or to ``~name`` for a user this machine does not have, named a folder of
that name in the folder the app was started from, made without a word (a break-it pass); so did ``$HOME/tcdata``
(no shell expands an env file or a systemd Environment= line) and ``"/srv/data"`` with an env file's quotes
(round 6). The store, the pages and
the class launcher now refuse it as a setup error naming the setting; every other value is left to the path checks."""

import pytest

from toolcall.progress import ProgressStore, StorageError, data_dir, data_dir_setting_problem


@pytest.mark.parametrize("value, words", [
    (" ", "TOOLCALL_DATA_DIR is white space only (' ')"), ("\t \n", "TOOLCALL_DATA_DIR is white space only"),
    ("~nosuchuser_toolcall/x", "starts with ~nosuchuser_toolcall, but this machine has no user nosuchuser_toolcall"),
    ("~nosuchuser_toolcall", "but this machine has no user nosuchuser_toolcall"),
    ("$TOOLCALL_TEST_HOME/tcdata", "TOOLCALL_DATA_DIR $TOOLCALL_TEST_HOME/tcdata holds $TOOLCALL_TEST_HOME, a variable no "
     "shell expanded (an env file or a quoted setting passes it as written): write the folder's full path (with "
     "this environment: /srv/teacher/tcdata)"),
    ("${TOOLCALL_TEST_UNSET}/tcdata", "TOOLCALL_DATA_DIR ${TOOLCALL_TEST_UNSET}/tcdata holds ${TOOLCALL_TEST_UNSET}, a "
     "variable no shell expanded (an env file or a quoted setting passes it as written): write the folder's full "
     "path"),
    ('"/srv/tc data"', "TOOLCALL_DATA_DIR \"/srv/tc data\" is written in quotes, which would be part of the folder's "
     "name: remove them"),
    ("'data'", "TOOLCALL_DATA_DIR 'data' is written in quotes, which would be part of the folder's name: remove them"),
    ("postgresql://teacher:s3cret@db/class", "TOOLCALL_DATA_DIR is a URL (postgresql:…), not a folder: a PostgreSQL URL "
     "goes in TOOLCALL_DATABASE_URL; for SQLite, name the folder that holds progress.sqlite3"),
    ("sqlite:///srv/progress.sqlite3", "TOOLCALL_DATA_DIR is a URL (sqlite:…), not a folder"),
    ("file:///srv/data", "TOOLCALL_DATA_DIR is a URL (file:…), not a folder"),
    ("%USERPROFILE%\\data", "TOOLCALL_DATA_DIR %USERPROFILE%\\data holds %USERPROFILE%, a variable no shell expanded "
     "(an env file or a quoted setting passes it as written): write the folder's full path"),
    ("C:/data", "TOOLCALL_DATA_DIR C:/data is a Windows path: this machine's folders start with /, write the folder's "
     "full path"),
    # an env file keeps the space: "/srv/data " made a folder "data " (break-it pass brk13text)
    ("/srv/tc data ", "TOOLCALL_DATA_DIR '/srv/tc data ' has white space at its start or end, which would be part of "
     "the folder's name: remove it"),
    (" data", "TOOLCALL_DATA_DIR ' data' has white space at its start or end, which would be part of the folder's "
     "name: remove it"),
    ('"/srv/data" ', "TOOLCALL_DATA_DIR \"/srv/data\"  is written in quotes, which would be part of the folder's "
     "name: remove them")])
def test_a_setting_that_names_no_folder_meant_is_a_setup_error(monkeypatch, tmp_path, value, words):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", value)
    monkeypatch.setenv("TOOLCALL_TEST_HOME", "/srv/teacher")
    monkeypatch.delenv("TOOLCALL_TEST_UNSET", raising=False)
    assert words in data_dir_setting_problem() and "s3cret" not in data_dir_setting_problem()  # a URL's password
    for folder in (None, data_dir()):  # as the pages open it: the folder the setting names
        with pytest.raises(StorageError) as caught:
            ProgressStore(folder)
        assert caught.value.setup and words in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # no folder made


@pytest.mark.parametrize("value", ["", "~", "~/toolcall-data", "~root/x", "relative/data", "/tmp/x y", "/srv/a$",
                                   "/srv/$5/data", "/srv/it's/data", "/srv/a:b", "data:2024", "/srv/50%/data"])
def test_other_values_are_left_to_the_path_checks(monkeypatch, value):
    monkeypatch.setenv("TOOLCALL_DATA_DIR", value)
    assert data_dir_setting_problem() is None


def test_a_folder_a_caller_chose_is_opened_whatever_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLCALL_DATA_DIR", " ")
    store = ProgressStore(tmp_path)
    store.close()


@pytest.mark.parametrize("value", [" ", "~nosuchuser_toolcall/data", "$HOME/tcdata", '"/srv/tcdata"',
                                   "postgresql://u@h/db"])
def test_the_class_launcher_refuses_it_before_any_process_starts(monkeypatch, tmp_path, value):
    """The launcher makes TOOLCALL_DATA_DIR absolute for its processes (so the store's own check never saw the
    setting): it checks the setting itself, and makes no folder."""
    from toolcall import REPO_ROOT

    monkeypatch.syspath_prepend(str(REPO_ROOT / "deploy"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", value)
    import serve_class

    assert serve_class.sqlite_problem() == data_dir_setting_problem() is not None
    assert list(tmp_path.iterdir()) == []
