"""Two app processes with separate data directories share one PostgreSQL (two hosts of a
class behind a load balancer): an answer given on one shows as progress on the other."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import fresh_server
from tests.e2e.test_exercises_browser import open_exercises
from tests.pg import fresh_schema
from toolcall.progress import open_store

pytestmark = pytest.mark.e2e


def test_an_answer_on_one_host_is_progress_on_the_other(page, tmp_path):
    with fresh_schema() as url, \
            fresh_server(env={"TOOLCALL_DATABASE_URL": url, "TOOLCALL_DATA_DIR": str(tmp_path / "a")}) as host_a, \
            fresh_server(env={"TOOLCALL_DATABASE_URL": url, "TOOLCALL_DATA_DIR": str(tmp_path / "b")}) as host_b:
        page.set_default_timeout(90_000)  # two fresh servers on a busy machine: first runs are slow
        open_exercises(page, host_b, "warm-up")  # both processes have run the page once
        open_exercises(page, host_a, "shared-learner")
        page.locator(".st-key-exercises_ex_truncated_answer label").nth(2).click()
        page.locator(".st-key-exercises_ex_truncated_submit button").click()
        # polled: right after the click the rerun may not have started, so "settled" proves nothing yet
        expect(page.locator(".st-key-exercises_ex_truncated_box")).to_contain_text("Best score 0 of 1 · tries 1")

        open_exercises(page, host_b, "shared-learner")
        expect(page.locator(".st-key-exercises_ex_truncated_box")).to_contain_text("Best score 0 of 1 · tries 1")
        store = open_store(url)
        try:
            assert store.get("shared-learner", "ex_truncated").tries == 1
        finally:
            store.close()
        assert not (tmp_path / "a" / "progress.sqlite3").exists()  # nothing went to SQLite
        assert not (tmp_path / "b" / "progress.sqlite3").exists()
