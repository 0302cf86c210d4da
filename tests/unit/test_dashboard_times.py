"""The dashboard's times are readable (UTC said once), a learner who only opened a hint shows what
they did rather than a 0 / 0 score, and the activity chart's bars span their buckets on a %H:%M UTC
axis (newcomer session 6, item 3)."""

from datetime import datetime, timedelta, UTC

import pandas as pd
import pytest

from tests.unit.test_dashboard import NOW, store  # noqa: F401  (the fixture: a real store)
from toolcall.dashboard import BUCKET_LENGTH, ClassData, activity_chart, best_cell, learner_table, readable_time
from toolcall.i18n import LANGS, t


@pytest.mark.parametrize("stored, shown", [
    ("2026-12-01T05:44:39.871270+00:00", "2026-12-01 05:44"),  # the newcomer's raw cell
    ("2026-12-01T13:44:00+08:00", "2026-12-01 05:44"),         # another offset is said in UTC
    ("", ""), (None, ""), ("not a time", "not a time"),
])
def test_readable_time(stored, shown):
    assert readable_time(stored) == shown


def test_the_learner_tables_last_activity_reads_as_a_time(store):  # noqa: F811
    rows = learner_table(ClassData.load(store, NOW))
    assert [readable_time(r["last_active"]) for r in rows] == ["2026-11-30 11:31", "2026-11-30 09:02",
                                                                "2026-11-30 08:00"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_learner_who_only_opened_a_hint_is_shown_what_they_did(store, lang):  # noqa: F811
    carol = store.all("carol")["wt_order"]
    assert carol.tries == 0
    cell = best_cell(carol, lang)
    assert cell == t("dashboard_times.not_tried", lang,
                     what=t("dashboard_times.hints_opened", lang, count=carol.hints_shown))
    assert "0 / 0" not in cell
    bob = store.all("bob")["pk_pass3"]
    assert best_cell(bob, lang) == "0 / 1"


@pytest.mark.parametrize("bucket", sorted(BUCKET_LENGTH))
def test_the_activity_bars_span_their_bucket_on_a_utc_hour_minute_axis(bucket):
    start = datetime(2026, 12, 1, 5, 30, tzinfo=UTC)
    times = [start, start + BUCKET_LENGTH[bucket]]
    activity = pd.DataFrame({"time": [x.isoformat() for x in times], "correct": [1, 0], "tries": [2, 3]})
    data = ClassData(pd.DataFrame(), pd.DataFrame(), activity, frozenset(), 5, "", bucket)
    spec = activity_chart(data, "en").to_dict()
    x = spec["encoding"]["x"]
    assert (x["axis"]["format"], x["scale"]["type"], spec["encoding"]["x2"]["field"]) == ("%H:%M", "utc", "end")
    rows = next(iter(spec["datasets"].values()))
    spans = {pd.Timestamp(r["end"]) - pd.Timestamp(r["time"]) for r in rows}
    assert spans == {pd.Timedelta(BUCKET_LENGTH[bucket])}
    assert timedelta(minutes=10) in BUCKET_LENGTH.values()


# --- newcomer session 7: every minute labelled twice; four tries 10:42-10:47 drawn as one 10:40-10:50 block ---

def _data(times, bucket, correct=None):
    activity = pd.DataFrame({"time": [x.isoformat() for x in times],
                             "correct": correct or [i % 2 for i in range(len(times))], "tries": [1] * len(times)})
    return ClassData(pd.DataFrame(), pd.DataFrame(), activity, frozenset(), len(times), "", bucket)


def _labels(spec):
    """The axis labels the chart draws: one per listed tick value, in the axis's format."""
    x = spec["encoding"]["x"]
    assert all(v["utc"] for v in x["axis"]["values"])
    return [datetime(v["year"], v["month"], v["date"], v["hours"], v["minutes"], tzinfo=UTC).strftime(x["axis"]["format"])
            for v in x["axis"]["values"]]


def _bars(spec):
    rows = next(iter(spec["datasets"].values()))
    return sorted((pd.Timestamp(r["time"]), pd.Timestamp(r["end"]), r["outcome"], r["tries"]) for r in rows)


def test_four_tries_in_five_minutes_sit_at_their_minutes_with_each_label_once():
    """The newcomer's class: tries at 10:42, 10:43, 10:45, 10:47 (one correct). One-minute bars at those
    minutes, the axis 10:39 to 10:51 (twelve bars, the tries centred), labelled once per minute."""
    at = [datetime(2026, 12, 1, 10, m, tzinfo=UTC) for m in (42, 43, 45, 47)]
    spec = activity_chart(_data(at, "1min", [0, 0, 0, 1]), "en").to_dict()
    x = spec["encoding"]["x"]
    assert x["scale"]["domain"] == [int(datetime(2026, 12, 1, 10, 39, tzinfo=UTC).timestamp() * 1000),
                                    int(datetime(2026, 12, 1, 10, 51, tzinfo=UTC).timestamp() * 1000)]
    assert (x["scale"]["type"], x["scale"]["nice"], x["axis"]["format"]) == ("utc", False, "%H:%M")
    assert x["axis"]["values"] == [{"year": 2026, "month": 12, "date": 1, "hours": 10, "minutes": m, "utc": True}
                                   for m in range(39, 52)]
    assert _labels(spec) == [f"10:{m}" for m in range(39, 52)]
    assert "tickCount" not in x["axis"]  # Streamlit's Vega fails on {"interval": …} tick counts: nothing drawn
    assert spec["encoding"]["y"]["axis"] == {"format": "d", "tickMinStep": 1}  # counts: no 0.2, 0.4 … ticks
    minute = pd.Timedelta(minutes=1)
    assert _bars(spec) == [(pd.Timestamp(a), pd.Timestamp(a) + minute, o, 1)
                           for a, o in zip(at, ["Wrong", "Wrong", "Wrong", "Correct"])]


@pytest.mark.parametrize("bucket", sorted(BUCKET_LENGTH))
@pytest.mark.parametrize("span", [timedelta(0), timedelta(minutes=5), timedelta(minutes=47), timedelta(hours=3),
                                  timedelta(hours=20), timedelta(days=3), timedelta(days=20), timedelta(days=90)])
def test_any_span_draws_each_label_once_and_each_bar_inside_the_axis(bucket, span):
    """The next class too, whatever its span and bucket: labels never repeat, there are at most MAX_TICKS of
    them (a week apart over a 90-day term), each bar is one bin wide and inside the axis,
    and the bars add up to the tries."""
    from toolcall.dashboard import MAX_TICKS

    first = datetime(2026, 11, 30, 22, 17, tzinfo=UTC)
    step = BUCKET_LENGTH[bucket]
    times = sorted({pd.Timestamp(first + span * k / 6).floor(step).to_pydatetime() for k in range(7)})
    spec = activity_chart(_data(times, bucket), "zh").to_dict()
    labels = _labels(spec)
    assert len(labels) == len(set(labels)) and 2 <= len(labels)
    # past 48 days a label a week (Vega restarts the count each month: 12-29, 01-01) and overlaps are dropped
    assert len(labels) <= (MAX_TICKS + 1 if span <= timedelta(days=48) else 20)
    start, end = (pd.Timestamp(v, unit="ms", tz="UTC") for v in spec["encoding"]["x"]["scale"]["domain"])
    bars = _bars(spec)
    widths = {b[1] - b[0] for b in bars}
    assert len(widths) == 1 and widths.pop() >= pd.Timedelta(step)
    assert all(start <= b[0] and b[1] <= end for b in bars)
    assert sum(b[3] for b in bars) == len(times)
