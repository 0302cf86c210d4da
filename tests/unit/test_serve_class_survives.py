"""deploy/serve_class.py keeps serving what a class throws at it: a process flooding its output, a progress
database that refuses, passphrase guesses spread over the processes (tests/e2e/test_class_survives.py: the
same through real nginx)."""

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import serve_class  # noqa: E402
from serve_class import Child, OutputRelay, main  # noqa: E402

from tests import pg  # noqa: E402
from toolcall.instructor import SharedLoginThrottle  # noqa: E402


def test_a_flooding_process_is_relayed_200_lines_then_the_count_of_the_dropped(capfd):
    """1000 lines at once on a process's stderr: the first RELAY_LINES reach the launcher's stderr, the rest are
    read and dropped, and one line counts them (at the end of the output here: within the window)."""
    child = Child("flooder", [sys.executable, "-c", "import sys\nfor i in range(1000): print(f'line {i}', "
                              "file=sys.stderr)"], None)
    proc = child.start()
    assert proc.wait(30) == 0
    deadline, err = time.monotonic() + 10, ""
    while "dropped" not in err and time.monotonic() < deadline:  # the relay thread reads to the end, then counts
        time.sleep(0.1)
        err += capfd.readouterr().err
    lines = err.splitlines()
    assert lines[:200] == [f"line {i}" for i in range(200)]
    assert len(lines) == 201
    assert lines[200].endswith("] flooder: 800 lines of its output dropped (more than 200 in 10 s)")


def test_the_dropped_count_is_logged_when_the_window_ends_even_if_the_process_falls_silent(monkeypatch, capsys):
    monkeypatch.setattr(serve_class, "RELAY_WINDOW", 1.0)
    written = []
    relay = OutputRelay("quiet one", write=written.append, clock=lambda: 0.0)
    for i in range(205):
        relay.line(f"{i}\n")
    assert len(written) == 200 and relay.dropped == 5
    assert "dropped" not in capsys.readouterr().err  # not before the window ends
    time.sleep(1.5)  # nothing more comes: the timer says it
    err = capsys.readouterr().err
    assert err.endswith("] quiet one: 5 lines of its output dropped (more than 200 in 1 s)\n")
    assert relay.dropped == 0


def test_a_new_window_relays_again_and_a_long_line_is_cut():
    now = [0.0]
    written = []
    relay = OutputRelay("p", write=written.append, clock=lambda: now[0])
    for _ in range(300):
        relay.line("x\n")
    now[0] = serve_class.RELAY_WINDOW  # the next window
    relay.line("y" * 10_000)
    assert len(written) == 201 and written[-1] == "y" * serve_class.RELAY_LINE_CHARS


def _refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: nothing listens there


def test_a_database_server_that_refuses_connections_stops_the_launch(monkeypatch, capsys):
    """Every process would have started and said on every page that progress cannot be saved."""
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.secrets_database_url", lambda: "")
    monkeypatch.setattr("serve_class._serve", lambda *args: pytest.fail("the class was started"))
    port = _refused_port()
    monkeypatch.setenv("TOOLCALL_DATABASE_URL", f"postgresql://toolcall:s3cret-pw@127.0.0.1:{port}/toolcall")
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (f"progress storage: cannot connect to the progress database server at 127.0.0.1 port {port}: "
                   "Connection refused. Start the server, or fix the host and port in TOOLCALL_DATABASE_URL "
                   "(environment)\n")
    monkeypatch.delenv("TOOLCALL_DATABASE_URL")
    assert main(["--processes", "1", "--database-url", f"postgresql://u@127.0.0.1:{port}/db"]) == 2
    assert capsys.readouterr().err.endswith("fix the host and port in --database-url\n")


def test_a_database_server_that_refuses_the_credentials_stops_the_launch(monkeypatch, capsys):
    url = pg.server_url()
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.secrets_database_url", lambda: "")
    served = []
    monkeypatch.setattr("serve_class._serve", lambda *args: served.append(1) or 0)
    wrong = url.replace("postgresql://postgres@", "postgresql://nosuchrole@")
    assert wrong != url
    assert main(["--processes", "1", "--database-url", wrong]) == 2
    assert capsys.readouterr().err == (
        'progress storage: the progress database server refuses the connection: role "nosuchrole" does not '
        "exist. Waiting will not fix this: fix --database-url (its database, user or password) or the server's "
        "set-up\n")
    assert served == []
    assert main(["--processes", "1", "--database-url", url]) == 0  # the right one: the class starts
    assert served == [1]


_TRY = """
import sys, time
from toolcall.instructor import SharedLoginThrottle
throttle = SharedLoginThrottle(sys.argv[1], base=30, cap=30, sleep=lambda s: None)
outcome, waited = throttle.attempt("a wrong guess", "the instructor passphrase")
print(outcome, round(waited))
"""


def test_passphrase_tries_on_two_processes_share_one_queue(tmp_path):
    """Two Streamlit processes of one class: a guess on the second waits for the slot after the first's (30 s
    here), as two sessions of one process do; with one throttle each, both were checked at once."""
    path = tmp_path / serve_class.THROTTLE_FILE

    def guess() -> str:
        run = subprocess.run([sys.executable, "-c", _TRY, str(path)], cwd=REPO, capture_output=True, text=True,
                             timeout=60)
        assert run.returncode == 0, run.stderr
        return run.stdout.split()

    first, second = guess(), guess()
    assert first == ["wrong", "0"]
    assert second[0] == "wrong" and 20 <= int(second[1]) <= 30  # the slot 30 s after the first's
    throttle = SharedLoginThrottle(path, base=30, cap=30, sleep=lambda s: None)  # a third, in this process
    outcome, waited = throttle.attempt("x", "the instructor passphrase")
    assert outcome == "wrong" and 50 <= waited <= 60  # after both slots
    assert (throttle.failures, throttle._waiting) == (3, 0)


def test_the_launcher_names_the_shared_throttle_file_in_its_run_folder(tmp_path):
    env = serve_class.child_env("", tmp_path)
    assert env["TOOLCALL_LOGIN_THROTTLE_FILE"] == str(tmp_path / "login-throttle.json")
    assert "TOOLCALL_LOGIN_THROTTLE_FILE" not in serve_class.child_env("")


def test_a_try_of_a_process_that_died_while_waiting_stops_counting(tmp_path):
    now = [100.0]
    path = tmp_path / "t.json"
    path.write_text('{"failures": 0, "waiting": [50.0, 99.0], "next_slot": 99.0}')
    throttle = SharedLoginThrottle(path, clock=lambda: now[0], sleep=lambda s: None)
    assert throttle.attempt("x", "the instructor passphrase") == ("wrong", 0.0)
    # 50.0 is 50 s old (a dead process's), 99.0 one second: it still counts for the next slot's width (2^1 s)
    assert path.read_text() == '{"failures": 1, "waiting": [99.0], "next_slot": 102.0}'


def test_nginx_error_log_is_kept_out_of_the_run_folder_unless_empty(tmp_path):
    run_dir = tmp_path / (serve_class.RUN_DIR_PREFIX + "abc123")
    run_dir.mkdir()
    assert serve_class.keep_error_log(run_dir) is None  # none written
    (run_dir / "error.log").write_text("")
    assert serve_class.keep_error_log(run_dir) is None  # empty: nothing to keep
    (run_dir / "error.log").write_text("2026/12/07 03:00:00 [warn] 1#1: *5 limiting connections by zone\n")
    kept = serve_class.keep_error_log(run_dir)
    assert kept.parent == tmp_path and re.fullmatch(r"toolcall-nginx-error-\d{8}-\d{6}-abc123\.log", kept.name)
    assert kept.read_text().endswith("limiting connections by zone\n")
    assert not (run_dir / "error.log").exists()


def test_a_killed_launchers_nginx_error_log_is_kept_when_its_folder_is_removed(tmp_path):
    run_dir, lock = serve_class.new_run_dir(tmp_path)
    (run_dir / "error.log").write_text("[emerg] something\n")
    os.close(lock)  # as the kernel does when the launcher is killed
    assert serve_class.remove_stale_run_dirs(tmp_path) == [run_dir]
    (kept,) = tmp_path.iterdir()
    assert kept.name.startswith("toolcall-nginx-error-") and kept.read_text() == "[emerg] something\n"


def test_the_home_folders_secrets_file_is_read_as_streamlit_reads_it(monkeypatch, tmp_path, capsys):
    """The processes read ~/.streamlit/secrets.toml too (the checkout's file winning per key); the launcher read
    only the checkout's, so a TOOLCALL_DATABASE_URL in the home folder's file (every process's progress database)
    was neither checked nor reached, and the class started on a server that refused it."""
    home, checkout = tmp_path / "home", tmp_path / "checkout" / "secrets.toml"
    (home / ".streamlit").mkdir(parents=True)
    checkout.parent.mkdir()
    monkeypatch.setattr("serve_class.SECRETS_FILE", checkout)
    monkeypatch.delenv("STREAMLIT_SECRETS_FILES")
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class._serve", lambda *args: pytest.fail("the class was started"))
    assert serve_class.secrets_files() == [home / ".streamlit" / "secrets.toml", checkout]
    port = _refused_port()
    (home / ".streamlit" / "secrets.toml").write_text(f'TOOLCALL_DATABASE_URL = "postgresql://u@127.0.0.1:{port}/db"\n')
    assert serve_class.secrets_database_url() == f"postgresql://u@127.0.0.1:{port}/db"
    assert main(["--processes", "1"]) == 2
    assert capsys.readouterr().err == (
        f"progress storage: cannot connect to the progress database server at 127.0.0.1 port {port}: Connection "
        f"refused. Start the server, or fix the host and port in {home}/.streamlit/secrets.toml: "
        "TOOLCALL_DATABASE_URL\n")
    checkout.write_text('TOOLCALL_DATABASE_URL = "postgresql://u@db.lan/class"\n')  # the checkout's wins
    assert serve_class.secrets_database_url() == "postgresql://u@db.lan/class"
    assert serve_class.secrets_database_source() == checkout
    checkout.write_text('OTHER = "x"\n')
    assert serve_class.secrets_database_source() == home / ".streamlit" / "secrets.toml"


def test_the_secrets_files_streamlit_is_told_to_read_are_the_ones_read(monkeypatch, tmp_path):
    named = [tmp_path / "a.toml", tmp_path / "b.toml"]
    monkeypatch.setenv("STREAMLIT_SECRETS_FILES", f"{named[0]} {named[1]}")
    assert serve_class.secrets_files() == named
    named[0].write_text('TOOLCALL_DATABASE_URL = "postgresql://u@a/db"\n')
    assert serve_class.secrets_database_url() == "postgresql://u@a/db"
    named[1].write_text("[[broken\n")
    with pytest.raises(ValueError, match=f"^{named[1]}: not TOML: "):
        serve_class.secrets_database_url()


class _PausedStream:
    """An output that takes nothing until ``resume`` is set (a terminal paused with Ctrl+S, a pipe no one reads),
    then everything: what was written, in order."""

    def __init__(self):
        import threading
        self.resume, self.written = threading.Event(), []

    def write(self, text):
        self.resume.wait()
        self.written.append(text)

    def flush(self):
        pass


def _finishes(call, seconds: float = 60.0) -> bool:
    """Whether ``call()`` returns within ``seconds`` (run in a thread; a call that never returns is left there)."""
    import threading
    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(seconds)
    return not worker.is_alive()


def test_a_paused_output_never_stops_the_supervisor_and_the_dropped_lines_are_counted(monkeypatch):
    """The supervisor's log() waited for ever on an output that took nothing (break-it pass brk14ops: a process killed
    meanwhile was not started again in 90 s): every line now waits at most WRITE_WAIT s, none while one is stuck; past
    WRITE_BACKLOG waiting lines the rest are dropped, and counted when the output takes lines again."""
    stream = _PausedStream()
    monkeypatch.setattr(serve_class, "_WRITER", serve_class._Writer())
    monkeypatch.setattr(serve_class, "WRITE_BACKLOG", 3)
    monkeypatch.setattr(sys, "stderr", stream)
    child = Child("test process", [sys.executable, "-c", "raise SystemExit(3)"], None)
    child.start().wait(10)
    assert _finishes(lambda: [serve_class.say(f"line {i}") for i in range(6)])  # 1 stuck, 3 waiting, 2 dropped
    assert _finishes(lambda: child.supervise(100.0))  # its death is logged (dropped too), its restart is due
    assert child.restart_at == 100.0
    stream.resume.set()
    assert serve_class._WRITER.drain(60)  # the output takes lines again: the waiting ones are written
    assert serve_class.say("after") is True
    lines = "".join(stream.written).splitlines()
    assert lines[:1] == ["line 0"] and lines[2:] == ["line 1", "line 2", "line 3", "after"]
    assert re.fullmatch(r"\[\d\d:\d\d:\d\d\] 3 lines of this launcher's output were dropped: its output \(terminal "
                        r"or pipe\) took none for a while", lines[1])


def test_a_line_is_written_before_say_returns_when_the_output_takes_it(capfd):
    assert serve_class.say("one") is True and serve_class.say("two", "stdout") is True
    assert capfd.readouterr() == ("two\n", "one\n")


_ANSWERS_OK = """
import http.server, sys
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Ok).serve_forever()
"""


def test_a_process_that_hangs_while_the_class_warms_up_is_restarted_not_waited_for(monkeypatch, capsys):
    """A Streamlit process stopped (SIGSTOP) right after it answered its first health check held the class's start
    up for WARM_TIMEOUT (90 s) without a line while the launcher waited for its warm-up visit, the other processes
    ready (break-it pass brk19ops). The processes are supervised during the visits: the hung one is killed, which
    ends its visit, and started again."""
    import signal
    import socket
    import time

    import serve_class
    from serve_class import Child
    monkeypatch.setattr(serve_class, "HEALTH_EVERY", 0.2)
    monkeypatch.setattr(serve_class, "HEALTH_TIMEOUT", 0.2)
    monkeypatch.setattr(serve_class, "HEALTH_FAILURES", 2)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    child = Child("web 1", [sys.executable, "-c", _ANSWERS_OK, str(port)], f"http://127.0.0.1:{port}/_stcore/health",
                  warm_port=port, watch=True)
    first = child.start()
    try:
        serve_class.wait_healthy(child.health, first, 30, check=child.serves)
        child.waiting_health, child.served_at, child.next_check = False, time.monotonic(), time.monotonic()
        first.send_signal(signal.SIGSTOP)  # hung: its warm-up visit gets no answer until it is killed
        visits = []
        monkeypatch.setattr(serve_class, "warm_process", lambda p, timeout=0: visits.append(p) or first.wait())
        started = time.monotonic()
        serve_class.warm_children([child], [port], timeout=60, tick=0.05)
        assert time.monotonic() - started < 20
        assert first.poll() == -signal.SIGKILL
        assert visits[0] == port
        assert "web 1 did not answer 2 health checks in a row (0 s each): hung; killing it (SIGKILL) and restarting " \
               "it; the other processes keep serving" in capsys.readouterr().err
    finally:
        for proc in {first, child.proc}:
            if proc is not None and proc.poll() is None:
                serve_class.kill_group(proc)
                proc.wait(10)


def test_a_data_folder_that_fills_or_turns_read_only_during_the_class_is_logged_once_each_way(monkeypatch, tmp_path,
                                                                                               capsys):
    """A disk that filled during the class (or a file system remounted read-only) was told to every student and not
    to the operator: the launcher looked at the folder only before the class started (break-it pass brk19ops)."""
    import shutil
    from collections import namedtuple

    import serve_class
    from serve_class import STORAGE_EVERY, StorageWatch
    monkeypatch.setattr(serve_class.time, "gmtime", lambda *a: serve_class.time.struct_time((2026, 12, 2, 7, 5, 9,
                                                                                           2, 336, 0)))
    usage = namedtuple("usage", "total used free")
    free = [10 << 20]
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: usage(100 << 20, (100 << 20) - free[0], free[0]))
    writable = [True]
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: writable[0] and real_access(path, mode))
    watch = StorageWatch(tmp_path)
    watch.update(0.0)
    assert capsys.readouterr().err == ""
    free[0] = 4096  # the disk filled
    watch.update(1.0)  # looked at once per STORAGE_EVERY s
    assert capsys.readouterr().err == ""
    watch.update(STORAGE_EVERY)
    watch.update(2 * STORAGE_EVERY)  # said once
    assert capsys.readouterr().err == (
        f"[07:05:09] progress storage: the disk holding {tmp_path} is full: progress is shown, not saved, until space "
        "is freed there (TOOLCALL_DATA_DIR, default <repo>/data). Students are told so on their pages; their answers "
        "are kept in their browser tabs meanwhile\n")
    free[0] = 10 << 20
    watch.update(3 * STORAGE_EVERY)
    assert capsys.readouterr().err == (
        f"[07:05:09] progress storage: {tmp_path} can be written again: progress is saved again (the answers kept in "
        "students' tabs are saved at their next page)\n")
    writable[0] = False  # remounted read-only
    watch.update(4 * STORAGE_EVERY)
    assert capsys.readouterr().err == (
        f"[07:05:09] progress storage: {tmp_path}/progress.sqlite3 is read-only (the file or its folder cannot be "
        "written by this user): progress is shown, not saved; make both writable, or point TOOLCALL_DATA_DIR at a "
        "folder that is. Students are told so on their pages; their answers are kept in their browser tabs "
        "meanwhile\n")


_TRY_ONCE = """
import sys
from toolcall.instructor import SharedLoginThrottle
throttle = SharedLoginThrottle(sys.argv[1], base=30, cap=30, sleep=lambda s: None)
print(*throttle.attempt("a wrong guess", "the instructor passphrase"))
"""


@pytest.mark.parametrize("spoil", [
    lambda path: path.write_text("[" * 20_000 + "]" * 20_000, "utf-8"),  # was a RecursionError at every sign-in
    lambda path: os.mkfifo(path),  # was a read waiting for ever, at every sign-in
])
def test_a_damaged_or_fifo_throttle_file_is_a_fresh_throttle(tmp_path, spoil):
    """The shared throttle's file, damaged or not a file, is a fresh throttle of this process (break-it pass
    brk20new): nested 20 000 deep, json.loads raised RecursionError, which the damaged-file case did not catch;
    a FIFO there made the read wait for a writer for ever."""
    path = tmp_path / serve_class.THROTTLE_FILE
    spoil(path)
    run = subprocess.run([sys.executable, "-c", _TRY_ONCE, str(path)], cwd=REPO, capture_output=True, text=True,
                         timeout=30)
    assert (run.returncode, run.stdout, run.stderr) == (0, "wrong 0.0\n", "")


def test_the_last_secrets_file_that_sets_the_url_decides_even_to_empty(monkeypatch, tmp_path):
    """Streamlit merges the files, a later one's key winning: TOOLCALL_DATABASE_URL = "" in the second file over a
    URL in the first is SQLite for every process, and the launcher took the first file's server, reached it and
    planned its pool (break-it pass brk20new). A file nested past what tomllib reads is named."""
    named = [tmp_path / "a.toml", tmp_path / "b.toml"]
    monkeypatch.setenv("STREAMLIT_SECRETS_FILES", f"{named[0]} {named[1]}")
    named[0].write_text('TOOLCALL_DATABASE_URL = "postgresql://u@a/db"\n')
    named[1].write_text('TOOLCALL_DATABASE_URL = " "\n')
    assert (serve_class.secrets_database_url(), serve_class.secrets_database_source()) == ("", None)
    named[1].write_text('OTHER = "x"\n')
    assert (serve_class.secrets_database_url(), serve_class.secrets_database_source()) == (
        "postgresql://u@a/db", named[0])
    named[1].write_text("a = " + "[" * 20_000 + "]" * 20_000 + "\n")
    with pytest.raises(ValueError) as caught:
        serve_class.secrets_database_url()
    assert str(caught.value) == f"{named[1]}: nested too deeply to read (RecursionError)"
