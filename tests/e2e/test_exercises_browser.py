"""Exercises in a real browser: what only a browser shows (the URL after a refresh, the
text a selectbox displays after a language switch)."""

import pytest
from playwright.sync_api import expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import start_server, stop_server, wait_connected

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, saving progress in its own data directory."""
    proc, url = start_server(env={"TOOLCALL_DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    yield url
    stop_server(proc)


def settle(page):
    wait_connected(page)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=30000)


def open_exercises(page, server, learner):
    page.set_viewport_size({"width": 1300, "height": 2000})
    page.goto(f"{server}/exercises?learner={learner}")
    page.wait_for_selector(".st-key-exercises_ex_failure_taxonomy_submit button")
    settle(page)
    return page


def choose(page, widget: str, option: str) -> None:
    """Open a selectbox and pick ``option``; reopen if a rerun closed the list first."""
    for _ in range(5):
        page.locator(widget).click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=3000)
            return
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            settle(page)
    raise AssertionError(f"could not choose {option!r} in {widget}")


def test_refresh_keeps_learner_and_progress(page, server):
    open_exercises(page, server, "e2e-refresh")
    page.locator(".st-key-exercises_ex_truncated_answer label").nth(2).click()
    page.locator(".st-key-exercises_ex_truncated_submit button").click()
    # polled: right after the click the rerun may not have started, so "settled" proves nothing yet
    expect(page.locator(".st-key-exercises_ex_truncated_box")).to_contain_text("Best score 0 of 1 · tries 1",
                                                                              timeout=60_000)
    page.reload()
    page.wait_for_selector(".st-key-exercises_ex_truncated_box")
    settle(page)
    assert "learner=e2e-refresh" in page.url
    expect(page.locator(".st-key-exercises_ex_truncated_box")).to_contain_text("Best score 0 of 1 · tries 1",
                                                                              timeout=60_000)


def test_language_switch_shows_the_choice_in_the_new_language(page, server):
    open_exercises(page, server, "e2e-lang")
    choose(page, ".st-key-exercises_ex_failure_taxonomy_item_cancel", "Wrong tool")
    page.locator(".st-key-exercises_ex_failure_taxonomy_submit button").click()
    settle(page)
    choose(page, ".st-key-app_lang", "中文")
    # one key for both languages (ui.widgets.translated): wait until the rerun shows the Chinese label
    expect(page.locator(".st-key-exercises_ex_failure_taxonomy_item_cancel input")).to_have_value("选错工具",
                                                                                                  timeout=30_000)


def test_enter_then_submit_is_one_try_with_no_same_answer_note(page, server):
    """Enter in a number answer, then Submit (what a student does), is one graded try: Enter no longer
    submits the form too, so no "The same answer as your last try" follows a single answer."""
    page.set_viewport_size({"width": 1300, "height": 2000})
    page.goto(f"{server}/passk_lab?learner=e2e-enter")
    box = page.locator(".st-key-exercises_pk_pass3_box")
    box.wait_for()
    settle(page)
    answer = page.locator(".st-key-exercises_pk_pass3_answer input")
    answer.fill("0.512")
    answer.press("Enter")
    settle(page)
    expect(box).not_to_contain_text("Best score", timeout=2_000)  # Enter graded nothing
    page.locator(".st-key-exercises_pk_pass3_submit button").click()
    expect(box).to_contain_text("Best score 0 of 1 · tries 1", timeout=60_000)
    settle(page)
    assert "The same answer as your last try" not in box.inner_text()
    assert "Press Enter" not in box.inner_text()  # Streamlit's English hint is gone with Enter-to-submit
