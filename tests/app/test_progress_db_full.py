"""A PostgreSQL server with no connection slot left for the app (a CONNECTION LIMIT reached, max_connections) is named
on the pages, in both languages: students read "the database cannot be reached … keep this tab open" and waited,
and the dashboard said "cannot be reached right now; try again in a moment" of a server that answered and refused
(break-it pass brk14ops). The instructor now reads the server's reason and what to change; the student, to tell
the instructor; answers wait in the tab."""

import logging
import time

import psycopg
import pytest

from tests import pg
from tests.app.test_exercises_app import answer_wrong_once
from tests.app.test_storage_setup_pages import _signed_in_dashboard
from toolcall.i18n import t


@pytest.fixture
def full_url(monkeypatch):
    """TOOLCALL_DATABASE_URL of a user with CONNECTION LIMIT 0: the server refuses its every connection for want of
    a slot."""
    url = pg.server_url()
    name = f"full_{time.monotonic_ns() % 10**8}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE ROLE {name} LOGIN CONNECTION LIMIT 0")
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", url.replace("postgresql://postgres@", f"postgresql://{name}@"))
    try:
        yield name
    finally:
        logging.getLogger("psycopg.pool").setLevel(logging.NOTSET)
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP ROLE {name}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_is_told_the_database_has_no_connection_left(full_url, lang):
    _, said = answer_wrong_once(lang)
    assert t("storage.not_saved_busy", lang, n=1) in said
    assert t("progress.not_saved", lang, n=1) not in said
    assert not any(t("progress.unreachable", lang) in w for w in said)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboard_shows_the_servers_reason(full_url, monkeypatch, lang):
    at = _signed_in_dashboard(monkeypatch, lang)
    assert [e.value for e in at.error] == [t("storage.dashboard_busy", lang)]
    assert at.code[0].value.startswith("the progress database server has no connection slot left for the app: "
                                       f'too many connections for role "{full_url}". ')
    assert t("dashboard.store_error", lang) not in [w.value for w in at.warning]
