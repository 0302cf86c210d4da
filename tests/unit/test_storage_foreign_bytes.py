"""A text column holding bytes that are not UTF-8 (SQLite stores what a program gives it: ``CAST(x'ff' AS TEXT)``,
a C program's bytes, an import in another encoding) is read with U+FFFD where each bad byte was; every other value
is read as it is.

Before (break-it pass brk16cli): one such answer made every read that met it fail with "the progress database failed
(OperationalError)": the learner's own progress, the dashboard's reads, the JSON and CSV exports."""

import pytest

from tests.unit.test_storage_wrong_types import _change
from toolcall.progress import ProgressStore

LEARNER = "swift-otter-0123456789"
OTHER = "calm-heron-0123456789"


@pytest.fixture
def store(tmp_path):
    store = ProgressStore(tmp_path)
    store.record(LEARNER, "pk_pass3", "0.7", 1, 1)
    store.record(OTHER, "pk_pass3", "0.5", 0, 1)
    yield store
    store.close()


def test_an_answer_that_is_not_utf8_is_read_with_a_replacement_character(store):
    _change(store, f"UPDATE attempts SET answer = CAST(x'ff41e4b8' AS TEXT) WHERE learner = '{LEARNER}'")
    _change(store, f"UPDATE progress SET last_answer = CAST(x'41fe' AS TEXT) WHERE learner = '{LEARNER}'")
    assert [a["answer"] for a in store.attempts(LEARNER)] == ["\ufffdA\ufffd"]
    assert store.all(LEARNER)["pk_pass3"].last_answer == "A\ufffd"
    assert store.get(LEARNER, "pk_pass3").last_answer == "A\ufffd"
    attempts, left_out = store.export_attempts()
    assert sorted(a["answer"] for a in attempts) == ["0.5", "\ufffdA\ufffd"] and left_out == 0
    assert sorted(r["last_answer"] for r in store.class_progress()) == ["0.5", "A\ufffd"]
    assert sorted(a["answer"] for a in store.class_attempts()) == ["0.5", "\ufffdA\ufffd"]
    assert store.all(OTHER)["pk_pass3"].last_answer == "0.5"  # the others' rows as they are


TEXT_COLUMNS = {"attempts": ("attempt_id", "learner", "exercise_id", "answer", "at"),
                "progress": ("learner", "exercise_id", "last_answer", "first_at", "updated_at")}


@pytest.mark.parametrize("table, column", [(t, c) for t, cols in TEXT_COLUMNS.items() for c in cols])
def test_no_class_read_fails_on_bytes_in_any_text_column(store, table, column):
    """The next member: any text column of either table, through every read of the whole class."""
    _change(store, f"UPDATE {table} SET {column} = CAST(x'ff' AS TEXT) || {column} WHERE learner = '{OTHER}'")
    store.export_attempts()
    store.class_progress()
    store.class_progress(as_tuples=True)
    store.class_attempts()
    store.class_attempt_summary("2000")
    store.class_activity(13)
    store.class_recent_progress(10)
    assert store.all(LEARNER)["pk_pass3"].last_answer == "0.7"
