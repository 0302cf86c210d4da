"""Exercises in a real browser: what only a browser shows (the URL after a refresh, the
text a selectbox displays after a language switch)."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from toolcall import REPO_ROOT

pytestmark = pytest.mark.e2e
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
CONNECTED = '[data-testid="stApp"][data-test-connection-state="CONNECTED"]'

if not shutil.which(CHROMIUM) and not os.environ.get("TOOLCALL_REQUIRE_BROWSER"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One Streamlit server for the module, with its own data directory."""
    port = _free_port()
    env = dict(os.environ, TOOLCALL_DATA_DIR=str(tmp_path_factory.mktemp("data")))
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def settle(page):
    page.wait_for_selector(CONNECTED)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=30000)


def open_exercises(browser, server, learner):
    page = browser.new_page(viewport={"width": 1300, "height": 2000}, locale="en-US")
    page.goto(f"{server}/?learner={learner}")  # the entry page first: see the lead's note on cold deep links
    page.wait_for_selector(".st-key-app_lang")
    page.goto(f"{server}/exercises?learner={learner}")
    page.wait_for_selector(".st-key-exercises_ex_failure_taxonomy_submit button")
    settle(page)
    return page


def test_refresh_keeps_learner_and_progress(browser, server):
    page = open_exercises(browser, server, "e2e-refresh")
    page.locator(".st-key-exercises_ex_truncated_answer label").nth(2).click()
    page.locator(".st-key-exercises_ex_truncated_submit button").click()
    settle(page)
    page.reload()
    page.wait_for_selector(".st-key-exercises_ex_truncated_box")
    settle(page)
    assert "learner=e2e-refresh" in page.url
    assert "Best score 0 of 1 · tries 1" in page.locator(".st-key-exercises_ex_truncated_box").inner_text()
    page.close()


def test_language_switch_shows_the_choice_in_the_new_language(browser, server):
    page = open_exercises(browser, server, "e2e-lang")
    page.locator(".st-key-exercises_ex_failure_taxonomy_item_cancel_en").click()
    page.get_by_role("option", name="Wrong tool", exact=True).click()
    page.locator(".st-key-exercises_ex_failure_taxonomy_submit button").click()
    settle(page)
    page.locator(".st-key-app_lang").click()
    page.get_by_role("option", name="中文").click()
    page.wait_for_selector(".st-key-exercises_ex_failure_taxonomy_item_cancel_zh")
    settle(page)
    shown = page.locator(".st-key-exercises_ex_failure_taxonomy_item_cancel_zh input").input_value()
    assert shown == "选错工具"
    page.close()
