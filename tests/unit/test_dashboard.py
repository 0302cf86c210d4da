"""The class dashboard's numbers (toolcall.dashboard) and the instructor sign-in rules
(toolcall.instructor), from a real store."""

import csv
import io
import json
import re
import sqlite3
import threading
from datetime import datetime, UTC

import pytest

from toolcall.dashboard import (ClassData, activity_chart, activity_frame, exercise_table, export_csv, export_json, learner_detail,
                                learner_table, normalize_answer, overview, parse_name_map,
                                NameMapError)
from toolcall.instructor import LoginThrottle, auth_mode, email_allowed, parse_emails, passphrase_matches, passphrase_problem
from toolcall.progress import ProgressStore

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PASSPHRASE = "open sesame 12"


@pytest.fixture
def store(tmp_path):
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "0.5", 0, 1, at="2026-11-30T11:30:00.000001+00:00")
    store.record("alice", "pk_pass3", "0.729", 1, 1, at="2026-11-30T11:31:00+00:00")
    store.record("bob", "pk_pass3", " 0.5 ", 0, 1, at="2026-11-30T09:00:00+00:00")
    store.record("bob", "pk_pass3", "0.9", 0, 1, at="2026-11-30T09:01:00+00:00")
    store.record("bob", "pk_pass3", "0.8", 0, 1, at="2026-11-30T09:02:00+00:00")
    store.reveal("bob", "pk_pass3")
    store.show_hint("carol", "wt_order", 2)  # a hint, no try
    with sqlite3.connect(store.path) as db:  # pin the activity times the store stamped "now"
        for who, at in (("alice", "2026-11-30T11:31:00+00:00"), ("bob", "2026-11-30T09:02:00+00:00"),
                        ("carol", "2026-11-30T08:00:00+00:00")):
            db.execute("UPDATE progress SET updated_at = ? WHERE learner = ?", (at, who))
    db.close()
    yield store
    store.close()


@pytest.fixture
def data(store):
    return ClassData.load(store, NOW)


def test_overview_counts_learners_and_the_last_hour(data):
    assert overview(data) == {"learners": 3, "active_last_hour": 1, "attempts": 5}


def test_exercise_table_counts_and_groups_wrong_answers(data):
    rows = {r["exercise_id"]: r for r in exercise_table(data, {"pk_pass3": "pass^3", "pk_metric": "metric"})}
    assert list(rows) == ["pk_pass3", "pk_metric", "wt_order"]
    p = rows["pk_pass3"]
    assert (p["title"], p["tried"], p["solved"], p["revealed"], p["median_tries"]) == ("pass^3", 2, 1, 1, 2.5)
    assert p["common_wrong"] == [{"answer": "0.5", "count": 2}, {"answer": "0.8", "count": 1},
                                 {"answer": "0.9", "count": 1}]
    assert (rows["pk_metric"]["tried"], rows["pk_metric"]["median_tries"]) == (0, None)
    assert rows["wt_order"]["tried"] == 0 and rows["wt_order"]["title"] == "wt_order"


def test_learner_table_detail_and_names(data, store):
    table = learner_table(data, {"bob": "Bob B."})
    assert [(r["learner"], r["name"], r["tried"], r["solved"], r["revealed"], r["tries"]) for r in table] == [
        ("alice", "", 1, 1, 0, 2), ("bob", "Bob B.", 1, 0, 1, 3), ("carol", "", 0, 0, 0, 0)]
    detail = learner_detail(store, "bob")
    assert [a["answer"] for a in detail["attempts"]] == [" 0.5 ", "0.9", "0.8"]
    assert [(r.exercise_id, r.tries, r.revealed) for r in detail["progress"]] == [("pk_pass3", 3, True)]
    with pytest.raises(ValueError, match="invalid learner id"):
        learner_detail(store, "x' OR 1=1")


def test_activity_is_bucketed_by_outcome(store):
    frame = activity_frame(ClassData.load(store, NOW, bucket="1h"))
    assert [(str(t), o, n) for t, o, n in frame.itertuples(index=False)] == [
        ("2026-11-30 09:00:00+00:00", "wrong", 3), ("2026-11-30 11:00:00+00:00", "wrong", 1),
        ("2026-11-30 11:00:00+00:00", "correct", 1)]
    assert [str(t) for t in activity_frame(ClassData.load(store, NOW, bucket="10min"))["time"]][:2] == [
        "2026-11-30 09:00:00+00:00", "2026-11-30 11:30:00+00:00"]
    # auto (the page's): these hours span less than FINE_SPAN, so the tries are counted per minute
    fine = ClassData.load(store, NOW)
    assert fine.bucket == "1min"
    assert [str(t) for t in activity_frame(fine)["time"]] == [
        "2026-11-30 09:00:00+00:00", "2026-11-30 09:01:00+00:00", "2026-11-30 09:02:00+00:00",
        "2026-11-30 11:30:00+00:00", "2026-11-30 11:31:00+00:00"]


def test_an_empty_class(tmp_path):
    empty = ClassData.load(ProgressStore(tmp_path))
    assert overview(empty) == {"learners": 0, "active_last_hour": 0, "attempts": 0}
    assert activity_frame(empty).empty and learner_table(empty) == []
    assert exercise_table(empty, {"pk_pass3": "p"})[0]["tried"] == 0


def test_the_class_csv_is_written_as_the_student_csv(data):
    """Issue 13: the dashboard's CSV had no UTF-8 BOM (Excel showed Chinese names as mojibake);
    it is now the student export's bytes (toolcall.progress.to_csv_bytes)."""
    from toolcall.progress import to_csv_bytes
    names = {"alice": "张伟", "bob": "李娜"}
    body = export_csv(data, names)
    assert body.startswith("\ufeff".encode("utf-8")) and body.count("\ufeff".encode("utf-8")) == 1
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert [(r["learner"], r["name"]) for r in rows] == [("alice", "张伟"), ("bob", "李娜"), ("carol", "")]
    assert body == to_csv_bytes([{k: (v if k != "revealed" else v == "true") for k, v in r.items()} for r in rows],
                                tuple(rows[0]))


def test_exports_hold_everything(data, store):
    rows = list(csv.DictReader(io.StringIO(export_csv(data, {"alice": "=cmd"}).decode("utf-8-sig"))))
    assert [(r["learner"], r["name"], r["tries"]) for r in rows] == [
        ("alice", "'=cmd", "2"), ("bob", "", "3"), ("carol", "", "0")]
    attempts, left_out = store.export_attempts()
    doc = json.loads(export_json(data, {"pk_pass3": "pass^3"}, attempts, now=NOW, attempts_left_out=left_out))
    assert doc["overview"]["learners"] == 3 and len(doc["attempts"]) == 5 and doc["attempts_left_out"] == 0
    attempts, left_out = store.export_attempts(max_answer_bytes=len("0.729"))  # alice's last try only
    doc = json.loads(export_json(data, {}, attempts, now=NOW, attempts_left_out=left_out))
    assert ([a["answer"] for a in doc["attempts"]], doc["attempts_left_out"]) == (["0.729"], 4)
    assert doc["exercises"][0]["common_wrong"][0] == {"answer": "0.5", "count": 2}


def test_name_map_is_checked_and_bounded():
    assert parse_name_map(b"learner,name\nalice, Alice  A. \n") == {"alice": "Alice A."}
    assert parse_name_map("learner,name\nbob,Bo\u202eb\u200b\n".encode()) == {"bob": "Bo\\u202eb\\u200b"}
    assert normalize_answer("  Ask  RETRY ") == "ask retry"
    # a row given twice with the same name is no contradiction (the second name read the same is kept)
    assert parse_name_map(b"learner,name\nalice,Alice\nalice, Alice \n") == {"alice": "Alice"}


def test_a_learner_named_twice_is_refused_in_words():
    """A roster listing one id twice with two names kept the second name and dropped the first without a word."""
    with pytest.raises(NameMapError) as caught:
        parse_name_map(b"learner,name\nalice,Alice Liu\nbob,Bo\nalice,Alice Wang\n")
    assert caught.value.render("en") == ("row 4 names learner alice again, with another name than row 2 gives; keep "
                                         "one row per learner.")
    assert caught.value.render("zh") == "第 4 行又写了一次学习者 alice，名字却和第 2 行不一样；每个学习者只保留一行。"


#: (CSV bytes, the NameMapError code and parameters it must raise): one per way a mapping is refused.
BAD_NAME_MAPS = [
    (b"learner,name\nalice,A\n../x,B\n", "bad_learner", {"row": 3, "value": "../x"}),
    ("learner,name\n\u200balice,A\n".encode(), "bad_learner", {"row": 2, "value": "\\u200balice"}),
    (b"id,who\nalice,A\n", "no_header", {"found": "id,who"}),
    (b"", "no_header", {"found": ""}),
    # the first row quoted back on one line, cut: what the file holds, not only what it should (brk13text)
    (b"learner name\r\nalice,A\n", "no_header", {"found": "learner name"}),
    ("学号,姓名\nalice,A\n".encode(), "no_header", {"found": "学号,姓名"}),
    (b"a\x1bb," + b"7" * 100 + b"\n", "no_header", {"found": "a\\u001bb," + "7" * 71 + "…"}),  # 80 drawn
    (b"learner,name\n" + b"a,b\n" * 300_000, "too_large", {"size": "1,200,013", "limit": "1,000,000"}),
    (b"learner,name\nalice,\xff\n", "not_utf8", {"byte": 19}),
    (b"learner,name\nalice," + b"x" * 200_000 + b"\n", "unreadable", {"line": 2}),
    (b"learner,name\n" + b"a,b\n" * 20_001, "too_many_rows", {"limit": "20,000"}),
    (b"learner,name\nL1,Alice Liu\nL2,Bo\nL1,Alice Wang\n", "duplicate_learner", {"row": 4, "learner": "L1", "first": 2}),
]


@pytest.mark.parametrize("raw, code, params", BAD_NAME_MAPS, ids=[c for _, c, _ in BAD_NAME_MAPS])
def test_a_refused_name_map_says_why_in_each_language(raw, code, params):
    """Issue 13: the reasons were English on the Chinese page; a field over the csv module's limit
    raised csv.Error, which the page did not catch (a traceback)."""
    with pytest.raises(NameMapError) as caught:
        parse_name_map(raw)
    assert (caught.value.code, caught.value.params) == (code, params)
    en, zh = caught.value.render("en"), caught.value.render("zh")
    for value in params.values():
        assert str(value) in en and str(value) in zh
    assert re.search(r"[\u4e00-\u9fff]", zh) and not re.search(r"\b(?!learner\b|name\b|UTF\b|CSV\b)[a-z]{4,}", zh)


@pytest.mark.parametrize("raw", [b"learner;name\nalice;Ada Liu\nbob;Bo\n", b"learner\tname\nalice\tAda Liu\nbob\tBo\n",
                                 b"Learner,Name\nalice,Ada Liu\nbob,Bo\n", "\ufeffLEARNER;Name\r\nalice;Ada Liu\r\nbob;Bo\r\n".encode(),
                                 b'"learner";"name"\nalice;Ada Liu\nbob;Bo\n'])
def test_a_name_map_with_semicolons_tabs_or_capitals_is_read(raw):
    """Excel writes "CSV" with semicolons where a comma is the decimal sign, and a header may be capitalised: each
    was refused with "the first row must be the header learner,name", which its first row seemed to be
    (break-it pass brk13text)."""
    assert parse_name_map(raw) == {"alice": "Ada Liu", "bob": "Bo"}


@pytest.mark.parametrize("written", [
    "Ada Lovelace <Ada@uni.edu>; Bob <bob@uni.edu>", "ada@uni.edu; bob@uni.edu", "ada@uni.edu bob@uni.edu",
    "ada@uni.edu\nbob@uni.edu\n", "\"Ada Lovelace\" <ada@uni.edu>, bob@uni.edu (teaching assistant)",
    ["Ada Lovelace <ada@uni.edu>", "bob@uni.edu; "]])
def test_an_instructor_list_copied_from_a_mail_program_names_each_address(written):
    """A list as a mail program copies it (display names in angle brackets, semicolons) or one address per line was
    one entry matching no one: the signed-in instructor read "your account is not on this class's instructor list"
    (break-it pass brk13text)."""
    emails = parse_emails(written)
    assert emails == {"ada@uni.edu", "bob@uni.edu"}
    assert email_allowed("Ada@uni.edu", emails) and email_allowed("bob@uni.edu", emails)
    assert not email_allowed("lovelace", emails) and not email_allowed("ada", emails)


def test_sign_in_rules():
    emails = parse_emails("Ada@uni.edu, bob@uni.edu ,")
    assert emails == {"ada@uni.edu", "bob@uni.edu"} and parse_emails(["x@y.z"]) == {"x@y.z"}
    assert parse_emails(None) == frozenset()
    assert auth_mode(True, emails, "") == "oidc"
    assert auth_mode(True, frozenset(), "a" * 12) == "passphrase"  # no e-mail list: st.login alone is not enough
    assert auth_mode(False, emails, "a" * 11) == "none"  # too short to count as configured
    assert email_allowed(" ADA@uni.edu", emails) and not email_allowed(None, emails)
    assert passphrase_matches("open sesame 1", "open sesame 1")
    # a BOM at the start of the settings value, a zero-width space pasted along: the instructor never matched
    assert parse_emails("\ufeffAda@uni.edu,bob\u200b@uni.edu") == {"ada@uni.edu", "bob@uni.edu"}
    assert parse_emails(["\u200b"]) == frozenset() and email_allowed("ada@uni.edu\u200b", emails)
    # an env file's quotes around the list (round 6): '"ada@uni.edu' and 'bob@uni.edu"' never matched
    assert parse_emails('"Ada@uni.edu, bob@uni.edu"') == {"ada@uni.edu", "bob@uni.edu"} == parse_emails("'Ada@uni.edu,bob@uni.edu'")
    assert not passphrase_matches("open sesame", "open sesame 1") and not passphrase_matches("", "")


def test_a_passphrase_matches_whichever_way_its_accents_were_composed():
    """"café" typed as é (U+00E9) did not match "café" saved as e + U+0301 (a file written on another system): the
    two read the same, and the instructor was told "wrong passphrase" with no way to see why."""
    composed, decomposed = "caf\u00e9 au lait 12", "cafe\u0301 au lait 12"
    assert passphrase_matches(composed, decomposed) and passphrase_matches(decomposed, composed)
    assert not passphrase_matches("cafe au lait 12", decomposed)
    # a no-break space copied from a document, an ideographic space from a Chinese input method: typed as spaces
    assert passphrase_matches("open sesame 12", "open\u00a0sesame\u00a012")
    assert passphrase_matches("open\u3000sesame 12", "open sesame 12")
    assert not passphrase_matches("open  sesame 12", "open sesame 12")  # a space is still a character


class FakeClock:
    """A monotonic clock that a sleep moves forward, so tries run in simulated time."""

    def __init__(self):
        self.now, self.slept = 100.0, []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_one_session_trying_again_at_once_waits_twice_as_long_each_time_up_to_the_cap():
    clock = FakeClock()
    throttle = LoginThrottle(base=1, cap=5, sleep=clock.sleep, clock=clock)
    answers = [throttle.attempt("guess", PASSPHRASE) for _ in range(6)]
    assert answers == [("wrong", 0), ("wrong", 1), ("wrong", 2), ("wrong", 4), ("wrong", 5), ("wrong", 5)]
    assert throttle.attempt(PASSPHRASE, PASSPHRASE) == ("ok", 5)  # the right one waits its slot like a wrong one
    assert throttle.attempt("guess", PASSPHRASE) == ("wrong", 1)  # a right try resets the count


def test_tries_from_many_sessions_at_once_share_one_queue_and_the_rest_are_not_checked():
    """The delay was per try: n sessions guessing at once got n answers per delay."""
    clock = FakeClock()
    throttle = LoginThrottle(base=1, cap=30, max_queue=60, sleep=clock.slept.append, clock=clock)  # time stands still
    answers = [throttle.attempt("guess", PASSPHRASE) for _ in range(8)]
    assert answers == [("wrong", 0), ("wrong", 1), ("wrong", 3), ("wrong", 7), ("wrong", 15), ("wrong", 31),
                       ("busy", 1), ("busy", 1)]
    assert throttle.attempt(PASSPHRASE, PASSPHRASE) == ("busy", 1)  # nothing checked: not even the right one
    clock.now += 1
    assert throttle.attempt(PASSPHRASE, PASSPHRASE) == ("ok", 60)


def test_tries_waiting_in_their_slots_count_as_wrong_for_the_slots_after_them():
    """Real threads: every try is held in its sleep until all have arrived, so none is counted yet."""
    release, arrived, waits = threading.Event(), threading.Semaphore(0), []

    def sleep(seconds):
        waits.append(seconds)
        arrived.release()
        release.wait(10)

    throttle = LoginThrottle(base=1, cap=30, max_queue=60, sleep=sleep, clock=lambda: 0.0)
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(throttle.attempt("guess", PASSPHRASE))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for _ in threads:
        assert arrived.acquire(timeout=10)
    assert sorted(waits) == [0, 1, 3, 7, 15, 31] and throttle.failures == 0
    assert throttle.attempt("guess", PASSPHRASE) == ("busy", 1)
    release.set()
    for thread in threads:
        thread.join(10)
    assert sorted(answers) == sorted(("wrong", w) for w in (0, 1, 3, 7, 15, 31)) and throttle.failures == 6


def test_activity_chart_is_a_valid_vega_lite_spec(data):
    # the page draws charts without Altair's schema check (ui.common.show_chart): it runs here
    spec = activity_chart(data, "zh").to_dict()  # validates; raises on an invalid spec
    assert spec["mark"] == {"type": "bar"}


def test_auto_buckets_read_hours_when_the_tries_span_more_than_six_hours(tmp_path):
    """Minutes are read only for a short span (at most 2 x 60 x 6 rows); a term's tries stay hourly."""
    store = ProgressStore(tmp_path)
    store.record("dan", "pk_pass3", "0.5", 0, 1, at="2026-11-20T08:15:00+00:00")
    store.record("dan", "pk_pass3", "0.729", 1, 1, at="2026-11-30T11:31:00+00:00")
    data = ClassData.load(store, NOW)
    store.close()
    assert data.bucket == "1h"
    assert [str(t) for t in activity_frame(data)["time"]] == ["2026-11-20 08:00:00+00:00", "2026-11-30 11:00:00+00:00"]


@pytest.mark.parametrize("passphrase, problem", [
    ("short one", "short"), (" " * 12, "blank"), ("\u3000" * 12, "blank"),
    ("first line of it\nsecond line", "control"), ("tab\tinside the passphrase", "control"),
    ("a passphrase\u2028on two lines", "control"), ("x" * 201, "long"),
    ("open sesame 12", None), ("x" * 200, None), ("  spaces around it  ", None), ("口令也可以是中文的十二个字呀", None),
    ("\ufeffopen sesame 12", "invisible"), ("open\u200bsesame 12", "invisible"), ("open ses\u00adame 12", "invisible"),
    ("\u200fopen sesame 12", "invisible"), ("\u200b" * 12, "invisible"), ("café au lait 12", None),
    ('"open sesame 12"', "quoted"), ("'open sesame 12'", "quoted"), ('"open sesame 12', None),
    ("'open' sesame 'x'", "quoted"), ('"12 chars in it"x', None)])
def test_a_passphrase_no_one_could_type_is_named_and_not_used(passphrase, problem):
    """A passphrase of spaces was accepted, and one with a line break (a multi-line TOML string), an invisible
    character (a BOM, a zero-width space or a soft hyphen copied along from a document) or over the sign-in box's 200
    characters could never be typed: the instructor was locked out with no word why."""
    assert passphrase_problem(passphrase) == problem
    assert auth_mode(False, frozenset(), passphrase) == ("passphrase" if problem is None else "none")
