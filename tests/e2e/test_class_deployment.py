"""deploy/serve_class.py for real: two Streamlit processes behind Debian's nginx, pinned by cookie."""

import os
import re
import shutil
import signal
import threading
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.e2e.conftest import REPO, _free_port, launcher_env, open_output, wait_connected

sys.path.insert(0, str(REPO / "deploy"))
sys.path.insert(0, str(REPO / "bench"))
from load import free_port_range  # noqa: E402
from serve_class import COOKIE, HEALTH_FAILURES, HTTP_FIRST_BYTE, bind_problem, find_nginx, wait_healthy  # noqa: E402

pytestmark = pytest.mark.e2e


def _launch(processes: int, preexec_fn=None) -> tuple[subprocess.Popen, int, int]:
    """Start deploy/serve_class.py with ``processes`` processes on free loopback ports
    (nginx's, then the first backend's), ``preexec_fn`` run in it before it starts; returns (launcher, port, first
    backend port)."""
    if find_nginx() is None:
        if os.environ.get("TOOLCALL_REQUIRE_NGINX"):
            pytest.fail("nginx is missing: `apt-get install nginx` (bash .ci/run does it)")
        pytest.skip("nginx not installed")
    port, first = _free_port(), free_port_range(processes)
    proc = subprocess.Popen([sys.executable, "deploy/serve_class.py", "--processes", str(processes), "--address",
                             "127.0.0.1", "--port", str(port), "--first-backend-port", str(first)],
                            cwd=REPO, env=launcher_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec_fn)
    return proc, port, first


@pytest.fixture(scope="module")
def deployment():
    proc, port, first = _launch(2)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url + "/_stcore/health", proc, 120)
        yield url, proc, [f"127.0.0.1:{first}", f"127.0.0.1:{first + 1}"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def _get(url: str, cookie: str | None = None, timeout: float = 10):
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.status, r.headers.get_all("Set-Cookie") or []


def test_new_visitors_are_pinned_round_robin_and_forged_cookies_ignored(deployment):
    url, _, backends = deployment
    pins = set()
    for _ in range(4):
        status, cookies = _get(url + "/")
        assert status == 200
        assert len(cookies) == 1 and cookies[0].endswith("; Path=/; HttpOnly; SameSite=Lax")
        name, value = cookies[0].split(";")[0].split("=", 1)
        assert name == COOKIE and value in backends
        pins.add(value)
    assert pins == set(backends)
    # a pinned browser is not re-pinned; a cookie naming anything else is replaced by a real backend
    assert _get(url + "/", f"{COOKIE}={backends[1]}") == (200, [])
    status, cookies = _get(url + "/", f"{COOKIE}=169.254.169.254:80")
    assert status == 200 and cookies[0].split(";")[0].split("=", 1)[1] in backends


def test_editing_and_downloading_through_the_proxy(deployment, browser):
    """Each new browser lands on a process by turn; its websocket reruns and its download (a file kept
    in that process's memory) both reach the process that holds its session."""
    url = deployment[0]
    for _ in range(2):  # two browsers: one per process
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            page.goto(url + "/exercises?learner=proxy-test")
            wait_connected(page)
            assert {c["name"] for c in context.cookies()} >= {COOKIE}
            with page.expect_download() as info:
                page.locator(".st-key-exercises_download_csv button").click()
            path = Path(info.value.path())
            assert path.read_text(encoding="utf-8-sig").startswith("learner,")  # UTF-8 with BOM, for Excel
            page.goto(url + "/playground")
            wait_connected(page)
            editor = page.locator(".st-key-schema_editor textarea")
            page.wait_for_function("() => document.querySelector('.st-key-schema_editor textarea')?.value.length > 0")
            editor.fill(editor.input_value().replace('"additionalProperties": false', '"additionalProperties": true'))
            editor.press("Control+Enter")
            open_output(page, "Extra field")
            page.locator(".st-key-playground_card_extra_field").get_by_text("LEAKED").wait_for()
        finally:
            context.close()


def test_load_client_through_the_proxy(deployment):
    """bench/load.py --deploy keeps working (2 sessions, 3 s; not a timed test)."""
    run = subprocess.run([sys.executable, "bench/load.py", "--deploy", "2", "--pages", "playground",
                          "--sessions", "2", "--seconds", "3"], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "playground sessions per process (pinned by the proxy's cookie): 1/1" in run.stdout


def _status_before_the_body(url: str, path: str, method: str, length: int) -> int:
    """The status nginx answers to a request announcing a ``length``-byte body, of which nothing is sent."""
    import http.client

    host, port = url.removeprefix("http://").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)  # nginx waited 60 s for a body it would buffer
    try:
        conn.putrequest(method, path)
        conn.putheader("Content-Type", "multipart/form-data; boundary=x")
        conn.putheader("Content-Length", str(length))
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_nginx_takes_no_larger_body_than_the_processes_and_an_upload_near_the_cap_gets_through(deployment, browser,
                                                                                                  tmp_path):
    """nginx took 200 MB per request and wrote it to disk whole before a process refused anything over its 20 MB
    (six 150 MB uploads at once held 700 MB of the disk, issue 13, round 6). A larger body is now refused from its
    announced size, and a 19.5 MB upload through the proxy still reaches the page, which reads it."""
    from toolcall.i18n import t

    url = deployment[0]
    assert _status_before_the_body(url, "/_stcore/upload_file/s/f", "PUT", 150 * 1024 * 1024) == 413
    assert _status_before_the_body(url, "/_stcore/upload_file/s/f", "PUT", 22 * 1024 * 1024) == 413
    assert _status_before_the_body(url, "/", "POST", 2 * 1024 * 1024) == 413
    near = tmp_path / "near.jsonl"
    near.write_bytes(b"x" * 19_500_000)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(url + "/eval_lab")
        wait_connected(page)
        page.locator(".st-key-eval_upload input[type=file]").set_input_files(near)
        page.get_by_text(t("eval.upload_none_usable", "en", count=1)).wait_for()  # the page read the whole file
    finally:
        context.close()


class _Lines:
    """Every line a pipe has written so far, read by a thread (the launcher logs on stderr)."""

    def __init__(self, pipe):
        self.lines: list[str] = []
        threading.Thread(target=lambda: self.lines.extend(iter(pipe.readline, "")), daemon=True).start()

    def wait_for(self, needle: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in list(self.lines) if needle in line]
            if found:
                return found[0]
            time.sleep(0.2)
        raise AssertionError(f"no line with {needle!r} within {timeout} s:\n" + "".join(self.lines))


def _backend_pid(launcher: subprocess.Popen, port: int) -> int:
    """The Streamlit process the launcher started on ``port``."""
    for c in psutil.Process(launcher.pid).children():
        if f"--server.port {port}" in " ".join(c.cmdline()):
            return c.pid
    raise AssertionError(f"no Streamlit process on port {port}")


def test_a_dead_process_is_restarted_while_the_others_keep_serving():
    """Kill one of two Streamlit processes: the launcher logs it and starts it again on its port; the
    browser pinned to the live one never notices (200, cookie kept); the one pinned to the dead one is
    answered by the live one and re-pinned there with ONE valid address (not "a, b"); new visitors
    too; once restarted, the process serves its pinned browsers again."""
    proc, port, first = _launch(2)
    url = f"http://127.0.0.1:{port}"
    dead, live = f"127.0.0.1:{first}", f"127.0.0.1:{first + 1}"
    err = _Lines(proc.stderr)
    try:
        wait_healthy(url + "/_stcore/health", proc, 120)
        victim = _backend_pid(proc, first)
        os.kill(victim, signal.SIGKILL)
        err.wait_for(f"Streamlit process on {dead} was killed by SIGKILL; restarting it; the other processes keep serving",
                     10)
        for i in range(5):  # while it is down (and just after): nobody sees an error
            assert _get(url + "/", f"{COOKIE}={live}") == (200, [])
            status, cookies = _get(url + "/", f"{COOKIE}={dead}")
            assert status == 200
            if cookies or i == 0:  # moved (at once: Streamlit takes seconds to start): one cookie, one live backend
                assert cookies == [f"{COOKIE}={live}; Path=/; HttpOnly; SameSite=Lax"]
            status, cookies = _get(url + "/")
            assert status == 200 and len(cookies) == 1
            assert re.fullmatch(rf"{COOKIE}=127\.0\.0\.1:\d+; Path=/; HttpOnly; SameSite=Lax", cookies[0])
        err.wait_for(f"Streamlit process on {dead}: started again (restart 1)", 10)
        err.wait_for(f"Streamlit process on {dead}: serving again", 120)
        assert proc.poll() is None  # the launcher never stopped
        assert _backend_pid(proc, first) != victim
        assert wait_until(lambda: _get(url + "/", f"{COOKIE}={dead}") == (200, []), 30)  # nginx uses it again
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def _body(url: str, cookie: str | None = None) -> tuple[bytes, list[str]]:
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read(), r.headers.get_all("Set-Cookie") or []


def test_another_program_on_a_dead_processs_port_never_gets_a_student():
    """A process killed, and its port taken by another program before the restart (another user's server on a
    shared machine): nginx passed every browser pinned to that port, and every second new visitor, to that program,
    which answered 200 with its own page, pinned there by cookie (break-it pass brk16ops). Now the launcher notices,
    marks the port down in nginx (logged), the pinned browsers are answered by the live process and re-pinned
    there, and no new visitor gets the other program; once it lets go and the process serves again, nginx uses it
    again."""
    import http.server

    proc, port, first = _launch(2)
    url = f"http://127.0.0.1:{port}"
    dead, live = f"127.0.0.1:{first}", f"127.0.0.1:{first + 1}"
    err = _Lines(proc.stderr)

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"NOT THE COURSE")

        def log_message(self, *args):
            pass

    other = None
    try:
        wait_healthy(url + "/_stcore/health", proc, 120)
        os.kill(_backend_pid(proc, first), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while other is None and time.monotonic() < deadline:  # take the port before the process starts again
            try:
                other = http.server.HTTPServer(("127.0.0.1", first), Other)
            except OSError:
                time.sleep(0.01)
        assert other is not None
        threading.Thread(target=other.serve_forever, daemon=True).start()
        err.wait_for(f"{dead} is in use by another program while its Streamlit process is down: nginx sends no "
                     "student there (those pinned to it go to the other processes) until the process serves there "
                     "again", 10)
        time.sleep(1)  # nginx's new workers take over
        for _ in range(6):
            body, cookies = _body(url + "/", f"{COOKIE}={dead}")
            assert b"NOT THE COURSE" not in body and b"Streamlit" in body
            assert cookies == [f"{COOKIE}={live}; Path=/; HttpOnly; SameSite=Lax"]
            body, cookies = _body(url + "/")
            assert b"NOT THE COURSE" not in body
            assert cookies == [f"{COOKIE}={live}; Path=/; HttpOnly; SameSite=Lax"]
        other.shutdown()
        other.server_close()
        other = None
        err.wait_for(f"{dead} is no longer held by another program: nginx sends students there again once its "
                     "process serves (until then they go to the other processes)", 20)
        err.wait_for(f"Streamlit process on {dead}: serving again", 120)
        assert wait_until(lambda: _get(url + "/", f"{COOKIE}={dead}") == (200, []), 30)  # nginx uses it again
    finally:
        if other is not None:
            other.shutdown()
            other.server_close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def test_a_browser_pinned_to_a_dead_process_is_moved_and_keeps_working(browser):
    """A real browser pinned to a process that then dies: a reload is answered (by the live process
    while the dead one restarts, or by the restarted one), the browser holds one valid cookie, and
    the page works (an edit reruns). The move itself is pinned down over HTTP in the test above."""
    proc, port, first = _launch(2)
    url = f"http://127.0.0.1:{port}"
    err = _Lines(proc.stderr)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    try:
        wait_healthy(url + "/_stcore/health", proc, 120)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(url + "/playground")
        wait_connected(page)
        pinned = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
        os.kill(_backend_pid(proc, int(pinned.rsplit(":", 1)[1])), signal.SIGKILL)
        err.wait_for(f"Streamlit process on {pinned} was killed by SIGKILL", 10)
        page.reload()
        wait_connected(page)
        moved = [c["value"] for c in context.cookies() if c["name"] == COOKIE]
        assert len(moved) == 1 and moved[0] in (f"127.0.0.1:{first}", f"127.0.0.1:{first + 1}")
        page.wait_for_function("() => document.querySelector('.st-key-schema_editor textarea')?.value.length > 0")
        editor = page.locator(".st-key-schema_editor textarea")
        editor.fill(editor.input_value().replace('"additionalProperties": false', '"additionalProperties": true'))
        editor.press("Control+Enter")
        open_output(page, "Extra field")
        page.locator(".st-key-playground_card_extra_field").get_by_text("LEAKED").wait_for()
    finally:
        context.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def wait_until(predicate, timeout: float) -> bool:
    """True once ``predicate()`` holds (polled every 0.5 s), False after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


def _status(url: str, cookie: str | None = None) -> int | None:
    """The status of ``url``, None when nothing answers (refused, reset, timed out)."""
    try:
        return _get(url, cookie)[0]
    except OSError:
        return None


def test_a_hung_process_is_passed_over_then_killed_and_restarted():
    """SIGSTOP one of two Streamlit processes (alive, accepting connections, never answering): new
    browsers and the ones pinned to it are answered by the other within HTTP_FIRST_BYTE s and pinned
    there; the supervisor notices the silence, kills it, starts it again, and it serves again."""
    proc, port, first = _launch(2)
    url = f"http://127.0.0.1:{port}"
    hung, live = f"127.0.0.1:{first}", f"127.0.0.1:{first + 1}"
    moved = [f"{COOKIE}={live}; Path=/; HttpOnly; SameSite=Lax"]
    err = _Lines(proc.stderr)
    victim = None
    try:
        wait_healthy(url + "/_stcore/health", proc, 120)
        victim = _backend_pid(proc, first)
        os.kill(victim, signal.SIGSTOP)
        for _ in range(3):  # new browsers (the first may be sent to the silent one, then on)
            # answered at all: without nginx's HTTP_FIRST_BYTE bound, a request sent to the stopped process waits
            # for nginx's default 60 s; the client gives up at 3x the bound (a deadline to wait, not a timing)
            assert _get(url + "/", timeout=HTTP_FIRST_BYTE * 3) == (200, moved)
        assert _get(url + "/", f"{COOKIE}={hung}") == (200, moved)
        assert _get(url + "/", f"{COOKIE}={live}") == (200, [])
        err.wait_for(f"Streamlit process on {hung} did not answer {HEALTH_FAILURES} health checks in a row", 40)
        err.wait_for(f"Streamlit process on {hung}: started again (restart 1)", 10)
        err.wait_for(f"Streamlit process on {hung}: serving again", 120)
        assert not psutil.pid_exists(victim) and _backend_pid(proc, first) != victim
        assert wait_until(lambda: _status(url + "/", f"{COOKIE}={hung}") == 200
                          and _get(url + "/", f"{COOKIE}={hung}") == (200, []), 30)  # nginx uses it again
        assert proc.poll() is None
    finally:
        if victim is not None and psutil.pid_exists(victim):
            os.kill(victim, signal.SIGCONT)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def test_a_killed_nginx_master_is_replaced_and_leaves_nothing_behind():
    """SIGKILL the nginx master: its orphaned worker (which holds the port with the old configuration)
    goes with it, a new master binds the port without one bind() error and serves; after the
    operator's SIGTERM no process of ours remains and the port is free."""
    proc, port, _ = _launch(1)
    url = f"http://127.0.0.1:{port}"
    err = _Lines(proc.stderr)
    try:
        assert proc.stdout.readline().startswith("Serving the app")  # the supervisor runs (a death before is fatal)
        master = next(c for c in psutil.Process(proc.pid).children() if "daemon off;" in " ".join(c.cmdline()))
        workers = master.children()
        assert workers
        master.kill()
        err.wait_for("nginx was killed by SIGKILL; restarting it; the other processes keep serving", 10)
        err.wait_for("nginx: serving again", 30)
        assert not psutil.wait_procs(workers, timeout=5)[1]  # the old worker is gone
        assert _get(url + "/_stcore/health")[0] == 200
        time.sleep(2)  # a crash loop would show within this
        log = "".join(err.lines)
        assert "bind()" not in log and "Address already in use" not in log and "restart 2" not in log, log
        ours = psutil.Process(proc.pid).children(recursive=True)
        assert len(ours) >= 3 and master.pid not in {c.pid for c in ours}
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    assert not psutil.wait_procs(ours + workers, timeout=10)[1]
    assert bind_problem("127.0.0.1", port) is None


def _one_process_launcher(preexec_fn=None) -> subprocess.Popen:
    """deploy/serve_class.py with one process on free ports (_launch's ``preexec_fn``), returned once it says it
    serves."""
    proc, port, _ = _launch(1, preexec_fn)
    ready = proc.stdout.readline()  # printed once nginx answers; "" if the launcher exits instead
    assert ready.startswith(f"Serving the app from 1 Streamlit process at http://127.0.0.1:{port} "), \
        ready + proc.stderr.read()
    return proc


def _run_dirs(children) -> set[Path]:
    """The launcher's private nginx folder, read off nginx's command line."""
    return {Path(m) for c in children for m in re.findall(r"(/\S*?toolcall-nginx-[^/\s]+)", " ".join(c.cmdline()))}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])  # SIGHUP: the teacher closed the terminal
def test_a_stop_signal_stops_nginx_and_every_process_and_cleans_up(sig):
    proc = _one_process_launcher()
    children = psutil.Process(proc.pid).children(recursive=True)
    run_dirs = _run_dirs(children)
    assert children and run_dirs
    proc.send_signal(sig)
    assert proc.wait(30) == 0
    time.sleep(0.5)
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert not any(d.exists() for d in run_dirs)


def test_a_launcher_started_under_nohup_keeps_the_class_when_the_terminal_closes():
    """``nohup python deploy/serve_class.py &`` starts it with SIGHUP ignored, so that closing the terminal leaves
    the class running: the launcher put its own handler over that, and the SIGHUP of the closed terminal stopped
    the class (exit 0, every process gone; break-it pass brk16ops). Now the ignored signal stays ignored: the class
    keeps serving, and SIGTERM, the operator's stop, still stops it."""
    proc = _one_process_launcher(preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    port = int(proc.args[proc.args.index("--port") + 1])
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGHUP)
    time.sleep(3)
    assert proc.poll() is None
    assert all(c.is_running() for c in children)
    assert _status(f"http://127.0.0.1:{port}/") == 200
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0


def test_no_process_outlives_a_killed_launcher():
    """SIGKILL cannot be caught: Linux's parent-death signal stops Streamlit and nginx anyway."""
    proc = _one_process_launcher()
    children = psutil.Process(proc.pid).children(recursive=True)
    assert len(children) >= 3  # streamlit, nginx master, nginx worker
    run_dirs = _run_dirs(children)
    proc.kill()
    proc.wait(10)
    gone, alive = psutil.wait_procs(children, timeout=20)
    for d in run_dirs:  # a killed launcher cannot remove its folder: the test does
        shutil.rmtree(d, ignore_errors=True)
    assert not alive, [c.cmdline() for c in alive]
