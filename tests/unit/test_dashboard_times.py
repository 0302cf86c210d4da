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
