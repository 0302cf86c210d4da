"""A PostgreSQL server that stopped answering in the middle of a connection's handshake (a host gone, a server
stopped) and then came back: the pool connects again within CONNECT_TIMEOUT seconds (issue 13, storage kind: the
app recovers without a restart).

Before (break-it pass brk16ops): the pool's connection attempts had psycopg's default of 130 s. Its few connecting
threads waited on the silent handshakes that long, and every call failed ("the progress database is unreachable
(PoolTimeout)") for two minutes after the server was back: measured, still failing 91 s after. The server here sits
behind a TCP relay the test controls: "hang" takes connections and forwards nothing, "pass" forwards."""

import socket
import threading
import time

import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from tests.pg import fresh_schema
from toolcall.progress import StorageError
from toolcall import progress_pg
from toolcall.progress_pg import PostgresProgressStore

CONNECT_TIMEOUT = getattr(progress_pg, "CONNECT_TIMEOUT", 5)  # what the test allows, also run against older code

LEARNER = "swift-otter-0123456789"


class Relay:
    """127.0.0.1:``port`` in front of the unix socket ``path``; ``hang`` drops every byte either way and leaves new
    connections unanswered (a host gone), until set back to False."""

    def __init__(self, path: str):
        self.path, self.hang, self._sockets = path, False, []
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._sockets.append(client)
            if self.hang:
                continue  # never answered, never closed
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.path)
            self._sockets.append(server)
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if not self.hang:
                    b.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        for s in [self._listener, *self._sockets]:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


def _until_ok(call, seconds: float) -> tuple[str, float]:
    """Call ``call()`` until it works or ``seconds`` pass: ("ok" or the last StorageError, seconds taken)."""
    started = time.monotonic()
    last = ""
    while time.monotonic() - started < seconds:
        try:
            call()
            return "ok", time.monotonic() - started
        except StorageError as exc:
            last = str(exc)
        time.sleep(0.5)
    return last, time.monotonic() - started


@pytest.mark.parametrize("hung_for", [2.0, 8.0])  # shorter and longer than one connection attempt may take
def test_the_pool_connects_again_soon_after_a_server_that_hung_mid_handshake_is_back(hung_for):
    with fresh_schema() as url:
        params = conninfo_to_dict(url)
        relay = Relay(f"{params['host']}/.s.PGSQL.{params.get('port') or 5432}")
        store = PostgresProgressStore(make_conninfo(url, host="127.0.0.1", port=str(relay.port)), timeout=1.0,
                                      retry_after=0, deadline=1.0)
        try:
            store.record(LEARNER, "pk_pass3", "0.7", 1, 1)
            relay.hang = True
            with pytest.raises(StorageError):  # the pooled connection is cut at the deadline
                store.all(LEARNER)
            deadline = time.monotonic() + hung_for
            while time.monotonic() < deadline:  # the pool's attempts to connect again meet the silent server
                with pytest.raises(StorageError):
                    store.all(LEARNER)
                time.sleep(0.2)
            relay.hang = False
            result, took = _until_ok(lambda: store.record(LEARNER, "pk_pass3", "0.9", 1, 1), 30.0)
            assert result == "ok"
            assert took <= CONNECT_TIMEOUT + 3.0  # a hung attempt gives up, the next one connects
            assert store.get(LEARNER, "pk_pass3").tries == 2
        finally:
            store.close()
            relay.close()


def test_a_connect_timeout_in_the_url_is_the_operators():
    """The next member: the pool's attempts take the URL's own connect_timeout, CONNECT_TIMEOUT only without one."""
    store = PostgresProgressStore("postgresql://u@127.0.0.1:1/db?connect_timeout=17")
    try:
        assert store._pool.kwargs == {}
    finally:
        store.close()
    store = PostgresProgressStore("postgresql://u@127.0.0.1:1/db")
    try:
        assert store._pool.kwargs == {"connect_timeout": CONNECT_TIMEOUT}
    finally:
        store.close()
