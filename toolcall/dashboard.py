"""The class dashboard's numbers, tables, chart and exports, from the progress store's
class-wide rows (toolcall.progress: class_progress(), class_attempts()). No streamlit here.

Learners appear only by their pseudonymous ids (``swift-otter-7f3a9c``) unless the instructor
gives a display-name mapping (parse_name_map), which the caller keeps on the server.
Counts: a learner *tried* an exercise with ≥ 1 graded try, *solved* it with full marks as
best score, *revealed* it when the reference answer was shown; the median tries is over the
learners who tried. A wrong answer is a graded try without full marks; wrong answers are
grouped by their text with case, runs of spaces, Unicode forms and invisible characters ignored
(normalize_answer).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, UTC

import altair as alt
import pandas as pd

from toolcall.i18n import t
from toolcall import progress as _progress
from toolcall.progress import PROGRESS_FIELDS, to_csv_bytes, valid_learner, write_csv
from toolcall.text import escape_invisible, escape_line, escape_lookalikes, escaped_head, reading_key

#: Wrong answers listed per exercise; characters of an answer kept for grouping and display.
TOP_WRONG, ANSWER_CHARS = 3, 200
#: A display-name mapping may hold at most this many bytes and rows.
MAX_NAME_MAP_BYTES, MAX_NAME_MAP_ROWS = 1_000_000, 20_000
EXERCISE_FIELDS = ("exercise_id", "title", "tried", "solved", "revealed", "median_tries", "common_wrong")
LEARNER_FIELDS = ("learner", "name", "tried", "solved", "revealed", "tries", "last_active")


@dataclass(frozen=True)
class ClassData:
    """A class as the dashboard reads it: every progress row (``progress``, PROGRESS_FIELDS)
    and what the graded tries add, counted by the database: ``wrong`` (exercise_id, answer
    prefix, count; the most frequent groups per exercise: progress.WRONG_PREFIX_CHARS,
    WRONG_GROUPS_PER_EXERCISE), ``activity`` (time prefix, correct, tries), learners with a try in the last hour
    (``recent``) and the number of tries (``attempts``). Individual tries are read only for a
    drill-down or an export."""

    progress: pd.DataFrame
    wrong: pd.DataFrame
    activity: pd.DataFrame
    recent: frozenset
    attempts: int
    since: str
    bucket: str = "10min"
    #: With ``load(learners=n)``: ``progress`` holds the rows of the n most recently active learners only, and
    #: the class-wide numbers are the database's (progress.SqlProgressStore.class_counts); None: every row.
    counts: dict | None = None

    @classmethod
    def load(cls, store, now: datetime | None = None, bucket: str = "auto", answers: bool = False,
             learners: int | None = None) -> ClassData:
        """Read a whole class from a progress store (StorageError if it is unusable); "the last
        hour" ends at ``now`` (UTC, default now); activity is counted per ``bucket`` (``1min``, ``10min``
        or ``1h``; KeyError otherwise), or with ``auto`` per hour, then per minute when those hours span
        at most FINE_SPAN (a class session: at most 2 × 60 × 6 rows, however long the store's history).
        ``last_answer`` is read only with ``answers`` (the CSV export: up to
        progress.MAX_CSV_ANSWER_CHARS of them, each cut to an equal share past it): every render read each
        learner's last answer to each exercise, up to 8 000 characters apiece, and showed none of them; learner ids
        cost nothing to make.
        With ``learners`` (the page), only the rows of that many most recently active learners are read, and the
        database counts the rest (``counts``): a row for each of 100 000 learners' 5 exercises cost the page
        6.9 s and 594 MB on every rerun, to list 500 of them (issue 13, break-it pass brk13scale)."""
        coarse = "1h" if bucket == "auto" else bucket
        cut, tail = _BUCKETS[coarse]
        since = ((now or datetime.now(UTC)) - timedelta(hours=1)).astimezone(UTC).isoformat(timespec="seconds")
        if learners is None:
            rows = store.class_progress(as_tuples=True, answer_chars=None if answers else 0,
                                        answer_budget=_progress.MAX_CSV_ANSWER_CHARS if answers else None)
            counts = None
        else:
            rows, counts = store.class_recent_progress(learners), store.class_counts(since)
        summary = store.class_attempt_summary(since, cut, recent=counts is None)
        counted = summary["activity"]
        if bucket == "auto":
            bucket = coarse
            hours = sorted({str(r[0]) for r in counted})
            if hours and _parse_prefix(hours[-1], tail) - _parse_prefix(hours[0], tail) < FINE_SPAN:
                bucket = "1min"
                cut, tail = _BUCKETS[bucket]
                # every try: ``hours`` are all the store's, and a start no try is before cost SQLite 3× the pass
                counted = store.class_activity(cut)
        activity = (
            pd.DataFrame.from_records(counted, columns=["time", "correct", "tries"])
            if counted
            else pd.DataFrame(columns=["time", "correct", "tries"])
        )
        activity["time"] = activity["time"].astype(str) + tail
        return cls(
            pd.DataFrame.from_records(rows, columns=list(PROGRESS_FIELDS))
            if rows
            else pd.DataFrame(columns=list(PROGRESS_FIELDS)),
            pd.DataFrame.from_records(summary["wrong"], columns=["exercise_id", "answer", "count"])
            if summary["wrong"]
            else pd.DataFrame(columns=["exercise_id", "answer", "count"]),
            activity,
            frozenset(summary["recent"]),
            int(summary["count"]),
            since,
            bucket,
            counts,
        )


def _counted_stats(counts: dict) -> pd.DataFrame:
    """exercise_table's per-exercise columns from the database's counts (class_counts): tried, solved, revealed,
    and the median tries from how many learners tried each number of times (the mean of the two middle values
    for an even number, as pandas' median)."""
    spread: dict[str, list[tuple[int, int]]] = {}
    for ex_id, tries, n in counts["tries"]:
        spread.setdefault(ex_id, []).append((int(tries), int(n)))
    medians = {}
    for ex_id, pairs in spread.items():
        pairs.sort()
        total = sum(n for _, n in pairs)
        middle = []
        seen = 0
        for tries, n in pairs:
            for at in ((total - 1) // 2, total // 2):
                if seen <= at < seen + n:
                    middle.append(tries)
            seen += n
        medians[ex_id] = sum(middle) / len(middle)
    index = [row[0] for row in counts["exercises"]]
    return pd.DataFrame({"tried": [int(r[1] or 0) for r in counts["exercises"]],
                         "solved": [int(r[2] or 0) for r in counts["exercises"]],
                         "revealed": [int(r[3] or 0) for r in counts["exercises"]],
                         "median_tries": [medians.get(ex_id, float("nan")) for ex_id in index]},
                        index=pd.Index(index, dtype=object))


def normalize_answer(text: str) -> str:
    """The grouping key of an answer: spaces collapsed, case folded, one Unicode form (NFC: ``café`` typed with a
    combining accent is ``café``) and no invisible characters (toolcall.text.reading_key), at most ANSWER_CHARS.
    Two answers the dashboard counts apart then never read the same (shown_answer escapes look-alikes)."""
    return reading_key(str(text), form="NFC")[:ANSWER_CHARS]


#: Times are stored as UTC ISO 8601 text, which sorts as time does: a bucket is a prefix
#: (characters kept, what completes it into a time).
_BUCKETS = {"1min": (16, ":00+00:00"), "10min": (15, "0:00+00:00"), "1h": (13, ":00:00+00:00")}
#: How long each bucket lasts: a bar spans its bucket, from ``time`` to ``end``.
BUCKET_LENGTH = {"1min": timedelta(minutes=1), "10min": timedelta(minutes=10), "1h": timedelta(hours=1)}
#: ``auto`` reads minutes when the hours with tries span less than this.
FINE_SPAN = timedelta(hours=6)
#: Widths a bar may span on the chart, narrowest first: the narrowest that the data's bucket divides and that
#: draws the whole span in at most MAX_BARS bars is used; axis labels fall on bar edges.
BAR_WIDTHS = tuple(timedelta(minutes=m) for m in (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440))
MAX_BARS, MIN_BARS = 48, 12
#: Distances between two axis labels, narrowest first (round times: tick_times lists them on the axis); the
#: narrowest that is a whole number of bars and leaves at most MAX_TICKS labels is used.
TICKS = tuple(timedelta(minutes=m) for m in (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080))
MAX_TICKS = 12


def _parse_prefix(prefix: str, tail: str) -> datetime:
    return datetime.fromisoformat(prefix + tail)


def readable_time(stored: str | None) -> str:
    """A stored UTC ISO 8601 time as ``2026-12-01 05:44`` (UTC, to the minute; the page says
    UTC once); "" for none; the text itself when it is not a time."""
    if not stored:
        return ""
    try:
        when = datetime.fromisoformat(str(stored))
    except ValueError:
        return str(stored)
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y-%m-%d %H:%M")


def best_cell(record, lang: str) -> str:
    """A learner's result on one exercise (a progress.Record) for the drill-down: the best score
    out of the maximum once graded; what they did otherwise (hints opened, answer shown, only
    opened), never a 0 / 0 score."""
    if record.tries:
        return f"{record.best_score:g} / {record.max_score:g}"
    done = []
    if record.hints_shown:
        done.append(t("dashboard_times.hints_opened", lang, count=record.hints_shown))
    if record.revealed:
        done.append(t("dashboard_times.answer_shown", lang))
    return t("dashboard_times.not_tried", lang, what="; ".join(done) or t("dashboard_times.only_opened", lang))


def shown_answer(text: str, limit: int | None = None) -> str:
    """A learner's answer as a dashboard cell shows it: invisible, bidirectional and look-alike characters
    (Cyrillic а, Greek ο, fullwidth ａ) as ``\\uXXXX`` (toolcall.text.escape_lookalikes), so two answers the
    dashboard counts apart never read the same; with ``limit``, at most that many characters as drawn, an escape
    counting its 6 or 12 (toolcall.text.escaped_head), then "…". Cut before escaping, the drill-down's 200 tries of
    500 tag characters (U+E0041) were 1.2 M characters per rerun, twelve times as many as plain letters (brk16web)."""
    text = str(text)
    return escape_lookalikes(text) if limit is None else escaped_head(text, limit, escape_lookalikes)


def common_wrong_cell(entries: list[dict], readable: Callable[[str], str] = str) -> str:
    """The "most common wrong answers" cell of one exercise: each ``{"answer", "count"}`` of exercise_table's
    ``common_wrong`` as a quoted JSON string (shown_answer) and its count, joined by `` · ``:
    ``"0.5" (×2) · "0.8" (×1)``. Quoted, an answer that itself holds `` (×30) · `` stays one answer: a student
    cannot make the instructor read a made-up answer and count. ``readable`` turns an answer into what the
    student saw first (toolcall.grading.readable_answer: option texts, not their ids)."""
    return " · ".join(f"{shown_answer(json.dumps(readable(w['answer']), ensure_ascii=False))} (×{w['count']})"
                      for w in entries)


def overview(data: ClassData) -> dict:
    """``{"learners": seen, "active_last_hour": n, "attempts": n}``: learners with any row;
    learners with a row updated or a try given since ``data.since``; graded tries."""
    if data.counts is not None:
        return {"learners": data.counts["learners"], "active_last_hour": data.counts["active"],
                "attempts": data.attempts}
    recent = set(data.progress.loc[data.progress["updated_at"] >= data.since, "learner"]) | data.recent
    return {
        "learners": int(data.progress["learner"].nunique()),
        "active_last_hour": len(recent),
        "attempts": data.attempts,
    }


def exercise_table(data: ClassData, titles: dict[str, str]) -> list[dict]:
    """One row per exercise (EXERCISE_FIELDS), in ``titles`` order (exercise id -> title)
    then any other id seen: ``common_wrong`` is a list of ``{"answer", "count"}``, most
    common first (TOP_WRONG at most; ties by answer text; answers grouped by
    normalize_answer); ``median_tries`` is None when nobody tried."""
    p = data.progress
    if data.counts is not None:  # counted by the database (ClassData.load with learners)
        stats = _counted_stats(data.counts)
        seen = set(stats.index)
    else:
        tried = p[p["tries"] > 0]
        solved = tried[(tried["max_score"] > 0) & (tried["best_score"] >= tried["max_score"])]
        stats = pd.DataFrame(
            {
                "tried": tried.groupby("exercise_id")["learner"].nunique(),
                "solved": solved.groupby("exercise_id")["learner"].nunique(),
                "revealed": p[p["revealed"].astype(bool)].groupby("exercise_id")["learner"].nunique(),
                "median_tries": tried.groupby("exercise_id")["tries"].median(),
            }
        )
        seen = set(p["exercise_id"])
    wrong = data.wrong
    common: dict[str, list[dict]] = {}
    if len(wrong):
        keys = wrong["answer"].astype(str).map(normalize_answer)
        counted = (
            wrong.assign(key=keys)
            .groupby(["exercise_id", "key"])["count"]
            .sum()
            .reset_index()
            .sort_values(["exercise_id", "count", "key"], ascending=[True, False, True])
        )
        for ex_id, group in counted.groupby("exercise_id", sort=False):
            common[ex_id] = [
                {"answer": k, "count": int(c)} for k, c in zip(group["key"][:TOP_WRONG], group["count"][:TOP_WRONG])
            ]
    ids = list(titles) + sorted(seen - set(titles))
    rows = []
    for ex_id in ids:
        s = stats.loc[ex_id] if ex_id in stats.index else None

        def count(col: str, s=s) -> int:
            return 0 if s is None or pd.isna(s[col]) else int(s[col])

        median = None if s is None or pd.isna(s["median_tries"]) else float(s["median_tries"])
        rows.append(
            {
                "exercise_id": ex_id,
                "title": titles.get(ex_id, ex_id),
                "tried": count("tried"),
                "solved": count("solved"),
                "revealed": count("revealed"),
                "median_tries": median,
                "common_wrong": common.get(ex_id, []),
            }
        )
    return rows


#: Learners the dashboard's table and drill-down list (the most recently active); the exports hold them all. Learner
#: ids are made by visiting (``?learner=``), so a script saving one answer under each of 20 000 new ids made the page
#: send 4.0 MB on every rerun (2.7 MB of table, 1.3 MB of drill-down options) and cost 1.5 s of CPU (issue 13).
MAX_LISTED_LEARNERS = 500


def learner_table(data: ClassData, names: dict[str, str] | None = None) -> list[dict]:
    """One row per learner (LEARNER_FIELDS), most recently active first: exercises tried,
    solved, revealed, total tries, last activity (UTC ISO 8601); ``name`` from ``names``
    (the instructor's mapping) or ""."""
    p = data.progress
    if not len(p):
        return []
    p = p.assign(
        is_tried=p["tries"] > 0,
        is_solved=(p["tries"] > 0) & (p["max_score"] > 0) & (p["best_score"] >= p["max_score"]),
        is_revealed=p["revealed"].astype(bool),
    )
    g = p.groupby("learner").agg(
        tried=("is_tried", "sum"),
        solved=("is_solved", "sum"),
        revealed=("is_revealed", "sum"),
        tries=("tries", "sum"),
        last_active=("updated_at", "max"),
    )
    g = g.sort_values(["last_active", "learner"], ascending=[False, True])
    names = names or {}
    return [
        {
            "learner": who,
            "name": names.get(who, ""),
            "tried": int(r["tried"]),
            "solved": int(r["solved"]),
            "revealed": int(r["revealed"]),
            "tries": int(r["tries"]),
            "last_active": r["last_active"],
        }
        for who, r in zip(g.index, g.to_dict(orient="records"))
    ]


#: Characters of one answer a drill-down cell shows (read from the store: one more, to know it was cut). A
#: learner's tries are up to MAX_STORED_ATTEMPTS per exercise of up to MAX_STORED_ANSWER_CHARS each: whole,
#: one drill-down sent tens of MB to the instructor's browser.
DETAIL_ANSWER_CHARS = 500


#: Tries the drill-down lists (the newest): a learner who sent MAX_STORED_ATTEMPTS long answers to each of 21
#: exercises made it a 1.2 MB table on every rerun of the dashboard (break-it pass brk10web2), and it grew with
#: every exercise added. The JSON export keeps every stored try.
SHOWN_ATTEMPTS = 200


def learner_detail(store, learner: str) -> dict:
    """One learner's rows from a progress store: ``{"progress": [Record], "attempts": [ATTEMPT_FIELDS rows: the
    newest SHOWN_ATTEMPTS, oldest first, each answer cut to DETAIL_ANSWER_CHARS + 1 characters], "attempts_total":
    how many tries the store keeps}``. Raises ValueError for an invalid learner id."""
    return {"progress": list(store.all(learner).values()),
            "attempts": store.attempts(learner, answer_chars=DETAIL_ANSWER_CHARS + 1, newest=SHOWN_ATTEMPTS),
            "attempts_total": store.attempt_count(learner)}


def _records(frame: pd.DataFrame) -> list[dict]:
    return [
        {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()} for row in frame.to_dict(orient="records")
    ]


def activity_frame(data: ClassData) -> pd.DataFrame:
    """Graded tries per time bucket (ClassData.load's) and outcome: columns ``time`` (UTC
    start of the bucket), ``outcome`` (``correct``/``wrong``), ``tries``; empty buckets absent."""
    a = data.activity
    frame = pd.DataFrame(
        {
            "time": pd.to_datetime(a["time"], utc=True, format="ISO8601", errors="coerce"),
            "outcome": a["correct"].astype(int).map({1: "correct", 0: "wrong"}),
            "tries": a["tries"].astype(int),
        }
    )
    return frame.dropna().reset_index(drop=True)


@dataclass(frozen=True)
class ActivityBins:
    """How the activity chart bins and labels time: each bar spans ``width``; the axis runs from ``start``
    to ``end`` (UTC; at least MIN_BARS widths, the tries centred) with a label every ``tick`` (TICKS: a whole
    number of widths, at most MAX_TICKS labels), written with ``label_format``."""

    width: timedelta
    start: pd.Timestamp
    end: pd.Timestamp
    tick: timedelta
    label_format: str


def activity_bins(frame: pd.DataFrame, bucket: str) -> ActivityBins | None:
    """The bins of activity_frame(data) (None when it is empty): the narrowest BAR_WIDTHS width that
    ``bucket``'s length divides and that covers the span of the tries in at most MAX_BARS bars."""
    if frame.empty:
        return None
    step = BUCKET_LENGTH[bucket]
    first, last = frame["time"].min(), frame["time"].max() + step
    usable = [w for w in BAR_WIDTHS if w >= step and w % step == timedelta(0)] or [step]
    width = next((w for w in usable if (last - first) / w <= MAX_BARS), usable[-1])
    start, end = first.floor(width), (last - pd.Timedelta(1, "us")).floor(width) + width
    missing = MIN_BARS - round((end - start) / width)
    if missing > 0:  # a short burst is drawn at its times, not stretched across the whole chart
        start, end = start - (missing // 2) * width, end + (missing - missing // 2) * width
    ticks = [w for w in TICKS if w >= width and w % width == timedelta(0)]
    tick = next((w for w in ticks if (end - start) / w <= MAX_TICKS), ticks[-1] if ticks else width)
    days = start.date() != (end - pd.Timedelta(1, "us")).date()
    label = "%m-%d" if width >= timedelta(days=1) else ("%m-%d %H:%M" if days else "%H:%M")
    return ActivityBins(width, start, end, tick, label)


def _ms(when: pd.Timestamp) -> int:
    return int(when.timestamp() * 1000)


def _datetime(when: pd.Timestamp) -> dict:
    """A UTC time as a Vega-Lite DateTime object (month 1-12)."""
    return {"year": when.year, "month": when.month, "date": when.day, "hours": when.hour, "minutes": when.minute,
            "utc": True}


def activity_chart(data: ClassData, lang: str) -> alt.Chart:
    """Stacked bars of graded tries over time (activity_frame) binned by activity_bins, labelled in ``lang``:
    each bar spans its bin (time .. end) where its tries happened, one label per tick on a UTC axis (the
    default ticks every 30 s wrote each minute twice, and four tries in one ten-minute bucket filled the chart)."""
    frame = activity_frame(data)
    bins = activity_bins(frame, data.bucket)
    names = [t("dashboard.outcome_correct", lang), t("dashboard.outcome_wrong", lang)]
    axis = alt.Axis(format="%H:%M", labelOverlap=True)
    scale = alt.Scale(type="utc")
    if bins is not None:
        width = pd.Timedelta(bins.width)
        frame = (frame.assign(time=frame["time"].dt.floor(width))
                 .groupby(["time", "outcome"], as_index=False)["tries"].sum())
        frame = frame.assign(end=frame["time"] + width)
        # the ticks are listed (round times, one per bins.tick): Vega's own ticks fell every 30 s, each minute
        # written twice, and its {"interval": …} tick counts fail in Streamlit's build ("reading 'every'")
        # (as Vega-Lite DateTime objects: listed as epoch milliseconds, no label was drawn at all)
        axis = alt.Axis(format=bins.label_format, labelOverlap=True, values=[_datetime(x) for x in tick_times(bins)],
                        grid=False)
        scale = alt.Scale(type="utc", domain=[_ms(bins.start), _ms(bins.end)], nice=False)
    else:
        frame = frame.assign(end=frame["time"])
    frame = frame.assign(outcome=frame["outcome"].map(lambda o: t(f"dashboard.outcome_{o}", lang)))
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("time:T", title=t("dashboard_times.chart_time_utc", lang), scale=scale, axis=axis),
            x2="end:T",
            # whole answers: no 0.2, 0.4 … ticks on a count
            y=alt.Y("sum(tries):Q", title=t("dashboard.chart_tries", lang), stack=True,
                    axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("outcome:N", title=None, scale=alt.Scale(domain=names, range=["#2e7d32", "#c62828"])),
            tooltip=[
                alt.Tooltip("time:T", title=t("dashboard_times.chart_time_utc", lang), format="%H:%M",
                            formatType="utc"),
                alt.Tooltip("outcome:N", title=None),
                alt.Tooltip("tries:Q"),
            ],
        )
        .properties(height=220)
    )


def tick_times(bins: ActivityBins) -> list[pd.Timestamp]:
    """Where the activity chart's axis labels go: every round multiple of ``bins.tick`` (from midnight UTC)
    from ``bins.start`` to ``bins.end``, both included."""
    tick = pd.Timedelta(bins.tick)
    at = bins.start.ceil(tick) if tick <= pd.Timedelta(days=1) else bins.start.ceil("D")
    times = []
    while at <= bins.end:
        times.append(at)
        at += tick
    return times


class NameMapError(ValueError):
    """A display-name mapping that was not used: ``code`` (a key under ``dashboard.name_map`` in
    the locale files) and ``params``; ``render(lang)`` is the sentence to show (as plain text: it
    quotes the file)."""

    def __init__(self, code: str, **params):
        super().__init__(f"{code}: {params}")
        self.code, self.params = code, params

    def render(self, lang: str) -> str:
        return t(f"dashboard.name_map.{self.code}", lang, **self.params)


#: Characters of a name map's first row quoted back when it is not the header.
NAME_MAP_SHOWN_CHARS = 80


def _name_map_delimiter(first: str) -> str:
    """The delimiter of a name map whose first row is ``first``: a comma, unless the header ``learner`` and ``name``
    (in any case) is separated by ``;`` (what Excel writes for "CSV" where a comma is the decimal sign) or a tab
    (a copy of two spreadsheet columns). Such a file was refused with "the first row must be the header
    learner,name", which its first row seemed to be (break-it pass brk13text)."""
    for delimiter in (",", ";", "\t"):
        if {"learner", "name"} <= {f.strip().strip('"').casefold() for f in first.split(delimiter)}:
            return delimiter
    return ","


#: Characters of a display name the dashboard draws, escapes included (toolcall.text.escaped_head): cut at 100
#: characters and then escaped, 500 names of 100 tag characters (U+E0041, each drawn as 12) made the table and the
#: drill-down's options 1.32 MB per rerun, where 100 plain letters make 218 KB (brk16web).
MAX_NAME_CHARS = 100


def parse_name_map(raw: bytes) -> dict[str, str]:
    """A display-name mapping from CSV bytes (UTF-8, header ``learner,name`` in any case, separated by commas,
    semicolons or tabs: :func:`_name_map_delimiter`): learner id ->
    name (whitespace runs as one space, invisible and bidirectional characters shown as ``\\uXXXX``:
    toolcall.text; at most MAX_NAME_CHARS characters as drawn, escapes included, a longer one cut with "…").
    Raises NameMapError (a ValueError) with
    code ``too_large`` (over MAX_NAME_MAP_BYTES), ``not_utf8`` (the byte offset), ``no_header`` (the first row,
    as ``found``),
    ``unreadable`` (a CSV the csv module refuses, e.g. a field over its 131 072-character limit,
    with the line), ``too_many_rows`` (over MAX_NAME_MAP_ROWS), ``bad_learner`` (the row and
    the first 80 characters of the id) or ``duplicate_learner`` (an id given two different names: the row, the id
    and the row that named it first; the same row twice is fine)."""
    if len(raw) > MAX_NAME_MAP_BYTES:
        raise NameMapError("too_large", size=f"{len(raw):,}", limit=f"{MAX_NAME_MAP_BYTES:,}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NameMapError("not_utf8", byte=exc.start) from None
    first = text.split("\n", 1)[0].rstrip("\r")
    reader = csv.DictReader(io.StringIO(text), delimiter=_name_map_delimiter(first))
    names: dict[str, str] = {}
    rows: dict[str, int] = {}  # the row each learner was first named on
    try:
        if not reader.fieldnames or not {"learner", "name"} <= {f.strip().casefold() for f in reader.fieldnames}:
            shown = escaped_head(first, NAME_MAP_SHOWN_CHARS, escape_line)
            raise NameMapError("no_header", found=shown)
        for n, row in enumerate(reader, start=2):
            if n - 1 > MAX_NAME_MAP_ROWS:
                raise NameMapError("too_many_rows", limit=f"{MAX_NAME_MAP_ROWS:,}")
            row = {(k or "").strip().casefold(): (v or "") for k, v in row.items() if isinstance(v, str) or v is None}
            learner = row.get("learner", "").strip()
            if not valid_learner(learner):
                raise NameMapError("bad_learner", row=n, value=escaped_head(learner, 80, escape_invisible))
            name = escaped_head(" ".join(row.get("name", "").split()), MAX_NAME_CHARS, escape_invisible)
            if names.get(learner, name) != name:  # the same id twice with two names: one would be dropped unseen
                raise NameMapError("duplicate_learner", row=n, learner=learner, first=rows[learner])
            names[learner] = name
            rows.setdefault(learner, n)
    except csv.Error:
        raise NameMapError("unreadable", line=reader.line_num + 1) from None  # the line being read
    return names


def export_csv(data: ClassData, names: dict[str, str] | None = None) -> bytes:
    """Every progress row of the class as the CSV download (PROGRESS_FIELDS plus ``name``; ``data``
    loaded with ``answers=True``, or its last_answer cells are empty):
    UTF-8 with a BOM, cells that start like a formula prefixed with ', as the student export
    writes it (toolcall.progress.to_csv_bytes, one place)."""
    names = names or {}
    rows = [
        {**row, "name": names.get(row["learner"], ""), "revealed": bool(row["revealed"])}
        for row in _records(data.progress)
    ]
    return to_csv_bytes(rows, fields=("learner", "name") + PROGRESS_FIELDS[1:])


def export_json(
    data: ClassData,
    titles: dict[str, str],
    attempts: list[dict],
    names: dict[str, str] | None = None,
    now: datetime | None = None,
    attempts_left_out: int = 0,
) -> str:
    """Everything as JSON text: overview, exercise_table, learner_table and the graded tries
    (``attempts``, ``attempts_left_out``: the store's export_attempts(), which keeps the newest tries
    up to MAX_EXPORT_ANSWER_BYTES of answers and counts the older ones it left out)."""
    return json.dumps(
        {
            "exported_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
            "overview": overview(data),
            "exercises": exercise_table(data, titles),
            "learners": learner_table(data, names),
            "attempts": attempts,
            "attempts_left_out": attempts_left_out,
        },
        ensure_ascii=False,
        indent=2,
    )


#: Learners the dashboard's download buttons serve a file for. Streamlit holds a download's whole bytes in the
#: server's memory, so past this the page names the command that writes the files on the server
#: (``python -m toolcall export``), which holds one page of rows at a time whatever the class.
MAX_PAGE_EXPORT_LEARNERS = 10_000


def _json_member(key: str, value) -> str:
    """``"key": value`` as json.dumps(indent=2) writes it one level inside the top object (no trailing comma)."""
    return json.dumps({key: value}, ensure_ascii=False, indent=2)[2:-2]


def _json_list(out, key: str, pages) -> int:
    """Write the member ``key`` (a list of the items ``pages`` yields, list by list) to the binary stream ``out`` as
    json.dumps(indent=2) writes it one level inside the top object; returns the number of items."""
    out.write(f'  "{key}": ['.encode())
    count = 0
    for page in pages:
        for item in page:
            text = json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n    ")
            out.write((",\n    " if count else "\n    ").encode() + text.encode("utf-8"))
            count += 1
    out.write(b"\n  ]" if count else b"]")
    return count


def write_export_json(store, titles: dict[str, str], out, names: dict[str, str] | None = None,
                      now: datetime | None = None, answer_bytes: int = _progress.MAX_EXPORT_ANSWER_BYTES) -> None:
    """Write export_json's file for the whole class to the binary stream ``out`` (UTF-8), byte for byte what
    ``export_json(ClassData.load(store), titles, *store.export_attempts(), names, now)`` returns, holding one page
    of rows at a time (progress.EXPORT_PAGE_ROWS; ``answer_bytes`` is export_attempts' ``max_answer_bytes``): the
    class's numbers are counted by the database (ClassData.load with ``learners=0``), the learners and the tries
    are read page by page (class_learner_pages, export_attempt_pages). Built whole, 100 000 learners' rows took
    594 MB of the class server (bench/README.md section S). Raises StorageError as the store's reads do."""
    data = ClassData.load(store, now=now, learners=0)
    names = names or {}
    out.write(b"{\n")
    for key, value in (("exported_at", (now or datetime.now(UTC)).isoformat(timespec="seconds")),
                       ("overview", overview(data)), ("exercises", exercise_table(data, titles))):
        out.write(_json_member(key, value).encode("utf-8") + b",\n")
    fields = LEARNER_FIELDS
    _json_list(out, "learners", ([dict(zip(fields, (who, names.get(who, ""), *rest))) for who, *rest in page]
                                 for page in store.class_learner_pages()))
    out.write(b",\n")
    total, pages = store.export_attempt_pages(answer_bytes)
    kept = _json_list(out, "attempts", pages)
    out.write(b",\n" + _json_member("attempts_left_out", total - kept).encode() + b"\n}")


def write_export_csv(store, out, names: dict[str, str] | None = None,
                     answer_budget: int = _progress.MAX_CSV_ANSWER_CHARS) -> None:
    """Write export_csv's file for the whole class to the binary stream ``out``, byte for byte what
    ``export_csv(ClassData.load(store, answers=True), names)`` returns (the same cut of last answers past
    progress.MAX_CSV_ANSWER_CHARS, or ``answer_budget``), a page of rows at a time (class_progress_pages)."""
    names = names or {}
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    text.write("\ufeff")
    at = PROGRESS_FIELDS.index("revealed")
    rows = ({"learner": row[0], "name": names.get(row[0], ""),
             **{f: (bool(v) if i == at else v) for i, (f, v) in enumerate(zip(PROGRESS_FIELDS, row)) if i}}
            for page in store.class_progress_pages(answer_budget) for row in page)
    write_csv(text, rows, fields=("learner", "name") + PROGRESS_FIELDS[1:])
    text.flush()
    text.detach()


def export_bytes(write, *args, **kwargs) -> bytes:
    """What ``write(*args, out, **kwargs)`` (write_export_json, write_export_csv) writes, as bytes: the download
    buttons' data (the page offers them only up to MAX_PAGE_EXPORT_LEARNERS)."""
    out = io.BytesIO()
    write(*args, out, **kwargs)
    return out.getvalue()
