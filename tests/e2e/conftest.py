"""Real-browser fixtures: one `streamlit run app.py` per module and Debian's Chromium via Playwright."""

import os
from contextlib import contextmanager
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


_LAUNCHER_TMP: list[str] = []


def launcher_env() -> dict[str, str]:
    """The environment for a deploy/serve_class.py a test starts: TMPDIR a folder of this test run's own (removed
    when the run ends), so the run folders, and the nginx error logs the launcher keeps next to them, do not pile
    up in the machine's temp folder."""
    if not _LAUNCHER_TMP:
        import atexit
        import tempfile
        _LAUNCHER_TMP.append(tempfile.mkdtemp(prefix="toolcall-e2e-launchers-"))
        os.chmod(_LAUNCHER_TMP[0], 0o755)  # as root, a folder nginx's workers (nobody) cannot enter is not used
        atexit.register(shutil.rmtree, _LAUNCHER_TMP[0], True)
    return {**os.environ, "TMPDIR": _LAUNCHER_TMP[0]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(app: str = "app.py", cwd: Path = REPO, env: dict | None = None):
    """Start `streamlit run` headless on a free loopback port; returns (process, base url)."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", app, "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("streamlit did not become healthy within 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a server from start_server: terminate, then kill after 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def fresh_server(**kwargs):
    """A server of its own for one test (start_server's arguments); stopped on exit."""
    proc, url = start_server(**kwargs)
    try:
        yield url
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def server():
    proc, url = start_server()
    yield url
    stop_server(proc)


@pytest.fixture(scope="module")
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("TOOLCALL_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: `apt-get install chromium` (bash .ci/run does it)")
        pytest.skip(f"{CHROMIUM} not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    p = context.new_page()
    p.set_default_timeout(30_000)
    yield p
    context.close()


def wait_connected(page) -> None:
    """Wait until the app is connected and app.py's sidebar (the language switch) is drawn."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]')
    page.wait_for_selector(".st-key-app_lang")


def open_output(page, name: str) -> None:
    """Pick the playground's output whose label contains ``name`` (a canned output's label, or the
    free box's "Your own output") in the output picker of the outputs panel (open at first): only the
    picked output's card is drawn (ui/playground_pick.py)."""
    import re

    page.locator(".st-key-playground_output").get_by_text(re.compile(re.escape(name))).first.click()


def open_panel(page, name: str) -> None:
    """Open the playground's panel labelled ``name`` ("Design review", "设计审查", …): one panel is drawn."""
    page.locator(".st-key-playground_panel").get_by_role("radio", name=name, exact=True).click()
