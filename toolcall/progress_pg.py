"""Learners' progress in PostgreSQL, for a class served by several app hosts.

Selected by ``TOOLCALL_DATABASE_URL=postgresql://…`` (see toolcall.progress.open_store).
The SQL is toolcall.progress.SqlProgressStore's, shared with SQLite; this module adds the
connection pool (psycopg 3 + psycopg_pool) and the PostgreSQL spellings. Every answer is
one transaction whose counters are updated in place (``tries = tries + 1`` under the row
lock an UPDATE takes), so two hosts saving one learner's answers at once both count.

psycopg 3 pool: https://www.psycopg.org/psycopg3/docs/advanced/pool.html
Advisory locks: https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from contextlib import contextmanager
from collections.abc import Iterator

import psycopg
import psycopg_pool
from psycopg.conninfo import conninfo_to_dict

from toolcall.progress import OUR_TABLES, NotOurs, SCHEMA_VERSION, SqlProgressStore, StorageError

#: Errors the server answers that waiting will not fix (SQLSTATE -> what the operator must change); they were
#: all "the progress database failed (…)", which pages show students as "cannot be reached".
SETUP_ERRORS = {
    "25006": "the progress database is read-only (a standby server, or default_transaction_read_only is on for "
             "its database or user): progress is shown, not saved; point TOOLCALL_DATABASE_URL at the primary "
             "server, or make it writable",
    "42501": "the progress database user may not create or write the app's tables (permission denied): grant it "
             "those rights, or name another user in TOOLCALL_DATABASE_URL",
    "3F000": "no schema the progress database user may create tables in (its search_path names none that "
             "exists, or none it may use): create one, grant the user its use, or fix TOOLCALL_DATABASE_URL",
}
#: The server's disk is full (SQLSTATE 53100): it passes once space is freed, so not a setup error.
DISK_FULL = "the progress database server's disk is full: progress is shown, not saved, until space is freed there"


def server_failure(exc: psycopg.Error) -> StorageError:
    """The StorageError for an error the server answered: SETUP_ERRORS (``setup``), a full disk, else its type."""
    state = getattr(exc, "sqlstate", None) or ""
    if state in SETUP_ERRORS:
        return StorageError(SETUP_ERRORS[state], setup=True)
    if state == "53100":
        return StorageError(DISK_FULL, full=True)
    return StorageError(f"the progress database failed ({type(exc).__name__})")

def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a libpq connection URI (``postgresql://user:pass@host:5432/db``), or None.

    Checked before any pool exists: a malformed URL (an unclosed ``[`` of an IPv6 host, a bad ``%``-escape, an
    unknown query parameter, a port that is not a number) used to open a pool that retried it for ever, each
    try logging libpq's reason, which for an unclosed bracket quotes the whole URL, password included. The
    reason returned never repeats the URL. Parsing: libpq's ``PQconninfoParse`` via psycopg's
    ``conninfo_to_dict`` (https://www.psycopg.org/psycopg3/docs/api/conninfo.html); a port list is
    comma-separated (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS).
    A shell variable no shell expanded (:func:`unexpanded_variable`) is named first."""
    if (ref := unexpanded_variable(url)) is not None:
        return (f"the progress database URL holds {ref}, a variable no shell expanded (an env file, a systemd "
                "Environment= line or secrets.toml passes it as written): write its value into the URL")
    if (char := unescaped_in_userinfo(url)) is not None:
        where = "a second @" if char == "@" else "a / before its @"
        return (f"the progress database URL holds {where}, as written: a user name or password holding @ or / must "
                "write them %-escaped, @ as %40 and / as %2F (p@ss/word is p%40ss%2Fword), else libpq reads part of "
                "the password as the host, the port or the database name; the URL is not repeated here because it "
                "may hold a password")
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error:
        return ("the progress database URL cannot be read as a postgresql:// URI (check the [ ] around an IPv6 "
                "host, %-escapes and the query parameters); it is not repeated here because it may hold a password")
    ports = str(params.get("port", "")).split(",")
    if not all(p == "" or (p.isdigit() and 0 < int(p) < 65536) for p in ports):
        return "the progress database URL's port must be a number from 1 to 65535"
    if (why := host_problem(str(params.get("host", "")))) is not None:
        return why
    return option_problem(params)


def host_problem(hosts: str) -> str | None:
    """Why one of ``hosts`` (libpq's comma-separated ``host``) can be no host name the resolver is asked for, or None:
    an empty label (``db..example``), a label over 63 characters, an invisible or bidirectional character
    (``db\u202eexample``). psycopg resolves each name itself (getaddrinfo, IDNA), and its UnicodeError ended the
    launcher with a traceback, and every page's connection with it (break-it pass brk19ops). A folder (``/run/…``,
    a Unix socket) is no name. The host is shown escaped (a host name holds no password)."""
    from toolcall.text import escape_line

    for host in hosts.split(","):
        if not host or host.startswith("/") or host.startswith("@"):  # none given, a socket folder, abstract socket
            continue
        try:
            host.encode("idna")
        except UnicodeError as exc:
            why = str(exc.__cause__ or exc) if "codec failed" in str(exc) else str(exc)
            why = why.replace("label empty or too long", "a part between dots is empty or longer than 63 characters")
            return (f"the progress database URL's host {escape_line(host)} is no host name ({escape_line(why)}): "
                    "check it")
    return None


def unescaped_in_userinfo(url: str) -> str | None:
    """``"@"`` or ``"/"`` when ``url`` (``postgresql://user:password@host/db``) holds one in its user name or password
    as written, not %-escaped; else None. Read from the text before the query: a second ``@`` (libpq takes the
    first as the end of the password), or a ``/`` before the last ``@`` (libpq takes the first ``/`` as the end of
    the host). ``postgresql://u:p@ss@localhost/db`` was refused as "cannot connect to the progress database server
    at ss@localhost", ``postgresql://u:p/ss@localhost/db`` as "… at u port p": each named a host that was a piece
    of the password, and showed it (break-it pass brk16cli). A database name holding a raw ``@`` is left alone, with
    a user name and password before it too: ``postgresql://u:pw@h/my@db`` (which libpq reads as database my@db)
    was refused as "holds a second @", blaming a password that holds none (break-it pass brk17new)."""
    rest = url.split("://", 1)[1] if "://" in url else url
    before_query = rest.split("?", 1)[0]
    authority, _, path = before_query.partition("/")  # libpq: user info and hosts end at the first /
    if authority.count("@") > 1:
        return "@"
    at = path.find("@")
    if at < 0:
        return None
    if "/" in path[at + 1:]:  # "@host/db" after a /: the / was in the password (and an @ before it, if two)
        return "@" if before_query.count("@") > 1 else "/"
    if "@" in authority:  # the user info ended before the host: the database name holds the @
        return None
    # postgresql://localhost/my@db reads right; only a "port" that is no number (u:hun/ter2@h) says it was a password
    port = authority.rsplit(":", 1)[1] if ":" in authority and not authority.endswith("]") else ""
    return "/" if port and not port.isdigit() else None


#: ``${NAME}`` anywhere (RFC 3986 allows no ``{`` or ``}`` in a URI, so no URL holds one), or ``$NAME`` in upper case.
_VARIABLE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$([A-Z_][A-Z0-9_]*)")


def unexpanded_variable(url: str) -> str | None:
    """The shell variable ``url`` holds as written, or None: ``${PGPASSWORD}`` always; ``$PGPASSWORD`` when this
    environment has a variable of that name (a password may hold ``$`` and capitals, but hardly the name of a
    variable that is set). In ``postgresql://teacher:${PGPASSWORD}@db/class`` from an env file, the password sent
    was the eleven characters ``${PGPASSWORD}``, and the server's "password authentication failed" sent the
    operator to check a password that was right (break-it pass brk13text)."""
    for match in _VARIABLE.finditer(url):
        if match.group(1) is None or match.group(1) in os.environ:
            return match.group()
    return None


#: A unix-socket folder that does not exist: where option_problem points libpq, so it connects nowhere.
_NOWHERE = "/nonexistent-toolcall-option-check"


def option_problem(params: dict) -> str | None:
    """libpq's own refusal of a connection parameter's value, or None. ``sslmode=bogus``,
    ``target_session_attrs=nope``, an unknown ``service``, ``connect_timeout=abc``… pass the URI parser and
    are refused only when connecting: the pool then retried for ever and every page said the database could
    not be reached, which waiting never fixes. libpq checks every option before it connects
    (``PQconnectStart``), so with the hosts replaced by a socket folder that does not exist (``hostaddr``
    left out: it would connect over TCP) nothing reaches the network: a message that is not the failure to
    reach that folder is the refusal. A message quoting the password is not repeated."""
    from psycopg import pq
    from psycopg.conninfo import make_conninfo, timeout_from_conninfo

    try:
        timeout_from_conninfo(params)  # how the pool reads connect_timeout
    except (psycopg.Error, ValueError) as exc:
        return f"the progress database URL: {exc}"
    hosts = str(params.get("host", "")).split(",")
    probe = {k: v for k, v in params.items() if k not in ("host", "hostaddr", "port")}
    conn = pq.PGconn.connect_start(make_conninfo(**probe, host=",".join([_NOWHERE] * len(hosts))).encode())
    try:
        message = conn.error_message.decode("utf-8", "replace").strip().splitlines()
    finally:
        conn.finish()
    if not message or _NOWHERE in message[0] or "local socket" in message[0]:
        return None  # every option read; the failure is the socket folder's (gssencmode=require: not over one)
    password = str(params.get("password") or "")
    if password and password in message[0]:
        return "libpq refuses a parameter of the progress database URL (its message quotes the password)"
    return f"the progress database URL: libpq refuses it: {message[0]}"


#: The server's refusals that waiting will not fix (libpq puts them after ``FATAL:``; PostgreSQL's
#: messages, https://www.postgresql.org/docs/current/client-authentication-problems.html): a database or
#: role that does not exist, a wrong password, no pg_hba.conf line for this client, a role that may not log
#: in or connect. "Too many connections", "starting up" and "shutting down" pass: they are outages.
_SETUP_REFUSALS = re.compile(
    r'database ".*" does not exist|role ".*" does not exist|password authentication failed'
    r"|authentication failed for user|no pg_hba\.conf entry|is not permitted to log in"
    r"|permission denied for database|no password supplied|password is required"
)
#: Longest server reason repeated on the dashboard.
_REASON_CHARS = 200

#: The server's refusals for want of a connection slot (SQLSTATE 53300, too_many_connections; libpq gives no
#: SQLSTATE for a failed connect, so its words: PostgreSQL's src/backend/utils/init/postinit.c and
#: storage/lmgr/proc.c): the server's max_connections, the slots it keeps for superusers, or a role's or a
#: database's CONNECTION LIMIT. It passes when connections are freed, so it is no setup error, but it is no
#: outage either: the server answers, and says it is full.
_CAPACITY_REFUSALS = re.compile(
    r"too many clients already|remaining connection slots are reserved|too many connections for (role|database)"
)


def _server_line(message: str) -> str:
    """The server's own reason in libpq's connection-failure ``message``: the first line after ``FATAL:``."""
    fatal = message.rsplit("FATAL:", 1)[-1].strip() if "FATAL:" in message else message.strip()
    return fatal.splitlines()[0] if fatal else ""


def _shown(fatal: str, password: str = "") -> str:
    """``fatal`` (_server_line) as a message repeats it: never ``password``, control characters as ``\\uXXXX``,
    at most _REASON_CHARS characters."""
    if password and password in fatal:
        fatal = fatal.replace(password, "…")
    fatal = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in fatal)
    return fatal[: _REASON_CHARS - 1] + "…" if len(fatal) > _REASON_CHARS else fatal


def capacity_problem(message: str, password: str = "") -> str | None:
    """What to tell the instructor when libpq's connection-failure ``message`` is the server refusing for want of
    a connection slot (_CAPACITY_REFUSALS), or None. It read "the progress database is unreachable (PoolTimeout)"
    on the pages and, from the class launcher, "Start the server, or fix the host and port", of a server that was
    running and full (break-it pass brk14ops). The reason is the server's own words (_server_line, _shown)."""
    fatal = _server_line(message)
    if not _CAPACITY_REFUSALS.search(fatal):
        return None
    return (f"the progress database server has no connection slot left for the app: {_shown(fatal, password)}. "
            "Progress is saved again once connections are freed; to make room, raise the server's max_connections "
            "(or the CONNECTION LIMIT of the database or user), or serve the class from fewer processes")


def refusal_problem(message: str, password: str = "") -> str | None:
    """The setup problem in libpq's connection-failure ``message`` (the text of a
    ``psycopg.OperationalError``), or None when it reads as an outage (server down, not reachable,
    too many connections), which waiting may fix.

    The reason returned is the server's own words after ``FATAL:`` (e.g. ``database "x" does not
    exist``), at most _REASON_CHARS characters with control characters shown as ``\\uXXXX``,
    never the URL or ``password``; libpq's wording is English unless the server's ``lc_messages``
    says otherwise, and a translated refusal reads as an outage."""
    fatal = _server_line(message)
    if not _SETUP_REFUSALS.search(fatal):
        return None
    return (f"the progress database server refuses the connection: {_shown(fatal, password)}. Waiting will not "
            "fix this: fix the progress database URL (its database, user or password) or the server's set-up")


#: Seconds the launcher's probe of the progress database waits for a connection (unless the URL's connect_timeout
#: says otherwise).
PROBE_TIMEOUT = 10

#: Connections one process's pool may hold at most (PostgresProgressStore's ``max_size``), unless POOL_SETTING
#: says fewer.
POOL_SIZE = 10
#: The environment variable the class launcher sets for its processes when the server has no room for POOL_SIZE
#: connections each (pool_size reads it): a whole number from 1 to POOL_SIZE.
POOL_SETTING = "TOOLCALL_DATABASE_POOL"


def pool_size(value: str | None = None) -> int:
    """The most connections this process's pool may hold: ``value`` (default: the environment's POOL_SETTING), a
    whole number from 1 to POOL_SIZE with spaces at either end allowed; POOL_SIZE when it is empty or unset.
    Raises ValueError naming the setting and the value (escaped, cut) for anything else: a typo ("1O", "３", "20")
    was read as POOL_SIZE without a word, so a process opened ten connections where one was asked for."""
    text = (os.environ.get(POOL_SETTING, "") if value is None else value).strip()
    if not text:
        return POOL_SIZE
    if text.isascii() and text.isdigit() and 1 <= int(text) <= POOL_SIZE:
        return int(text)
    from toolcall.text import escape_line, escaped_head

    shown = escaped_head(text, 40, escape_line)
    raise ValueError(f"{POOL_SETTING} is \"{shown}\": it must be a whole number from 1 to {POOL_SIZE} (the most "
                     f"connections one process opens to PostgreSQL; the class launcher sets it), or be unset")


#: The connection slots a user may still open in the connected database: the server's max_connections less the
#: slots it keeps for superusers (superuser_reserved_connections; reserved_connections from PostgreSQL 16, for
#: the pg_use_reserved_connections role) unless the user is a superuser, less every client connection open; at
#: most what the user's and the database's CONNECTION LIMIT (-1: none) leave. The asking connection counts as free.
_ROOM = """
SELECT LEAST(
    current_setting('max_connections')::int
      - CASE WHEN r.rolsuper THEN 0 ELSE current_setting('superuser_reserved_connections')::int
             + COALESCE(NULLIF(current_setting('reserved_connections', true), '')::int, 0) END
      - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'),
    CASE WHEN r.rolconnlimit < 0 THEN NULL
         ELSE r.rolconnlimit - (SELECT count(*) FROM pg_stat_activity
                                WHERE usename = current_user AND backend_type = 'client backend') END,
    CASE WHEN d.datconnlimit < 0 THEN NULL
         ELSE d.datconnlimit - (SELECT count(*) FROM pg_stat_activity
                                WHERE datname = current_database() AND backend_type = 'client backend') END
) + 1
FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()
"""


def connection_room(conn: psycopg.Connection) -> int | None:
    """How many more connections the user of ``conn`` may open to its database now (_ROOM), ``conn`` counted as
    free; None when the server does not say (a view or setting this user may not read). Never raises."""
    try:
        row = conn.execute(_ROOM).fetchone()
    except psycopg.Error:
        return None
    return None if row is None or row[0] is None else max(0, int(row[0]))


def reach_problem(url: str, setting: str = "TOOLCALL_DATABASE_URL") -> str | None:
    """Why no connection to the progress database at ``url`` can be made now, or None when one was made (and
    closed): :func:`reach`'s problem."""
    return reach(url, setting)[0]


#: Characters of the URL's host and of its port a launcher message quotes (escaped, then cut with "…").
_WHERE_CHARS = 120


def _shown_where(params: dict) -> str:
    """The server a message names: the URL's host (or "the local socket") and its port, each with control, line-end,
    bidirectional and invisible characters as ``\\uXXXX`` and cut at _WHERE_CHARS as drawn. Quoted raw, a host
    holding ESC and a line break drove the operator's terminal and printed a line of its own, and a 5 000-character
    host made a 5 326-character line (brk17fresh)."""
    from toolcall.text import escape_line, escaped_head

    def shown(text: str) -> str:
        return escaped_head(text, _WHERE_CHARS, escape_line)

    where = shown(str(params.get("host") or "the local socket"))
    port = str(params.get("port") or "")
    return where + (f" port {shown(port)}" if port else "")


def reach(url: str, setting: str = "TOOLCALL_DATABASE_URL") -> tuple[str | None, int | None]:
    """(why no connection to the progress database at ``url`` can be made now, or None; the connections the app
    may still open there, connection_room, or None). Asked once by deploy/serve_class.py before any process
    starts: a server that refuses the connection (not running, the wrong host or port), the credentials (a wrong
    password, a user or database that does not exist) or has no slot left (capacity_problem) started a class
    whose every page said progress could not be saved. The reason names ``setting`` (what to change) and never
    repeats the URL or its password. A URL :func:`url_problem` refuses is refused for that reason, before any
    connection: the export command asked here alone, and said "cannot connect to the progress database server at
    ss@127.0.0.1" of a password p@ss written unescaped, "… at nobody port hun" of hun/ter2, and "Start the server"
    of ``sslmode=bogus`` or port 99999 (break-it pass brk18new)."""
    if (problem := url_problem(url)) is not None:
        return problem, None
    params = conninfo_to_dict(url)
    password = str(params.get("password") or "")
    where = _shown_where(params)
    try:
        conn = psycopg.connect(url, autocommit=True,  # the URL's own connect_timeout, when it has one
                               **({} if params.get("connect_timeout") else {"connect_timeout": PROBE_TIMEOUT}))
    except psycopg.OperationalError as exc:
        message = str(exc)
        if (refused := refusal_problem(message, password)) is not None:
            return refused.replace("the progress database URL", setting), None
        if (full := capacity_problem(message, password)) is not None:
            return full, 0
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        reason = lines[0].rsplit("failed:", 1)[-1].strip() if lines else type(exc).__name__
        if password and password in reason:
            reason = reason.replace(password, "…")
        reason = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in reason)[:_REASON_CHARS]
        return (f"cannot connect to the progress database server at {where}: {reason}. Start the server, or "
                f"fix the host and port in {setting}"), None
    except psycopg.Error as exc:
        return f"cannot connect to the progress database server at {where} ({type(exc).__name__})", None
    try:
        return None, connection_room(conn)
    finally:
        conn.close()


#: Seconds one transaction may take, from the connection to the commit, before its connection is cut. libpq has
#: no client-side deadline: with the server stopped (SIGSTOP, a hung host, a network that drops packets) or a
#: lock held elsewhere (an operator's ``LOCK TABLE``, ``VACUUM FULL``) a query waited for ever, and the page of
#: each session whose query was under way with it. The longest read measured, the dashboard's class_attempts at
#: MAX_CLASS_ATTEMPTS (500 000 rows), took 2.5 s on a loaded 2-core machine.
TX_DEADLINE = 10.0


class _Watchdog:
    """Cuts the connection of a transaction past its deadline (one daemon thread for every store, looking twice
    a second): its socket is shut down, so the query waiting on it fails at once ("server closed the connection
    unexpectedly", an OperationalError) and the pool drops the connection. Shutting the socket down is the one
    way to stop a wait libpq itself never ends: a cancel request needs the server to answer too."""

    def __init__(self) -> None:
        self._deadlines: dict[int, tuple[float, psycopg.Connection]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def arm(self, conn: psycopg.Connection, seconds: float) -> int:
        with self._lock:
            token = id(conn)
            self._deadlines[token] = (time.monotonic() + seconds, conn)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="toolcall-pg-watchdog", daemon=True)
                self._thread.start()
        return token

    def disarm(self, token: int) -> None:
        with self._lock:
            self._deadlines.pop(token, None)

    def _run(self) -> None:
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            with self._lock:  # cut under the lock: a transaction that disarmed meanwhile is never cut
                for token, (deadline, conn) in list(self._deadlines.items()):
                    if deadline <= now:
                        _cut(conn)
                        del self._deadlines[token]


def _cut(conn: psycopg.Connection) -> None:
    """Shut down the socket under ``conn`` (a duplicate descriptor: the connection's own stays psycopg's)."""
    try:
        with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except (OSError, psycopg.Error):
        pass  # already closed


_WATCHDOG = _Watchdog()

#: Seconds the pool's attempt to open a connection may take, unless the URL's connect_timeout says otherwise.
#: psycopg's default is 130 s: a server that stopped answering in the middle of the handshake (a host gone, the
#: server stopped) kept the pool's few connecting threads waiting that long, and every call failed for two minutes
#: after the server was back (measured: 91 s after, still "unreachable"; break-it pass brk16ops).
CONNECT_TIMEOUT = 5

#: pg_advisory_xact_lock key held while migrating, so two hosts starting at once migrate once.
_MIGRATION_LOCK = 0x746F6F6C  # "tool"


class PostgresProgressStore(SqlProgressStore):
    """Progress for every learner in one PostgreSQL database (tables ``progress``,
    ``attempts``, ``schema_version`` in the connection's search_path).

    ``url`` is a libpq URL (``postgresql://user:pass@host:5432/db``). The pool holds 1 to
    ``max_size`` connections; a call waits at most ``timeout`` seconds for one, then raises
    StorageError (as does any database error), so a page never hangs on a dead server; for
    ``retry_after`` seconds after such a failure calls fail at once instead of each waiting. Opening a connection
    takes at most CONNECT_TIMEOUT seconds (unless the URL's ``connect_timeout`` says otherwise), so the pool connects
    again within seconds of a server that stopped answering coming back.
    Creating the store raises StorageError for a URL libpq cannot read (:func:`url_problem`, the URL not
    repeated), and never fails for an unreachable server: the schema is migrated on the
    first call that reaches it, and every call until then raises StorageError. When the server answers
    but refuses (a missing database or role, a wrong password: :func:`refusal_problem`) that
    StorageError has ``setup=True`` and the server's reason, so the dashboard names it instead of
    "unreachable"; the pool keeps trying, and the first call after the fix connects. When it refuses for want of a
    connection slot (:func:`capacity_problem`) the StorageError has ``busy=True`` and says so, and the first call
    after a slot is freed connects.
    """

    _greatest, _least, _real = "GREATEST", "LEAST", "DOUBLE PRECISION"
    _answer_bytes = "OCTET_LENGTH(answer)"  # a TOASTed answer's size from its header, not read whole
    _bytewise = ' COLLATE "C"'  # ordered by code point, as Python and SQLite order text
    _where = "the PostgreSQL progress database (TOOLCALL_DATABASE_URL)"
    _move = "point TOOLCALL_DATABASE_URL at another database"

    def __init__(self, url: str, max_size: int = POOL_SIZE, timeout: float = 3.0, retry_after: float = 2.0,
                 deadline: float | None = None, export: bool = False):
        self.deadline = TX_DEADLINE if deadline is None else deadline
        #: Opened only to read the class for an export: tables missing or of an earlier release are named, never
        #: made or upgraded (migrate).
        self._export = export
        problem = url_problem(url)
        if problem is not None:
            raise StorageError(problem, setup=True)
        self._migrated, self._down_since, self.retry_after = False, None, retry_after
        self._migrate_lock = threading.Lock()
        self._password = str(conninfo_to_dict(url).get("password") or "")
        self._refused: str | None = None  # the last setup refusal the pool's connection attempts met
        self._full: str | None = None  # the last refusal for want of a connection slot (capacity_problem)
        store = self

        class _Watched(psycopg.Connection):
            """A pooled connection whose failed connect is read for a setup refusal (the pool itself only
            logs it and later raises PoolTimeout, which says nothing of why)."""

            @classmethod
            def connect(cls, *args, **kwargs):
                try:
                    conn = super().connect(*args, **kwargs)
                except psycopg.OperationalError as exc:
                    store._refused = refusal_problem(str(exc), store._password)
                    store._full = capacity_problem(str(exc), store._password)
                    raise
                store._refused = store._full = None
                return conn

        self._pool = psycopg_pool.ConnectionPool(
            url,
            kwargs={} if conninfo_to_dict(url).get("connect_timeout") else {"connect_timeout": CONNECT_TIMEOUT},
            connection_class=_Watched,
            min_size=1,
            max_size=max_size,
            timeout=timeout,
            open=False,
            check=self._check_pooled,
            reconnect_timeout=0,
            name="toolcall-progress",
        )
        try:
            self._pool.open(wait=False)
        except psycopg.Error as exc:
            raise StorageError(f"cannot use the progress database URL ({type(exc).__name__})") from exc
        try:
            self._ensure_schema()
        except NotOurs:  # another program's schema_version: said at once, and left as it is
            self._pool.close()
            raise
        except StorageError:
            pass  # unreachable now: the first call that reaches the server migrates

    def _check_pooled(self, conn: psycopg.Connection) -> None:
        """The pool's check of a connection it hands out (an empty query), within the deadline: it waited for
        ever on a server that stopped answering."""
        token = _WATCHDOG.arm(conn, self.deadline)
        try:
            psycopg_pool.ConnectionPool.check_connection(conn)
        finally:
            _WATCHDOG.disarm(token)

    def close(self) -> None:
        """Close every pooled connection (the store cannot be used afterwards)."""
        self._pool.close()

    def _lock_schema(self, execute) -> None:
        execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))

    def _tables(self, execute) -> list[str]:
        """Only this app's tables (in the search_path): a PostgreSQL database is often shared with other programs,
        so their tables beside ours are no sign of a database that is not ours."""
        return [name for name in OUR_TABLES if execute("SELECT to_regclass(?) IS NOT NULL", (name,)).fetchone()[0]]

    def _ensure_schema(self) -> None:
        with self._migrate_lock:
            if not self._migrated:
                self.migrate()
                self._migrated = True

    @contextmanager
    def _raw_tx(self, server_cursor: bool = False) -> Iterator:
        down = self._down_since
        if down is not None and time.monotonic() - down < self.retry_after:
            if self._refused is not None:
                raise StorageError(self._refused, setup=True)
            if self._full is not None:
                raise StorageError(self._full, busy=True)
            raise StorageError("the progress database is unreachable (retrying shortly)")
        started = time.monotonic()
        try:
            with (self._pool.connection() as conn,
                  conn.cursor(name="toolcall_stream") if server_cursor else conn.cursor() as cur):
                token = _WATCHDOG.arm(conn, self.deadline)
                try:

                    def execute(sql: str, params: tuple):
                        cur.execute(sql.replace("?", "%s"), params)
                        return cur

                    execute.rearm = lambda: _WATCHDOG.arm(conn, self.deadline)  # type: ignore[attr-defined]
                    yield execute
                finally:
                    _WATCHDOG.disarm(token)
            self._down_since = None
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            self._down_since = time.monotonic()
            if self._refused is not None:  # the server answered, and said no: a setting is wrong
                raise StorageError(self._refused, setup=True) from exc
            if self._full is not None and isinstance(exc, psycopg_pool.PoolTimeout):  # it answered: no slot left
                raise StorageError(self._full, busy=True) from exc
            if not isinstance(exc, psycopg_pool.PoolTimeout) and time.monotonic() - started >= self.deadline:
                raise StorageError(f"the progress database did not answer within {self.deadline:g} s (retrying "
                                   "shortly)") from exc
            raise StorageError(f"the progress database is unreachable ({type(exc).__name__})") from exc
        except psycopg.Error as exc:
            raise server_failure(exc) from exc

    def migrate(self) -> int:
        """SqlProgressStore.migrate, after a look that writes nothing: a schema already at SCHEMA_VERSION is left
        alone, so a read-only server (a standby) still shows the progress it holds. Its first statement,
        CREATE TABLE IF NOT EXISTS, is refused in a read-only transaction even when the table exists, and
        every read failed."""
        with self._raw_tx() as execute:
            self._refuse_others(execute)  # a schema_version of text raised TypeError at the comparison below
            if execute("SELECT to_regclass('schema_version') IS NOT NULL", ()).fetchone()[0]:
                found = execute("SELECT MAX(version) FROM schema_version", ()).fetchone()[0] or 0
                if found >= SCHEMA_VERSION:
                    return found
            else:
                found = None
        if self._export:  # an export made the tables of an empty database and wrote an empty class (fix19left)
            raise StorageError(f"{self._where} holds no progress tables yet (the app makes them when it starts)"
                               if found is None else
                               f"{self._where} was written by an earlier release (schema version {found}, this one "
                               f"reads {SCHEMA_VERSION}): start the app once, which upgrades it, then export again",
                               setup=True)
        return super().migrate()

    def _schema_tx(self):
        return self._raw_tx()

    def _stream(self, sql: str, params: tuple, page: int) -> Iterator[list[tuple]]:
        """SqlProgressStore._stream on a server-side cursor (DECLARE … CURSOR, FETCH ``page``): psycopg's ordinary
        cursor holds a query's whole result once it is executed. The transaction's deadline (TX_DEADLINE) counts
        from each page's fetch, so a large class's export may take longer than one deadline in all, while a
        server that stops answering still cuts it within one."""
        if not self._migrated:
            self._ensure_schema()
        with self._raw_tx(server_cursor=True) as execute:
            cur = execute(sql, params)
            while True:
                execute.rearm()
                rows = cur.fetchmany(page)
                if not rows:
                    return
                yield [tuple(r) for r in rows]

    def _tx(self):
        if not self._migrated:
            self._ensure_schema()
        return self._raw_tx()
