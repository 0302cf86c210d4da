"""A progress row changed outside the app (a text in a score column) is a named setup error: the store handed
Record(best_score='abc') on and the pages raised TypeError comparing it with a number (issue 13, break-it pass
brk12cli)."""

import sqlite3

import pytest

from toolcall.progress import DB_NAME, ProgressStore, StorageError

LEARNER = "swift-otter-0123456789"


@pytest.fixture
def store(tmp_path):
    store = ProgressStore(tmp_path)
    store.record(LEARNER, "pk_pass3", "0.7", 1, 1)
    yield store
    store.close()


def _change(store, sql: str) -> None:
    with sqlite3.connect(store.path) as db:
        db.execute(sql)
    db.close()


def _said(store, table: str, shown: str, column: str, kind: str) -> str:
    return (f"{store.path}: a row of {table} (exercise 'pk_pass3') holds {shown} in {column}, where this app writes "
            f"{kind}: it was changed outside the app; correct or delete that row")


@pytest.mark.parametrize("call", ["get", "all", "show_hint", "class_progress", "class_progress_tuples"])
def test_a_text_in_a_score_column_is_named(store, call):
    _change(store, "UPDATE progress SET best_score = 'abc'")
    calls = {"get": lambda: store.get(LEARNER, "pk_pass3"), "all": lambda: store.all(LEARNER),
             "show_hint": lambda: store.show_hint(LEARNER, "pk_pass3", 2), "class_progress": store.class_progress,
             "class_progress_tuples": lambda: store.class_progress(as_tuples=True)}
    with pytest.raises(StorageError) as refused:
        calls[call]()
    assert (str(refused.value), refused.value.setup) == (_said(store, "progress", "'abc'", "best_score", "a number"),
                                                         True)


def test_a_decimal_count_and_a_text_attempt_score_are_named(store):
    _change(store, "UPDATE progress SET tries = 1.5")
    with pytest.raises(StorageError) as refused:
        store.get(LEARNER, "pk_pass3")
    assert str(refused.value) == _said(store, "progress", "1.5", "tries", "a whole number")
    _change(store, "UPDATE progress SET tries = 1")
    _change(store, "UPDATE attempts SET score = x'00ff'")
    for call in (lambda: store.attempts(LEARNER), lambda: store.class_attempts(as_tuples=True)):
        with pytest.raises(StorageError) as refused:
            call()
        assert str(refused.value) == _said(store, "attempts", "b'\\x00\\xff'", "score", "a number")
    assert store.get(LEARNER, "pk_pass3").best_score == 1.0 and DB_NAME == store.path.name
