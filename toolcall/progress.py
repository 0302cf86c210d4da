"""Learners' exercise progress in SQLite (stdlib sqlite3, WAL), keyed by learner id.

One row per (learner, exercise): latest answer text, latest and best score, tries,
failed tries, hints shown, whether the answer was revealed, first and last timestamps.
The database lives in the data directory (``<repo>/data/`` unless TOOLCALL_DATA_DIR is
set), so a page refresh or a server restart loses nothing. Every query is parameterised
and filtered by learner id: one learner's rows are never read for another.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, UTC
from pathlib import Path
from collections.abc import Iterable, Iterator

from toolcall import REPO_ROOT

LEARNER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DB_NAME = "progress.sqlite3"
#: Tries that must fail before the reference answer may be revealed.
REVEAL_AFTER = 2

_ADJECTIVES = ("amber", "brave", "calm", "clever", "eager", "gentle", "happy", "keen", "lively", "lucky",
               "merry", "nimble", "quiet", "rapid", "steady", "sunny", "swift", "tidy", "vivid", "witty")
_NOUNS = ("otter", "falcon", "panda", "heron", "lynx", "koala", "finch", "badger", "dolphin", "fox",
          "gecko", "ibis", "marten", "owl", "puffin", "robin", "seal", "tapir", "wren", "yak")

_SCHEMA = """
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
    return Path(os.environ.get("TOOLCALL_DATA_DIR") or REPO_ROOT / "data").expanduser()


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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ProgressStore:
    """Progress for every learner in one SQLite file (``folder``/progress.sqlite3).

    One store holds one connection, shared by every Streamlit session thread behind a
    lock (opening a connection per call costs a WAL checkpoint each time the last one
    closes: ~35 ms per save, measured). Other processes may use the same file: writes
    take the lock up front and wait up to 30 s. Raises ValueError for an invalid learner id.
    """

    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder or data_dir()).expanduser()
        self.path = self.folder / DB_NAME
        self._lock = threading.RLock()
        #: True when the database exists but cannot be written (read-only file or folder):
        #: progress is still read; every write raises sqlite3.OperationalError.
        self.read_only = False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # with WAL: safe across crashes, fsync at checkpoints
            self._db.execute(_SCHEMA)
        except (sqlite3.OperationalError, OSError):
            if not self.path.is_file():
                raise
            self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30,
                                       isolation_level=None, check_same_thread=False)
            self._db.execute("SELECT count(*) FROM progress")  # raises if even reading fails
            self.read_only = True
        self._db.row_factory = sqlite3.Row

    def close(self) -> None:
        """Close the connection (the store cannot be used afterwards)."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that takes the write lock up front (BEGIN IMMEDIATE), so a
        busy database is waited for instead of failing half-way."""
        with self._lock:
            if self.read_only:
                raise sqlite3.OperationalError(f"{self.path} is read-only: progress is shown, not saved")
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _read(self, sql: str, params: tuple) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    @staticmethod
    def _check(learner: str) -> None:
        if not valid_learner(learner):
            raise ValueError(f"invalid learner id {str(learner)[:80]!r}")

    def _touch(self, db: sqlite3.Connection, learner: str, exercise_id: str, now: str) -> None:
        db.execute("INSERT OR IGNORE INTO progress (learner, exercise_id, first_at, updated_at) VALUES (?, ?, ?, ?)",
                   (learner, exercise_id, now, now))

    def record(self, learner: str, exercise_id: str, answer: str, score: float, max_score: float) -> Record:
        """Store one graded try (the answer text and its score) and return the updated row."""
        self._check(learner)
        now, failed = _now(), int(not (max_score > 0 and score >= max_score))
        with self._write() as db:
            self._touch(db, learner, exercise_id, now)
            db.execute("UPDATE progress SET last_answer = ?, last_score = ?, best_score = MAX(best_score, ?), "
                       "max_score = ?, tries = tries + 1, failed_tries = failed_tries + ?, updated_at = ? "
                       "WHERE learner = ? AND exercise_id = ?",
                       (answer, score, score, max_score, failed, now, learner, exercise_id))
        return self.get(learner, exercise_id)  # type: ignore[return-value]

    def show_hint(self, learner: str, exercise_id: str, available: int) -> Record:
        """Show one more hint (at most ``available``); returns the updated row."""
        self._check(learner)
        now = _now()
        with self._write() as db:
            self._touch(db, learner, exercise_id, now)
            db.execute("UPDATE progress SET hints_shown = MIN(hints_shown + 1, ?), updated_at = ? "
                       "WHERE learner = ? AND exercise_id = ?", (available, now, learner, exercise_id))
        return self.get(learner, exercise_id)  # type: ignore[return-value]

    def reveal(self, learner: str, exercise_id: str) -> bool:
        """Mark the answer revealed, allowed only after REVEAL_AFTER failed tries; returns
        whether it is (now) revealed."""
        self._check(learner)
        with self._write() as db:
            db.execute("UPDATE progress SET revealed = 1, updated_at = ? "
                       "WHERE learner = ? AND exercise_id = ? AND failed_tries >= ?",
                       (_now(), learner, exercise_id, REVEAL_AFTER))
        rec = self.get(learner, exercise_id)
        return bool(rec and rec.revealed)

    def get(self, learner: str, exercise_id: str) -> Record | None:
        """The row for (learner, exercise), or None before the first try or hint."""
        self._check(learner)
        rows = self._read("SELECT * FROM progress WHERE learner = ? AND exercise_id = ?", (learner, exercise_id))
        return _record(rows[0]) if rows else None

    def all(self, learner: str) -> dict[str, Record]:
        """Every row of ``learner``, by exercise id."""
        self._check(learner)
        rows = self._read("SELECT * FROM progress WHERE learner = ? ORDER BY exercise_id", (learner,))
        return {row["exercise_id"]: _record(row) for row in rows}


def _record(row: sqlite3.Row) -> Record:
    data = {k: row[k] for k in row.keys() if k != "learner"}
    data["revealed"] = bool(data["revealed"])
    return Record(**data)


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


def to_csv(rows: list[dict]) -> str:
    """CSV text with a header row (EXPORT_FIELDS). A cell starting with = + - @ is prefixed
    with ' so a spreadsheet never runs a learner's answer as a formula."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("'" + v if isinstance(v, str) and v[:1] != "" and v[:1] in "=+-@\t\r" else v)
                         for k, v in row.items()})
    return out.getvalue()


def to_json(learner: str, rows: list[dict]) -> str:
    """``{"learner", "exported_at", "exercises": rows}`` as pretty JSON text."""
    return json.dumps({"learner": learner, "exported_at": _now(), "exercises": rows}, ensure_ascii=False, indent=2)
