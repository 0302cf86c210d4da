"""Learners' exercise progress, keyed by learner id: SQLite (stdlib sqlite3, WAL) by default,
PostgreSQL (toolcall.progress_pg) when TOOLCALL_DATABASE_URL says so; see open_store().

One row per (learner, exercise): latest answer text, latest and best score, tries,
failed tries, hints shown, whether the answer was revealed, first and last timestamps.
Every graded try is also kept (table ``attempts``) for the class dashboard. The SQLite
database lives in the data directory (``<repo>/data/`` unless TOOLCALL_DATA_DIR is
set), so a page refresh or a server restart loses nothing. Every query is parameterised
and filtered by learner id: one learner's rows are never read for another.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import secrets
import shutil
import sqlite3
import stat
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, UTC
from pathlib import Path

from toolcall.text import escape_line, quoted_head, repr_head
from typing import Any
from collections.abc import Iterable, Iterator

from toolcall import REPO_ROOT, path_setting_flaw, setting_path

#: Longest learner id.
LEARNER_ID_CHARS = 64
LEARNER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DB_NAME = "progress.sqlite3"
#: Seconds between two looks (file modes only) at whether a SQLite file opened read-only can be written now.
READ_ONLY_RECHECK = 5.0
#: Seconds a save waits for SQLite's write lock held by another connection, and the length of one try.
WRITE_WAIT, WRITE_RETRY = 30.0, 0.05
#: Seconds a store whose -wal was deleted under it waits for other connections to let its checkpoint through.
WAL_SAVE_WAIT = 5.0
#: Tries that must fail before the reference answer may be revealed.
REVEAL_AFTER = 2

_ADJECTIVES = ("amber", "brave", "calm", "clever", "eager", "gentle", "happy", "keen", "lively", "lucky",
               "merry", "nimble", "quiet", "rapid", "steady", "sunny", "swift", "tidy", "vivid", "witty")
_NOUNS = ("otter", "falcon", "panda", "heron", "lynx", "koala", "finch", "badger", "dolphin", "fox",
          "gecko", "ibis", "marten", "owl", "puffin", "robin", "seal", "tapir", "wren", "yak")

def valid_learner(learner: object) -> bool:
    """True for 1–64 characters of ``A–Z a–z 0–9 _ -``."""
    return isinstance(learner, str) and LEARNER_RE.fullmatch(learner) is not None


#: Random hex digits at the end of a learner id (4 bits each).
LEARNER_HEX_DIGITS = 10


def new_learner_id() -> str:
    """A random, readable learner id such as ``swift-otter-7f3a9c41d2``. Its entropy is
    log2(20 adjectives × 20 nouns × 16^10) ≈ 48.6 bits (the words add only 8.6 bits; with 6
    hex digits it was 32.6 bits). The id is a name, not a password: anyone holding it sees
    that progress."""
    return f"{secrets.choice(_ADJECTIVES)}-{secrets.choice(_NOUNS)}-{secrets.token_hex(LEARNER_HEX_DIGITS // 2)}"


def data_dir() -> Path:
    """The data directory: $TOOLCALL_DATA_DIR if set (``~`` expanded), else ``<repo>/data``."""
    return setting_path(os.environ.get("TOOLCALL_DATA_DIR") or str(REPO_ROOT / "data"))  # "~nouser" never raises


def data_dir_setting_problem(value: str | None = None) -> str | None:
    """Why TOOLCALL_DATA_DIR (``value``, default: the environment's) names no folder the operator meant, one line;
    None when unset, empty or usable as a path. White space only, ``~name`` for a user this machine does not
    have, a shell variable no shell expanded (``$HOME/tcdata``, ``%USERPROFILE%``), a URL (``postgresql://…``),
    quotes kept from an env file (``"/srv/data"``) or white space at its start or end (``/srv/data ``): each was
    taken as a folder named so, made in the folder the app was started from, without a word
    (toolcall.path_setting_flaw finds them)."""
    value = os.environ.get("TOOLCALL_DATA_DIR") if value is None else value
    if not value or (flaw := path_setting_flaw(value)) is None:
        return None
    code, part = flaw
    shown, part = escape_line(value), escape_line(part)
    if code == "blank":
        return (f"TOOLCALL_DATA_DIR is white space only ('{shown}'): unset it for the default <repo>/data, or name "
                "a folder")
    if code == "unknown_user":
        return (f"TOOLCALL_DATA_DIR {shown} starts with ~{part}, but this machine has no user {part}: write the "
                "folder's full path")
    if code == "url":  # not repeated: a database URL may hold a password
        return (f"TOOLCALL_DATA_DIR is a URL ({part}:…), not a folder: a PostgreSQL URL goes in "
                "TOOLCALL_DATABASE_URL; for SQLite, name the folder that holds progress.sqlite3")
    if code == "windows":
        return (f"TOOLCALL_DATA_DIR {shown} is a Windows path: this machine's folders start with /, write the "
                "folder's full path")
    if code == "variable":
        meant = os.path.expandvars(value)
        here = f" (with this environment: {escape_line(meant)})" if meant != value else ""
        return (f"TOOLCALL_DATA_DIR {shown} holds {part}, a variable no shell expanded (an env file or a quoted "
                f"setting passes it as written): write the folder's full path{here}")
    if code == "quoted":  # an env file's quotes: "/srv/data" made a folder named so
        return (f"TOOLCALL_DATA_DIR {shown} is written in quotes, which would be part of the folder's name: remove "
                "them")
    return (f"TOOLCALL_DATA_DIR '{shown}' has white space at its start or end, which would be part of the folder's "
            "name: remove it")


@dataclass(frozen=True)
class Record:
    """One learner's progress on one exercise. Scores are points; timestamps are UTC ISO 8601."""

    exercise_id: str
    last_answer: str
    last_score: float
    best_score: float
    max_score: float
    tries: int
    failed_tries: int
    hints_shown: int
    revealed: bool
    first_at: str
    updated_at: str

    @property
    def can_reveal(self) -> bool:
        return self.failed_tries >= REVEAL_AFTER or self.revealed

    @property
    def solved(self) -> bool:
        return self.max_score > 0 and self.best_score >= self.max_score


def _now(timespec: str = "seconds") -> str:
    return datetime.now(UTC).isoformat(timespec=timespec)


class StorageError(RuntimeError):
    """The progress database cannot be used right now (unreachable, locked too long, disk
    full…). The message names the driver's error type only, never a password or a query.

    ``setup`` is True when the storage is set up wrongly and waiting will not help (the data folder
    is a file, the database file is not SQLite, the URL is not a postgresql:// one): the message
    then names the setting and what to do, and pages say so instead of "cannot be reached".

    The message is kept on one line (toolcall.text.escape_line): it quotes paths made from TOOLCALL_DATA_DIR and
    the server's own reasons, and a line end or terminal escape in those must not print a line of its own
    (a forged log line of the class launcher).

    ``full`` is True when the disk holding the database is full: not a setup error (it passes once space is
    freed), but students are told that, not that the database "cannot be reached".

    ``busy`` is True when the database server answers but has no connection slot left for the app (its
    max_connections, or a CONNECTION LIMIT): it passes once connections are freed, and students are told to tell
    their instructor, who reads the server's reason on the dashboard."""

    def __init__(self, message: str, setup: bool = False, full: bool = False, busy: bool = False):
        super().__init__(escape_line(message))
        self.setup = setup
        self.full = full
        self.busy = busy


_SETTING = "TOOLCALL_DATA_DIR, default <repo>/data"


def read_only_problem(path: Path) -> str:
    """The sentence for a progress database this user can read but not write (one line: escape_line)."""
    return (f"{escape_line(str(path))} is read-only (the file or its folder cannot be written by this user): "
            f"progress is shown, not saved; make both writable, or point {_SETTING.split(',')[0]} at a folder that is")


#: The files SQLite keeps beside the database (WAL mode's log and shared index, the rollback journal): one that
#: is a folder, a device, a link to nothing or a loop stops every write, and it is what must be moved away.
_COMPANIONS = ("-wal", "-shm", "-journal")


def companion_problem(path: Path) -> str | None:
    """Why a file SQLite keeps beside ``path`` (``-wal``, ``-shm``, ``-journal``) stops it from writing: it is
    there but is no regular file (a folder, a device, a link to nothing, a loop), naming it; None when each is
    a regular file or missing. Metadata only."""
    from toolcall.files import KINDS, _kind, os_failure

    for suffix in _COMPANIONS:
        companion = path.with_name(path.name + suffix)
        if not os.path.lexists(companion):
            continue
        try:
            info = os.stat(companion)
        except OSError as exc:
            why = {errno.ENOENT: "a link to nothing (its target does not exist)",
                   errno.ELOOP: "a symlink loop (the link points back to itself)"}.get(exc.errno)
            return f"{companion}: {why or os_failure(exc)}; move it away ({_SETTING})"
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else KINDS[_kind(info.st_mode)]
            return (f"{companion} is {kind}, not a regular file (SQLite keeps it beside the database); move it away "
                    f"({_SETTING})")
    return None


def _damaged(exc: BaseException | None) -> str | None:
    """SQLite's words when ``exc`` (or the error it was raised from) says the database file is damaged
    (SQLITE_CORRUPT, SQLITE_NOTADB), else None."""
    while exc is not None:
        if isinstance(exc, sqlite3.DatabaseError) and (
                getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")
                or "malformed" in str(exc) or "not a database" in str(exc)):
            return str(exc)
        exc = exc.__cause__
    return None


def damaged_problem(path: Path, words: str) -> str:
    """The sentence for a damaged SQLite file (``words``: SQLite's own, "database disk image is malformed")."""
    return (f"{escape_line(str(path))} is damaged (SQLite: {escape_line(words)}): nothing new is saved; move it "
            f"away and a new one is made ({_SETTING})")


#: The first 16 bytes of every SQLite database file (https://www.sqlite.org/fileformat.html, 1.3).
SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_file_problem(path: Path) -> str | None:
    """Why the file at ``path`` holds no progress to read: it is empty (0 bytes) or does not start as a SQLite
    database does; None when it does (or cannot be read here: opening it says why). Reads its first 16 bytes, never
    writes: the export opened such a file as a new database, made its tables in it and wrote an empty class
    (pass fix19left). Only for a path that is a regular file (a FIFO would block the read)."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(len(SQLITE_HEADER))
    except OSError:
        return None
    where = escape_line(str(path))
    if not head:
        return (f"{where} is an empty file (0 bytes), not a progress database: there is no class progress in it to "
                f"read; if the app's database was there, it was cut short (restore it from a backup)")
    if head != SQLITE_HEADER:
        return (f"{where} is not a SQLite database (its first bytes are not SQLite's): it holds no class progress "
                f"to read; move it away ({_SETTING})")
    return None


#: The tables this code makes; a SQLite database holding any other is another program's.
OUR_TABLES = ("schema_version", "progress", "attempts")


class NotOurs(StorageError):
    """A progress database this code did not write (another program's tables, a schema_version that holds no
    version number, or a newer version than SCHEMA_VERSION): a setup error; the database is left as it is."""

    def __init__(self, message: str):
        super().__init__(message, setup=True)


def not_ours_problem(where: str, tables: Iterable[str], execute, move: str) -> str | None:
    """Why the database ``where`` names is not one this code may migrate or use (one line), or None. ``tables``
    are the names of the database's tables, ``execute(sql, params)`` reads it (nothing is written), ``move``
    says what to do instead. A SQLite file of another program had progress tables and schema_version made
    inside it without a word; a schema_version holding text raised TypeError ('>' not supported between 'int'
    and 'str'), and a newer version failed every read as "cannot open the progress database (OperationalError)"
    (issue 13, break-it pass brk12cli)."""
    tables = set(tables)
    others = sorted(tables - set(OUR_TABLES))
    if others:
        shown = ", ".join(others[:12]) + (f" and {len(others) - 12} more" if len(others) > 12 else "")
        return (f"{where} is not a progress database of this app: it holds tables of another program ({shown}); "
                f"it is left as it is; {move}")
    if "schema_version" not in tables:
        return None
    cursor = execute("SELECT * FROM schema_version LIMIT 100", ())
    columns = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    if columns != ["version"]:
        return (f"{where} is not a progress database of this app: its schema_version table has the columns "
                f"{', '.join(map(str, columns[:12]))}, not version; it is left as it is; {move}")
    for (value,) in rows:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            shown = quoted_head(value, 40) if isinstance(value, str) else repr(value)
            return (f"{where} is not a progress database of this app: its schema_version table holds {shown}, not "
                    f"a version number; it is left as it is; {move}")
    newest = max((value for (value,) in rows), default=0)
    if newest > SCHEMA_VERSION:
        return (f"{where} was written by a newer version of this app (schema version {newest}; this one knows up "
                f"to {SCHEMA_VERSION}); it is left as it is; update the app, or {move}")
    return None


def _sqlite_tables(execute) -> list[str]:
    """The names of a SQLite database's tables and views (not SQLite's own ``sqlite_…`` ones)."""
    return [row[0] for row in execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", ()).fetchall()]


#: Free space below which a failed write is put down to a full disk (SQLite says "disk I/O error" when its
#: shared-memory file cannot grow on a full tmpfs, SQLITE_FULL when the file cannot).
FULL_BELOW = 64 * 1024


def disk_full(folder: Path, exc: BaseException | None) -> bool:
    """Whether ``exc`` (SQLite's, or a StorageError caused by one) failed because the disk holding ``folder`` is
    full: SQLITE_FULL, or an I/O error with less than FULL_BELOW bytes free there for this user, or the OS's own
    ENOSPC or EDQUOT (making the folder where no inode is left: it was "cannot open the progress database (OSError)",
    a failure that named nothing; break-it pass brk19ops)."""
    while exc is not None and not isinstance(exc, sqlite3.Error):
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        exc = exc.__cause__
    if not isinstance(exc, sqlite3.Error):
        return False
    if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
        return True
    if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_IOERR") or "disk I/O error" in str(exc):
        try:
            return shutil.disk_usage(folder).free < FULL_BELOW
        except OSError:
            return False
    return False


def disk_full_problem(folder: Path) -> str:
    """The sentence for a data folder on a full disk: nothing is saved until space is freed (then it is again)."""
    return (f"the disk holding {escape_line(str(folder))} is full: progress is shown, not saved, until space is "
            f"freed there ({_SETTING})")


def _open_failure(folder: Path, exc: BaseException, *earlier: BaseException) -> str:
    """Why the store could not be opened when nothing is set up wrongly: a full disk (``exc`` or an ``earlier``
    failure of the same opening says so: a migration cut short leaves an empty file, whose read then fails
    with "no such table"), else the type of ``exc``."""
    full = any(disk_full(folder, e) for e in (exc, *earlier))
    return disk_full_problem(folder) if full else f"cannot open the progress database ({type(exc).__name__})"


def cannot_write_problem(folder: Path, path: Path, exc: BaseException | None) -> str:
    """Why the SQLite file at ``path``, which could be read, cannot be written, naming what is at fault: a
    companion file that is no regular file, a damaged file (its readable part is shown), the file or its folder
    this user cannot write (read_only_problem), else SQLite's own error. Every failure to write was put down to
    permissions ("cannot be written by this user"), even for root, for a damaged file or a ``-wal`` that is a
    folder."""
    if (why := companion_problem(path)) is not None:
        return why
    if (words := _damaged(exc)) is not None:
        return damaged_problem(path, words)
    cause = exc.__cause__ if isinstance(exc, StorageError) and exc.__cause__ is not None else exc
    if disk_full(folder, cause):
        return disk_full_problem(folder)
    readonly = isinstance(cause, sqlite3.Error) and (
        getattr(cause, "sqlite_errorname", "").startswith("SQLITE_READONLY") or "readonly" in str(cause))
    if exc is None or readonly or not (os.access(path, os.W_OK) and os.access(folder, os.W_OK)):
        return read_only_problem(path)
    return (f"{escape_line(str(path))} cannot be written (SQLite: {escape_line(str(cause))}): progress is shown, "
            f"not saved ({_SETTING})")


class _OddCompanion(Exception):
    """A file SQLite keeps beside the database is no regular file (companion_problem): not connected to."""


def _path_problem(path: Path) -> str | None:
    """Why ``path`` (the data folder or the database file) cannot be opened or made, naming the part of it at
    fault, or None when nothing on it is in the way (it is there, or it and its missing folders can be made):
    a link to nothing or a symlink loop at it or above it (mkdir said FileExistsError), a file where a folder
    must be. Looks at metadata only."""
    from toolcall.files import KINDS, _kind, os_failure

    reasons = {errno.ENOENT: "a link to nothing (its target does not exist)",
               errno.ELOOP: "a symlink loop (the link points back to itself)"}
    part = Path(path)
    while True:  # the nearest part that is there (a link counts, even one to nothing)
        try:
            os.lstat(part)
            break
        except OSError as exc:
            if exc.errno == errno.ENOENT and part.parent != part:
                part = part.parent
                continue
            return f"{part}: {reasons.get(exc.errno) or os_failure(exc)}"
    try:
        info = os.stat(part)
    except OSError as exc:
        return f"{part}: {reasons.get(exc.errno) or os_failure(exc)}"
    if part != Path(path) and not stat.S_ISDIR(info.st_mode):
        kind = "a file" if stat.S_ISREG(info.st_mode) else KINDS[_kind(info.st_mode)]
        return f"{part} is {kind}, not a folder"
    return None


#: The longest database path SQLite opens (bytes): its longest companion's, ``-journal``, must fit in 512 (unix
#: mxPathname); a longer one failed with "unable to open", reported as a folder that cannot be written.
SQLITE_MAX_PATH = 512 - len("-journal")


def _is_file(path: Path) -> bool:
    """Path.is_file() that is False, not an OSError, for a path the OS refuses to look at (too long, a parent
    this user cannot enter): _setup_problem then names why."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _setup_problem(folder: Path, path: Path, exc: BaseException) -> str | None:
    """What is set up wrongly when the SQLite store at ``path`` in ``folder`` failed to open with ``exc``,
    naming the setting (TOOLCALL_DATA_DIR) and the fix; None for a failure that may pass (a lock, a full
    disk). Looks at the paths' metadata only."""
    setting = _SETTING
    # _path_problem first: it reads metadata with lstat and names any OSError, where Path.exists() and is_file()
    # raise one (a name too long, a parent this user cannot enter) and the launcher ended in a traceback
    if (why := _path_problem(folder)) is not None:
        return f"the data folder {folder} ({setting}) cannot be used: {why}"
    if folder.exists() and not folder.is_dir():
        return f"the data folder {folder} ({setting}) is not a folder"
    if (why := _path_problem(path)) is not None:
        return f"the progress database cannot be used: {why}; move it away ({setting})"
    if path.exists() and not path.is_file():
        return f"{path} is not a regular file (a folder or a device); move it away ({setting})"
    if (why := companion_problem(path)) is not None:
        return why
    if (words := _damaged(exc)) is not None and "not a database" not in words:
        return damaged_problem(path, words)
    if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc):
        return read_only_problem(path)
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        return (f"{path} is not a SQLite database (damaged, or another kind of file); move it away and a "
                "new one is made")
    if (size := len(os.fsencode(os.path.abspath(path)))) > SQLITE_MAX_PATH:
        return (f"{path} is {size} bytes long, more than SQLite opens ({SQLITE_MAX_PATH}: its -journal's name must "
                f"fit in 512); choose a shorter data folder ({setting})")
    if isinstance(exc, OSError) and exc.errno == errno.EROFS:  # making the folder on a read-only mount
        # it was "cannot open the progress database (OSError)", taken for a failure that may pass: the launcher
        # started the class, and every page said the database could not be reached (break-it pass brk19ops)
        return f"cannot create the data folder {folder}: its file system is mounted read-only ({setting})"
    if isinstance(exc, PermissionError) or (isinstance(exc, sqlite3.OperationalError)
                                            and "unable to open" in str(exc)):
        return f"cannot create or open {path}: the folder cannot be written ({setting})"
    return None


#: Schema migrations, in order: (version, statements). Version 1 is the table of the first
#: release (a file from it has no schema_version table and is upgraded from there, never
#: dropped); version 2 adds one row per graded try, for the class dashboard, and makes a
#: retried save idempotent (attempt_id). ``{real}`` is each database's double-precision type.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("""CREATE TABLE IF NOT EXISTS progress (
    learner      TEXT NOT NULL,
    exercise_id  TEXT NOT NULL,
    last_answer  TEXT NOT NULL DEFAULT '',
    last_score   {real} NOT NULL DEFAULT 0,
    best_score   {real} NOT NULL DEFAULT 0,
    max_score    {real} NOT NULL DEFAULT 0,
    tries        INTEGER NOT NULL DEFAULT 0,
    failed_tries INTEGER NOT NULL DEFAULT 0,
    hints_shown  INTEGER NOT NULL DEFAULT 0,
    revealed     INTEGER NOT NULL DEFAULT 0,
    first_at     TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (learner, exercise_id)
)""",)),
    (2, ("""CREATE TABLE IF NOT EXISTS attempts (
    attempt_id   TEXT PRIMARY KEY,
    learner      TEXT NOT NULL,
    exercise_id  TEXT NOT NULL,
    answer       TEXT NOT NULL,
    score        {real} NOT NULL,
    max_score    {real} NOT NULL,
    correct      INTEGER NOT NULL,
    at           TEXT NOT NULL
)""",
         "CREATE INDEX IF NOT EXISTS attempts_by_learner ON attempts (learner, exercise_id)",
         "CREATE INDEX IF NOT EXISTS attempts_by_time ON attempts (at)")),
)
#: The schema version this code writes.
SCHEMA_VERSION = MIGRATIONS[-1][0]
ATTEMPT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: Class-wide reads (the dashboard) stop after this many attempt rows, newest first.
MAX_CLASS_ATTEMPTS = 500_000
#: UTF-8 bytes of answer text the JSON export holds, class-wide, newest tries first (export_attempts). Without
#: it the export read every stored try: 500 000 tries of MAX_STORED_ANSWER_CHARS are 4 GB of answers in one
#: process of the class server (300 000 on PostgreSQL ran past TX_DEADLINE and failed after 25 s). A course
#: answer is under 2 000 characters: 60 learners with every try kept come to a few megabytes.
MAX_EXPORT_ANSWER_BYTES = 16_000_000
#: Characters of last answers the dashboard's CSV export holds, class-wide (class_progress's ``answer_budget``): past
#: it each is cut to an equal share and ends in "…". It read them whole: learners × exercises × MAX_STORED_ANSWER_CHARS
#: (100 000 learners × 5 exercises of 8 000 characters are 4 GB in one process of the class server).
MAX_CSV_ANSWER_CHARS = 16_000_000
#: Characters of an answer kept in the database (the try is graded whole, up to the grader's
#: own MAX_ANSWER_CHARS; only the stored copy is cut). A course answer is under 2 000.
MAX_STORED_ANSWER_CHARS = 8_000
#: Graded tries kept in ``attempts`` per (learner, exercise): the newest ones. The counters
#: in ``progress`` (tries, failed tries, best score) still count every try.
MAX_STORED_ATTEMPTS = 100
#: class_attempt_summary groups wrong answers on this many leading characters (twice the
#: dashboard's ANSWER_CHARS, room for the spaces its normalize_answer collapses) and keeps this
#: many groups per exercise (the dashboard shows the 3 most common).
WRONG_PREFIX_CHARS = 400
WRONG_GROUPS_PER_EXERCISE = 200
#: Rows a class-wide export reads at a time (SqlProgressStore._stream): what it holds at once, whatever the class.
EXPORT_PAGE_ROWS = 2_000
ATTEMPT_FIELDS = ("attempt_id", "learner", "exercise_id", "answer", "score", "max_score", "correct", "at")
PROGRESS_FIELDS = ("learner",) + tuple(Record.__dataclass_fields__)


#: What each column holds as this app writes it. A row changed outside the app (an operator's sqlite3 shell, another
#: program) could hold a text in a score column: the store handed it on, and the pages then raised TypeError
#: comparing 'abc' with a number (issue 13, break-it pass brk12cli).
_COLUMN_KINDS = {**dict.fromkeys(("last_score", "best_score", "max_score", "score"), "a number"),
                 **dict.fromkeys(("tries", "failed_tries", "hints_shown", "revealed", "correct"), "a whole number"),
                 **dict.fromkeys(("learner", "exercise_id", "last_answer", "first_at", "updated_at", "attempt_id",
                                  "answer", "at"), "a text")}


def _fits(kind: str, value: Any) -> bool:
    if kind == "a text":
        return isinstance(value, str)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return kind == "a number" or isinstance(value, int)


def wrong_cell(rows: list, fields: tuple[str, ...]) -> tuple[Any, str, Any] | None:
    """The first cell of ``rows`` (dicts, or tuples in the order of ``fields``) whose value is not what this app
    writes in its column, as ``(the row's exercise id, column, value)``; None when every cell fits."""
    checked = [(i, name, _COLUMN_KINDS[name]) for i, name in enumerate(fields) if name in _COLUMN_KINDS]
    for row in rows:
        values = row if isinstance(row, tuple) else tuple(row.get(name) for name in fields)
        for i, name, kind in checked:
            if not _fits(kind, values[i]):
                exercise = values[fields.index("exercise_id")] if "exercise_id" in fields else None
                return exercise, name, values[i]
    return None


def _text(value: bytes) -> str:
    """A TEXT value as read from SQLite: UTF-8, with any byte that is not shown as U+FFFD. SQLite stores what a
    program gives it (``CAST(x'ff' AS TEXT)``, a C program's bytes, an import in another encoding); one such
    answer made every read that met it fail (``Could not decode to UTF-8 column 'answer'``): the learner's own
    progress, the dashboard and both exports all said "the progress database failed (OperationalError)" (break-it
    pass brk16cli)."""
    return value.decode("utf-8", "replace")


#: How long _busy_retry tries a statement SQLite refuses at once as busy: the connections' own busy timeout.
BUSY_RETRY_SECONDS = 30.0


def _busy_retry(db: sqlite3.Connection, sql: str, seconds: float = BUSY_RETRY_SECONDS) -> None:
    """``db.execute(sql)``, tried again every 50 ms for at most ``seconds`` while SQLite answers SQLITE_BUSY. A
    connection's busy timeout does not cover every wait: ``PRAGMA journal_mode=WAL`` on a file still in rollback mode
    while another process holds its write lock (a new class's processes opening one new file together: the first
    one's setup transaction) is refused at once, SQLite's way out of a deadlock, and the second process failed to
    open the store ("cannot open the progress database (OperationalError)"; seen in a full test run,
    tests/unit/test_storage_follows_file.py). Any other error, and the last busy one, is raised."""
    end = time.monotonic() + seconds
    while True:
        try:
            db.execute(sql)
            return
        except sqlite3.OperationalError as exc:
            if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) != sqlite3.SQLITE_BUSY or time.monotonic() >= end:
                raise
            time.sleep(0.05)


def _connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    """``sqlite3.connect(*args, **kwargs)`` whose TEXT values are read through _text."""
    db = sqlite3.connect(*args, **kwargs)
    db.text_factory = _text
    return db


class SqlProgressStore:
    """What both back ends share: the SQL of every read and write, written once.

    A subclass provides ``_tx()`` (a context manager giving ``execute(sql, params) -> cursor``
    inside one transaction, with ``?`` placeholders; it raises StorageError when the database
    cannot be used), ``_lock_schema(execute)`` and the SQL names below. Every public method
    raises ValueError for an invalid learner id and StorageError when the database is unusable.
    """

    _greatest, _least, _real = "MAX", "MIN", "REAL"
    #: An answer's size in UTF-8 bytes (SQLite's LENGTH counts characters of TEXT, bytes of a BLOB).
    _answer_bytes = "LENGTH(CAST(answer AS BLOB))"
    #: Appended to a text column that is ordered or compared, so every back end orders by code point as Python
    #: does (SQLite's BINARY already does; PostgreSQL's database collation may not).
    _bytewise = ""
    #: How messages name the database, and what to do with one that is not this app's (not_ours_problem).
    _where, _move = "the progress database", "point the setting at another database"
    #: True when progress can be read but not written (see ProgressStore).
    read_only = False

    def _tx(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _read_tx(self):
        """A transaction that only reads: ``_tx()`` unless the back end can read without waiting for writers."""
        return self._tx()

    def _class_tx(self):
        """A transaction that reads the whole class (the dashboard's reads and exports): ``_read_tx()`` unless the
        back end can run it beside the learners' own reads and saves (SQLite: a connection of its own)."""
        return self._read_tx()

    def _lock_schema(self, execute) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _schema_tx(self):
        return self._tx()

    def close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def migrate(self) -> int:
        """Bring the schema to SCHEMA_VERSION (in one transaction, one migrator at a time);
        returns the version found before (0: an empty database or a first-release file)."""
        with self._schema_tx() as execute:
            self._lock_schema(execute)
            self._refuse_others(execute)
            execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", ())
            row = execute("SELECT MAX(version) FROM schema_version", ()).fetchone()
            found = (row[0] if row and row[0] is not None else 0)
            for version, statements in MIGRATIONS:
                if version > found:
                    for sql in statements:
                        execute(sql.format(real=self._real), ())
            if found < SCHEMA_VERSION:
                execute("DELETE FROM schema_version", ())
                execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        return found

    def _tables(self, execute) -> list[str]:  # pragma: no cover - abstract
        """The names of the tables not_ours_problem looks at."""
        raise NotImplementedError

    def _refuse_others(self, execute) -> None:
        """Raise NotOurs when the database is not one this code wrote (not_ours_problem); reads only."""
        if (why := not_ours_problem(self._where, self._tables(execute), execute, self._move)) is not None:
            raise NotOurs(why)

    def schema_version(self) -> int:
        """The version recorded in the database (0 before the first migration)."""
        with self._read_tx() as execute:
            return execute("SELECT MAX(version) FROM schema_version", ()).fetchone()[0] or 0

    @staticmethod
    def _check(learner: str) -> None:
        if not valid_learner(learner):
            raise ValueError(f"invalid learner id {quoted_head(str(learner), 80)}")

    def _touch(self, execute, learner: str, exercise_id: str, now: str) -> None:
        execute("INSERT INTO progress (learner, exercise_id, first_at, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (learner, exercise_id) DO NOTHING", (learner, exercise_id, now, now))

    def record(self, learner: str, exercise_id: str, answer: str, score: float, max_score: float,
               attempt_id: str | None = None, at: str | None = None) -> Record:
        """Store one graded try (the answer text and its score) and return the updated row.

        One transaction: the try's row in ``attempts`` and the counters in ``progress``
        (tries + 1, failed_tries + 1 unless full marks, best score) are written together or
        not at all, and the counters are updated in place (``tries = tries + 1``), so two
        tabs saving at once both count. ``attempt_id`` (8–64 of ``A–Z a–z 0–9 _ -``; a new
        random one if None) makes a retried save count once: a second record() with the same
        id changes nothing. ``at`` (UTC ISO 8601, microseconds) is when the answer was given;
        default now.

        Bounded per (learner, exercise): the stored answer is ``stored_answer(answer)`` (cut to
        MAX_STORED_ANSWER_CHARS), and ``attempts`` keeps the newest MAX_STORED_ATTEMPTS tries
        (older ones are deleted in the same transaction); ``tries``, ``failed_tries`` and the
        best score still count every try (cap_notes() says what to tell the student).
        """
        self._check(learner)
        answer = stored_answer(answer)
        attempt_id = attempt_id or secrets.token_hex(16)
        if not ATTEMPT_ID_RE.fullmatch(attempt_id):
            raise ValueError(f"invalid attempt id {quoted_head(str(attempt_id), 80)}")
        now, at, correct = _now(), at or _now("microseconds"), int(max_score > 0 and score >= max_score)
        with self._tx() as execute:
            new = execute("INSERT INTO attempts (attempt_id, learner, exercise_id, answer, score, max_score, "
                          "correct, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (attempt_id) DO NOTHING",
                          (attempt_id, learner, exercise_id, answer, score, max_score, correct, at)).rowcount
            if new:
                self._touch(execute, learner, exercise_id, now)
                execute("UPDATE progress SET last_answer = ?, last_score = ?, "
                        f"best_score = {self._greatest}(best_score, ?), "
                        "max_score = ?, tries = tries + 1, failed_tries = failed_tries + ?, updated_at = ? "
                        "WHERE learner = ? AND exercise_id = ?",
                        (answer, score, score, max_score, 1 - correct, now, learner, exercise_id))
            rec = self._get(execute, learner, exercise_id)
            if new and rec is not None and rec.tries > MAX_STORED_ATTEMPTS:
                execute("DELETE FROM attempts WHERE learner = ? AND exercise_id = ? AND attempt_id NOT IN "
                        "(SELECT attempt_id FROM attempts WHERE learner = ? AND exercise_id = ? "
                        "ORDER BY at DESC, attempt_id DESC LIMIT ?)",
                        (learner, exercise_id, learner, exercise_id, MAX_STORED_ATTEMPTS))
            return rec  # type: ignore[return-value]

    def show_hint(self, learner: str, exercise_id: str, available: int) -> Record:
        """Show one more hint (at most ``available``); returns the updated row."""
        self._check(learner)
        now = _now()
        with self._tx() as execute:
            self._touch(execute, learner, exercise_id, now)
            execute(f"UPDATE progress SET hints_shown = {self._least}(hints_shown + 1, ?), updated_at = ? "
                    "WHERE learner = ? AND exercise_id = ?", (available, now, learner, exercise_id))
            return self._get(execute, learner, exercise_id)  # type: ignore[return-value]

    def reveal(self, learner: str, exercise_id: str) -> bool:
        """Mark the answer revealed, allowed only after REVEAL_AFTER failed tries; returns
        whether it is (now) revealed."""
        self._check(learner)
        with self._tx() as execute:
            execute("UPDATE progress SET revealed = 1, updated_at = ? "
                    "WHERE learner = ? AND exercise_id = ? AND failed_tries >= ?",
                    (_now(), learner, exercise_id, REVEAL_AFTER))
            rec = self._get(execute, learner, exercise_id)
        return bool(rec and rec.revealed)

    def _typed(self, rows: list, fields: tuple[str, ...], table: str) -> list:
        """``rows`` when every cell holds what this app writes in its column, else StorageError (a setup error)
        naming the database, the table, the exercise, the column and the value (wrong_cell)."""
        if (bad := wrong_cell(rows, fields)) is not None:
            exercise, column, value = bad
            shown = quoted_head(value, 40) if isinstance(value, str) else repr_head(value, 40)  # cut as drawn
            exercise = quoted_head(exercise, 40) if isinstance(exercise, str) else repr_head(exercise, 40)
            raise StorageError(f"{self._where}: a row of {table} (exercise {exercise}) holds {shown} in {column}, "
                               f"where this app writes {_COLUMN_KINDS[column]}: it was changed outside the app; "
                               "correct or delete that row", setup=True)
        return rows

    def _get(self, execute, learner: str, exercise_id: str) -> Record | None:
        cur = execute("SELECT * FROM progress WHERE learner = ? AND exercise_id = ?", (learner, exercise_id))
        rows = self._typed(_dicts(cur), PROGRESS_FIELDS, "progress")
        return _record(rows[0]) if rows else None

    def get(self, learner: str, exercise_id: str) -> Record | None:
        """The row for (learner, exercise), or None before the first try or hint."""
        self._check(learner)
        with self._read_tx() as execute:
            return self._get(execute, learner, exercise_id)

    def all(self, learner: str) -> dict[str, Record]:
        """Every row of ``learner``, by exercise id."""
        self._check(learner)
        with self._read_tx() as execute:
            rows = _dicts(execute("SELECT * FROM progress WHERE learner = ? ORDER BY exercise_id", (learner,)))
        return {row["exercise_id"]: _record(row) for row in self._typed(rows, PROGRESS_FIELDS, "progress")}

    def attempts(self, learner: str, answer_chars: int | None = None, newest: int | None = None) -> list[dict]:
        """Every graded try of ``learner`` (ATTEMPT_FIELDS), oldest first; with ``answer_chars``, at most
        that many characters of each answer; with ``newest``, only the newest that many tries (the dashboard's
        drill-down: a learner keeps up to MAX_STORED_ATTEMPTS tries per exercise, each up to
        MAX_STORED_ANSWER_CHARS)."""
        self._check(learner)
        fields = [f if f != "answer" or answer_chars is None else f"substr(answer, 1, {int(answer_chars)}) AS answer"
                  for f in ATTEMPT_FIELDS]
        with self._read_tx() as execute:
            if newest is None:
                return self._typed(_dicts(execute(f"SELECT {', '.join(fields)} FROM attempts WHERE learner = ? "
                                                  "ORDER BY at, attempt_id", (learner,))), ATTEMPT_FIELDS, "attempts")
            rows = _dicts(execute(f"SELECT {', '.join(fields)} FROM attempts WHERE learner = ? "
                                  "ORDER BY at DESC, attempt_id DESC LIMIT ?", (learner, int(newest))))
            return self._typed(rows, ATTEMPT_FIELDS, "attempts")[::-1]

    def attempt_count(self, learner: str) -> int:
        """How many graded tries of ``learner`` the store keeps."""
        self._check(learner)
        with self._read_tx() as execute:
            return int(execute("SELECT COUNT(*) FROM attempts WHERE learner = ?", (learner,)).fetchone()[0])

    def class_progress(self, as_tuples: bool = False, answer_chars: int | None = None,
                       answer_budget: int | None = None) -> list:
        """Every progress row of every learner (dicts of PROGRESS_FIELDS, or tuples in that
        order): for the instructors' dashboard only, never for a learner's page. ``answer_chars``:
        read at most this many characters of each ``last_answer`` (0: none; the dashboard's page
        shows none of them, and a class's last answers can be learners × exercises × 8 000
        characters); None reads them whole (the CSV export), up to ``answer_budget`` characters of them
        together when given: past it (summed by the database) each is read cut to budget ÷ rows characters
        (at least 1), and one that was cut ends in "…"."""
        cut = None
        with self._class_tx() as execute:
            if answer_chars is None and answer_budget is not None:
                cut, answer_chars = _answer_cut(execute, answer_budget)
            cur = execute(_class_progress_sql(answer_chars), ())
            rows = [tuple(r) for r in cur.fetchall()] if as_tuples else _dicts(cur)
        rows = self._typed(rows, PROGRESS_FIELDS, "progress")
        if cut is not None:
            at = PROGRESS_FIELDS.index("last_answer")
            rows = [row if len(row[at] if as_tuples else row["last_answer"]) <= cut else _cut_answer(row, at, cut)
                    for row in rows]
        return rows

    def class_recent_progress(self, learners: int, answer_chars: int = 0) -> list[tuple]:
        """The progress rows (tuples of PROGRESS_FIELDS, ``last_answer`` cut to ``answer_chars`` characters) of the
        ``learners`` most recently active learners (the latest ``updated_at`` of their rows; ties by id): the
        learners the dashboard lists, picked by the database instead of from every learner's rows."""
        fields = [f if f != "last_answer" else f"substr(last_answer, 1, {int(answer_chars)}) AS last_answer"
                  for f in PROGRESS_FIELDS]
        with self._class_tx() as execute:
            rows = [tuple(r) for r in execute(
                f"SELECT {', '.join(fields)} FROM progress WHERE learner IN (SELECT learner FROM progress "
                "GROUP BY learner ORDER BY MAX(updated_at) DESC, learner LIMIT ?) ORDER BY learner, exercise_id",
                (int(learners),)).fetchall()]
        return self._typed(rows, PROGRESS_FIELDS, "progress")

    def class_counts(self, since: str) -> dict:
        """The class's numbers counted by the database: ``{"learners": learners with a row, "active": learners
        with a row updated or a try given at or after since (UTC ISO 8601), "exercises": [(exercise_id, tried,
        solved, revealed)], "tries": [(exercise_id, tries, learners with that many tries)] over the rows with a
        try}`` (tried, solved, revealed as toolcall.dashboard counts them)."""
        with self._class_tx() as execute:
            learners = execute("SELECT COUNT(DISTINCT learner) FROM progress", ()).fetchone()[0]
            active = execute("SELECT COUNT(*) FROM (SELECT learner FROM progress WHERE updated_at >= ? UNION "
                             "SELECT learner FROM attempts WHERE at >= ?) AS active", (since, since)).fetchone()[0]
            exercises = [tuple(r) for r in execute(
                "SELECT exercise_id, SUM(CASE WHEN tries > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN tries > 0 AND "
                "max_score > 0 AND best_score >= max_score THEN 1 ELSE 0 END), SUM(CASE WHEN revealed <> 0 THEN 1 "
                "ELSE 0 END) FROM progress GROUP BY exercise_id ORDER BY exercise_id", ()).fetchall()]
            tries = [tuple(r) for r in execute("SELECT exercise_id, tries, COUNT(*) FROM progress WHERE tries > 0 "
                                               "GROUP BY 1, 2 ORDER BY 1, 2", ()).fetchall()]
        return {"learners": int(learners), "active": int(active), "exercises": exercises, "tries": tries}

    def class_attempts(self, limit: int = MAX_CLASS_ATTEMPTS, as_tuples: bool = False) -> list:
        """The newest ``limit`` graded tries of every learner (dicts of ATTEMPT_FIELDS, or
        tuples in that order), oldest first: for the instructors' dashboard only."""
        with self._class_tx() as execute:
            cur = execute(f"SELECT {', '.join(ATTEMPT_FIELDS)} FROM attempts "
                          "ORDER BY at DESC, attempt_id DESC LIMIT ?", (int(limit),))
            rows = [tuple(r) for r in cur.fetchall()] if as_tuples else _dicts(cur)
        return self._typed(rows, ATTEMPT_FIELDS, "attempts")[::-1]

    def export_attempts(self, max_answer_bytes: int = MAX_EXPORT_ANSWER_BYTES,
                        limit: int = MAX_CLASS_ATTEMPTS) -> tuple[list[dict], int]:
        """The tries the JSON export holds: ``(attempts, left_out)``, where ``attempts`` are the newest graded
        tries of every learner (dicts of ATTEMPT_FIELDS, oldest first) whose answers come to at most
        ``max_answer_bytes`` UTF-8 bytes together and that number at most ``limit``, and ``left_out`` counts the
        older stored tries that did not fit. The sizes are summed by the database over the answers' lengths
        (PostgreSQL reads a long answer's length without reading the answer), so only the tries kept are read
        whole. Raises StorageError as every read does."""
        with self._class_tx() as execute:
            keep, total = self._kept_attempts(execute, max_answer_bytes, limit)
            cur = execute(f"SELECT {', '.join(ATTEMPT_FIELDS)} FROM attempts "
                          "ORDER BY at DESC, attempt_id DESC LIMIT ?", (keep,))
            rows = _dicts(cur)
        return self._typed(rows, ATTEMPT_FIELDS, "attempts")[::-1], total - len(rows)

    def class_attempt_summary(self, since: str, bucket_chars: int = 15, prefix_chars: int = WRONG_PREFIX_CHARS,
                              per_exercise: int = WRONG_GROUPS_PER_EXERCISE, recent: bool = True) -> dict:
        """What the dashboard needs from every graded try, counted by the database instead of
        read row by row: ``{"count": n, "recent": [learners with a try at or after since (UTC
        ISO 8601)], "wrong": [(exercise_id, answer prefix, count)] of tries without full marks,
        "activity": [(time prefix of bucket_chars characters, correct 0/1, count)]}`` ("recent" is [] without
        ``recent``: class_counts counts them). ``wrong`` groups answers on their first ``prefix_chars``
        characters and keeps, per exercise, the ``per_exercise`` most frequent groups (ties by prefix): at most
        per_exercise × prefix_chars characters per exercise, however many learners wrote
        however long answers (issue 13: grouping on whole answers loaded 340 MB from a 100 MB store)."""
        with self._class_tx() as execute:
            count = execute("SELECT COUNT(*) FROM attempts", ()).fetchone()[0]
            recent = [r[0] for r in execute("SELECT DISTINCT learner FROM attempts WHERE at >= ?", (since,)).fetchall()
                      ] if recent else []  # not read: class_counts counts them
            wrong = [tuple(r) for r in execute(
                "SELECT exercise_id, prefix, n FROM ("
                " SELECT exercise_id, prefix, n, ROW_NUMBER() OVER (PARTITION BY exercise_id ORDER BY n DESC, prefix)"
                " AS pos FROM (SELECT exercise_id, substr(answer, 1, ?) AS prefix, COUNT(*) AS n FROM attempts"
                " WHERE correct = 0 GROUP BY 1, 2) AS grouped) AS ranked WHERE pos <= ? ORDER BY 1, 3 DESC, 2",
                (int(prefix_chars), int(per_exercise))).fetchall()]
            # GROUP BY position: PostgreSQL takes two placeholders for two different expressions
            activity = [tuple(r) for r in execute("SELECT substr(at, 1, ?), correct, COUNT(*) FROM attempts "
                                                  "GROUP BY 1, 2 ORDER BY 1, 2", (int(bucket_chars),)).fetchall()]
        return {"count": count, "recent": recent, "wrong": wrong, "activity": activity}

    def class_activity(self, bucket_chars: int, since: str = "") -> list[tuple]:
        """Graded tries at or after ``since`` (a UTC ISO 8601 prefix; "" for all) counted per time prefix of
        ``bucket_chars`` characters and outcome: ``[(prefix, correct 0/1, count)]``, oldest first. The
        dashboard reads minutes this way once class_attempt_summary's hours show a short span. With "" the
        tries are read in one pass over the table: ``WHERE at >= ''`` made SQLite walk the time index and look
        up each try's row for its outcome, 2.5 s for 1 000 000 tries against 0.8 s for the pass."""
        where, params = ("WHERE at >= ? ", (int(bucket_chars), since)) if since else ("", (int(bucket_chars),))
        with self._class_tx() as execute:
            return [tuple(r) for r in execute(f"SELECT substr(at, 1, ?), correct, COUNT(*) FROM attempts {where}"
                                              "GROUP BY 1, 2 ORDER BY 1, 2", params).fetchall()]

    def _stream(self, sql: str, params: tuple, page: int) -> Iterator[list[tuple]]:
        """The rows of one class-wide query in lists of at most ``page`` tuples, read as they are used, in one
        read transaction (``_class_tx``): what the exports hold at once is one page, however large the class.
        SQLite steps its statement as rows are fetched; PostgreSQL overrides this with a server-side cursor."""
        with self._class_tx() as execute:
            cur = execute(sql, params)
            while rows := cur.fetchmany(page):
                yield [tuple(r) for r in rows]

    def class_learner_pages(self, page: int = EXPORT_PAGE_ROWS) -> Iterator[list[tuple]]:
        """Every learner's totals, counted by the database, as the dashboard's learner_table writes them: pages of
        ``(learner, tried, solved, revealed, tries, last_active)`` (ints, last_active the latest ``updated_at``),
        most recently active first, ties by id; at most ``page`` rows held at once (the JSON export)."""
        b = self._bytewise
        for rows in self._stream(
                "SELECT learner, SUM(CASE WHEN tries > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN tries > 0 AND max_score > 0 "
                "AND best_score >= max_score THEN 1 ELSE 0 END), SUM(CASE WHEN revealed <> 0 THEN 1 ELSE 0 END), "
                f"SUM(tries), MAX(updated_at{b}) FROM progress GROUP BY learner "
                f"ORDER BY MAX(updated_at{b}) DESC, learner{b}", (), page):
            yield [(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4]), r[5]) for r in rows]

    def class_progress_pages(self, answer_budget: int | None = MAX_CSV_ANSWER_CHARS,
                             page: int = EXPORT_PAGE_ROWS) -> Iterator[list[tuple]]:
        """class_progress(as_tuples=True, answer_budget=answer_budget) in pages of at most ``page`` rows, read as
        they are used (the CSV export): the same rows, the same cut of the last answers, never the whole class at
        once."""
        cut = answer_chars = None
        if answer_budget is not None:
            with self._class_tx() as execute:
                cut, answer_chars = _answer_cut(execute, answer_budget)
        at = PROGRESS_FIELDS.index("last_answer")
        for rows in self._stream(_class_progress_sql(answer_chars), (), page):
            rows = self._typed(rows, PROGRESS_FIELDS, "progress")
            yield rows if cut is None else [row if len(row[at]) <= cut else _cut_answer(row, at, cut) for row in rows]

    def _kept_attempts(self, execute, max_answer_bytes: int, limit: int) -> tuple[int, int]:
        """``(kept, total)``: how many of the newest tries the JSON export keeps (their answers within
        ``max_answer_bytes`` UTF-8 bytes together, at most ``limit`` of them, summed by the database) and how many
        the store holds."""
        fit, total = execute(
            "SELECT COUNT(*), (SELECT COUNT(*) FROM attempts) FROM ("
            f" SELECT SUM({self._answer_bytes}) OVER (ORDER BY at DESC, attempt_id DESC"
            " ROWS UNBOUNDED PRECEDING) AS running FROM attempts) AS sized WHERE running <= ?",
            (int(max_answer_bytes),)).fetchone()
        return min(int(fit), int(limit)), int(total)

    def export_attempt_pages(self, max_answer_bytes: int = MAX_EXPORT_ANSWER_BYTES, limit: int = MAX_CLASS_ATTEMPTS,
                             page: int = EXPORT_PAGE_ROWS) -> tuple[int, Iterator[list[dict]]]:
        """export_attempts() read as it is used: ``(total, pages)``, where ``pages`` yields the same tries (dicts of
        ATTEMPT_FIELDS, oldest first) at most ``page`` at a time and ``total`` is how many tries the store held,
        so the tries left out are ``total`` minus those yielded. The kept tries are fixed by their first and last
        (time, id) when this is called: a try saved while the pages are read is not in them."""
        with self._class_tx() as execute:
            keep, total = self._kept_attempts(execute, max_answer_bytes, limit)
            ends = [execute("SELECT at, attempt_id FROM attempts ORDER BY at DESC, attempt_id DESC LIMIT 1 OFFSET ?",
                            (offset,)).fetchone() for offset in (0, keep - 1)] if keep else []

        def pages() -> Iterator[list[dict]]:
            if not ends:
                return
            (last_at, last_id), (first_at, first_id) = ends
            for rows in self._stream(
                    # export_attempts' order (the database's), so its window and its order are the same
                    f"SELECT {', '.join(ATTEMPT_FIELDS)} FROM attempts WHERE (at > ? OR (at = ? AND attempt_id >= ?))"
                    " AND (at < ? OR (at = ? AND attempt_id <= ?)) ORDER BY at, attempt_id",
                    (first_at, first_at, first_id, last_at, last_at, last_id), page):
                yield [dict(zip(ATTEMPT_FIELDS, row)) for row in self._typed(rows, ATTEMPT_FIELDS, "attempts")]

        return total, pages()

    def class_version(self) -> tuple:
        """A cheap stamp that changes whenever any learner's progress changes (row counts
        and the latest times), to cache class-wide reads."""
        with self._class_tx() as execute:
            return (tuple(execute("SELECT COUNT(*), MAX(updated_at), SUM(tries + hints_shown + revealed) FROM progress",
                                  ()).fetchone())
                    + tuple(execute("SELECT COUNT(*), MAX(at) FROM attempts", ()).fetchone()))


def _answer_cut(execute, answer_budget: int) -> tuple[int | None, int | None]:
    """``(cut, answer_chars)`` for reading every last answer within ``answer_budget`` characters together (summed by
    the database): ``(None, None)`` when they fit whole, else each is cut to ``cut`` = budget ÷ rows characters (at
    least 1) and read with one more (``answer_chars``), to know it was cut."""
    total, count = execute("SELECT COALESCE(SUM(LENGTH(last_answer)), 0), COUNT(*) FROM progress", ()).fetchone()
    if int(total) <= answer_budget:
        return None, None
    cut = max(int(answer_budget) // max(int(count), 1), 1)
    return cut, cut + 1


def _class_progress_sql(answer_chars: int | None) -> str:
    """Every progress row, ordered by learner and exercise, each last answer read to ``answer_chars`` characters
    (None: whole)."""
    fields = [f if f != "last_answer" or answer_chars is None
              else f"substr(last_answer, 1, {int(answer_chars)}) AS last_answer" for f in PROGRESS_FIELDS]
    return f"SELECT {', '.join(fields)} FROM progress ORDER BY learner, exercise_id"


def _cut_answer(row, at: int, chars: int):
    """``row`` (a tuple of PROGRESS_FIELDS, or a dict) with its last answer cut to ``chars`` characters and "…"."""
    if isinstance(row, dict):
        return {**row, "last_answer": row["last_answer"][:chars] + "…"}
    return row[:at] + (row[at][:chars] + "…",) + row[at + 1:]


def stored_answer(answer: str) -> str:
    """The copy of ``answer`` the database keeps: at most MAX_STORED_ANSWER_CHARS characters,
    NUL (which PostgreSQL text refuses) and lone surrogates (not encodable as UTF-8) as U+FFFD,
    so both back ends store the same text and no answer can fail to save."""
    return _UNSTORABLE.sub("\ufffd", str(answer)[:MAX_STORED_ANSWER_CHARS])


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def cap_notes(answer: str, rec: Record | None) -> list[tuple[str, dict]]:
    """What a student should be told after saving ``answer`` (as graded) when a storage cap
    applied, as (locale key, parameters): the answer was cut to MAX_STORED_ANSWER_CHARS for
    storage (it was graded whole), or only the newest MAX_STORED_ATTEMPTS tries are kept (the
    score and the try count still count every try). Empty when no cap applied."""
    notes: list[tuple[str, dict]] = []
    if len(answer) > MAX_STORED_ANSWER_CHARS:
        notes.append(("progress.caps.answer_cut",
                      {"limit": f"{MAX_STORED_ANSWER_CHARS:,}", "size": f"{len(answer):,}"}))
    if rec is not None and rec.tries > MAX_STORED_ATTEMPTS:
        notes.append(("progress.caps.attempts_kept", {"limit": MAX_STORED_ATTEMPTS, "tries": rec.tries}))
    return notes


def _dicts(cursor) -> list[dict]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _record(row: dict) -> Record:
    data = {k: row[k] for k in Record.__dataclass_fields__}
    data["revealed"] = bool(data["revealed"])
    return Record(**data)


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` is now (device, inode), or None when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class ProgressStore(SqlProgressStore):
    """Progress for every learner in one SQLite file (``folder``/progress.sqlite3): the
    default back end, nothing to configure.

    One store holds one connection, shared by every Streamlit session thread behind a
    lock (opening a connection per call costs a WAL checkpoint each time the last one
    closes: ~35 ms per save, measured). Other processes may use the same file: every
    write takes the write lock up front (BEGIN IMMEDIATE) and waits up to 30 s for it; reads take none (WAL).
    A save waiting for it lets go of the shared lock between short tries, so the process's reads go on.
    The schema is migrated when the store opens (an older file is upgraded in place).
    An existing file that cannot be written (read-only file or folder) is opened read-only:
    ``read_only`` is then True, progress is still read, and every write raises StorageError, until the file and
    its folder are writable again (looked at every READ_ONLY_RECHECK s): it is then reopened for writing.
    Raises StorageError if the file cannot be opened (or, writable, migrated).
    """

    def __init__(self, folder: Path | None = None, *, export: bool = False):
        #: Opened to read the class for an export: read-only from the start, the file never set up, upgraded or
        #: reopened for writing (an export of an empty file made its tables in it).
        self._export = export
        if (folder is None or Path(folder) == data_dir()) and (setting := data_dir_setting_problem()) is not None:
            raise StorageError(setting, setup=True)  # the folder the setting names, not one a caller chose
        self.folder = Path(folder or data_dir()).expanduser()
        self.path = self.folder / DB_NAME
        self._where = escape_line(str(self.path))
        self._move = f"move it away, or point {_SETTING.split(',')[0]} at another folder"
        self._lock = threading.RLock()
        #: The class-wide reads' own connection (_class_tx), made on the first; one class-wide read at a time.
        self._class_db: sqlite3.Connection | None = None
        self._class_lock = threading.Lock()
        self._recheck_at = 0.0  # when a read-only store next looks at whether it can write
        self._open()

    def _open(self) -> None:
        """Connect to ``self.path`` (made and migrated if needed, else read-only) and note which file it is."""
        self.read_only = False
        #: Why the store is read-only (cannot_write_problem), "" when it is not.
        self.read_only_problem = ""
        #: Which files the -wal and -shm beside the database were when this connection made them (None: read-only)
        self._wal_files: tuple | None = None
        # the class-wide reads connect again, as this connection is made (a read under way keeps the old one)
        self._class_db, self._class_target = None, (str(self.path), False)
        if self._export:
            self._open_for_export()
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if companion_problem(self.path) is not None:  # a -journal FIFO: SQLite waited on it for ever
                raise _OddCompanion
            self._db = _connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self._file = _identity(self.path)  # the file connected to (migrate's transaction checks it)
            self._refuse_others_unless_damaged()  # before WAL mode, which writes the file's header
            _busy_retry(self._db, "PRAGMA journal_mode=WAL")  # refused at once while another process sets up
            self._db.execute("PRAGMA synchronous=NORMAL")  # with WAL: safe across crashes, fsync at checkpoints
            self.migrate()
            self._wal_files = self._companions()  # the -wal and -shm this connection writes through (_follow)
            if not self._writable():
                self.read_only, self.read_only_problem = True, cannot_write_problem(self.folder, self.path, None)
        except NotOurs:
            self._db.close()
            raise
        except (sqlite3.Error, OSError, StorageError, _OddCompanion) as exc:
            if not _is_file(self.path):
                setup = _setup_problem(self.folder, self.path, exc)
                why = setup or _open_failure(self.folder, exc)
                raise StorageError(why, setup=setup is not None, full=why == disk_full_problem(self.folder)) from exc
            # Read-only; in a folder that cannot be written WAL mode cannot make its -shm file, so "mode=ro" alone
            # fails ("attempt to write a readonly database"): then the file is read as it is (immutable).
            # A file SQLite keeps beside it that is no regular file is not opened at all (immutable: no journal).
            for query in ("mode=ro", "mode=ro&immutable=1")[isinstance(exc, _OddCompanion):]:
                try:
                    self._class_target = (f"{self.path.resolve().as_uri()}?{query}", True)
                    self._db = _connect(self._class_target[0], uri=True, timeout=30,
                                               isolation_level=None, check_same_thread=False)
                    self._file = _identity(self.path)
                    self._refuse_others_unless_damaged()  # the same setup error as a writable folder's
                    self._db.execute("SELECT count(*) FROM progress")  # raises if even reading fails
                    break
                except sqlite3.Error as exc2:
                    failure = exc2
            else:
                setup = _setup_problem(self.folder, self.path, failure)
                why = setup or _open_failure(self.folder, failure, exc)
                raise StorageError(why, setup=setup is not None,
                                   full=why == disk_full_problem(self.folder)) from failure
            self.read_only, self.read_only_problem = True, cannot_write_problem(self.folder, self.path, exc)

    def _open_for_export(self) -> None:
        """Connect read-only to the database at ``self.path`` as it is: an empty or non-SQLite file, another
        program's database and one of an earlier release (which only the app upgrades) are named, never set up.
        SQLite's mode=ro shares the -wal of a process that has the file open; with no -wal beside it (no process
        has it open) the file is read as immutable, which makes no -wal or -shm beside it (mode=ro did: left
        behind, owned by whoever ran the export). Raises StorageError (setup: waiting will not help)."""
        self.read_only, self.read_only_problem = True, ""
        if not _is_file(self.path):
            raise StorageError(f"no progress database at {self._where}", setup=True)
        if (why := sqlite_file_problem(self.path) or companion_problem(self.path)) is not None:
            raise StorageError(why, setup=True)
        wal = os.path.lexists(self.path.with_name(self.path.name + "-wal"))
        self._class_target = (f"{self.path.resolve().as_uri()}?{'mode=ro' if wal else 'mode=ro&immutable=1'}", True)
        try:
            self._db = _connect(self._class_target[0], uri=True, timeout=30, isolation_level=None,
                                check_same_thread=False)
            self._file = _identity(self.path)
            self._refuse_others(self._db.execute)
            tables = _sqlite_tables(self._db.execute)
            found = (self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
                     if "schema_version" in tables else 0)
        except sqlite3.Error as exc:
            words = _damaged(exc)
            raise StorageError(damaged_problem(self.path, words) if words else _open_failure(self.folder, exc),
                               setup=True) from exc
        if found < SCHEMA_VERSION:
            self._db.close()
            raise StorageError(f"{self._where} was written by an earlier release (schema version {found}, this one "
                               f"reads {SCHEMA_VERSION}): start the app once, which upgrades it, then export again",
                               setup=True)

    def _follow(self) -> None:
        """Reopen when the file at ``self.path`` is no longer the one connected to: deleted (an instructor
        resetting the class while it runs) or replaced (a backup moved into place). SQLite keeps writing to the
        file it opened, so every later answer went to a deleted file and was gone at the next restart, with no
        word to anyone. Raises StorageError when the new file cannot be opened (a file that is not SQLite…)."""
        if _identity(self.path) != self._file:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._open()
        elif self._wal_files is not None and (now := self._companions()) != self._wal_files:
            self._save_wal(checkpoint=now[0] != self._wal_files[0])
            self._open()

    def _companions(self) -> tuple:
        """Which files the database's -wal and -shm are now (_identity each; None for one that does not exist)."""
        return tuple(_identity(self.path.with_name(self.path.name + suffix)) for suffix in ("-wal", "-shm"))

    def _save_wal(self, checkpoint: bool) -> None:
        """Close the connection, whose -wal or -shm was deleted or replaced under it (someone "cleaning up" the data
        folder while the class runs), after copying what its -wal holds into the database file when ``checkpoint``
        (the -wal is not the file at the path any more). The processes that had the database open kept writing to
        the deleted -wal they shared, a process started afterwards (the launcher restarting one) made a new one and
        saw none of it, and whichever closed last lost the rest: 3 of 14 answers of three processes were in the
        file, each of the 14 reported saved; with the -wal deleted alone, the next process to open read "database
        disk image is malformed" (break-it pass brk14ops). The checkpoint (TRUNCATE: the old -wal is emptied, so
        a later one through it finds nothing to copy) writes through the connection's open files, so the answers
        in the deleted -wal reach the database file; each process does this at its next transaction, then
        reconnects to what is beside the file now. With only the -shm gone the -wal is the one at the path, and a
        new -shm is rebuilt from it, so nothing is copied: a checkpoint through the old -shm would empty the -wal
        the others already write to. Never raises (what cannot be checkpointed is lost, as before)."""
        try:
            if checkpoint:
                self._db.execute(f"PRAGMA busy_timeout = {int(WAL_SAVE_WAIT * 1000)}")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            pass
        try:
            self._db.close()
        except sqlite3.Error:
            pass

    def _recheck_writable(self) -> None:
        """Reopen a read-only store once its file and folder can be written (os.access: modes only, at most every
        READ_ONLY_RECHECK s). The read-only message tells the operator to make both writable; the store decided
        once, when it opened, so every save still failed after the fix, until each process was restarted.
        Raises StorageError when the reopening fails (as _follow does)."""
        if not self.read_only or self._export or time.monotonic() < self._recheck_at:
            return
        self._recheck_at = time.monotonic() + READ_ONLY_RECHECK
        if os.access(self.path, os.W_OK) and os.access(self.folder, os.W_OK):
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._open()

    def _writable(self) -> bool:
        """False when SQLite refuses to write the file: a file this user cannot write opens without a word (and
        BEGIN IMMEDIATE succeeds on it), then every save failed as if the database were unreachable. A write
        that changes nothing, rolled back, finds out."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM progress WHERE 0")
            finally:
                self._db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY") or "readonly" in str(exc):
                return False
            raise
        return True

    def close(self) -> None:
        """Close the connections (the store cannot be used afterwards)."""
        with self._class_lock, self._lock:
            self._db.close()
            if self._class_db is not None:
                self._class_db.close()
                self._class_db = None

    def _lock_schema(self, execute) -> None:
        pass  # BEGIN IMMEDIATE already holds the database's write lock

    def _tables(self, execute) -> list[str]:
        return _sqlite_tables(execute)

    def _refuse_others_unless_damaged(self) -> None:
        """_refuse_others on the open connection; a damaged file is left to the steps after (it is named
        damaged, and what can still be read is shown)."""
        try:
            self._refuse_others(self._db.execute)
        except sqlite3.DatabaseError as exc:
            if _damaged(exc) is None:
                raise

    def _tx(self):
        # A read-only file cannot take the write lock: reads run in a plain transaction, and a write then fails
        # inside it (StorageError).
        return self._transaction("BEGIN" if self.read_only else "BEGIN IMMEDIATE")

    def _read_tx(self):
        """Reads take no write lock (WAL: they see the last commit while another connection writes). They took
        it up front like writes, so a write lock held elsewhere (another process's long save, an operator's
        sqlite3 shell or backup) made every page read wait up to 30 s, each behind the one before: the
        connection is shared by every session of the process."""
        return self._transaction("BEGIN")

    @contextmanager
    def _class_tx(self) -> Iterator:
        """A read of the whole class on a connection of its own (WAL: it sees the last commit and waits for no
        writer). On the shared connection it held the process's lock from its first row to its last, and every
        learner's read and save in the process waited behind it: the dashboard's reads of 100 000 learners and
        1 000 000 tries took 1.6–2.4 s each, and a student's page read waited up to 2.5 s on every rerun of the
        dashboard (issue 13, break-it pass brk13scale). The shared lock is held only to follow a replaced file
        and to connect. A file that is empty or not SQLite is named (StorageError, setup), never read as an empty
        class."""
        with self._class_lock:
            with self._lock:  # as every transaction: follow a replaced file, reopen once writable
                if _is_file(self.path) and (why := sqlite_file_problem(self.path)) is not None:
                    # the file emptied or replaced by one that is not SQLite: the dashboard and its downloads
                    # said an empty class, and following it made its tables (pass fix19left); a save still does
                    raise StorageError(why, setup=True)
                try:
                    self._follow()
                    self._recheck_writable()
                    if self._class_db is None:
                        target, uri = self._class_target
                        self._class_db = _connect(target, uri=uri, timeout=30, isolation_level=None,
                                                         check_same_thread=False)
                except (sqlite3.Error, OSError) as exc:
                    raise self._failure(exc) from exc
                db = self._class_db
            try:
                db.execute("BEGIN")
                try:
                    yield db.execute
                finally:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
            except (sqlite3.Error, OSError) as exc:
                raise self._failure(exc) from exc

    def _failure(self, exc: BaseException) -> StorageError:
        if self._export:  # read-only by choice: what went wrong, not "make the file writable"
            words = _damaged(exc)
            return StorageError(damaged_problem(self.path, words) if words else
                                f"the progress database failed ({type(exc).__name__}: {exc})", setup=True)
        if self.read_only:  # waiting will not make it writable: a setup problem
            return StorageError(self.read_only_problem or read_only_problem(self.path), setup=True)
        if (why := companion_problem(self.path)) is not None or (words := _damaged(exc)) is not None:
            # waiting will not help either: a save into a damaged file or past a -wal that is a FIFO fails each time
            return StorageError(why or damaged_problem(self.path, words), setup=True)
        if disk_full(self.folder, exc):  # may pass (space freed): not a setup problem, but say what it is
            return StorageError(disk_full_problem(self.folder), full=True)
        return StorageError(f"the progress database failed ({type(exc).__name__})")

    def _begin(self, begin: str) -> None:
        """Under ``self._lock``: BEGIN IMMEDIATE waits at most WRITE_RETRY s for a write lock held by another
        connection (raising SQLITE_BUSY after), any other BEGIN as the connection's 30 s busy timeout says."""
        if begin != "BEGIN IMMEDIATE":
            self._db.execute(begin)
            return
        self._db.execute(f"PRAGMA busy_timeout = {int(WRITE_RETRY * 1000)}")
        try:
            self._db.execute(begin)
        finally:
            self._db.execute("PRAGMA busy_timeout = 30000")

    @contextmanager
    def _transaction(self, begin: str) -> Iterator:
        """One transaction on the shared connection. A save waits up to WRITE_WAIT s for a write lock held by
        another connection in short tries, letting go of the shared lock between them: it waited holding it, so
        every other session's read in the process waited behind one save (up to 30 s)."""
        deadline = time.monotonic() + WRITE_WAIT
        while True:
            self._lock.acquire()
            try:
                self._follow()
                self._recheck_writable()
                self._begin(begin)
                break
            except sqlite3.OperationalError as exc:
                self._lock.release()
                busy = getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY or "locked" in str(exc)
                if busy and begin == "BEGIN IMMEDIATE" and time.monotonic() < deadline:
                    time.sleep(WRITE_RETRY)
                    continue
                raise self._failure(exc) from exc
            except (sqlite3.Error, OSError) as exc:
                self._lock.release()
                raise self._failure(exc) from exc
            except BaseException:
                self._lock.release()
                raise
        try:
            try:
                yield self._db.execute
            except BaseException:
                if self._db.in_transaction:  # SQLite rolled back already after SQLITE_FULL: a second ROLLBACK
                    self._db.execute("ROLLBACK")  # raised "no transaction is active", hiding why the save failed
                raise
            self._db.execute("COMMIT")
        except (sqlite3.Error, OSError) as exc:
            raise self._failure(exc) from exc
        finally:
            self._lock.release()


def open_store(database_url: str | None = None, folder: Path | None = None, *,
               export: bool = False) -> SqlProgressStore:
    """The progress store to use: PostgreSQL when ``database_url`` (else $TOOLCALL_DATABASE_URL)
    is a ``postgresql://`` or ``postgres://`` URL, else SQLite in ``folder`` (default
    data_dir()). Raises ValueError for any other non-empty URL (the message does not repeat
    it: it may hold a password), StorageError when SQLite cannot be opened (``setup`` True when
    waiting will not help: see StorageError). ``export``: opened only to read the class (SQLite: read-only, never set
    up or upgraded; see ProgressStore._open_for_export)."""
    url = (database_url if database_url is not None else os.environ.get("TOOLCALL_DATABASE_URL", "")).strip()
    if not url:
        return ProgressStore(folder, export=export)
    if (why := scheme_problem(url, "TOOLCALL_DATABASE_URL")) is None:
        from toolcall.progress_pg import PostgresProgressStore, pool_size
        return PostgresProgressStore(url, max_size=pool_size(), export=export)  # fewer when the launcher says so
    raise ValueError(why + (" (or be empty for SQLite)" if why.endswith("postgresql://") else ""))


#: A secrets file is a few lines; anything larger is not one (deploy/serve_class.py reads no more either).
MAX_SECRETS_CHARS = 100_000


def secrets_files(folder: Path | None = None, local: Path | None = None) -> list[Path]:
    """The secrets files Streamlit reads for an app started in ``folder`` (default: the current one), in its order (a
    later file's key wins): those STREAMLIT_SECRETS_FILES names (white-space separated) when it is set, else
    the files ``[secrets] files`` names in ``~/.streamlit/config.toml`` or ``<folder>/.streamlit/config.toml`` (the
    latter winning), else ``~/.streamlit/secrets.toml`` and ``<folder>/.streamlit/secrets.toml`` (streamlit/config.py,
    ``secrets.files``). ``local``: the app folder's secrets file when given (the launcher's SECRETS_FILE), its
    config.toml beside it."""
    named = os.environ.get("STREAMLIT_SECRETS_FILES")
    if named is not None:
        return [Path(p) for p in named.split()]
    local = local or Path(folder or Path.cwd()) / ".streamlit" / "secrets.toml"
    try:
        home_folder: Path | None = Path.home() / ".streamlit"
    except (RuntimeError, KeyError):  # no HOME and no passwd entry: Streamlit finds none either
        home_folder = None
    configured = configured_secrets_files([*([home_folder / "config.toml"] if home_folder else []),
                                            local.parent / "config.toml"])
    if configured is not None:
        return [Path(p) for p in configured]
    home = [home_folder / "secrets.toml"] if home_folder else []
    return [p for p in home if p != local] + [local]


def configured_secrets_files(configs: list[Path]) -> list[str] | None:
    """``[secrets] files`` as the Streamlit config files ``configs`` set it (a later file wins, as Streamlit reads
    ~/.streamlit/config.toml, then the app folder's), or None when none sets it to a list of paths. A config that
    cannot be read sets nothing here (Streamlit names it as it starts). The app read the PostgreSQL URL of a file
    named there while export and the launcher read the default files and took the data folder's old SQLite
    (break-it pass brk21probe)."""
    import tomllib

    from toolcall.files import ReadError, read_text_bounded

    found = None
    for config in configs:
        if not os.path.lexists(config):
            continue
        try:
            data = tomllib.loads(read_text_bounded(config, MAX_SECRETS_CHARS))
        except (ReadError, tomllib.TOMLDecodeError, RecursionError, MemoryError):
            continue
        files = data.get("secrets", {}).get("files") if isinstance(data.get("secrets"), dict) else None
        if isinstance(files, list) and all(isinstance(f, str) for f in files):
            found = list(files)  # as Streamlit reads them: no ~ expanded
    return found


def configured_database_url(folder: Path | None = None) -> str:
    """TOOLCALL_DATABASE_URL as the app started in ``folder`` reads it (ui.learner.database_url): the environment's,
    white space stripped (open_store strips it: ``TOOLCALL_DATABASE_URL= `` is SQLite), else the last of
    secrets_files() that sets it, whatever it sets it to (as the app: ``str(value or "")``); "" for SQLite.
    ``python -m toolcall export`` read the environment alone, so a class whose URL is in .streamlit/secrets.toml
    (README, "Scaling out") was exported from the SQLite file of the data folder, an old one or none ("no progress
    database at …"), and a URL of white space was tried as a server (break-it pass brk19new). Raises ValueError
    naming a secrets file that cannot be read, is not TOML or is nested past what tomllib can read (the reason
    only: a line of it may hold a password)."""
    import tomllib

    from toolcall.files import ReadError, read_text_bounded

    url = os.environ.get("TOOLCALL_DATABASE_URL", "").strip()
    if url:
        return url
    for path in reversed(secrets_files(folder)):
        if not os.path.lexists(path):
            continue
        try:
            data = tomllib.loads(read_text_bounded(path, MAX_SECRETS_CHARS))
        except ReadError as exc:
            raise ValueError(f"{escape_line(str(path))}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{escape_line(str(path))}: not a TOML file ({escape_line(str(exc))})") from None
        except (RecursionError, MemoryError) as exc:  # tomllib reads nested arrays and tables recursively: 20 000
            # "[" in 40 KB ended the export in "the input is larger or more deeply nested …", no file named (brk20new)
            raise ValueError(f"{escape_line(str(path))}: nested too deeply to read ({type(exc).__name__}); a "
                             "secrets file holds settings, one a line") from None
        if "TOOLCALL_DATABASE_URL" in data:  # the last file that sets it decides, as Streamlit merges them, and its
            # value is read as the app reads it (str(value or "")): an empty one in the app's folder over a URL in
            # ~/.streamlit was SQLite for the app and the server for export; 5 was refused by the app and was
            # SQLite for export (break-it pass brk20new)
            return str(data["TOOLCALL_DATABASE_URL"] or "").strip()
    return ""


def scheme_problem(url: str, source: str) -> str | None:
    """Why ``url`` (the setting ``source``) is not a ``postgresql://`` or ``postgres://`` URL, without repeating it
    (it may hold a password), or None. A URL in quotes (an env file or a systemd Environment= line keeps them:
    ``"postgresql://…"``) was refused as not starting with postgresql://, which it seemed to do."""
    if url.split("://", 1)[0] in ("postgresql", "postgres"):
        return None
    if url[:1] in ("'", '"') and url[1:].split("://", 1)[0] in ("postgresql", "postgres"):
        return f"{source} is written in quotes, which are read as part of the URL: remove them"
    return f"{source} must start with postgresql://"


class PendingAnswers:
    """Graded answers that could not be saved yet (the database was unreachable), kept in a
    learner's session and saved, in order and each exactly once, by flush().

    Each answer keeps the attempt id and time it was given, so a flush that is retried after
    a save whose reply was lost counts nothing twice. At most ``limit`` answers are kept
    (add() returns False beyond that: the page says so).
    """

    def __init__(self, limit: int = 500):
        self.limit = limit
        self.items: list[dict] = []
        #: Answers graded while the queue was full: neither saved nor kept (the page must say so, not
        #: "kept in this tab: 500").
        self.dropped = 0
        #: Why the last flush stopped (a StorageError), None once everything queued is saved: the page says
        #: "the server's disk is full" rather than "cannot be reached" when that is why.
        self.last_error: StorageError | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.items)

    def add(self, learner: str, exercise_id: str, answer: str, score: float, max_score: float) -> bool:
        """Queue one graded try; False if the queue is full."""
        with self._lock:
            if len(self.items) >= self.limit:
                return False
            self.items.append({"learner": learner, "exercise_id": exercise_id, "answer": stored_answer(answer),
                               "score": score,
                               "max_score": max_score, "attempt_id": secrets.token_hex(16), "at": _now("microseconds")})
            return True

    def save(self, store: SqlProgressStore, learner: str, exercise_id: str, answer: str, score: float,
             max_score: float) -> Record | None:
        """Save one graded try after the queued ones; if the database is unusable, queue it
        and return None (the caller says progress is not being saved). Never raises StorageError."""
        if not self.add(learner, exercise_id, answer, score, max_score):
            with self._lock:
                self.dropped += 1
        self.flush(store)
        with self._lock:
            if self.items:
                return None
        try:
            return store.get(learner, exercise_id)
        except StorageError:
            return None

    def flush(self, store: SqlProgressStore) -> int:
        """Save the queued answers, oldest first, stopping at the first StorageError; returns
        how many were saved."""
        saved = 0
        with self._lock:
            while self.items:
                item = self.items[0]
                try:
                    store.record(**item)
                except StorageError as exc:
                    self.last_error = exc
                    break
                self.items.pop(0)
                saved += 1
            if not self.items:
                self.last_error = None
        return saved


EXPORT_FIELDS = ("learner", "exercise_id", "page", "type", "title", "best_score", "max_score", "last_score",
                 "tries", "failed_tries", "hints_shown", "revealed", "first_at", "updated_at", "last_answer")


def export_rows(learner: str, exercises: Iterable, records: dict[str, Record], lang: str = "en",
                max_scores: dict[str, float] | None = None) -> list[dict]:
    """One row per exercise (attempted or not) in EXPORT_FIELDS order, for an instructor.
    ``exercises`` are toolcall.exercises.Exercise objects; the title is in ``lang`` (``en``/``zh``);
    ``max_scores`` (exercise id -> points) fills max_score for exercises not tried yet, so the
    column adds up in a spreadsheet."""
    rows = []
    for ex in exercises:
        rec = records.get(ex.id)
        row = {"learner": learner, "exercise_id": ex.id, "page": ex.page, "type": ex.type,
               "title": ex.title.get(lang) or ex.title["en"]}
        if rec is None:
            points = (max_scores or {}).get(ex.id)  # floats, as the stored scores are, so a CSV column reads alike
            row.update(best_score=0.0, max_score=None if points is None else float(points), last_score=None, tries=0,
                       failed_tries=0, hints_shown=0, revealed=False, first_at=None, updated_at=None, last_answer="")
        else:
            row.update({k: v for k, v in asdict(rec).items() if k in EXPORT_FIELDS})
        rows.append({k: row[k] for k in EXPORT_FIELDS})
    return rows


def to_csv(rows: list[dict], fields: tuple[str, ...] = EXPORT_FIELDS) -> str:
    """CSV text with a header row (``fields``, default EXPORT_FIELDS). A cell that starts like a formula
    (starts_like_formula) is prefixed with ' so a spreadsheet never runs a learner's answer as a formula."""
    out = io.StringIO()
    write_csv(out, rows, fields)
    return out.getvalue()


def write_csv(stream: Any, rows: Iterable[dict], fields: tuple[str, ...] = EXPORT_FIELDS,
              line_end: str = "\r\n") -> None:
    """Write to_csv's text to the text stream ``stream`` row by row (the command line's ``eval --out csv`` on
    150 000 cases never holds the whole text). Rows end in CRLF (RFC 4180, as Excel writes them): the writer quotes
    a cell holding a character of its line terminator, and with "\n" alone a cell holding a bare CR went out
    unquoted, so a spreadsheet (which ends a row at a CR) split the row there and a learner's ``x\r=HYPERLINK(…)``
    became a new row starting with an unprefixed formula. ``line_end`` "\n" only for a stream that escapes every
    CR itself (the command line's stdout, toolcall.cli)."""
    writer = csv.DictWriter(stream, fieldnames=fields, lineterminator=line_end)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _csv_cell(v) for k, v in row.items()})


#: What a spreadsheet may read as the start of a formula: = + - @ (OWASP "CSV Injection"), and the
#: characters that begin a cell it may trim first: tab and CR (OWASP), LF (added to OWASP's list in 2025).
FORMULA_STARTS = "=+-@"
TRIMMED_STARTS = "\t\r\n"


def starts_like_formula(text: str) -> bool:
    """True for a text a spreadsheet might run: one starting with a FORMULA_STARTS character, or with a
    TRIMMED_STARTS one, or with other white space (a space, U+00A0, the ideographic space U+3000 …) before a
    FORMULA_STARTS character: LibreOffice's "trim spaces" import turns " =1+1" into a formula."""
    return text[:1] != "" and (text[:1] in TRIMMED_STARTS or text.lstrip()[:1] in tuple(FORMULA_STARTS))


def _csv_cell(value):
    """A cell: booleans as ``true``/``false`` (as the JSON export writes them); a text that starts like
    a formula (starts_like_formula) prefixed with '."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and starts_like_formula(value):
        return "'" + value
    return value


def to_csv_bytes(rows: list[dict], fields: tuple[str, ...] = EXPORT_FIELDS) -> bytes:
    """``to_csv`` as the download: UTF-8 with a BOM, so Excel reads Chinese titles as UTF-8
    (without it Excel assumes the system code page and shows mojibake)."""
    return ("\ufeff" + to_csv(rows, fields)).encode("utf-8")


def to_json(learner: str, rows: list[dict]) -> str:
    """``{"learner", "exported_at", "exercises": rows}`` as pretty JSON text."""
    return json.dumps({"learner": learner, "exported_at": _now(), "exercises": rows}, ensure_ascii=False, indent=2)
