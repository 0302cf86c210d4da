"""A PostgreSQL server that answers but will not let the app write is named as a setup error, and a read-only one
still shows the progress it holds.

TOOLCALL_DATABASE_URL at a standby (or a user with default_transaction_read_only on): every read failed too (the
migration's first CREATE TABLE IF NOT EXISTS is refused in a read-only transaction even when the table exists),
and every failure read "the progress database failed (ReadOnlySqlTransaction)", which pages show students as
"cannot be reached", the same as a user without rights or a search_path naming no schema.
"""

import secrets
from urllib.parse import quote

import psycopg
import pytest

from tests.pg import fresh_schema, server_url, with_search_path
from toolcall.progress import StorageError, open_store
from toolcall.progress_pg import DISK_FULL, SETUP_ERRORS, server_failure

def _read_only(url: str) -> str:
    """``url`` (a fresh_schema one, with its own options) with read-only transactions as well."""
    return url.replace("options=", "options=" + quote("-c default_transaction_read_only=on ", safe=""), 1)


def test_a_read_only_server_shows_the_progress_it_holds_and_a_save_is_a_setup_error():
    """The example."""
    with fresh_schema() as url:
        writable = open_store(url)
        writable.record("alice", "pk_pass3", "1", 1, 1)
        writable.close()
        store = open_store(_read_only(url))
        try:
            assert list(store.all("alice")) == ["pk_pass3"] and store.get("alice", "pk_pass3").tries == 1
            with pytest.raises(StorageError) as caught:
                store.record("alice", "pk_pass3", "2", 0, 1)
            assert (str(caught.value), caught.value.setup) == (SETUP_ERRORS["25006"], True)
        finally:
            store.close()


@pytest.fixture
def no_rights_user():
    """A login role with no right on anything the app needs; dropped afterwards."""
    url, name = server_url(), "r_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE ROLE {name} LOGIN")
    try:
        yield name
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP OWNED BY {name}")
            db.execute(f"DROP ROLE {name}")


def _urls(user: str):
    """(SQLSTATE, URL) of each server refusal waiting will not fix: read-only, no right to create tables, a
    search_path with no schema there (one the user may not use counts as none: 3F000 too)."""
    with fresh_schema() as url:
        yield "25006", _read_only(url)  # nothing to show yet: the schema must be made, and cannot be
        scheme, rest = url.split("://", 1)
        with psycopg.connect(url, autocommit=True) as db:  # it may look in the schema, not create in it
            db.execute(f"GRANT USAGE ON SCHEMA {url.rsplit('%3D', 1)[1]} TO {user}")
        yield "42501", f"{scheme}://{user}@{rest.split('@', 1)[1]}"
        yield "3F000", with_search_path(server_url(), "no_such_schema_" + secrets.token_hex(4))


def test_every_refusal_that_waiting_will_not_fix_is_a_setup_error_naming_it(no_rights_user):
    """The sweep: each SQLSTATE of SETUP_ERRORS, produced by a real server, reads and writes alike."""
    seen = []
    for state, url in _urls(no_rights_user):
        store = open_store(url)
        try:
            for call, args in ((store.all, ("alice",)), (store.record, ("alice", "pk_pass3", "1", 1, 1))):
                with pytest.raises(StorageError) as caught:
                    call(*args)
                assert (str(caught.value), caught.value.setup) == (SETUP_ERRORS[state], True), state
        finally:
            store.close()
        seen.append(state)
    assert seen == list(SETUP_ERRORS)


def test_a_full_disk_on_the_server_is_named_and_may_pass():
    assert (str(server_failure(psycopg.errors.DiskFull("could not extend file"))),
            server_failure(psycopg.errors.DiskFull("x")).setup, server_failure(psycopg.errors.DiskFull("x")).full) \
        == (DISK_FULL, False, True)
    assert str(server_failure(psycopg.errors.DeadlockDetected("x"))) == \
        "the progress database failed (DeadlockDetected)"


@pytest.mark.parametrize("sql, problem", [
    ("CREATE TABLE schema_version (version TEXT NOT NULL); INSERT INTO schema_version VALUES ('two')",
     "is not a progress database of this app: its schema_version table holds 'two', not a version number"),
    ("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (7)",
     "was written by a newer version of this app (schema version 7; this one knows up to 2)"),
])
def test_a_schema_version_of_another_program_is_a_setup_error_and_left_as_it_is(sql, problem):
    """A text schema_version raised TypeError ('>=' not supported between 'str' and 'int') out of open_store; a
    newer one failed every read (no progress table) as "the progress database failed (UndefinedTable)"."""
    with fresh_schema() as url:
        with psycopg.connect(url, autocommit=True) as db:
            for statement in sql.split("; "):
                db.execute(statement)
        with pytest.raises(StorageError) as refused:
            open_store(url)
        assert (str(refused.value), refused.value.setup) == (
            f"the PostgreSQL progress database (TOOLCALL_DATABASE_URL) {problem}; it is left as it is; "
            + ("update the app, or " if "newer" in problem else "") + "point TOOLCALL_DATABASE_URL at another database",
            True)
        with psycopg.connect(url) as db:
            assert db.execute("SELECT to_regclass('progress') IS NULL").fetchone() == (True,)
            assert len(db.execute("SELECT * FROM schema_version").fetchall()) == 1
