"""A secrets file that is there but cannot be read is a setup problem the app names, not "no secrets" (break-it pass
brk20new): st.secrets raised on a file that is not TOML (or nested past what tomllib reads), ui.learner took that
for no secrets file at all, and the class's progress went to SQLite in the data folder without a word while its
TOOLCALL_DATABASE_URL waited in the broken file."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit import config
from streamlit.runtime.secrets import Secrets

from ui import learner


@pytest.fixture
def secrets_at(monkeypatch, tmp_path):
    """Streamlit's own secrets reader, reading only ``tmp_path``/secrets.toml."""
    path = tmp_path / "secrets.toml"
    get_option = config.get_option
    monkeypatch.setattr(config, "get_option",
                        lambda name: [str(path)] if name == "secrets.files" else get_option(name))
    monkeypatch.setattr(st, "secrets", Secrets())
    # Streamlit copies a file's top-level strings into os.environ as it reads them: set first, so that the
    # teardown removes the URL a test's file put there (the next tests opened that server as their store)
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "")
    monkeypatch.delenv("TOOLCALL_DATABASE_URL")
    return path


def test_no_secrets_file_is_sqlite(secrets_at):
    assert learner.database_url() == ""


def test_a_secrets_file_that_sets_the_url_gives_it(secrets_at):
    secrets_at.write_text('TOOLCALL_DATABASE_URL = "postgresql://u@db.lan/class"\n', "utf-8")
    assert learner.database_url() == "postgresql://u@db.lan/class"


@pytest.mark.parametrize("text, reason", [
    ('TOOLCALL_DATABASE_URL = "postgresql://u:pass@h/db\n', r"Illegal character '\n' (at line 1, column 50)"),
    ("a = " + "[" * 20_000 + "]" * 20_000 + "\n", "maximum recursion depth exceeded"),
])
def test_a_secrets_file_that_cannot_be_read_is_named_not_taken_for_none(secrets_at, text, reason):
    secrets_at.write_text(text, "utf-8")
    with pytest.raises(ValueError) as caught:
        learner.database_url()
    message = str(caught.value)
    assert message.startswith("the secrets file cannot be read, so TOOLCALL_DATABASE_URL is not known (")
    assert message.endswith("): correct the file, or remove it to keep progress in SQLite")
    assert reason in message and "pass@" not in message
