"""A PostgreSQL server that stops answering makes a progress call fail within its deadline, never wait for ever
(issue 13, storage kind: the database going away mid-class; no user can slow the others).

Before: libpq has no client-side deadline. With the server's processes stopped (SIGSTOP: a hung host) each call
whose connection was handed out waited as long as the server was stopped (20 s measured, for ever on a network
that drops packets): the pool's own check of the connection (an empty query) waited too. A lock held elsewhere
(an operator's ``LOCK TABLE``) made every read wait for it. Now a watchdog cuts a transaction's connection past
PostgresProgressStore.deadline: a StorageError, the pool drops the connection, the next call after the outage
works. The sweep takes every public call of the store (reads and writes) under a held lock."""

import os
import signal
import threading
import time

import psycopg
import pytest

from tests.pg import fresh_schema
from tests.unit.test_storage_reads_under_a_write_lock import READS, read_all
from toolcall.progress import StorageError
from toolcall.progress_pg import PostgresProgressStore

LEARNER = "swift-otter-0123456789"
APP = f"toolcall_deadline_{os.getpid()}"
DEADLINE, POOL_TIMEOUT = 1.0, 1.0
#: Every write of the store, with arguments (the reads are the SQLite sweep's list, which is held to the class).
WRITES = {"record": (LEARNER, "pk_pass3", "0.5", 0, 1), "show_hint": (LEARNER, "pk_pass3", 3),
          "reveal": (LEARNER, "pk_pass3")}
CALLS = {**{name: (LEARNER, "pk_pass3") if args == ("alice", "pk_pass3") else
            (LEARNER,) if args == ("alice",) else args for name, args in READS.items()}, **WRITES}


@pytest.fixture
def store():
    with fresh_schema() as url:
        url += f"&application_name={APP}"  # its server processes, told from any other test's
        made = PostgresProgressStore(url, timeout=POOL_TIMEOUT, retry_after=0, deadline=DEADLINE)
        made.record(LEARNER, "pk_pass3", "0.7", 1, 1)
        yield made, url
        made.close()


def _timed(call) -> tuple[str, float]:
    """What ``call()`` gave (ok, or the StorageError's message) and the seconds it took, given 30 s at most."""
    out: list = []

    def run():
        started = time.monotonic()
        try:
            call()
            out.append(("ok", time.monotonic() - started))
        except StorageError as exc:
            out.append((str(exc), time.monotonic() - started))
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(30)
    assert out, "the call waits for ever"
    return out[0]


def test_a_stopped_server_process_costs_at_most_the_deadline(store):
    made, url = store
    with psycopg.connect(url.replace(APP, "toolcall_test_observer")) as observer:
        backends = [row[0] for row in observer.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (APP,)).fetchall()]
    assert backends  # every connection the pool holds: the next call gets one of them
    for pid in backends:
        os.kill(pid, signal.SIGSTOP)
    try:
        result, took = _timed(lambda: made.all(LEARNER))
    finally:
        for pid in backends:
            os.kill(pid, signal.SIGCONT)
    assert took < DEADLINE + POOL_TIMEOUT + 1.0
    assert result in ("ok", "the progress database is unreachable (PoolTimeout)")
    assert made.get(LEARNER, "pk_pass3").best_score == 1.0


@pytest.mark.parametrize("method", sorted(CALLS))
def test_every_call_under_a_lock_held_elsewhere_fails_within_the_deadline(store, method):
    made, url = store
    with psycopg.connect(url) as other:
        other.execute("LOCK TABLE progress, attempts, schema_version IN ACCESS EXCLUSIVE MODE")
        result, took = _timed(lambda: read_all(getattr(made, method)(*CALLS[method])))
        other.rollback()
    assert (result, took < DEADLINE + 1.0) == (f"the progress database did not answer within {DEADLINE:g} s "
                                               "(retrying shortly)", True)
    assert made.get(LEARNER, "pk_pass3").best_score == 1.0  # and it works again once the lock is gone


def test_a_quick_call_is_not_cut(store):
    made, _ = store
    time.sleep(DEADLINE + 0.6)  # the watchdog has looked at least once since the fixture's call
    for _ in range(20):
        assert made.get(LEARNER, "pk_pass3").tries == 1
