"""A PostgreSQL server with no connection slot left for the app (issue 13, kinds: a class that survives a crash; clear
messages naming the actual problem; break-it pass brk14ops).

Before: each Streamlit process's pool grew on demand to 10 connections, whatever the server allowed. Under load the
processes of a class took every slot the server (max_connections) or the app's user (CONNECTION LIMIT) had, and a
process the launcher started again after a crash got none: every call it made failed ("the progress database is
unreachable (PoolTimeout)", 5 calls out of 5 with a CONNECTION LIMIT of 6 and two processes) until its siblings'
idle connections were closed. The launcher's probe of such a server said "Start the server, or fix the host and
port", of a server that was running. Now the launcher reads the room the server leaves the app and gives each
process an equal share (TOOLCALL_DATABASE_POOL), or refuses to start with fewer slots than processes; a refusal for
want of a slot is named, to the launcher, the dashboard and the students (``busy``)."""

import logging
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tests import pg
from toolcall.progress import StorageError, open_store
from toolcall.progress_pg import (POOL_SETTING, POOL_SIZE, PostgresProgressStore, capacity_problem, connection_room,
                                  pool_size, reach, refusal_problem)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy"))
import serve_class  # noqa: E402

#: The server's words for each limit (PostgreSQL 15 and 16 spell the reserved slots differently).
REFUSALS = [
    "sorry, too many clients already",
    "remaining connection slots are reserved for non-replication superuser connections",
    'remaining connection slots are reserved for roles with the SUPERUSER attribute',
    'too many connections for role "klass"',
    'too many connections for database "toolcall_test"',
]


def _libpq(words: str) -> str:
    return f'connection failed: connection to server on socket "/tmp/pg/.s.PGSQL.5432" failed: FATAL:  {words}'


@pytest.mark.parametrize("words", REFUSALS)
def test_each_refusal_for_want_of_a_slot_is_named_as_such_and_not_as_a_setup_error(words):
    assert capacity_problem(_libpq(words)) == (
        f"the progress database server has no connection slot left for the app: {words}. Progress is saved again "
        "once connections are freed; to make room, raise the server's max_connections (or the CONNECTION LIMIT of "
        "the database or user), or serve the class from fewer processes")
    assert refusal_problem(_libpq(words)) is None  # it passes once slots are freed: not a setting to fix


@pytest.mark.parametrize("message", [_libpq('role "klass" does not exist'), _libpq("the database system is starting up"),
                                     "connection refused", ""])
def test_other_failures_are_not_called_full(message):
    assert capacity_problem(message) is None


@pytest.mark.parametrize("value, size", [("3", 3), (" 3 ", 3), ("1", 1), (str(POOL_SIZE), POOL_SIZE), ("", POOL_SIZE),
                                         ("  ", POOL_SIZE)])
def test_the_pool_setting_is_a_whole_number_from_one_to_the_default(value, size):
    assert pool_size(value) == size


@pytest.mark.parametrize("value, shown", [("0", "0"), (str(POOL_SIZE + 1), str(POOL_SIZE + 1)), ("abc", "abc"),
                                          ("３", "３"), ("-2", "-2"), ("1O", "1O"), ("2.5", "2.5"),
                                          ("postgresql://class@/db", "postgresql://class@/db"),
                                          ("4\u200b", "4\\u200b"), ("9" * 50, "9" * 40 + "…")])
def test_a_pool_setting_that_is_not_one_is_named_not_read_as_the_default(value, shown):
    """Session 14: every value but a whole number from 1 to POOL_SIZE was read as POOL_SIZE without a word (a
    typo "1O" meant ten connections a process). Each is a setup error naming the setting and the value; open_store
    passes it on, so the pages say the store is set up wrongly."""
    with pytest.raises(ValueError) as caught:
        pool_size(value)
    assert str(caught.value) == (f'TOOLCALL_DATABASE_POOL is "{shown}": it must be a whole number from 1 to '
                                 f"{POOL_SIZE} (the most connections one process opens to PostgreSQL; the class "
                                 "launcher sets it), or be unset")


def test_open_store_says_a_bad_pool_setting_before_it_connects(monkeypatch):
    from toolcall.progress import open_store

    monkeypatch.setenv("TOOLCALL_DATABASE_POOL", "ten")
    with pytest.raises(ValueError, match='^TOOLCALL_DATABASE_POOL is "ten": '):
        open_store("postgresql://nobody@127.0.0.1:1/none")


@pytest.mark.parametrize("processes", range(1, 17))
@pytest.mark.parametrize("room", [0, 1, 2, 3, 5, 6, 7, 15, 16, 17, 39, 40, 97, 159, 160, 161, 1000, None])
def test_the_plan_never_gives_the_processes_more_than_the_room_nor_a_process_none(processes, room):
    """The next member of the kind: whatever the room and the processes, the pools fit in it, each with one or more
    connections, or the class does not start."""
    problem, share = serve_class.pool_plan(room, processes)
    if room is None or room >= POOL_SIZE * processes:
        assert (problem, share) == (None, None)  # each pool's default fits (or the server does not say)
    elif room < processes:
        assert share is None and problem.startswith(f"the progress database server lets the app open {room} more ")
        assert f"fewer than the {processes} processes need (one each)" in problem
    else:
        assert problem is None and 1 <= share < POOL_SIZE and share * processes <= room < (share + 1) * processes


@pytest.fixture
def klass():
    """A user of the test server with CONNECTION LIMIT 6, and its URL; its connections are closed afterwards."""
    url = pg.server_url()
    name = f"klass_{time.monotonic_ns() % 10**8}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE ROLE {name} LOGIN CONNECTION LIMIT 6")
        db.execute(f"GRANT ALL ON DATABASE {db.info.dbname} TO {name}")
        db.execute(f"GRANT ALL ON SCHEMA public TO {name}")
        db.execute(f"CREATE SCHEMA {name} AUTHORIZATION {name}")
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)  # the refused connects are expected here
    try:
        yield name, pg.with_search_path(url.replace("postgresql://postgres@", f"postgresql://{name}@"), name)
    finally:
        logging.getLogger("psycopg.pool").setLevel(logging.NOTSET)
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (name,))
            db.execute(f"DROP SCHEMA {name} CASCADE")
            db.execute(f"REVOKE ALL ON DATABASE {db.info.dbname} FROM {name}")
            db.execute(f"REVOKE ALL ON SCHEMA public FROM {name}")
            db.execute(f"DROP ROLE {name}")


def _settled(name: str, connections: int) -> None:
    """Wait (at most 10 s) until the server lists ``connections`` client connections of user ``name``: a closed
    connection's server process leaves pg_stat_activity a moment after the client has gone."""
    with psycopg.connect(pg.server_url(), autocommit=True) as db:
        for _ in range(100):
            if db.execute("SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND backend_type = "
                          "'client backend'", (name,)).fetchone()[0] == connections:
                return
            time.sleep(0.1)


def test_the_room_is_the_users_connection_limit_less_its_open_connections(klass):
    name, url = klass
    assert reach(url) == (None, 6)
    held = [psycopg.connect(url) for _ in range(2)]
    try:
        _settled(name, 2)
        assert reach(url) == (None, 4)
        _settled(name, 2)
        with psycopg.connect(url) as conn:
            assert connection_room(conn) == 4  # the asking connection counts as free (it closes before the class)
    finally:
        for conn in held:
            conn.close()


def test_a_full_server_is_named_to_the_launcher_and_by_the_store_until_a_slot_is_freed(klass):
    name, url = klass
    held = [psycopg.connect(url) for _ in range(6)]
    store = None
    try:
        words = f'too many connections for role "{name}"'
        said = capacity_problem(_libpq(words))
        assert reach(url) == (said, 0)  # not "Start the server, or fix the host and port"
        store = PostgresProgressStore(url, timeout=1.0, retry_after=0)
        with pytest.raises(StorageError) as caught:
            store.all("swift-otter-0123456789")
        assert (str(caught.value), caught.value.busy, caught.value.setup) == (said, True, False)
        held.pop().close()
        time.sleep(0.2)
        assert store.all("swift-otter-0123456789") == {}  # a slot is free: it connects, no restart
    finally:
        for conn in held:
            conn.close()
        if store is not None:
            store.close()


def _load(store: PostgresProgressStore, learners: range, seconds: float) -> None:
    """Save answers from one thread per learner for ``seconds``: the pool grows as far as it may."""
    def work(i: int) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            store.record(f"swift-otter-{i:010d}", "pk_pass3", "0.5", 0, 1)
    threads = [threading.Thread(target=work, args=(i,)) for i in learners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_a_process_started_again_after_a_crash_finds_its_share_of_the_slots(klass, monkeypatch):
    """Two processes of a class, the server leaving the app 6 connections: the launcher gives each 3. One serves
    a busy class (its pool grows as far as it may), the other is the one the supervisor started again: every one of
    its calls is served, none refused."""
    name, url = klass
    problem, share = serve_class.pool_plan(reach(url)[1], 2)
    assert (problem, share) == (None, 3)
    monkeypatch.setenv(POOL_SETTING, serve_class.child_env(url, None, share)[POOL_SETTING])
    busy = open_store(url)
    try:
        _load(busy, range(10), 2.0)
        again = open_store(url)
        try:
            outcomes = []
            for _ in range(5):
                try:
                    again.all("swift-otter-0000000001")
                    outcomes.append("ok")
                except StorageError as exc:
                    outcomes.append(str(exc))
            assert outcomes == ["ok"] * 5
        finally:
            again.close()
    finally:
        busy.close()


def test_the_launcher_gives_each_process_its_share_or_refuses_to_start(klass, monkeypatch, capsys):
    name, url = klass
    _settled(name, 0)
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.secrets_database_url", lambda: "")
    started = []
    monkeypatch.setattr("serve_class._serve", lambda args, *rest: started.append(
        serve_class.child_env(args.database_url, None, args.pool).get(POOL_SETTING)) or 0)
    monkeypatch.setenv(POOL_SETTING, "9")  # the operator's own is not passed on
    assert serve_class.main(["--processes", "4", "--database-url", url]) == 0
    assert started == ["1"]
    assert capsys.readouterr().err.split("] ", 1)[1] == (
        "progress database: the server lets the app open 6 more connections, so each of the 4 processes keeps at most "
        f"1 (not {POOL_SIZE}; {POOL_SETTING}=1); raise the server's max_connections to give them more\n")
    _settled(name, 0)
    assert serve_class.main(["--processes", "7", "--database-url", url]) == 2
    assert started == ["1"]
    assert capsys.readouterr().err == (
        "progress storage: the progress database server lets the app open 6 more connections now, fewer than the 7 "
        "processes need (one each). Raise the server's max_connections (or the CONNECTION LIMIT of the database or "
        "user), close other programs' connections, or serve the class from fewer processes (--processes 6)\n")
    assert serve_class.child_env(url, None, None).get(POOL_SETTING) is None
