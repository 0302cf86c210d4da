"""An export reads the progress database and never writes it (pass fix19left): `python -m toolcall export` with a
0-byte progress.sqlite3 wrote an empty class and left a 32 768-byte database with the app's tables in its place;
the dashboard, after the file was emptied under the running app, showed and downloaded an empty class the same way.
A 0-byte file, a file that is not SQLite and a database of an earlier release are named; a sound one is read
without a byte of it or beside it changed."""

from __future__ import annotations

import hashlib
import os
import sqlite3

import pytest

from tests.pg import fresh_schema
from tests.unit.test_dashboard_export_stream import _cli
from toolcall.dashboard import ClassData, export_bytes, write_export_csv, write_export_json
from toolcall.progress import DB_NAME, ProgressStore, StorageError, open_store

LEARNER = "gentle-panda-4d6ac621e8"


def _folder_state(folder) -> dict[str, str]:
    """Each file in ``folder`` by name: its bytes' digest and its modification time."""
    return {p.name: f"{hashlib.sha256(p.read_bytes()).hexdigest()} {p.stat().st_mtime_ns}"
            for p in sorted(folder.iterdir())}


def _not_written(out, reason: str) -> str:
    return f"{out}: not written ({reason}); exit code 2\n"


@pytest.mark.parametrize("name", ["class-progress.csv", "class-progress.json"])
def test_an_empty_file_is_named_and_left_empty(tmp_path, monkeypatch, capsys, name):
    data, out = tmp_path / "data", tmp_path / name
    data.mkdir()
    (data / DB_NAME).write_bytes(b"")
    assert _cli(monkeypatch, capsys, data, "export", str(out)) == (2, "", _not_written(
        out, f"{data / DB_NAME} is an empty file (0 bytes), not a progress database: there is no class progress in "
             f"it to read; if the app's database was there, it was cut short (restore it from a backup)"))
    assert [(p.name, p.stat().st_size) for p in data.iterdir()] == [(DB_NAME, 0)]
    assert list(tmp_path.iterdir()) == [data]


def test_a_file_that_is_not_sqlite_is_named_as_such(tmp_path, monkeypatch, capsys):
    data, out = tmp_path / "data", tmp_path / "class-progress.csv"
    data.mkdir()
    (data / DB_NAME).write_bytes(b"learner,score\nx,1\n")
    before = _folder_state(data)
    assert _cli(monkeypatch, capsys, data, "export", str(out)) == (2, "", _not_written(
        out, f"{data / DB_NAME} is not a SQLite database (its first bytes are not SQLite's): it holds no class "
             f"progress to read; move it away (TOOLCALL_DATA_DIR, default <repo>/data)"))
    assert _folder_state(data) == before
    assert not out.exists()


def test_a_database_of_an_earlier_release_is_named_not_upgraded(tmp_path, monkeypatch, capsys):
    data, out = tmp_path / "data", tmp_path / "class-progress.csv"
    data.mkdir()
    with sqlite3.connect(data / DB_NAME) as db:  # the first release's table, no schema_version
        db.execute("CREATE TABLE progress (learner TEXT NOT NULL, exercise_id TEXT NOT NULL, first_at TEXT NOT NULL,"
                   " updated_at TEXT NOT NULL, PRIMARY KEY (learner, exercise_id))")
    db.close()
    before = _folder_state(data)
    assert _cli(monkeypatch, capsys, data, "export", str(out)) == (2, "", _not_written(
        out, f"{data / DB_NAME} was written by an earlier release (schema version 0, this one reads 2): start the "
             f"app once, which upgrades it, then export again"))
    assert _folder_state(data) == before


@pytest.mark.parametrize("name", ["class-progress.csv", "class-progress.json"])
def test_a_sound_database_is_read_without_a_byte_changed(tmp_path, monkeypatch, capsys, name):
    """No -wal or -shm is made beside a database no process has open (SQLite's mode=ro made both, owned by
    whoever ran the export), and the database's bytes stay as they were."""
    data, out = tmp_path / "data", tmp_path / name
    store = ProgressStore(data)
    store.record(LEARNER, "pk_pass3", "0.7", 1.0, 1.0)
    store.close()
    before = _folder_state(data)
    assert list(before) == [DB_NAME]
    code, printed, err = _cli(monkeypatch, capsys, data, "export", str(out))
    assert (code, err, printed) == (0, "", f"{out}: written ({out.stat().st_size:,} bytes)\n")
    assert LEARNER in out.read_text("utf-8")
    assert _folder_state(data) == before


def test_the_dashboard_names_a_database_emptied_under_it(tmp_path):
    """The running app's store, its file replaced by an empty one: the dashboard's reads and both downloads name
    it (a StorageError the page shows as a setup problem) and leave it empty."""
    store = ProgressStore(tmp_path)
    try:
        store.record(LEARNER, "pk_pass3", "0.7", 1.0, 1.0)
        for companion in ("-wal", "-shm"):
            (tmp_path / (DB_NAME + companion)).unlink(missing_ok=True)
        os.unlink(tmp_path / DB_NAME)
        (tmp_path / DB_NAME).write_bytes(b"")
        expected = (f"{tmp_path / DB_NAME} is an empty file (0 bytes), not a progress database: there is no class "
                    f"progress in it to read; if the app's database was there, it was cut short (restore it from a "
                    f"backup)")
        for read in (lambda: ClassData.load(store), lambda: export_bytes(write_export_csv, store),
                     lambda: export_bytes(write_export_json, store, {})):
            with pytest.raises(StorageError) as caught:
                read()
            assert (str(caught.value), caught.value.setup) == (expected, True)
        assert [(p.name, p.stat().st_size) for p in tmp_path.iterdir()] == [(DB_NAME, 0)]
    finally:
        store.close()


def test_an_export_of_an_empty_postgresql_database_makes_no_tables():
    with fresh_schema() as url:
        store = open_store(url, export=True)
        try:
            with pytest.raises(StorageError) as caught:
                store.class_counts("")
            assert (str(caught.value), caught.value.setup) == (
                "the PostgreSQL progress database (TOOLCALL_DATABASE_URL) holds no progress tables yet (the app makes "
                "them when it starts)", True)
            with store._raw_tx() as execute:
                assert execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
                               ()).fetchone()[0] == 0
        finally:
            store.close()
