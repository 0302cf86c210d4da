"""A page whose progress storage is set up wrongly (TOOLCALL_DATA_DIR is a file, TOOLCALL_DATABASE_URL is not a
postgresql:// URL) says so and who can fix it, in both languages: not "the database cannot be reached … keep this
tab open", which only an outage deserves. The dashboard shows the instructor the setting to fix."""

import pytest

from tests.app.test_dashboard_app import PASSPHRASE, open_dashboard
from tests.app.test_exercises_app import answer_wrong_once, open_exercises
from toolcall.i18n import t


def _file_as_data_dir(tmp_path, monkeypatch):
    (tmp_path / "data").write_text("notes")
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    return str(tmp_path / "data")


def _sqlite_url(tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "sqlite:///class.db")
    return "TOOLCALL_DATABASE_URL"


SETUPS = [_file_as_data_dir, _sqlite_url]


def _signed_in_dashboard(monkeypatch, lang):
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", PASSPHRASE)
    at = open_dashboard(lang)
    at.text_input(key="dashboard_passphrase").input(PASSPHRASE)
    at.button[0].click().run()
    assert not at.exception
    return at


@pytest.mark.parametrize("setup", SETUPS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_is_told_the_storage_is_set_up_wrongly(tmp_path, monkeypatch, setup, lang):
    setup(tmp_path, monkeypatch)
    at = open_exercises("alice", lang)
    said = [w.value for w in at.warning]
    assert t("exercises.store_error", lang, detail=t("storage.setup_detail", lang)) in said
    at, said = answer_wrong_once(lang, at)
    assert t("storage.not_saved_setup", lang, n=1) in said
    assert t("progress.not_saved", lang, n=1) not in said
    assert not any(t("progress.unreachable", lang) in w for w in said)
    assert t("progress.read_only", lang) not in said  # nothing is shown: not "read-only, earlier answers shown"


@pytest.mark.parametrize("setup", SETUPS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboard_names_the_setting_to_fix(tmp_path, monkeypatch, setup, lang):
    named = setup(tmp_path, monkeypatch)
    at = _signed_in_dashboard(monkeypatch, lang)
    assert [e.value for e in at.error] == [t("storage.dashboard_setup", lang)]
    assert named in at.code[0].value
    assert t("dashboard.store_error", lang) not in [w.value for w in at.warning]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_answers_past_the_tabs_queue_are_said_to_be_lost(tmp_path, monkeypatch, lang):
    from toolcall.progress import PendingAnswers

    _sqlite_url(tmp_path, monkeypatch)
    at = open_exercises("alice", lang)
    at.session_state["exercises_pending"] = PendingAnswers(limit=1)
    for _ in range(3):
        at.radio(key="exercises_ex_truncated_answer").set_value("ask_retry")
        at.button(key="exercises_ex_truncated_submit").click().run()
    assert not at.exception
    assert t("storage.pending_full", lang, n=1, dropped=2) in [w.value for w in at.warning]


def _read_only_database(tmp_path, monkeypatch):
    """A database file this user cannot write (SQLite opens it without a word): simulated as SQLite behaves
    on one, every plain connection opened read-only (root writes any file)."""
    import sqlite3
    from pathlib import Path

    from toolcall.progress import ProgressStore

    folder = tmp_path / "ro"
    ProgressStore(folder).record("alice", "pk_pass3", "0.7", 1, 1)
    connect = sqlite3.connect

    def read_only(database, *args, **kwargs):
        if kwargs.get("uri"):
            return connect(database, *args, **kwargs)
        return connect(f"{Path(database).resolve().as_uri()}?mode=ro", *args, **{**kwargs, "uri": True})
    monkeypatch.setattr("toolcall.progress.sqlite3.connect", read_only)
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(folder))
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    return str(folder)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_read_only_database_is_not_called_unreachable(tmp_path, monkeypatch, lang):
    """Before, each save failed as "cannot be reached … keep this tab open" (it never comes back), and the
    dashboard said nothing while no answer of the class was saved."""
    folder = _read_only_database(tmp_path, monkeypatch)
    at = open_exercises("alice", lang)
    assert t("progress.read_only", lang) in [w.value for w in at.warning]
    at, said = answer_wrong_once(lang, at)
    assert t("storage.not_saved_setup", lang, n=1) in said and t("progress.not_saved", lang, n=1) not in said
    at = _signed_in_dashboard(monkeypatch, lang)
    assert [e.value for e in at.error] == [t("storage.dashboard_read_only", lang)]
    assert f"{folder}/progress.sqlite3 is read-only" in at.code[0].value
