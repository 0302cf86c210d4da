"""deploy/serve_class.py through real nginx, against what a class throws at it: more connections than the
open-file limit allowed, one client taking every connection, nginx itself hanging, IPv4 clients of an IPv6
listener."""

import contextlib
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.e2e.conftest import REPO, _free_port, launcher_env
from tests.e2e.test_class_deployment import _Lines, wait_until

sys.path.insert(0, str(REPO / "deploy"))
sys.path.insert(0, str(REPO / "bench"))
from load import free_port_range  # noqa: E402
from serve_class import HEALTH_FAILURES, HEALTH_PATH, HEALTH_TIMEOUT, THROTTLE_FILE, find_nginx  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _launch(*args: str, processes: int = 1, nofile: tuple[int, int] | None = None):
    """The launcher with ``processes`` processes on free ports (``args`` added; ``--address 127.0.0.1`` unless
    they name one), started with RLIMIT_NOFILE ``nofile`` (soft, hard) when given; returns (launcher, port,
    its stderr lines) once it says it serves."""
    if find_nginx() is None:
        if os.environ.get("TOOLCALL_REQUIRE_NGINX"):
            pytest.fail("nginx is missing: `apt-get install nginx` (bash .ci/run does it)")
        pytest.skip("nginx not installed")
    port, first = _free_port(), free_port_range(processes)
    address = [] if "--address" in args else ["--address", "127.0.0.1"]
    proc = subprocess.Popen([sys.executable, "deploy/serve_class.py", "--processes", str(processes), *address,
                             "--port", str(port), "--first-backend-port", str(first), *args],
                            cwd=REPO, env=launcher_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, nofile)) if nofile else None)
    err = _Lines(proc.stderr)
    ready = proc.stdout.readline()
    if not ready.startswith("Serving the app"):
        proc.kill()
        raise AssertionError(ready + "".join(err.lines))
    return proc, port, err


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0


def _status(url: str) -> int | None:
    """The status ``url`` answers with (an error status too), None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def _nginx_master(launcher: subprocess.Popen) -> psutil.Process:
    return next(c for c in psutil.Process(launcher.pid).children() if "daemon off;" in " ".join(c.cmdline()))


def _open_websocket(port: int):
    from websockets.sync.client import connect
    return connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], open_timeout=20,
                   proxy=None)


def test_open_files_are_raised_to_the_hard_limit_and_one_address_is_capped_with_429():
    """Started with a soft limit of 256 open files (hard 512): the launcher raises it to 512 for itself, nginx and
    the Streamlit process, sizes nginx from it (256 connections, a quarter of the 128 clients per address: 32)
    and says so; 32 open websockets from one address are served, the next requests are answered 429 (and not
    logged one line each) while nginx's own health still answers; once they close, the address is served again.
    On main the process hit "Too many open files" at 105 websockets: 502 for everyone, then killed as hung."""
    proc, port, err = _launch(nofile=(256, 512))
    try:
        assert re.fullmatch(r"\[\d\d:\d\d:\d\d\] open files: 512 \(raised from 256, the hard limit\); nginx: 256 "
                            r"connections, at most 32 requests at once per client address \(the next is answered "
                            r"429\)\n", err.wait_for("open files:", 5))
        master = _nginx_master(proc)
        streamlit = next(c for c in psutil.Process(proc.pid).children() if "streamlit" in " ".join(c.cmdline()))
        for p in (master, *master.children(), streamlit):  # (the worker runs as nobody under root: read /proc)
            limits = (open(f"/proc/{p.pid}/limits").read())
            assert re.search(r"^Max open files +512 +512 +files", limits, re.M), limits
        # the processes share their passphrase throttle in the launcher's run folder
        run_dir = re.search(r"-p (\S+)", " ".join(master.cmdline())).group(1)
        assert streamlit.environ()["TOOLCALL_LOGIN_THROTTLE_FILE"] == f"{run_dir}/{THROTTLE_FILE}"
        url = f"http://127.0.0.1:{port}"
        with contextlib.ExitStack() as sockets:
            for _ in range(32):
                sockets.enter_context(_open_websocket(port))
            assert [_status(url + "/") for _ in range(100)] == [429] * 100
            assert _status(url + HEALTH_PATH) == 200
        assert wait_until(lambda: _status(url + "/") == 200, 10)
        assert proc.poll() is None
        # a client past its cap writes nothing to nginx's error log (kept after the class: in RAM when /tmp is tmpfs)
        assert "limiting connections" not in Path(run_dir, "error.log").read_text()
    finally:
        _stop(proc)


def test_a_hung_nginx_is_killed_and_started_again():
    """SIGSTOP nginx (master and workers): the class is down, and the launcher thought all was well. Now nginx's
    own health check goes unanswered, and after HEALTH_FAILURES in a row it is killed and started again."""
    proc, port, err = _launch()
    stopped = []
    try:
        master = _nginx_master(proc)
        stopped = [master, *master.children()]
        for p in stopped:
            p.suspend()
        assert _status(f"http://127.0.0.1:{port}{HEALTH_PATH}") is None
        err.wait_for(f"nginx did not answer {HEALTH_FAILURES} health checks in a row ({HEALTH_TIMEOUT:.0f} s each): "
                     "hung; killing it (SIGKILL) and restarting it", 60)
        err.wait_for("nginx: started again (restart 1)", 10)
        err.wait_for("nginx: serving again", 30)
        assert not psutil.wait_procs(stopped, timeout=5)[1]  # the hung ones are gone
        assert _status(f"http://127.0.0.1:{port}/") == 200
        assert _nginx_master(proc).pid != master.pid
    finally:
        for p in stopped:
            if p.is_running():
                p.resume()
        _stop(proc)


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_public_on_every_ipv6_interface_serves_ipv4_too():
    """``--public --address ::`` listened with nginx's default ipv6only=on: http://[::1] answered, http://127.0.0.1
    (every IPv4 student) was refused."""
    if not _ipv6():
        pytest.skip("this machine has no IPv6 (cannot bind ::1)")
    proc, port, _ = _launch("--public", "--address", "::")
    try:
        assert _status(f"http://127.0.0.1:{port}/") == 200
        assert _status(f"http://[::1]:{port}/") == 200
    finally:
        _stop(proc)


def test_a_process_is_started_again_while_the_launchers_output_takes_nothing():
    """The launcher's output stops taking lines (a terminal paused with Ctrl+S or left in a pager, a pipe to a
    program that stopped reading): the supervisor waited in its log line for ever, and a Streamlit process killed
    meanwhile was never started again (break-it pass brk14ops: none after 90 s). Here the launcher's stderr is a
    one-page pipe, filled once the class serves; the killed process must serve again, and nothing is lost but log
    lines, which are counted once the output takes lines again."""
    import fcntl

    if find_nginx() is None:
        pytest.skip("nginx not installed")
    port, first = _free_port(), free_port_range(2)
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: one page, so that a few lines fill it
    proc = subprocess.Popen([sys.executable, "deploy/serve_class.py", "--processes", "2", "--address", "127.0.0.1",
                             "--port", str(port), "--first-backend-port", str(first)],
                            cwd=REPO, env=launcher_env(), stdout=subprocess.PIPE, stderr=write_end, text=True)
    os.close(write_end)
    drained: list[bytes] = []
    try:
        assert proc.stdout.readline().startswith("Serving the app")
        os.set_blocking(read_end, False)
        with contextlib.suppress(BlockingIOError):
            while os.read(read_end, 1 << 16):
                pass
        filler = os.open(f"/proc/{proc.pid}/fd/2", os.O_WRONLY | os.O_NONBLOCK)  # the launcher's stderr, filled
        with contextlib.suppress(BlockingIOError):
            while True:
                os.write(filler, b"." * 512)
        os.close(filler)
        victim = next(c for c in psutil.Process(proc.pid).children() if f"--server.port {first}" in
                      " ".join(c.cmdline()))
        victim.kill()
        assert wait_until(lambda: _status(f"http://127.0.0.1:{first}/_stcore/health") == 200, 120)
        assert _status(f"http://127.0.0.1:{port}/") == 200
        _drain(read_end, drained)
        # the stuck line goes out first, then the count of what was dropped meanwhile, if any
        assert wait_until(lambda: b"was killed by SIGKILL; restarting it" in b"".join(drained), 30)
    finally:
        if not drained:
            _drain(read_end, drained)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0


def _drain(fd: int, into: list[bytes]) -> None:
    """Read the pipe ``fd`` to its end from a thread of its own (closing it there), each read appended to ``into``."""
    import threading

    def read() -> None:
        os.set_blocking(fd, True)
        into.append(b"")
        into.extend(iter(lambda: os.read(fd, 1 << 16), b""))
        os.close(fd)
    threading.Thread(target=read, daemon=True).start()
