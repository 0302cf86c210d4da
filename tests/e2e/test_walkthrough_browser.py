"""Real browser: the walkthrough steps through a call and the pairing checker flags a pasted transcript."""

import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from toolcall import REPO_ROOT

pytestmark = pytest.mark.e2e
playwright = pytest.importorskip("playwright.sync_api")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
READY = '[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
SIDEBAR_LANG = "[data-testid=stSidebarUserContent] [data-testid=stSelectbox]"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
                            cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def page(server):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1600}, locale="en-US")
        pg.goto(server + "/")  # app.py must run once before deep links resolve through st.navigation
        pg.wait_for_selector(READY)
        pg.wait_for_selector(SIDEBAR_LANG)
        yield pg
        browser.close()


def test_next_button_shows_the_tool_use_response(page, server):
    page.goto(server + "/walkthrough")
    page.wait_for_selector(READY)
    page.locator(".st-key-walkthrough_next button").click()
    explain = page.locator(".st-key-walkthrough_explain")
    explain.get_by_text("2. Model asks for a tool").wait_for()
    codes = page.locator("[data-testid=stCode]:visible")
    codes.filter(has_text='"stop_reason": "tool_use"').first.wait_for()
    codes.filter(has_text='"finish_reason": "tool_calls"').first.wait_for()


def test_pairing_example_lists_the_rule_in_chinese(page, server):
    page.goto(server + "/pairing")
    page.wait_for_selector(SIDEBAR_LANG)
    page.locator(SIDEBAR_LANG).click()
    page.get_by_role("option", name="中文").click()
    page.get_by_role("heading", name="配对检查器").wait_for()
    page.locator(".st-key-pairing_example_anthropic_text_first button").click()
    page.get_by_text("发现 1 个问题。").wait_for()
    page.locator("[data-testid=stText]").filter(has_text="tool_result 块必须放在最前面").wait_for()
