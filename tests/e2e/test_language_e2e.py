"""Real browser: the language follows the browser, switches in the sidebar, survives page
switches; and (known issue) a deep link on a fresh server skips app.py."""

import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager

import pytest

from toolcall import REPO_ROOT

playwright = pytest.importorskip("playwright.sync_api")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
READY = '[data-testid="stApp"][data-test-connection-state="CONNECTED"]'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def _server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
                            cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(base + "/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.25)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


def _open(browser, url: str, locale: str):
    page = browser.new_page(locale=locale)
    page.goto(url)
    page.wait_for_selector(READY)
    page.wait_for_selector("h1")
    return page


def test_language_follows_the_browser_switches_and_survives_a_page_switch(browser):
    with _server() as base:
        page = _open(browser, base + "/", "zh-CN")
        playwright.expect(page.locator("h1").first).to_have_text("动手学工具调用")
        page.locator(".st-key-app_lang input[role='combobox']").click()
        page.get_by_role("option", name="English").click()
        playwright.expect(page.locator("h1").first).to_have_text("Tool calling, hands on")
        page.locator('[data-testid="stSidebarNav"] a[href$="lessons"]').click()
        playwright.expect(page.locator("h1").first).to_have_text("Lessons")
        playwright.expect(page.locator(".st-key-app_lang input")).to_have_value("English")


@pytest.mark.xfail(strict=True, reason="Known issue: with a pages/ folder next to app.py, Streamlit starts in "
                   "pages-directory mode until app.py first calls st.navigation, so a deep link as the first "
                   "request of a fresh server runs pages/lessons.py alone, without app.py's sidebar.")
def test_a_deep_link_on_a_fresh_server_still_runs_app_py(browser):
    with _server() as base:
        page = _open(browser, base + "/lessons", "en-US")
        playwright.expect(page.locator(".st-key-app_lang")).to_have_count(1, timeout=5000)
