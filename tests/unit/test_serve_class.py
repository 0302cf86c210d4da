"""deploy/serve_class.py's generated nginx.conf (nginx itself runs it in tests/e2e/test_class_deployment.py)."""

import os
import re
import subprocess
import signal
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import serve_class  # noqa: E402
from serve_class import (COOKIE, RUN_DIR_PREFIX, RUN_LOCK, bind_problem, default_processes, listen_address,  # noqa: E402
                          main, new_run_dir, nginx_conf, remove_stale_run_dirs, upstream_name)

BACKENDS = ["127.0.0.1:8601", "127.0.0.1:8602", "127.0.0.1:8603"]


def _map(conf: str, variable: str) -> dict[str, str]:
    body = re.search(r"map \S+ \$" + variable + r" \{(.*?)\n    \}", conf, re.S).group(1)
    return dict(re.findall(r'^\s+("?[^\s"]*"?)\s+(.+?);$', body, re.M))


def test_pool_lists_every_backend_once():
    conf = nginx_conf("0.0.0.0:8501", BACKENDS, Path("/run/x"), as_root=False)
    pool = re.search(r"upstream toolcall_pool \{(.*?)\}", conf, re.S).group(1)
    assert re.findall(r"server (\S+);", pool) == BACKENDS
    assert "listen 0.0.0.0:8501;" in conf
    assert 'pid "/run/x/nginx.pid";' in conf
    assert "user nobody" not in conf


def test_cookie_pins_only_known_backends_each_with_the_others_as_backups():
    conf = nginx_conf("127.0.0.1:8501", BACKENDS, Path("/run/x"), as_root=True)
    pin = _map(conf, "toolcall_backend")
    assert pin == {"default": "toolcall_pool", **{f'"{b}"': upstream_name(i) for i, b in enumerate(BACKENDS)}}
    for i, b in enumerate(BACKENDS):  # the pinned process first; the others only while it is down
        block = re.search(r"upstream " + upstream_name(i) + r" \{(.*?)\}", conf, re.S).group(1)
        assert re.findall(r"server (\S+?)( backup)?;", block) == [(b, "")] + [(o, " backup") for o in BACKENDS if o != b]
    assert "proxy_next_upstream error timeout http_502 http_503;" in conf
    assert "user nobody nogroup;" in conf
    assert "proxy_pass http://$toolcall_backend;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


def test_the_cookie_names_only_the_last_address_tried():
    """After a retry nginx's $upstream_addr is "a, b": the cookie must hold b alone."""
    conf = nginx_conf("127.0.0.1:8501", BACKENDS, Path("/run/x"), as_root=False)
    answered = _map(conf, "toolcall_answered")
    regex = answered['"~(?<last>[0-9.]+:[0-9]+)$"']
    assert regex == "$last"
    pattern = re.compile(r"(?P<last>[0-9.]+:[0-9]+)$")
    assert pattern.search("127.0.0.1:8601, 127.0.0.1:8602").group("last") == "127.0.0.1:8602"
    assert pattern.search("127.0.0.1:8601, 127.0.0.1:8602 : 127.0.0.1:8603").group("last") == "127.0.0.1:8603"
    set_cookie = _map(conf, "toolcall_set_cookie")
    assert set_cookie["default"] == f'"{COOKIE}=$toolcall_answered; Path=/; HttpOnly; SameSite=Lax"'
    assert set_cookie['"~\\|$"'] == '""'  # nothing answered: no cookie
    assert all(set_cookie[f'"{b}|{b}"'] == '""' for b in BACKENDS)  # already pinned where it was answered


def test_no_backend_is_an_error():
    with pytest.raises(ValueError):
        nginx_conf("127.0.0.1:8501", [], Path("/run/x"), as_root=False)


@pytest.mark.parametrize("argv, message", [(["--processes", "0"], "--processes must be 1..16"),
                                           (["--processes", "17"], "--processes must be 1..16"),
                                           (["--port", "70000"], "--port 70000: ports must be 1..65535"),
                                           (["--port", "0"], "--port 0: ports must be 1..65535"),
                                           # the --port is fine: the processes' ports run past 65535 (brk17fresh)
                                           (["--port", "9180", "--first-backend-port", "65535", "--processes", "2"],
                                            "--first-backend-port 65535 with 2 processes uses ports 65535 to 65536; "
                                            "ports must be 1..65535"),
                                           (["--first-backend-port", "0", "--processes", "1"],
                                            "--first-backend-port 0 with 1 process uses port 0; ports must be 1..65535"),
                                           # nginx's port among the processes': each was free alone, then nginx
                                           # failed with "[emerg] bind() ... Address already in use" (its own)
                                           *[(["--port", str(port), "--first-backend-port", "8601", "--processes",
                                               "3"], f"--port {port} is also a Streamlit process's port "
                                               "(--first-backend-port 8601 to 8603 for 3 processes); choose a --port "
                                               "outside that range, or another --first-backend-port")
                                             for port in (8601, 8602, 8603)]])
def test_bad_arguments_are_refused_before_anything_starts(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.endswith(f"serve_class.py: error: {message}\n")


def test_missing_nginx_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setattr("serve_class.find_nginx", lambda: None)
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    assert main(["--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert "sudo apt-get install nginx" in err and "streamlit run app.py" in err


def test_ports_in_use_are_named_before_anything_starts(capsys):
    import socket
    with socket.socket() as taken, socket.socket() as backend:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        backend.bind(("127.0.0.1", 0))
        backend.listen()
        port, backend_port = taken.getsockname()[1], backend.getsockname()[1]
        assert main(["--address", "127.0.0.1", "--port", str(port), "--processes", "1",
                     "--first-backend-port", str(backend_port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"already in use: 127.0.0.1:{port}, 127.0.0.1:{backend_port}. Stop what listens there")


@pytest.mark.parametrize("address", ["0", "0.0.0.0", "::", "[::]", "0.0", "000.0.0.0", "::ffff:0.0.0.0"])
def test_every_interface_is_refused_without_public(address, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--address", address, "--processes", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--address {address!r} means every network interface" in err and "Add --public" in err
    assert "already in use" not in err


def test_public_means_every_interface_and_keeps_an_explicit_address():
    assert listen_address("0", public=True) == "0.0.0.0"
    assert listen_address("[::]", public=True) == "::"
    assert listen_address("127.0.0.1", public=False) == "127.0.0.1"
    assert listen_address("[::1]", public=False) == "::1"


@pytest.mark.parametrize("address", ["300.1.1.1", "not an address", "::1:8501:x"])
def test_an_invalid_address_is_named_as_invalid_not_busy(address, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--address", address, "--processes", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--address {address!r} is not an IP address or a host name this machine can resolve" in err
    assert "already in use" not in err


@pytest.mark.parametrize("address, alone", [("127.0.0.1:8501", "127.0.0.1"), ("localhost:9000", "localhost")])
def test_an_address_with_a_port_is_named_as_such(address, alone, capsys):
    """It was "not an IP address or a host name this machine can resolve (Name or service not known)"."""
    with pytest.raises(SystemExit) as exc:
        main(["--address", address, "--processes", "1"])
    assert exc.value.code == 2
    port = address.rsplit(":", 1)[1]
    assert capsys.readouterr().err.endswith(
        f"error: --address {address!r} holds a port: give the address alone and the port with --port "
        f"(--address {alone} --port {port})\n")


def test_a_link_local_ipv6_address_is_named_as_such_not_invalid_argument(capsys):
    """"fe80::1%lo" lost its interface and was refused as "cannot listen on fe80::1:8501: [Errno 22] Invalid
    argument"."""
    with pytest.raises(SystemExit) as exc:
        main(["--address", "fe80::1%lo", "--processes", "1"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: --address 'fe80::1%lo' is a link-local IPv6 address (fe80::/10), which is an address only together "
        "with its interface, and nginx cannot listen on one: use one of this machine's other addresses, or --public "
        "for every interface\n")


def test_an_ipv6_address_in_use_is_named_in_brackets(capsys):
    """"already in use: ::1:8501" read as the address ::1:8501 (break-it pass brk19ops)."""
    import socket
    with socket.socket(socket.AF_INET6) as taken:
        try:
            taken.bind(("::1", 0))
        except OSError:
            pytest.skip("no IPv6 loopback here")
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--address", "::1", "--port", str(port), "--processes", "1",
                     "--first-backend-port", str(_free_port())]) == 2
    assert capsys.readouterr().err.startswith(f"already in use: [::1]:{port}. Stop what listens there")
    assert serve_class.host_port("::1", 8501) == "[::1]:8501" and serve_class.host_port("10.0.0.1", 80) == "10.0.0.1:80"


def test_a_host_name_is_named_with_the_address_it_resolved_to(capsys):
    """"already in use: 127.0.0.1:8501" for --address localhost did not say where the address came from."""
    import socket
    address = listen_address("localhost", public=False)  # 127.0.0.1, or ::1 where that comes first
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as taken:
        taken.bind((address, 0))
        taken.listen()
        port = taken.getsockname()[1]
        shown = serve_class.host_port(address, port)
        assert main(["--address", "localhost", "--port", str(port), "--processes", "1",
                     "--first-backend-port", str(_free_port())]) == 2
        assert capsys.readouterr().err.startswith(f"already in use: {shown} (--address localhost). Stop")
        assert main(["--address", address, "--port", str(port), "--processes", "1",
                     "--first-backend-port", str(_free_port())]) == 2
        assert capsys.readouterr().err.startswith(f"already in use: {shown}. Stop")  # nothing to add


def test_an_address_of_another_machine_is_named_as_such(capsys):
    assert bind_problem("192.0.2.1", 8501) == "not an address of this machine"  # TEST-NET-1: never local
    assert main(["--address", "192.0.2.1", "--processes", "1", "--first-backend-port", "1"]) == 2
    err = capsys.readouterr().err
    assert "192.0.2.1:8501: not an address of this machine" in err and "already in use" not in err


def test_a_process_that_dies_before_serving_is_restarted_with_growing_delays(capsys):
    """A crash loop (dies before its health check ever answers) waits 2, 4 … s between restarts;
    a process that had been serving is restarted at once. Every step is logged."""
    from serve_class import Child
    child = Child("test process", [sys.executable, "-c", "raise SystemExit(3)"], "http://127.0.0.1:1/")
    child.start().wait(30)
    child.supervise(100.0)
    assert child.restart_at == 102.0
    child.supervise(102.0)
    assert child.restarts == 1
    child.proc.wait(30)
    child.supervise(200.0)
    assert child.restart_at == 204.0
    err = capsys.readouterr().err
    assert "test process exited (code 3); restarting it in 2 s (it keeps dying at start)" in err
    assert "test process: started again (restart 1)" in err
    assert "restarting it in 4 s" in err
    child.waiting_health = False  # as if it had answered: the next death restarts at once
    child.restart_at = None
    child.supervise(300.0)
    assert child.restart_at == 300.0 and child.quick_exits == 0
def test_database_url_reaches_every_process_and_must_be_postgresql(monkeypatch, capsys):
    from serve_class import child_env

    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    assert "TOOLCALL_DATABASE_URL" not in child_env("")
    assert child_env("postgresql://db.lan/class")["TOOLCALL_DATABASE_URL"] == "postgresql://db.lan/class"
    with pytest.raises(SystemExit) as info:
        main(["--database-url", "mysql://db.lan/class"])
    assert info.value.code == 2 and "--database-url must start with postgresql://" in capsys.readouterr().err


def test_default_processes_is_two_per_core_within_2_to_16():
    assert [default_processes(c) for c in (1, 2, 3, 8, 9, 64)] == [2, 4, 6, 16, 16, 16]
    assert 2 <= default_processes() <= 16


def _locations(conf: str) -> dict[str, str]:
    return dict(re.findall(r"\n        location (\S+) \{\n(.*?)\n        \}", conf, re.S))


def test_plain_http_passes_a_silent_process_over_and_the_websocket_keeps_its_long_timeout():
    """A hung process accepts connections and never answers: plain HTTP gets HTTP_FIRST_BYTE s for
    its first byte, then nginx asks another process; the websocket idles for long and keeps a day."""
    from serve_class import HTTP_FIRST_BYTE
    locations = _locations(nginx_conf("127.0.0.1:8501", BACKENDS, Path("/run/x"), as_root=False))
    assert set(locations) == {"/", "/_stcore/stream", "/_stcore/upload_file"}
    timeouts = {where: re.search(r"proxy_read_timeout (\S+);", body).group(1) for where, body in locations.items()}
    assert timeouts == {"/": f"{HTTP_FIRST_BYTE}s", "/_stcore/stream": "1d", "/_stcore/upload_file": "5m"}
    for body in locations.values():  # every location: the same routing, cookie and retry rules
        assert "proxy_connect_timeout 1s;" in body
        assert "proxy_next_upstream error timeout http_502 http_503;" in body
        assert "proxy_pass http://$toolcall_backend;" in body
        assert "add_header Set-Cookie $toolcall_set_cookie always;" in body


def test_only_uploads_take_a_body_and_no_larger_than_the_processes_take(tmp_path):
    """nginx took 200 MB per request and wrote it to disk whole before a process refused anything past its 20 MB
    upload cap (issue 13, round 6): a body is now at most 1 MB, an upload's the processes' cap and 1 MB for the
    form around the file, and one address may send UPLOADS_PER_ADDRESS uploads at once. The cap is read from the
    checkout's Streamlit config, and every process is started with it."""
    from serve_class import STREAMLIT_UPLOAD_MB, UPLOADS_PER_ADDRESS, upload_limit_mb
    import tomllib

    shipped = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["server"]
    assert upload_limit_mb() == shipped["maxUploadSize"] == 20
    conf = nginx_conf("127.0.0.1:8501", BACKENDS, Path("/run/x"), as_root=False, upload_mb=upload_limit_mb())
    assert re.findall(r"client_max_body_size (\S+);", conf) == ["1m", "21m"]
    locations = _locations(conf)
    assert "client_max_body_size 21m;" in locations["/_stcore/upload_file"]
    assert f"limit_conn toolcall_uploads {UPLOADS_PER_ADDRESS};" in locations["/_stcore/upload_file"]
    assert UPLOADS_PER_ADDRESS == 32
    assert "toolcall_uploads" not in locations["/"] + locations["/_stcore/stream"]
    for text, expected in [("[server]\nmaxUploadSize = 5\n", 5), ("[server]\nport = 1\n", STREAMLIT_UPLOAD_MB),
                           ("[server]\nmaxUploadSize = 0\n", STREAMLIT_UPLOAD_MB), ("server = 3\n", STREAMLIT_UPLOAD_MB),
                           ("[server]\nmaxUploadSize = true\n", STREAMLIT_UPLOAD_MB), ("[server\n", STREAMLIT_UPLOAD_MB),
                           # nested past what tomllib reads: a RecursionError traceback stopped the launcher (brk21probe)
                           ("[server]\nmaxUploadSize = 5\nx = " + "[" * 20_000 + "\n", STREAMLIT_UPLOAD_MB)]:
        (tmp_path / "config.toml").write_text(text, encoding="utf-8")
        assert upload_limit_mb(tmp_path / "config.toml") == expected, text
    assert upload_limit_mb(tmp_path / "missing.toml") == STREAMLIT_UPLOAD_MB == 200


def test_a_root_launcher_makes_its_run_folder_where_nginxs_workers_can_enter(tmp_path, capsys):
    """As root, nginx's workers run as nobody: with TMPDIR a folder only root may enter (libpam-tmpdir's
    /tmp/user/0, mode 0700) they could not open their body folder, and every upload past 16 KB failed with a 500
    (issue 13, round 6). Such a temp folder is passed over for /tmp, and the launcher says so."""
    from serve_class import everyone_can_enter, run_parent

    closed, open_ = tmp_path / "closed", tmp_path / "open"
    closed.mkdir(mode=0o700)
    open_.mkdir(mode=0o755)
    os.chmod(tmp_path, 0o755)
    assert (everyone_can_enter(closed), everyone_can_enter(open_), everyone_can_enter(closed / "inside")) == \
        (False, everyone_can_enter(tmp_path), False)
    assert run_parent(True, str(closed)) == Path("/tmp")
    assert capsys.readouterr().err.endswith(f"the temp folder {closed} is closed to other users, and nginx's workers "
                                            "run as nobody: the run folder is made in /tmp instead\n")
    assert run_parent(False, str(closed)) == closed  # nginx's workers run as this user
    if everyone_can_enter(tmp_path):
        assert run_parent(True, str(open_)) == open_
    assert capsys.readouterr().err == ""


def _drive(child, until, seconds: float = 30.0) -> None:
    """Call child.supervise every 0.05 s until ``until()`` holds (at most ``seconds``)."""
    import time
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        child.supervise(time.monotonic())
        time.sleep(0.05)
    assert until()


def test_a_serving_process_that_stops_answering_is_killed_and_restarted(monkeypatch, capsys):
    """HEALTH_FAILURES unanswered checks in a row: logged, the process killed and started again at once."""
    import serve_class
    from serve_class import Child
    monkeypatch.setattr(serve_class, "HEALTH_EVERY", 0.0)
    monkeypatch.setattr(serve_class, "HEALTH_TIMEOUT", 0.2)
    child = Child("test process", [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/",
                  watch=True)
    first = child.start()
    child.waiting_health = False  # as if it had been serving
    try:
        _drive(child, lambda: child.restarts == 1)
        assert first.returncode == -9 and child.proc is not first and child.proc.poll() is None
        err = capsys.readouterr().err
        assert (f"test process did not answer {serve_class.HEALTH_FAILURES} health checks in a row (0 s each): hung; "
                "killing it (SIGKILL) and restarting it; the other processes keep serving") in err
        assert "test process: started again (restart 1)" in err and "exited" not in err
    finally:
        child.proc.kill()
        child.proc.wait(10)


def test_a_process_without_watch_is_never_health_checked_while_serving(monkeypatch):
    import serve_class
    from serve_class import Child
    monkeypatch.setattr(serve_class, "HEALTH_EVERY", 0.0)
    child = Child("nginx", [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/")
    child.start()
    child.waiting_health = False
    try:
        for i in range(20):
            child.supervise(float(i))
        assert not child.checking and child.failures == 0 and child.proc.poll() is None
    finally:
        child.proc.kill()
        child.proc.wait(10)


def test_a_dead_leader_takes_its_process_group_with_it(tmp_path):
    """nginx's workers outlive a master killed by SIGKILL; the supervisor kills the whole group before
    starting a new master, and a master serves only once its own pid is in the pid file."""
    import os
    import signal
    import time
    from serve_class import Child
    pid_file = tmp_path / "leader.pid"
    script = ("import os, subprocess, sys, time; "
              "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
              f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)")
    child = Child("leader", [sys.executable, "-c", script], None, pid_file=pid_file)
    leader = child.start()
    for _ in range(100):
        if child.serves():
            break
        time.sleep(0.1)
    assert child.serves()
    import psutil
    worker = psutil.Process(leader.pid).children()[0]
    assert worker.is_running()
    pid_file.write_text("1")  # a pid file naming another process: not ours serving
    assert not child.serves()
    os.kill(leader.pid, signal.SIGKILL)
    leader.wait(10)
    child.waiting_health = False
    child.supervise(0.0)  # notices the death: the orphan goes too
    assert not psutil.wait_procs([worker], timeout=10)[1]
    assert child.restart_at == 0.0


def test_a_restarted_process_that_never_answers_is_killed_after_the_startup_timeout(capsys):
    """Stuck at start (alive, never healthy): killed after STARTUP_TIMEOUT like a hung process, and the
    next start waits as after a death at start."""
    from serve_class import STARTUP_TIMEOUT, Child
    child = Child("test process", [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/",
                  watch=True)
    first = child.start()
    try:
        child.supervise(100.0)
        child.supervise(100.0 + STARTUP_TIMEOUT)
        assert first.poll() is None and child.restart_at is None
        child.supervise(100.5 + STARTUP_TIMEOUT)
        assert first.returncode == -9 and child.restart_at == 102.5 + STARTUP_TIMEOUT and child.quick_exits == 1
        assert (f"test process did not answer its health check within {STARTUP_TIMEOUT:.0f} s of starting: hung; "
                "killing it (SIGKILL) and restarting it") in capsys.readouterr().err
    finally:
        first.kill()
        first.wait(10)


def test_stop_kills_what_a_leader_that_died_unnoticed_left_behind():
    """An nginx master killed during startup (before the supervisor looked) leaves workers: stop() kills them."""
    import time

    import psutil
    from serve_class import stop
    leader = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time; subprocess.Popen("
                               "[sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)"],
                              start_new_session=True)
    for _ in range(100):
        if psutil.Process(leader.pid).children():
            break
        time.sleep(0.1)
    worker = psutil.Process(leader.pid).children()[0]
    leader.kill()
    leader.wait(10)
    stop([leader])
    assert not psutil.wait_procs([worker], timeout=10)[1]


def _free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _FastClock:
    """A clock that moves ``step`` seconds per sleep (so restart delays of 2, 4 s pass at once) while really
    sleeping a little, so the processes under test do start, answer or die."""

    def __init__(self, step: float = 1.0):
        self.now, self.step = 1000.0, step

    def sleep(self, _seconds: float) -> None:
        import time
        time.sleep(0.05)
        self.now += self.step


_DIES_ONCE = """
import http.server, pathlib, sys
mark = pathlib.Path(sys.argv[1])
if not mark.exists():
    mark.write_text("died once")
    raise SystemExit(3)
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")  # Streamlit's health answer
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[2])), Ok).serve_forever()
"""


def test_a_process_that_dies_while_the_class_starts_is_started_again(tmp_path, capsys):
    """Issue 13's break-it pass: one Streamlit process dying during the first start stopped the whole class."""
    from serve_class import Child, start_children
    port = _free_port()
    child = Child("test process", [sys.executable, "-c", _DIES_ONCE, str(tmp_path / "mark"), str(port)],
                  f"http://127.0.0.1:{port}/", watch=True)
    clock = _FastClock()
    try:
        start_children([child], timeout=120, clock=lambda: clock.now, sleep=clock.sleep)
        assert child.restarts == 1 and child.proc.poll() is None and not child.waiting_health
        err = capsys.readouterr().err
        assert "test process exited (code 3); restarting it in 2 s (it keeps dying at start)" in err
        assert "test process: started again (restart 1)" in err and "test process: serving again" in err
    finally:
        child.proc.kill()
        child.proc.wait(10)


def test_a_process_that_keeps_dying_at_the_start_stops_the_launch_with_its_name():
    from serve_class import START_ATTEMPTS, Child, start_children
    child = Child("test process", [sys.executable, "-c", "raise SystemExit(3)"], "http://127.0.0.1:1/", watch=True)
    clock = _FastClock(step=5.0)
    with pytest.raises(RuntimeError) as info:
        start_children([child], timeout=600, clock=lambda: clock.now, sleep=clock.sleep)
    assert child.quick_exits == START_ATTEMPTS == 3
    assert str(info.value) == ("test process stopped 3 times in a row before it answered its health check; "
                               "not starting the class (try `streamlit run app.py` to see why)")


def test_a_process_that_never_answers_is_named_when_the_start_times_out():
    from serve_class import Child, start_children
    child = Child("test process", [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/",
                  watch=True)
    clock = _FastClock(step=1.0)
    try:
        with pytest.raises(RuntimeError, match=r"^not answering 20 s after the start: test process$"):
            start_children([child], timeout=20, clock=lambda: clock.now, sleep=clock.sleep)
    finally:
        child.proc.kill()
        child.proc.wait(10)


# Issue 13, break-it pass on the deployment (cli9): the launcher says what is wrong and survives what it can.

def test_run_folders_with_spaces_quotes_and_backslashes_pass_nginx_t(tmp_path):
    """TMPDIR="/tmp/a b" made the generated nginx.conf invalid ("invalid number of arguments in pid"): every
    path is quoted. Checked by nginx itself, so any path directive added later is covered too."""
    from serve_class import find_nginx, nginx_quote
    assert nginx_quote('/tmp/a b\'"; x\\y') == '"/tmp/a b\'\\"; x\\\\y"'
    with pytest.raises(ValueError, match="line break"):
        nginx_quote("/tmp/a\nb")
    nginx = find_nginx()
    if nginx is None:
        pytest.skip("nginx is not installed")
    run_dir = tmp_path / "a b'\"; x\\y {z}"
    (run_dir / "tmp").mkdir(parents=True)
    conf = run_dir / "nginx.conf"
    conf.write_text(nginx_conf("127.0.0.1:8501", BACKENDS, run_dir, as_root=False))
    check = subprocess.run([nginx, "-t", "-q", "-p", str(run_dir), "-c", str(conf)], capture_output=True, text=True)
    assert (check.returncode, check.stderr) == (0, "")


def _with_nginx_and_set_up_checks_passing(monkeypatch, ports_free: bool = True) -> None:
    """Skip without nginx; otherwise the launcher's set-up checks (SQLite folder, secrets.toml URL and, when
    ``ports_free``, the ports) pass, so a test reaches the step it is about."""
    from serve_class import find_nginx
    if find_nginx() is None:
        pytest.skip("nginx is not installed")
    if ports_free:
        monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.sqlite_problem", lambda: None)
    monkeypatch.setattr("serve_class.secrets_database_url", lambda: "")
    monkeypatch.setattr("serve_class.everyone_can_enter", lambda folder: True)  # pytest's tmp_path is under a 0700


def test_nginx_checks_the_configuration_before_any_process_starts(monkeypatch, tmp_path, capsys):
    """A configuration nginx refuses stops the launch at once, not after every Streamlit process started."""
    from serve_class import Child
    _with_nginx_and_set_up_checks_passing(monkeypatch)
    monkeypatch.setattr("serve_class.nginx_conf", lambda *args: "bogus_directive on;\n")
    started = []
    monkeypatch.setattr(Child, "start", lambda self: started.append(self.name))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert main(["--processes", "2", "--port", "18501", "--first-backend-port", "18601"]) == 1
    assert started == []
    opened, err = capsys.readouterr().err.split("\n", 1)
    assert re.fullmatch(r"\[\d\d:\d\d:\d\d\] open files: \d+.*", opened)
    assert err.startswith("nginx refused the generated configuration:\n")
    assert 'unknown directive "bogus_directive"' in err
    assert list(tmp_path.iterdir()) == []  # the run folder is removed


class _FullStream:
    """A stream every write of which fails as on a full disk."""

    def write(self, text):
        import errno
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self):
        pass


@pytest.mark.parametrize("stream, written", [(_FullStream(), False), (None, True)], ids=["disk-full", "closed"])
def test_a_log_that_cannot_be_written_does_not_stop_the_supervisor(monkeypatch, stream, written):
    """log() raised OSError on a full disk (or AttributeError with stderr closed) from inside the supervisor's
    loop, which then stopped every process of the class."""
    from serve_class import Child, log, say
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(sys, "stdout", stream)
    assert say("Serving the app", "stdout") is written  # print() to None writes nothing, without an error
    log("anything")  # no exception
    child = Child("test process", [sys.executable, "-c", "raise SystemExit(3)"], None)
    child.start().wait(10)
    child.supervise(100.0)  # notices the death and logs it: the restart is still scheduled
    assert child.restart_at == 100.0


def _answering(body: bytes):
    """A local HTTP server answering every GET with 200 and ``body``; returns (server, url)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/_stcore/health"


@pytest.mark.parametrize("body, expected", [(b"ok", True), (b"<html>it works</html>", False), (b"", False),
                                            (b"okay", False)])
def test_only_streamlits_health_answer_counts(body, expected):
    """Any 200 counted as a serving Streamlit process, e.g. another program that took a backend's port."""
    from serve_class import healthy
    server, url = _answering(body)
    try:
        assert healthy(url) is expected
    finally:
        server.shutdown()
        server.server_close()


def test_a_program_the_os_cannot_start_is_retried_with_a_growing_delay(capsys):
    """Popen's OSError (ENOENT, EAGAIN, ENOMEM) escaped supervise() and stopped the whole class."""
    from serve_class import Child
    child = Child("test process", ["/nonexistent/streamlit"], "http://127.0.0.1:1/", watch=True)
    assert child.launch(50.0) is False
    assert (child.proc, child.quick_exits, child.restart_at) == (None, 1, 52.0)
    child.supervise(52.0)  # the next try fails the same way: the delay grows
    assert (child.restarts, child.quick_exits, child.restart_at) == (1, 2, 56.0)
    err = capsys.readouterr().err
    assert "test process could not be started (No such file or directory); trying again in 2 s" in err
    assert "test process could not be started (No such file or directory); trying again in 4 s" in err


def test_a_process_dying_at_start_because_its_port_is_taken_says_so(capsys):
    from serve_class import START_ATTEMPTS, Child, start_children
    import socket
    with socket.socket() as thief:
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        port = thief.getsockname()[1]
        child = Child("test process", [sys.executable, "-c", "raise SystemExit(1)"], f"http://127.0.0.1:{port}/",
                      watch=True, warm_port=port)
        clock = _FastClock(step=5.0)
        with pytest.raises(RuntimeError) as info:
            start_children([child], timeout=600, clock=lambda: clock.now, sleep=clock.sleep)
    assert child.quick_exits == START_ATTEMPTS
    assert str(info.value) == (f"test process stopped 3 times in a row before it answered its health check "
                               f"(127.0.0.1:{port} is in use by another program); not starting the class (try "
                               "`streamlit run app.py` to see why)")
    assert f"test process exited (code 1) (127.0.0.1:{port} is in use by another program); restarting it in 2 s" \
        in capsys.readouterr().err


def _secrets(tmp_path, content: bytes | None):
    path = tmp_path / "secrets.toml"
    if content is None:
        os.mkfifo(path)
    else:
        path.write_bytes(content)
    return path


@pytest.mark.parametrize("content, message", [
    (None, "{path}: a FIFO (named pipe), not a regular file"),
    (b'TOOLCALL_DATABASE_URL = "\xff"\n', "{path}: not UTF-8 text (byte 25)"),
    (b'TOOLCALL_DATABASE_URL = "postgresql://h/db"\n[[broken\n', "{path}: not TOML: Expected ']]' at the end of "
                                                                "an array declaration (at line 2, column 9)"),
    (b"TOOLCALL_DATABASE_URL = 5\n", '{path}: TOOLCALL_DATABASE_URL must be text in quotes ("postgresql://…"), '
                                     "not int"),
    (b"x" * 100_001, "{path}: too large: more than 100,000 characters"),
], ids=["fifo", "not-utf8", "broken-toml", "not-text", "too-large"])
def test_a_secrets_file_that_cannot_be_used_is_named(tmp_path, content, message):
    """A FIFO blocked the launcher for ever, bad UTF-8 ended in a traceback and broken TOML was ignored (the
    class then kept its progress in SQLite, not in the database the operator configured)."""
    from serve_class import secrets_database_url
    path = _secrets(tmp_path, content)
    with pytest.raises(ValueError) as info:
        secrets_database_url(path)
    assert str(info.value).startswith(message.format(path=path))


def test_a_missing_secrets_file_or_key_means_sqlite(tmp_path):
    from serve_class import secrets_database_url
    assert secrets_database_url(tmp_path / "none.toml") == ""
    assert secrets_database_url(_secrets(tmp_path, b'OTHER = "x"\n')) == ""
    assert secrets_database_url(_secrets(tmp_path, b'TOOLCALL_DATABASE_URL = " postgresql://h/db "\n')) \
        == "postgresql://h/db"


def _only_the_checkouts_secrets(monkeypatch, path: Path) -> None:
    """The launcher reads ``path`` as the checkout's secrets.toml, and no other: Streamlit's default files (the run's
    STREAMLIT_SECRETS_FILES removed) with a home folder that has none."""
    monkeypatch.setattr("serve_class.SECRETS_FILE", path)
    monkeypatch.delenv("STREAMLIT_SECRETS_FILES")
    monkeypatch.setenv("HOME", str(path.parent / "home-without-secrets"))


@pytest.mark.parametrize("content, message", [
    (b'TOOLCALL_DATABASE_URL = "mysql://h/db"\n', "TOOLCALL_DATABASE_URL must start with postgresql://"),
    (b'TOOLCALL_DATABASE_URL = "postgresql://h:99999/db"\n',
     "TOOLCALL_DATABASE_URL: the progress database URL's port must be a number from 1 to 65535"),
    (b"[[broken\n", "not TOML: "),
    (b"TOOLCALL_DATABASE_URL = '\"postgresql://h/db\"'\n",
     "TOOLCALL_DATABASE_URL is written in quotes, which are read as part of the URL: remove them"),
])
def test_the_launch_stops_on_a_secrets_file_every_process_would_fail_on(monkeypatch, tmp_path, capsys, content,
                                                                        message):
    """A database URL in secrets.toml was used unchecked (the environment's and --database-url's are checked)."""
    path = _secrets(tmp_path, content)
    monkeypatch.delenv("TOOLCALL_DATABASE_URL", raising=False)
    _only_the_checkouts_secrets(monkeypatch, path)
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    assert main(["--processes", "1"]) == 2
    assert capsys.readouterr().err.startswith(f"secrets: {path}: {message}")


def test_ctrl_c_during_the_checks_ends_with_one_line_and_130(monkeypatch, capsys):
    """Ctrl+C before the class started ended in a KeyboardInterrupt traceback."""
    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr("serve_class.listen_address", interrupted)
    assert main(["--processes", "1"]) == 130
    assert capsys.readouterr().err == "interrupted before the class started; nothing is running\n"


def test_a_content_root_setting_that_cannot_be_used_stops_the_launch(monkeypatch, tmp_path, capsys):
    """TOOLCALL_CONTENT_ROOT naming no folder started a class whose every page failed; the command line already
    refused it with this sentence."""
    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / "no\nsuch"))
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    assert main(["--processes", "1"]) == 2
    assert capsys.readouterr().err == (f"TOOLCALL_CONTENT_ROOT is {tmp_path}/no\\u000asuch, which is not a folder: set "
                                       "it to a copy of the course content (a folder holding fixtures/ and lessons/), "
                                       "or unset it to use the repository's.\n")


def test_nginx_dying_because_another_program_took_its_port_says_so(capsys):
    """A restarted nginx whose port was taken meanwhile died again and again, logged only as "exited (code 1)"."""
    from serve_class import Child
    import socket
    with socket.socket() as thief:
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        port = thief.getsockname()[1]
        proxy = Child("nginx", [sys.executable, "-c", "raise SystemExit(1)"], f"http://127.0.0.1:{port}/",
                      listens=("127.0.0.1", port))
        proxy.start().wait(10)
        proxy.supervise(10.0)  # died before answering: a quick exit
    assert proxy.quick_exits == 1 and proxy.restart_at == 12.0
    assert f"nginx exited (code 1) (127.0.0.1:{port} is in use by another program); restarting it in 2 s" \
        in capsys.readouterr().err


def test_a_broken_secrets_file_stops_the_launch_even_with_a_database_url(monkeypatch, tmp_path, capsys):
    """With --database-url given, secrets.toml was not read at all, yet every process reads it for the instructor
    settings; a URL there is then not used, so it is not checked."""
    path = _secrets(tmp_path, None)  # a FIFO
    _only_the_checkouts_secrets(monkeypatch, path)
    monkeypatch.setattr("serve_class.bind_problem", lambda address, port: None)
    monkeypatch.setattr("serve_class.find_nginx", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr("serve_class._serve", lambda *args: pytest.fail("a class was started"))
    assert main(["--processes", "1", "--database-url", "postgresql://h/db"]) == 2
    assert capsys.readouterr().err == f"secrets: {path}: a FIFO (named pipe), not a regular file\n"
    path.unlink()
    path.write_text('TOOLCALL_DATABASE_URL = "mysql://not-used"\n')
    monkeypatch.setattr("serve_class._serve", lambda args, nginx, run_dir: 0)
    monkeypatch.setattr("toolcall.progress_pg.reach", lambda url, setting: (None, None))  # no server h here
    assert main(["--processes", "1", "--database-url", "postgresql://h/db"]) == 0


def test_health_checks_ignore_a_proxy_set_in_the_environment(monkeypatch):
    """With http_proxy set (common on school networks) every health check of 127.0.0.1 went to the proxy, so no
    process ever counted as started."""
    from serve_class import healthy
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    server, url = _answering(b"ok")
    try:
        assert healthy(url) is True
    finally:
        server.shutdown()
        server.server_close()


_FD2_PROBE = """
import os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from serve_class import Child
out = Path(sys.argv[2])
probe = ("import os, sys, pathlib; f = open(sys.argv[2] + '.file', 'w'); "
         "pathlib.Path(sys.argv[1]).write_text(str(f.fileno()))")
child = Child("probe", [sys.executable, "-c", probe, str(out), str(out)], None)
child.start().wait(30)
"""


def test_a_launcher_started_with_stderr_closed_gives_its_processes_an_open_one(tmp_path):
    """Started with 2>&-, each process inherited a closed fd 2, so the first file it opened became its stderr."""
    out = tmp_path / "fd"
    subprocess.run(["sh", "-c", '"$0" -c "$1" "$2" "$3" 2>&-', sys.executable, _FD2_PROBE, str(REPO / "deploy"),
                    str(out)], check=True, timeout=60)
    assert int(out.read_text()) > 2  # fds 0-2 are taken: the file is not where error messages go


def test_a_port_taken_between_the_check_and_nginx_start_is_named(monkeypatch, tmp_path, capsys):
    """The port was free when checked and taken before nginx started: the launch ended with "process exited with
    code 1 before … answered", without saying why."""
    import socket
    _with_nginx_and_set_up_checks_passing(monkeypatch, ports_free=False)
    monkeypatch.setattr("serve_class.start_children", lambda children: None)  # no Streamlit process needed here
    monkeypatch.setattr("serve_class.warm_process", lambda port, timeout=0: True)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with socket.socket() as thief:
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        port = thief.getsockname()[1]
        checked = []

        def free_when_checked(address, p):  # the launcher's first look finds it free; later looks see the thief
            checked.append(p)
            return None if checked.count(p) == 1 else bind_problem(address, p)
        monkeypatch.setattr("serve_class.bind_problem", free_when_checked)
        assert main(["--processes", "1", "--port", str(port), "--first-backend-port", str(_free_port())]) == 1
    err = capsys.readouterr().err
    assert f"nginx did not start (127.0.0.1:{port} is in use by another program): process exited with code 1" in err
    (kept,) = tmp_path.iterdir()  # the run folder is removed; nginx's own words are kept, and named
    assert kept.name.startswith("toolcall-nginx-error-") and "Address already in use" in kept.read_text()
    assert err.endswith(f"nginx's error log is kept at {kept}\n")


def test_a_stop_signal_while_the_processes_start_is_130_not_success(monkeypatch, tmp_path, capsys):
    """Ctrl+C (or SIGTERM) while the Streamlit processes were starting returned 0, as if the class had been served."""
    _with_nginx_and_set_up_checks_passing(monkeypatch)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def interrupted(children):
        raise KeyboardInterrupt
    monkeypatch.setattr("serve_class.start_children", interrupted)
    assert main(["--processes", "1", "--port", "18521", "--first-backend-port", "18621"]) == 130
    assert capsys.readouterr().err.split("\n", 1)[1] == \
        "interrupted before the class started; every process it had started is stopped\n"
    assert list(tmp_path.iterdir()) == []


def test_a_crash_loop_after_the_class_started_is_summarised_once_then_retried_quietly(monkeypatch, capsys):
    """A process that keeps dying at start logged two lines a minute for ever ("exited (code 3); restarting it in
    60 s" and "started again"): after QUIET_AFTER deaths in a row one summary says so, later tries wait
    QUIET_BACKOFF s without a line, and its serving again is logged with the count."""
    import serve_class
    from serve_class import QUIET_AFTER, QUIET_BACKOFF, Child
    monkeypatch.setattr(serve_class.time, "gmtime", lambda *a: serve_class.time.struct_time((2026, 12, 2, 7, 5, 9,
                                                                                           2, 336, 0)))
    child = Child("web 1", [sys.executable, "-c", "raise SystemExit(3)"], "http://127.0.0.1:1/")
    child.start().wait(30)
    now, waits = 0.0, []
    for attempt in range(QUIET_AFTER + 4):  # dies at start every time
        child.supervise(now)  # notices the death
        waits.append(child.restart_at - now)
        now = child.restart_at
        if attempt < QUIET_AFTER + 3:
            child.supervise(now)  # started again
            child.proc.wait(30)
    assert waits == [2.0, 4.0, 8.0, 16.0] + [QUIET_BACKOFF] * 5
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 * (QUIET_AFTER - 1) + 1  # a death and a restart each, then the summary alone
    assert lines[-1] == ("[07:05:09] web 1 keeps dying at start: 5 times in a row since 07:05:09 UTC (the last: exit "
                         "code 3). It is started again every 5 minutes from now on, without a line per try, and a "
                         "line says when it serves again; the other processes keep serving. To see why it dies, "
                         "run: streamlit run app.py")
    monkeypatch.setattr(Child, "serves", lambda self, timeout=2.0: True)
    child.argv = [sys.executable, "-c", "import time; time.sleep(60)"]
    child.supervise(now)  # started again, silently
    child.supervise(now)  # answers its health check: said once it has served STABLE_AFTER s (it may die again)
    assert capsys.readouterr().err == ""
    child.supervise(now + serve_class.STABLE_AFTER)
    assert capsys.readouterr().err == ("[07:05:09] web 1: serving again, after 9 failed starts in a row since "
                                       "07:05:09 UTC\n")
    assert child.quiet is False
    kill_group_and_wait(child.proc)


def kill_group_and_wait(proc):
    from serve_class import kill_group
    kill_group(proc)
    proc.wait(30)


def test_every_retry_path_is_quiet_once_a_crash_loop_is_summarised(monkeypatch, capsys):
    """The next member: a program the OS cannot start (OSError) and a start that never answers count towards the
    same summary, and print nothing per try after it."""
    from serve_class import QUIET_AFTER, QUIET_BACKOFF, STARTUP_TIMEOUT, Child
    child = Child("web 2", ["/nonexistent/python"], "http://127.0.0.1:1/")
    now, waits = 0.0, []
    for _ in range(QUIET_AFTER + 2):
        child.launch(now)
        waits.append(child.restart_at - now)
        now = child.restart_at
    assert waits == [2.0, 4.0, 8.0, 16.0, QUIET_BACKOFF, QUIET_BACKOFF, QUIET_BACKOFF]
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("] ", 1)[1].split(";")[0] for line in lines[:-1]] == (
        ["web 2 could not be started (No such file or directory)"] * (QUIET_AFTER - 1))
    assert "keeps dying at start: 5 times in a row since" in lines[-1]
    assert "(the last: could not be started (No such file or directory))" in lines[-1]
    child.argv = [sys.executable, "-c", "import time; time.sleep(60)"]  # starts, never answers
    child.restart_at = None
    child.launch(now)
    child.supervise(now)
    child.supervise(now + STARTUP_TIMEOUT + 1)
    assert child.restart_at == now + STARTUP_TIMEOUT + 1 + QUIET_BACKOFF
    assert capsys.readouterr().err == ""
    kill_group_and_wait(child.proc)


def _launcher_holding_a_run_dir(parent: Path) -> tuple[subprocess.Popen, Path]:
    """A process that takes a run folder under ``parent`` as the launcher does, then waits to be killed."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); from serve_class import new_run_dir; "
            "from pathlib import Path; d, fd = new_run_dir(Path(sys.argv[2])); print(d, flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(Path(serve_class.__file__).parent), str(parent)],
                            stdout=subprocess.PIPE, text=True)
    return proc, Path(proc.stdout.readline().strip())


def test_a_run_folder_left_by_a_killed_launcher_is_removed_at_the_next_start(tmp_path):
    # kill -9 of the launcher left /tmp/toolcall-nginx-*/ (nginx.conf, tmp/) behind for ever
    proc, folder = _launcher_holding_a_run_dir(tmp_path)
    try:
        (folder / "tmp" / "body").mkdir(parents=True)
        (folder / "nginx.conf").write_text("events {}\n")
        assert remove_stale_run_dirs(tmp_path) == []  # its launcher is alive
        assert folder.is_dir()
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()
    assert remove_stale_run_dirs(tmp_path) == [folder]
    assert list(tmp_path.iterdir()) == []


def test_only_this_users_unlocked_run_folders_are_removed(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / RUN_LOCK).write_text("")
    (tmp_path / (RUN_DIR_PREFIX + "link")).symlink_to(outside)  # a link: never followed
    (tmp_path / (RUN_DIR_PREFIX + "older")).mkdir()  # no lock file: an older launcher's, left alone
    (tmp_path / (RUN_DIR_PREFIX + "file")).write_text("")
    live, held = new_run_dir(tmp_path)
    try:
        assert remove_stale_run_dirs(tmp_path) == []
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            ["elsewhere", RUN_DIR_PREFIX + "link", RUN_DIR_PREFIX + "older", RUN_DIR_PREFIX + "file", live.name])
        assert (outside / RUN_LOCK).exists()
    finally:
        os.close(held)
    assert remove_stale_run_dirs(tmp_path) == [live]


@pytest.mark.parametrize("ignored, stops", [
    ([], ["SIGTERM", "SIGHUP", "SIGQUIT"]),
    (["SIGHUP"], ["SIGTERM", "SIGQUIT"]),  # nohup python deploy/serve_class.py &
    (["SIGTERM", "SIGHUP", "SIGQUIT"], []),  # the next member: any stop signal the operator's start ignores stays ignored
])
def test_a_stop_signal_the_launcher_was_started_with_ignored_stays_ignored(ignored, stops):
    """Under nohup the launcher put its own SIGHUP handler over the ignored one, and closing the terminal stopped
    the class (break-it pass brk16ops)."""
    code = ("import signal, sys; sys.path.insert(0, 'deploy'); import serve_class; "
            "print(' '.join(s.name for s in serve_class.stop_signals()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: [signal.signal(getattr(signal, s), signal.SIG_IGN) for s in ignored])
    assert out.stdout.split() == stops, out.stderr


def _sleeper(monkeypatch, name: str):
    """A Child whose process sleeps and counts as answering its health check, the time frozen at 07:05:09 UTC."""
    from serve_class import Child
    monkeypatch.setattr(serve_class.time, "gmtime", lambda *a: serve_class.time.struct_time((2026, 12, 2, 7, 5, 9,
                                                                                           2, 336, 0)))
    monkeypatch.setattr(Child, "serves", lambda self, timeout=2.0: self.proc is not None and self.proc.poll() is None)
    return Child(name, [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/", watch=True)


def _serve_then(child, now: float, life: float, end) -> float:
    """Start ``child`` at ``now`` (it answers at once), let it serve ``life`` s, then ``end(child, t)`` it; return
    the wait before its restart."""
    child.launch(now)
    child.supervise(now)  # answers its health check
    child.supervise(now + life / 2)
    end(child, now + life)
    return child.restart_at - (now + life)


def _dies(child, t: float) -> None:
    kill_group_and_wait(child.proc)  # the OOM killer, a fault in its first page
    child.supervise(t)


def _hangs(child, t: float) -> None:
    from serve_class import HEALTH_FAILURES
    child.failures = HEALTH_FAILURES  # stopped answering; _watch kills it
    child.supervise(t)


@pytest.mark.parametrize("end, what", [(_dies, "killed by SIGKILL"),
                                       # the next member: hanging soon after serving is the same loop
                                       (_hangs, "did not answer 3 health checks in a row (3 s each)")])
def test_a_process_that_keeps_dying_soon_after_it_serves_is_restarted_with_growing_delays(monkeypatch, capsys,
                                                                                            end, what):
    """Killed 2 s after each start (it had answered its health check), a Streamlit process was started again at
    once, for ever: 24 restarts in 120 s, 33 s of CPU, three log lines each (break-it pass brk16ops). From its second
    death in a row within STABLE_AFTER s of serving it waits 2, 4, 8, 16 s, then is summarised once and retried every
    QUIET_BACKOFF s; once it has served STABLE_AFTER s its count starts over, and its next death restarts at once."""
    from serve_class import HEALTH_EVERY, HEALTH_FAILURES, QUIET_AFTER, QUIET_BACKOFF
    STABLE_AFTER = getattr(serve_class, "STABLE_AFTER", 30.0)  # noqa: N806
    child = _sleeper(monkeypatch, "web 1")
    life = 2.0 + (HEALTH_FAILURES * HEALTH_EVERY if end is _hangs else 0.0)  # a hang is noticed 9 s after it began
    now, waits = 0.0, []
    for _ in range(QUIET_AFTER + 2):
        waits.append(_serve_then(child, now, life, end))
        now = child.restart_at
        child.supervise(now)  # due: started again (then launched by _serve_then)
        kill_group_and_wait(child.proc)
        child.proc = None
    assert waits == [0.0, 2.0, 4.0, 8.0, 16.0, QUIET_BACKOFF, QUIET_BACKOFF]
    lines = [line.split("] ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    suffix = "was killed by SIGKILL" if end is _dies else f"{what}: hung; killing it (SIGKILL)"
    assert lines[0].startswith(f"web 1 {suffix}") and lines[0].endswith("and restarting it; the other processes "
                                                                        "keep serving") or \
        lines[0] == f"web 1 {suffix}; restarting it; the other processes keep serving"
    assert any(line.endswith(f"restarting it in 2 s (it keeps dying{' or hanging' if end is _hangs else ''} within "
                             "30 s of serving); the other processes keep serving") for line in lines)
    summary = [line for line in lines if line.startswith("web 1 keeps dying within")]
    assert summary == [f"web 1 keeps dying within 30 s of serving: 5 times in a row since 07:05:09 UTC (the last: "
                       f"{what}, 2 s after it served). It is started again every 5 minutes from now on, without a "
                       "line per try, and a line says when it serves again; the other processes keep serving. To "
                       "see why it dies, run: streamlit run app.py"]
    assert lines[-1] == summary[0]  # nothing per try after it
    child.launch(now)  # this time it stays up
    child.supervise(now)
    assert capsys.readouterr().err == ""
    child.supervise(now + STABLE_AFTER)
    assert capsys.readouterr().err == ("[07:05:09] web 1: serving again, after 6 failed starts in a row since "
                                       "07:05:09 UTC\n")
    assert _serve_then(child, now + STABLE_AFTER, STABLE_AFTER, _dies) == 0.0  # served a while: at once
    kill_group_and_wait(child.proc)


def test_a_process_that_served_a_while_between_two_deaths_is_restarted_at_once_each_time(monkeypatch, capsys):
    """The soak of bench/README.md section F kills one process a minute: each death is a first one, restarted at
    once, never delayed."""
    child = _sleeper(monkeypatch, "web 2")
    now, waits = 0.0, []
    for _ in range(4):
        waits.append(_serve_then(child, now, 60.0, _dies))
        now = child.restart_at
        child.supervise(now)
        kill_group_and_wait(child.proc)
        child.proc = None
    assert waits == [0.0] * 4
    assert "keeps dying" not in capsys.readouterr().err


def test_a_backend_marked_down_gets_no_request_and_nginx_takes_the_configuration(tmp_path):
    """A process's port held by another program while the process is dead is marked ``down`` everywhere nginx could
    send a request: the pool and every pinned upstream, as primary or as backup."""
    from serve_class import find_nginx
    conf = nginx_conf("127.0.0.1:8501", BACKENDS, tmp_path, as_root=False, down=frozenset({BACKENDS[1]}))
    lines = [line.strip() for line in conf.splitlines() if line.strip().startswith("server 127.")]
    assert len(lines) == 3 + 3 * 3
    assert [line for line in lines if "8602" in line] == ["server 127.0.0.1:8602 down;",
                                                          "server 127.0.0.1:8602 backup down;",
                                                          "server 127.0.0.1:8602 down;",
                                                          "server 127.0.0.1:8602 backup down;"]
    assert not [line for line in lines if "down" in line and "8602" not in line]
    assert " down;" not in nginx_conf("127.0.0.1:8501", BACKENDS, tmp_path, as_root=False)
    if (nginx := find_nginx()) is None:
        pytest.skip("nginx is not installed")
    (tmp_path / "tmp").mkdir()
    (tmp_path / "nginx.conf").write_text(conf)
    check = subprocess.run([nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                           capture_output=True, text=True)
    assert (check.returncode, check.stderr) == (0, "")


def test_a_dead_processs_port_taken_by_another_program_is_noticed_until_it_serves_again(monkeypatch):
    """nginx answered students through whatever program took a dead process's port (break-it pass brk16ops): the
    supervisor notices it while the process is dead, and forgets it once the port is free or the process serves."""
    import socket

    from serve_class import Child
    port = _free_port()
    child = Child("web 3", [sys.executable, "-c", "import time; time.sleep(60)"], "http://127.0.0.1:1/",
                  warm_port=port)
    child.launch(0.0)
    kill_group_and_wait(child.proc)
    child.supervise(1.0)  # notices the death: restart due at once
    with socket.socket() as other:
        other.bind(("127.0.0.1", port))
        other.listen()
        child.restart_at = 5.0  # not due yet
        child.supervise(2.0)
        assert child.held_by_other is True
    child.supervise(3.0)
    assert child.held_by_other is False  # free again: the usual passing over of a refused connection
    with socket.socket() as other:
        other.bind(("127.0.0.1", port))
        other.listen()
        child.supervise(4.0)
        assert child.held_by_other is True
        monkeypatch.setattr(Child, "serves", lambda self, timeout=2.0: True)
        child.supervise(5.0)  # due: started (it would die on the port; here it answers)
        child.supervise(5.5)
        assert child.held_by_other is False
    kill_group_and_wait(child.proc)


_IDLE = type("Idle", (), {"supervise": lambda self, now: None})()  # _drive's child when only waiting


def test_reroute_rewrites_the_configuration_reloads_nginx_and_logs_each_change(tmp_path, capsys):
    from serve_class import Child, reroute
    reloads = tmp_path / "reloads"
    nginx = Child("nginx", [sys.executable, "-c", "import pathlib, signal, sys, time\n"
                            f"signal.signal(signal.SIGHUP, lambda *a: open({str(reloads)!r}, 'a').write('r'))\n"
                            f"pathlib.Path({str(reloads)!r}).write_text('')\n"
                            "while True: time.sleep(1)"], None)
    nginx.start()
    _drive(_IDLE, reloads.exists)
    conf = tmp_path / "nginx.conf"
    text = lambda down: f"down={sorted(down)}"  # noqa: E731
    a, b = "127.0.0.1:8601", "127.0.0.1:8602"
    assert reroute(conf, text, nginx, frozenset({a}), frozenset()) == {a}
    assert conf.read_text() == "down=['127.0.0.1:8601']"
    _drive(_IDLE, lambda: reloads.read_text() == "r")  # SIGHUP: nginx reloads its configuration
    assert reroute(conf, text, nginx, frozenset({b}), frozenset({a})) == {b}
    assert conf.read_text() == "down=['127.0.0.1:8602']"
    _drive(_IDLE, lambda: reloads.read_text() == "rr")
    lines = [line.split("] ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert lines == [
        "127.0.0.1:8601 is in use by another program while its Streamlit process is down: nginx sends no student "
        "there (those pinned to it go to the other processes) until the process serves there again",
        "127.0.0.1:8602 is in use by another program while its Streamlit process is down: nginx sends no student "
        "there (those pinned to it go to the other processes) until the process serves there again",
        "127.0.0.1:8601 is no longer held by another program: nginx sends students there again once its process "
        "serves (until then they go to the other processes)"]
    conf.unlink()
    conf.mkdir()  # cannot be written: said, never raised, and what nginx still has is returned (tried again)
    assert reroute(conf, text, nginx, frozenset(), frozenset({b})) == frozenset({b})
    assert capsys.readouterr().err.split("] ", 1)[1] == (
        "nginx.conf could not be rewritten ([Errno 21] Is a directory: " f"{str(conf)!r}" "): nginx still sends "
        "none to 127.0.0.1:8602; tried again every 10 s\n")
    assert reroute(conf, text, nginx, frozenset(), frozenset({b}), failing=True) == frozenset({b})
    assert capsys.readouterr().err == ""  # a try after a failed one says nothing again
    kill_group_and_wait(nginx.proc)


def test_a_configuration_that_could_not_be_written_is_written_once_it_can_be(tmp_path, capsys):
    """A full disk (here: the file is a folder) when a dead process's port was taken: reroute returned the new state
    as if nginx had it, so once the disk freed nothing wrote it, and nginx went on sending students to the other
    program's port for as long as it held it (measured: 0 writes in 1 000 s of ticks after the disk freed). Now
    Routing tries again every REROUTE_EVERY s, says so once, and writes it at the first try that can."""
    from serve_class import REROUTE_EVERY, Child, Routing
    conf = tmp_path / "nginx.conf"
    conf.mkdir()
    routing = Routing(conf, lambda down: f"down={sorted(down)}", Child("nginx", ["true"], None))
    a = frozenset({"127.0.0.1:8601"})
    tick = 0.0
    while tick < 3 * REROUTE_EVERY:
        routing.update(tick, a)
        tick += 0.5
    assert (routing.marked, routing.failing) == (frozenset(), True)
    lines = [line.split("] ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert len(lines) == 1 and lines[0].startswith("nginx.conf could not be rewritten")  # said once, tried 3 times
    conf.rmdir()  # the disk has room again
    while not conf.is_file() and tick < 1_000:
        routing.update(tick, a)
        tick += 0.5
    assert conf.read_text() == "down=['127.0.0.1:8601']" and tick == 3 * REROUTE_EVERY + 0.5
    assert (routing.marked, routing.failing) == (a, False)
    assert capsys.readouterr().err.split("] ", 1)[1].startswith("127.0.0.1:8601 is in use by another program")


def test_nginx_is_reloaded_at_most_once_per_reroute_every_however_often_the_port_changes_hands(tmp_path, monkeypatch):
    """Each reload leaves nginx's old worker running while its websockets stay open: a program taking and freeing a
    dead process's port every second would have had nginx reloaded twice a second, each old worker kept."""
    import serve_class
    from serve_class import REROUTE_EVERY, Child, Routing
    calls = []
    monkeypatch.setattr(serve_class, "reroute", lambda conf, text, nginx, held, marked, failing: calls.append(held) or held)
    routing = Routing(tmp_path / "nginx.conf", lambda down: "", Child("nginx", ["true"], None))
    a = "127.0.0.1:8601"
    now = 0.0
    for second in range(int(3 * REROUTE_EVERY)):  # taken, freed, taken, … every second
        routing.update(now + second, frozenset({a}) if second % 2 == 0 else frozenset())
    assert len(calls) == 3 and calls[0] == {a}
    routing.update(100.0, frozenset())  # what holds last is what nginx is told
    assert routing.marked == frozenset()


def test_a_process_started_on_a_port_another_streamlit_holds_is_not_taken_for_serving(capsys):
    """Two launchers started at once on the same ports: the second's Streamlit process lived a moment before it
    exited with "Port … is not available", and the first's process, answering "ok" on that port, was taken for it:
    "serving again" was logged, and nginx would send students to the other launcher's process (break-it pass
    brk19ops). Only a process that holds the listening socket itself serves."""
    import http.server
    import threading
    from serve_class import Child

    class Ok(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ok)  # another launcher's Streamlit process
    port = other.server_address[1]
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        child = Child("web 1", [sys.executable, "-c", "import time; time.sleep(60)"],
                      f"http://127.0.0.1:{port}/_stcore/health", warm_port=port, watch=True)
        child.restarts = 1
        child.start()
        for now in (0.0, 0.5, 1.0):
            child.supervise(now)
        assert child.waiting_health and child.served_at is None
        assert capsys.readouterr().err == ""  # not "web 1: serving again"
        assert serve_class.holds_listener(child.proc.pid, "127.0.0.1", port) is False
        assert serve_class.holds_listener(os.getpid(), "127.0.0.1", port) is True
        kill_group_and_wait(child.proc)
    finally:
        other.shutdown()
        other.server_close()


@pytest.mark.parametrize("fails", ["lock", "mkdir", "conf"])
def test_a_run_folder_that_cannot_be_set_up_is_named_not_a_traceback(monkeypatch, tmp_path, capsys, fails):
    """A temp folder with no inode or byte left (a small tmpfs) ended the launcher with a traceback ("OSError:
    [Errno 28] No space left on device: '/tmp/…/tmp/proxy'"), or with "[Errno 28] No space left on device" alone
    for nginx.conf (break-it pass brk19ops)."""
    import errno
    _with_nginx_and_set_up_checks_passing(monkeypatch)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    full = OSError(errno.ENOSPC, "No space left on device")
    real_open, real_mkdir, real_write = os.open, Path.mkdir, Path.write_text

    def os_open(path, *args, **kwargs):
        if fails == "lock" and str(path).endswith(RUN_LOCK + ".new"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, *args, **kwargs)

    def mkdir(self, *args, **kwargs):
        if fails == "mkdir" and self.name == "proxy":
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_mkdir(self, *args, **kwargs)

    def write_text(self, *args, **kwargs):
        if fails == "conf" and self.name == "nginx.conf":
            raise full
        return real_write(self, *args, **kwargs)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    monkeypatch.setattr(Path, "write_text", write_text)
    assert main(["--processes", "1", "--port", "18541", "--first-backend-port", "18641"]) == 1
    last = capsys.readouterr().err.splitlines()[-1]
    folder = re.search(r"toolcall-nginx-[^/: ]+", last)
    assert folder is not None, last
    run_dir = tmp_path / folder.group(0)
    assert last == {
        "lock": f"cannot make the launcher's run folder in {tmp_path} (the temp folder: TMPDIR): No space left on "
                f"device: {run_dir}/{RUN_LOCK}.new",
        "mkdir": f"cannot set up the launcher's run folder {run_dir}: No space left on device: {run_dir}/tmp/proxy",
        "conf": f"cannot write {run_dir}/nginx.conf: No space left on device"}[fails]
    assert list(tmp_path.iterdir()) == []  # nothing left behind (a folder without its lock would stay for ever)


def test_every_process_is_served_at_the_root_the_health_check_asks(tmp_path, monkeypatch):
    """[server] baseUrlPath = "course" in the checkout's config (or STREAMLIT_SERVER_BASE_URL_PATH): every process
    answered only /course/_stcore/health, the launcher asked /_stcore/health, took each for hung after 90 s, killed it
    and stopped the class (break-it pass brk21probe). Each process is started at the root, as nginx routes it."""
    import argparse

    started = []

    class Captured(Exception):
        pass

    def child(name, argv, health, **kwargs):
        started.append((argv, health))
        raise Captured

    monkeypatch.setattr(serve_class, "Child", child)
    args = argparse.Namespace(processes=1, first_backend_port=9890, database_url="", pool=None)
    with pytest.raises(Captured):
        serve_class._serve(args, "/usr/sbin/nginx", tmp_path)
    argv, health = started[0]
    assert argv[argv.index("--server.baseUrlPath") + 1] == ""
    assert health == "http://127.0.0.1:9890/_stcore/health"


@pytest.mark.parametrize("argv, quoted", [
    (["--processes", "x" * 100_000], "'" + "x" * 40 + "…'"),
    (["--port", "9_801"], "'9_801'"),
    (["--first-backend-port", "\u0669\u0668\u0660\u0661"], "'\u0669\u0668\u0660\u0661'")])
def test_a_number_argument_is_read_as_the_toolcall_command_reads_one(argv, quoted, capsys):
    """int() took 9_801 and Arabic-Indic digits as ports, and argparse echoed a refused argument whole (100 000
    characters; break-it pass brk21probe): the launcher reads numbers as ``python -m toolcall`` does."""
    with pytest.raises(SystemExit) as exc:
        serve_class.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f"invalid int value: {quoted}\n"), err[-300:]
    assert len(err) < 2_000


def test_full_width_digits_are_read_as_the_pages_read_them():
    from toolcall.cli import whole_number_arg

    assert whole_number_arg("\uff19\uff18\uff10\uff11") == 9801 and whole_number_arg(" 2 ") == 2


def test_the_launcher_run_as_a_script_reads_its_number_arguments(tmp_path):
    """Run as the README runs it (a script, from any folder): the number reader is imported from the repository,
    which is not on sys.path yet (the first version of whole_number_arg here ended in ModuleNotFoundError)."""
    done = subprocess.run([sys.executable, str(REPO / "deploy" / "serve_class.py"), "--processes", "two"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.endswith("error: argument --processes: invalid int value: 'two'\n"), done.stderr[-300:]
