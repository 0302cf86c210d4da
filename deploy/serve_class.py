"""Serve the app to a whole class: several Streamlit processes behind Debian's nginx.

One ``streamlit run`` process runs every student's script in threads that share one GIL, so
it uses about one core and its latency climbs as edits queue behind each other. With 50
students editing once a second, four processes on a 2-core machine kept p95 under 300 ms
where one process reached 1.7 s (bench/README.md has the runs).

    python deploy/serve_class.py --public             # 2 per core (4 on 2 cores), http://<this machine>:8501
    python deploy/serve_class.py --processes 3 --port 8080   # this machine only (127.0.0.1)

Without ``--public`` it listens on 127.0.0.1 only; an all-interfaces address (``0.0.0.0``,
``0``, ``::``) is refused unless ``--public`` says the whole network is meant.

nginx hands out new visitors round-robin and pins each browser to its process with a
cookie (``toolcall_backend``), so a student's websocket, downloads and reconnects all reach
the process that holds their session. Stickiness by cookie rather than by client address:
a classroom behind one NAT address would otherwise land on a single process.

It is a supervisor: a Streamlit process that dies is started again on its port (progress is
on disk, so its students lose only their in-memory page state), the others keep serving,
and each restart is logged on stderr. A process that is alive but does not answer (hung,
stopped) is noticed too: each serving process's health check is asked every HEALTH_EVERY
seconds, and after HEALTH_FAILURES unanswered checks in a row it is killed and started again
the same way. While a process is down or silent, nginx sends its browsers to a live one and
re-pins them there (one cookie, one address): a connection it cannot open within 1 s, or a
plain HTTP request with no first byte within HTTP_FIRST_BYTE seconds, is passed on (the
websocket keeps a one-day timeout); a dead process's port that another program takes meanwhile is marked down
in nginx (reroute) until the process serves there again. nginx runs in a process group of its own: when its master
dies, its workers (which would keep the port with the old configuration) are killed with it
before a new master starts, and a master counts as serving only once it wrote its own pid
(nginx does that after binding the port) and answers. Only the operator's signal stops
everything, and leaves no process of ours behind. nginx is supervised too: it answers HEALTH_PATH
itself, and a dead or hung nginx is killed with its workers and started again. At start the open-file limit
is raised to the hard limit and nginx sized from it, one client address capped (429 past the cap); a process's
error output is relayed capped (OutputRelay); a PostgreSQL progress database is reached once before anything
starts; the processes share one instructor passphrase throttle (a file in the run folder).
More students than one machine can serve: run this on several hosts with the same
``--database-url postgresql://…`` (or TOOLCALL_DATABASE_URL in the environment, which keeps
the password out of ``ps``), all sharing one PostgreSQL for progress, behind a load balancer
with sticky sessions (a Streamlit session lives in one process); README "Scaling out".

Needs the ``nginx`` binary (``sudo apt-get install nginx``); no system configuration is
touched: the generated nginx.conf, its pid file, logs and temp folders live in a private
run folder that is removed on exit (nginx's error log, when not empty, is kept next to it:
keep_error_log). Ctrl+C (or SIGTERM, SIGHUP, SIGQUIT) stops nginx and every process; any other signal is logged.
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import fcntl
import inspect
import ipaddress
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: Seconds a Streamlit process may take to answer its health check after starting.
STARTUP_TIMEOUT = 90.0
COOKIE = "toolcall_backend"
#: A process that dies before it ever answered its health check is in a crash loop: its next
#: restart waits 2, 4, 8 … (at most MAX_BACKOFF) seconds instead of starting at once.
MAX_BACKOFF = 60.0
#: A process that died this many times in a row before answering is in a crash loop that waiting a minute does
#: not end (a broken install, a port another program keeps): the log says so once, with what is known, and from
#: then on it is started again every QUIET_BACKOFF seconds without a line per try (it logged two lines a minute,
#: forever) until it serves again, which is logged.
QUIET_AFTER = 5
QUIET_BACKOFF = 300.0
#: A process that dies, or hangs, within STABLE_AFTER seconds of answering its health check, after one that died at
#: start or as soon, is in the same crash loop (killed each time by the OOM killer, by a fault in its first page):
#: its restart waits as for one dying at start. It was started again at once, for ever: measured, 24 restarts in
#: 120 s, 33 s of CPU (a Streamlit process's start) and three log lines each (break-it pass brk16ops). Once a
#: process has served STABLE_AFTER s its count starts over, so the first death of one that served restarts at once.
STABLE_AFTER = 30.0
NGINX_CANDIDATES = ("nginx", "/usr/sbin/nginx", "/usr/local/sbin/nginx")
#: A serving Streamlit process's health check is asked every HEALTH_EVERY seconds, waiting at most
#: HEALTH_TIMEOUT seconds; HEALTH_FAILURES unanswered in a row (≈ 18 s) and it counts as hung. Generous,
#: so a process busy with a class (p95 ≈ 0.3 s, bench/README.md) is never taken for a hung one.
HEALTH_EVERY = 3.0
HEALTH_TIMEOUT = 3.0
HEALTH_FAILURES = 3
#: Seconds nginx waits for the first byte of a plain HTTP answer (pages, scripts, health, downloads)
#: before passing the request to another process; the websocket and uploads keep long timeouts.
HTTP_FIRST_BYTE = 5
#: The path nginx answers itself (``ok``): the supervisor's health check of nginx, so a hung or dead nginx is
#: noticed and restarted (its check went through to a Streamlit process, and was never asked while serving).
HEALTH_PATH = "/_toolcall/nginx-health"
#: Streamlit's own server.maxUploadSize (MB), used when the checkout's .streamlit/config.toml does not set one.
STREAMLIT_UPLOAD_MB = 200
#: Uploads one client address may send at once. nginx holds each upload on disk (its temp folder, on the disk of
#: the run folder) until the whole file has arrived, so this times the upload cap is what one address can make it
#: hold; a class behind one NAT address still has this many uploads under way at once.
UPLOADS_PER_ADDRESS = 32


def find_nginx() -> str | None:
    """Path of the nginx binary, or None. Debian installs it in /usr/sbin (not on a user's PATH)."""
    for name in NGINX_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def upstream_name(i: int) -> str:
    """The nginx upstream of backend ``i`` (0-based): that process, the others as backups."""
    return f"toolcall_{i}"


def nginx_conf(listen: str, backends: list[str], run_dir: Path, as_root: bool,
               connections: int = 1024, per_address: int = 128, upload_mb: int = STREAMLIT_UPLOAD_MB,
               down: frozenset[str] = frozenset()) -> str:
    """The nginx.conf text for ``listen`` ("host:port", listen_directive) in front of ``backends`` ("127.0.0.1:port").

    nginx's worker may hold ``connections`` connections (clients and processes together; nginx_limits sizes
    it from the open-file limit), and one client address at most ``per_address`` requests under way at once
    (a websocket counts for as long as it is open): the next is answered 429 (``limit_conn``), so one
    client cannot take every connection. ``HEALTH_PATH`` is answered ``ok`` by nginx itself (the
    supervisor's check that nginx serves; it is exempt from the per-address cap).

    A request body is at most 1 MB (nginx's default), except an upload's: ``upload_mb`` (the processes'
    server.maxUploadSize, upload_limit_mb) and 1 MB for the form around the file, and at most UPLOADS_PER_ADDRESS
    uploads of one address at once (429 past them). nginx took 200 MB per request, wrote each to disk whole, then
    passed it to a process that refuses anything past its 20 MB (a 502, and the body sent again to every other
    process): six 150 MB uploads at once held 700 MB of the disk, and one client's 1 250 allowed requests could
    fill it, the progress database's disk too (issue 13, round 6).

    A request without a valid ``toolcall_backend`` cookie goes to the upstream pool
    (round-robin); a request with one goes to that process's upstream, where every other
    process is a ``backup``: while the pinned process is down (connection refused, timeout,
    502), nginx passes the request on to a live one (``proxy_next_upstream``). A process that
    accepts connections but does not answer (hung) is passed over too: for plain HTTP the
    first byte must come within HTTP_FIRST_BYTE seconds (``proxy_read_timeout``); the
    websocket (``/_stcore/stream``, idle for long stretches) keeps one day and uploads 5
    minutes (a hung process's websockets end when the supervisor kills it). The response
    sets the cookie whenever the process that answered differs from the cookie: its value is
    the LAST address of ``$upstream_addr`` (after a retry nginx lists every address tried,
    "a, b"), so a browser always holds one valid address. Only the listed backends are
    accepted as cookie values, so a forged cookie cannot point nginx elsewhere.

    The backends in ``down`` are marked ``down``: nginx sends no request there (a browser pinned to one goes to
    the others, and is re-pinned). The supervisor marks a process's port so while another program holds it
    (Child.held_by_other): nginx passes over only a refused or failed connection, and another program that
    answers is answered through, so students got its pages instead of the course's.
    """
    if not backends:
        raise ValueError("at least one backend")
    pin = "\n".join(f'        "{b}" {upstream_name(i)};' for i, b in enumerate(backends))
    same = "\n".join(f'        "{b}|{b}" "";' for b in backends)

    def server(b: str, backup: bool = False) -> str:
        return f"        server {b}{' backup' if backup else ''}{' down' if b in down else ''};\n"

    servers = "".join(server(b) for b in backends).rstrip("\n")
    pinned = "\n".join(
        f"    upstream {upstream_name(i)} {{\n" + server(b)
        + "".join(server(o, backup=True) for o in backends if o != b) + "    }"
        for i, b in enumerate(backends))
    tmp = run_dir / "tmp"
    q = nginx_quote
    return f"""# Generated by deploy/serve_class.py; removed when it stops.
{"user nobody nogroup;" if as_root else ""}
worker_processes 1;
pid {q(run_dir / "nginx.pid")};
error_log {q(run_dir / "error.log")} warn;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    # one client address: at most {per_address} requests under way (open websockets included), the next is 429
    limit_conn_zone $binary_remote_addr zone=toolcall_per_address:1m;
    limit_conn_zone $binary_remote_addr zone=toolcall_uploads:1m;
    limit_conn_status 429;
    limit_conn_log_level info;  # below error_log's level: a client sending requests past its cap cannot fill the log
    client_body_temp_path {q(tmp / "body")};
    proxy_temp_path {q(tmp / "proxy")};
    fastcgi_temp_path {q(tmp / "fastcgi")};
    uwsgi_temp_path {q(tmp / "uwsgi")};
    scgi_temp_path {q(tmp / "scgi")};
    client_max_body_size 1m;  # no request but an upload has a body

    upstream toolcall_pool {{
{servers}
    }}
    # a pinned browser's upstream: its process first, the others only while it is down
{pinned}
    # the upstream of the process this browser is pinned to (only known backends; anything else: the pool)
    map $cookie_{COOKIE} $toolcall_backend {{
        default toolcall_pool;
{pin}
    }}
    # the process that answered: the last address nginx tried ("a, b" after a retry)
    map $upstream_addr $toolcall_answered {{
        default "";
        "~(?<last>[0-9.]+:[0-9]+)$" $last;
    }}
    # (re-)pin the browser to the process that answered, unless it is already pinned there
    map "$cookie_{COOKIE}|$toolcall_answered" $toolcall_set_cookie {{
        default "{COOKIE}=$toolcall_answered; Path=/; HttpOnly; SameSite=Lax";
        "~\\|$" "";
{same}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" close;
    }}
    server {{
        listen {listen};
        # nginx's own health, answered without any Streamlit process: the supervisor asks it (no per-address cap)
        location = {HEALTH_PATH} {{
            default_type text/plain;
            return 200 "ok";
        }}
        # plain HTTP: a process silent for HTTP_FIRST_BYTE s is passed over like a dead one
        location / {{
{_location(HTTP_FIRST_BYTE, per_address)}
        }}
        # Streamlit's websocket: idle for minutes between a student's edits
        location /_stcore/stream {{
{_location("1d", per_address)}
        }}
        # uploads: the answer comes once the whole file is read
        location /_stcore/upload_file {{
            client_max_body_size {upload_mb + 1}m;  # the processes' cap, and the multipart form around the file
            limit_conn toolcall_uploads {UPLOADS_PER_ADDRESS};
{_location("5m", per_address)}
        }}
    }}
}}
"""


def host_port(address: str, port: int) -> str:
    """``address``:``port`` as the operator reads and types it: an IPv6 address in brackets (``[::1]:8501``).
    "already in use: ::1:9500" could be read as the address ::1:9500 on no port (break-it pass brk19ops)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def listen_directive(address: str, port: int) -> str:
    """The argument of nginx's ``listen`` for the numeric ``address`` (listen_address) and ``port``: IPv6 in
    brackets; ``::`` (every interface) with ``ipv6only=off``, so IPv4 clients are served too (nginx sets
    IPV6_V6ONLY on an IPv6 socket unless told otherwise: ``--public --address ::`` served IPv6 only)."""
    if ":" not in address:
        return f"{address}:{port}"
    return f"[{address}]:{port}" + (" ipv6only=off" if ipaddress.ip_address(address).is_unspecified else "")


#: The nginx limits sized from the open-file limit: the worker's connections are at most half the descriptors
#: (a proxied request holds two: the client's and the process's), within these bounds; one client address may
#: hold at most 1/PER_ADDRESS_SHARE of the clients nginx can serve (connections / 2).
MIN_CONNECTIONS = 64
MAX_CONNECTIONS = 16384
PER_ADDRESS_SHARE = 4
#: The soft open-file limit is raised to the hard one, but not past this (an unlimited hard limit).
MAX_NOFILE = 1 << 20


def raise_nofile() -> tuple[int, int]:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit (at most MAX_NOFILE), so the launcher, nginx and
    every Streamlit process (which inherit it) can hold as many connections as the system allows: at Debian's
    default soft limit of 1024 a class of a few hundred websockets ran out of descriptors ("Too many open
    files"). Returns (soft before, soft now); never raises (a refusal leaves the limit as it was)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = MAX_NOFILE if hard == resource.RLIM_INFINITY else min(hard, MAX_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft


def nginx_limits(nofile: int) -> tuple[int, int]:
    """(worker_connections, per-address cap) for an open-file limit of ``nofile``."""
    connections = max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, nofile // 2))
    return connections, max(1, connections // 2 // PER_ADDRESS_SHARE)


def nginx_quote(value: Path | str) -> str:
    """``value`` as one nginx configuration argument: in double quotes, with ``\\`` and ``"`` escaped by a
    backslash, so a run folder with a space, a quote or a ``;`` in its name (``TMPDIR="/tmp/a b"``) stays
    one argument (nginx's parser: src/core/ngx_conf_file.c, ``ngx_conf_read_token``). Raises ValueError for
    a line break, which no nginx argument can hold."""
    text = str(value)
    if "\n" in text or "\r" in text:
        raise ValueError(f"a path with a line break cannot be written into nginx.conf: {text!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _location(read_timeout: int | str, per_address: int) -> str:
    """The proxy directives of one nginx location, ``read_timeout`` (seconds, or nginx's "1d") being
    how long nginx waits for the process to send anything (the first byte of an answer, or the next), and
    ``per_address`` the requests one client address may have under way."""
    if isinstance(read_timeout, int):
        read_timeout = f"{read_timeout}s"
    return f"""            limit_conn toolcall_per_address {per_address};
            proxy_pass http://$toolcall_backend;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 1s;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off;
            proxy_read_timeout {read_timeout};
            proxy_send_timeout {read_timeout};
            add_header Set-Cookie $toolcall_set_cookie always;"""


def upload_limit_mb(config: Path = REPO / ".streamlit" / "config.toml") -> int:
    """server.maxUploadSize (MB) in the checkout's Streamlit config ``config``, else Streamlit's default
    (STREAMLIT_UPLOAD_MB): also when the file cannot be read or the value is not a whole number from 1 up. The
    launcher passes it to every process (``--server.maxUploadSize``) and to nginx, so the two caps are one."""
    import tomllib

    from toolcall.files import ReadError, read_text_bounded

    try:
        value = tomllib.loads(read_text_bounded(config, MAX_SECRETS_CHARS)).get("server", {}).get("maxUploadSize")
    except (ReadError, tomllib.TOMLDecodeError, AttributeError, RecursionError):  # nested too deeply: brk21probe
        return STREAMLIT_UPLOAD_MB
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else STREAMLIT_UPLOAD_MB


def _die_with_parent() -> None:
    """In a child, before exec: ask Linux to send it SIGTERM when this launcher dies, even by
    SIGKILL, so no Streamlit process or nginx master outlives it (no-op elsewhere)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def listen_address(address: str, public: bool) -> str:
    """The numeric address nginx should listen on for ``--address`` (an IP address or a host
    name; "[::1]" and "::1" alike). Raises ValueError with the reason when it is not an
    address, or when it means every interface (0.0.0.0, 0, ::, "") and ``public`` is False."""
    text = address.strip().strip("[]")
    try:
        found = socket.getaddrinfo(text or None, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        host, colon, port = text.rpartition(":")
        if colon and port.isdigit() and host and ":" not in host:  # 127.0.0.1:9000, localhost:8080 (not IPv6)
            raise ValueError(f"--address {address!r} holds a port: give the address alone and the port with --port "
                             f"(--address {host} --port {port})") from None
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise ValueError(f"--address {address!r} is not an IP address or a host name this machine can "
                         f"resolve ({reason})") from None
    ip = ipaddress.ip_address(found[0][4][0].split("%")[0])
    if getattr(ip, "ipv4_mapped", None) is not None:
        ip = ip.ipv4_mapped
    if ip.version == 6 and ip.is_link_local:  # bound without its interface: EINVAL ("[Errno 22] Invalid argument")
        raise ValueError(f"--address {address!r} is a link-local IPv6 address (fe80::/10), which is an address only "
                         "together with its interface, and nginx cannot listen on one: use one of this machine's "
                         "other addresses, or --public for every interface")
    if ip.is_unspecified and not public:
        raise ValueError(f"--address {address!r} means every network interface ({ip}): anyone who can reach "
                         "this machine would get the app. Add --public if that is what you want "
                         "(or use --address 127.0.0.1 for this machine only).")
    return str(ip)


def bind_problem(address: str, port: int) -> str | None:
    """Why ``address``:``port`` cannot be listened on now, or None when it can: "already in
    use", "not an address of this machine", "needs root" (ports below 1024) or the OS's words."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((address, port))
        except OSError as exc:
            return {errno.EADDRINUSE: "already in use",
                    errno.EADDRNOTAVAIL: "not an address of this machine",
                    errno.EACCES: "permission denied (ports below 1024 need root)"}.get(exc.errno, str(exc))
    return None


def port_in_use(address: str, port: int) -> bool:
    """True if ``address``:``port`` cannot be bound now (another program listens there)."""
    return bind_problem(address, port) == "already in use"


def ended(code: int) -> str:
    """How a process that ended with Popen's ``code`` ended, in the operator's words: ``exited with code 3``, or
    ``was killed by SIGKILL`` for a negative code (Python's way of saying "killed by signal 9"). The log said
    "exited (code -9)" when the OOM killer or someone's ``kill -9`` ended a process, and "code -1" for a SIGHUP:
    a code no shell shows (a shell says 137) for what was a signal (break-it pass brk19ops)."""
    if code >= 0:
        return f"exited with code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"was killed by {name}"


def wait_healthy(url: str, proc: subprocess.Popen | None, timeout: float,
                 check: Callable[[], bool] | None = None) -> None:
    """Poll ``url`` (or call ``check()``, when given) until it answers 200 (returns True); raise
    RuntimeError if ``proc`` (when given) exits or ``timeout`` seconds pass. At most timeout / 0.2 + 1
    attempts."""
    deadline = time.monotonic() + timeout
    for _ in range(int(timeout / 0.2) + 1):
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process {ended(proc.returncode)} before {url} answered")
        if check() if check is not None else healthy(url):
            return
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


#: What Streamlit's health check (``/_stcore/health``) answers when it serves: status 200 and this body
#: (streamlit/web/server/starlette/starlette_routes.py, ``_health_endpoint``; runtime.py
#: ``is_ready_for_browser_connection``). Another program answering 200 on the port is not a Streamlit process.
HEALTH_BODY = b"ok"


#: Health checks go straight to the process: never through an ``http_proxy`` from the environment (urllib's
#: default opener uses it, so with one set every check of 127.0.0.1 went to the proxy, and the class never started:
#: "did not answer its health check within 90 s").
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def healthy(url: str, timeout: float = 2.0) -> bool:
    """True if ``url`` answers 200 with the body HEALTH_BODY within ``timeout`` seconds (reads at most
    len(HEALTH_BODY) + 1 bytes: a program that is not Streamlit answering 200 with a page does not count)."""
    try:
        with _DIRECT.open(url, timeout=timeout) as r:
            return r.status == 200 and r.read(len(HEALTH_BODY) + 1) == HEALTH_BODY
    except (OSError, ValueError):  # ValueError: http.client's own refusals of a malformed answer
        return False


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL every process left in the process group ``proc`` leads (each child is started with
    ``start_new_session``, so its group id is its pid): an nginx master's workers, which outlive a
    master killed by SIGKILL and keep its port with its old configuration. Call it only while the
    group can still exist (``proc`` running, or just reaped by us), so its id cannot be someone else's."""
    proc.group_killed = True  # type: ignore[attr-defined]  # stop() then leaves it alone
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is empty already
        pass


def stop(procs: list[subprocess.Popen]) -> None:
    """Terminate every process, kill the ones still running after 10 s, then kill whatever is left
    in their process groups (nginx workers), so nothing of ours remains."""
    running = [p for p in procs if p.poll() is None]
    for p in procs:  # died unnoticed (e.g. during startup): what it left behind goes now
        if p not in running and not getattr(p, "group_killed", False):
            kill_group(p)
    for p in running:
        p.terminate()
    deadline = time.monotonic() + 10
    for p in running:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)
        kill_group(p)


def default_processes(cores: int | None = None) -> int:
    """Streamlit processes for this machine: two per usable core (``cores``, default
    ``len(os.sched_getaffinity(0))``), at least 2, at most 16.

    Why: a process runs all its sessions' scripts under one GIL, so it uses at most about one core, and
    fewer processes than cores leave cores idle. A second process per core lets the other students of a
    core be served while one process is busy with a burst (a new session's first page, 0.1-0.2 s of CPU;
    a page's chart) instead of queueing behind it, since nginx pins each student to one process. More
    than two per core bought a p95 within noise in section D and costs ≈ 255 MB each (a process after its
    warm-up, section H). The budget for a class: at one edit per second per student and 12-15 ms of CPU
    per edit on a quiet machine (sections C, D), 100 students need ≈ 1.2-1.5 cores: 4 processes on 2
    cores (bench/README.md, sections D, G and H)."""
    if cores is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # not Linux
            cores = os.cpu_count() or 1
    return max(2, min(16, 2 * cores))


#: Seconds the warm-up visit of a fresh process may take (its first page: imports, fixtures, lessons).
WARM_TIMEOUT = 90.0


def warm_process(port: int, timeout: float = WARM_TIMEOUT) -> bool:
    """Visit the playground of the Streamlit process on 127.0.0.1:``port`` once, headless, over
    its websocket (Streamlit's own BackMsg / ForwardMsg protos, the ``websockets`` package that
    Streamlit depends on), so the process imports the app, loads fixtures and lessons and starts
    its background warm-up (toolcall/warmup.py) before the first student arrives instead of while
    the first student waits. Returns True when the page ran to the end; never raises (a process
    that was not warmed still serves, only its first visitor waits longer)."""
    try:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ClientState_pb2 import ContextInfo
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        from websockets.sync.client import connect
    except ImportError:
        return False
    back = BackMsg()
    back.rerun_script.page_name = "playground"
    back.rerun_script.context_info.CopyFrom(ContextInfo(timezone="UTC", timezone_offset=0, locale="en-US",
                                                        url=f"http://127.0.0.1:{port}/playground"))
    # straight there, as _DIRECT: websockets 15+ would otherwise use an http_proxy from the environment
    direct = {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
    deadline = time.monotonic() + timeout
    try:
        with connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], open_timeout=timeout,
                     max_size=None, compression=None, **direct) as ws:
            ws.send(back.SerializeToString())
            for _ in range(10_000):  # every message of one page run, bounded
                msg = ForwardMsg()
                msg.ParseFromString(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                if msg.WhichOneof("type") == "script_finished" \
                        and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY
    except Exception:  # TimeoutError, a closed socket, a refused connection: not warmed, still serving
        return False
    return False


#: Seconds say() waits for a line to be written before it leaves it to the writer thread and returns; lines waiting
#: to be written at most (more are dropped, and counted).
WRITE_WAIT = 1.0
WRITE_BACKLOG = 1000
#: Seconds the launcher waits, when it exits, for its last lines to be written.
EXIT_DRAIN = 5.0


class _Writer:
    """Writes the launcher's lines (say) from a thread of its own, so that an output that takes no more (a terminal
    paused with Ctrl+S or stopped in a pager, a pipe to a program that stopped reading) never blocks the caller:
    the supervisor's loop waited in log() for ever, and a process killed meanwhile was never started again
    (measured: 90 s with no restart, then the launcher was stopped), and the relays stopped reading the processes'
    output, whose own writes then blocked. A caller waits at most WRITE_WAIT s for its line, and not at all while
    an earlier line is still stuck; at most WRITE_BACKLOG lines wait, later ones are dropped, and when the output
    takes lines again one line first says how many were dropped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: list[tuple[object, str, threading.Event, list[bool]]] = []
        self._more = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._writing_since: float | None = None  # when the line being written was taken (None: idle)
        self.dropped = 0

    def write(self, stream: object, text: str) -> bool:
        """Queue ``text`` and a line end for ``stream``; True once written, False when it could not be (a closed or
        failing stream) or was not within the wait (it is then written later, or dropped when too many wait)."""
        done, result = threading.Event(), [False]
        with self._lock:
            stuck = self._writing_since is not None and time.monotonic() - self._writing_since > WRITE_WAIT
            if len(self._lines) >= WRITE_BACKLOG:
                self.dropped += 1
                return False
            self._lines.append((stream, text, done, result))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="serve-class-output", daemon=True)
                self._thread.start()
            self._more.notify_all()  # the writer, and any drain() waiting
        return done.wait(0 if stuck else WRITE_WAIT) and result[0]

    def drain(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for every queued line to be written; True when none is left."""
        deadline = time.monotonic() + seconds
        with self._lock:
            while self._lines or self._writing_since is not None:
                if not self._more.wait(max(0.0, deadline - time.monotonic())) and time.monotonic() >= deadline:
                    return False
        return True

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._lines:
                    self._more.wait()
                stream, text, done, result = self._lines.pop(0)
                dropped, self.dropped = self.dropped, 0
                self._writing_since = time.monotonic()
            try:
                if dropped:
                    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {dropped} lines of this launcher's output "
                          "were dropped: its output (terminal or pipe) took none for a while", file=stream, flush=True)
                print(text, file=stream, flush=True)
                result[0] = True
            except (OSError, ValueError, AttributeError):  # ENOSPC/EPIPE/EIO, a closed file or encoding, no stream
                pass
            finally:
                with self._lock:
                    self._writing_since = None
                    self._more.notify_all()  # drain() waits on it too
                done.set()


_WRITER = _Writer()


def say(text: str, stream: str = "stderr") -> bool:
    """Print ``text`` and a line end on sys.stderr (or sys.stdout, ``stream`` "stdout"), through _Writer: False
    instead of an exception when it cannot be written (disk full, the stream closed or None, a terminal that cannot
    show a character), and instead of waiting more than WRITE_WAIT s for an output that takes nothing: the
    supervisor's messages must never be what stops the class. Control characters (ESC, BEL, C1, a carriage return),
    bidirectional controls, invisible characters and lone surrogates are written as ``\\uXXXX``
    (toolcall.text.escape_terminal; line ends and tabs kept): a TMPDIR holding ESC and U+202E was printed raw in
    "the temp folder … is closed to other users" and drove the operator's terminal, and so would any process output
    the relays copy (break-it pass brk17fresh). A name quoted inside a line is escaped by its caller with
    escape_line, so that a line end in it cannot print a line of its own."""
    return _WRITER.write(getattr(sys, stream, None), _terminal_safe(text))


def _terminal_safe(text: str) -> str:
    """``text`` through toolcall.text.escape_terminal (the repository put on sys.path first, as main does)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from toolcall.text import escape_terminal

    return escape_terminal(text)


def _quoted(path: object) -> str:
    """A path or name as it is quoted inside one of the launcher's lines: toolcall.text.escape_line."""
    _terminal_safe("")  # the repository on sys.path
    from toolcall.text import escape_line

    return escape_line(str(path))


def log(text: str) -> None:
    """One line on stderr, with the UTC time: what the supervisor did (say: a failed write is dropped)."""
    say(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {text}")


def _fd_open(fd: int) -> bool:
    """True if file descriptor ``fd`` is open in this process. Started with ``2>&-``, a child would inherit a
    closed stderr, and the first file it opened (a log, the progress database) would become its fd 2, where
    every later error message would be written."""
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


#: A process's output relayed to the launcher's stderr: at most RELAY_LINES lines per RELAY_WINDOW seconds per process,
#: each at most RELAY_LINE_CHARS characters (a longer one is cut); the rest is read and dropped, and counted.
RELAY_LINES = 200
RELAY_WINDOW = 10.0
RELAY_LINE_CHARS = 4000


class OutputRelay:
    """Copies a process's stderr to the launcher's, line by line, capped: a process writing without end (a loop
    logging a traceback) filled the operator's log and terminal (and its disk) at its own pace. The first
    RELAY_LINES lines of each RELAY_WINDOW-second window pass; the others are dropped, and when the window ends
    (a timer: the count comes even if the process then falls silent) one line says ``NAME: N lines of its output
    dropped (more than RELAY_LINES in RELAY_WINDOW s)``. ``write`` and ``clock`` are injectable for tests."""

    def __init__(self, name: str, write: Callable[[str], object] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.name, self._clock = name, clock
        self._write = write if write is not None else (lambda text: say(text.rstrip("\n")))
        self._lock = threading.Lock()
        self._window_start: float | None = None
        self._passed = 0
        self.dropped = 0
        self._timer: threading.Timer | None = None

    def line(self, text: str) -> None:
        """One line of the process's output: written, or counted as dropped."""
        with self._lock:
            now = self._clock()
            if self._window_start is None or now - self._window_start >= RELAY_WINDOW:
                self._end_window()
                self._window_start, self._passed = now, 0
            if self._passed < RELAY_LINES:
                self._passed += 1
                passed = True
            else:
                passed = False
                self.dropped += 1
                if self._timer is None:  # say so when this window ends, whatever comes next
                    self._timer = threading.Timer(max(0.0, self._window_start + RELAY_WINDOW - now), self.flush)
                    self._timer.daemon = True
                    self._timer.start()
        if passed:
            self._write(text[:RELAY_LINE_CHARS])

    def flush(self) -> None:
        """Log how many lines were dropped in the window that ended (nothing when none)."""
        with self._lock:
            self._end_window()

    def _end_window(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.dropped:
            log(f"{self.name}: {self.dropped} lines of its output dropped (more than {RELAY_LINES} in "
                f"{RELAY_WINDOW:.0f} s)")
            self.dropped = 0
        self._window_start = None

    def pump(self, pipe) -> None:
        """Read ``pipe`` (text) to its end, relaying each line (a line longer than RELAY_LINE_CHARS is read in
        pieces, so memory stays bounded); then log what was still dropped. Run in a thread."""
        try:
            for text in iter(lambda: pipe.readline(RELAY_LINE_CHARS), ""):
                self.line(text)
        except (OSError, ValueError):
            pass
        finally:
            try:
                pipe.close()
            except OSError:
                pass
            self.flush()


#: The files where Linux lists this network namespace's TCP sockets (state 0A: listening).
PROC_NET_TCP = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
#: Lines of those files read at most (each socket is one line: a machine with this many is not one to search).
MAX_SOCKET_LINES = 200_000


def _listening_inodes(address: str, port: int, tables: tuple[Path, ...] = PROC_NET_TCP) -> set[str] | None:
    """The inodes of the sockets listening on ``address``:``port`` (or on every address, at that port), from
    ``tables``; None when no table can be read (not Linux)."""
    want = ipaddress.ip_address(address)
    found: set[str] = set()
    read_any = False
    for table in tables:
        try:
            with open(table, encoding="ascii", errors="replace") as f:
                read_any = True
                next(f, None)  # the header
                for n, line in enumerate(f):
                    if n >= MAX_SOCKET_LINES:
                        break
                    fields = line.split()
                    if len(fields) < 10 or fields[3] != "0A":
                        continue
                    hex_address, _, hex_port = fields[1].partition(":")
                    if not hex_port or int(hex_port, 16) != port:
                        continue
                    raw = bytes.fromhex(hex_address)
                    # each 32-bit word in the kernel's byte order (little-endian on x86 and arm64)
                    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4)) if sys.byteorder == "little" \
                        else raw
                    ip = ipaddress.ip_address(raw)
                    if getattr(ip, "ipv4_mapped", None) is not None:
                        ip = ip.ipv4_mapped
                    if ip == want or ip.is_unspecified:
                        found.add(fields[9])
        except (OSError, ValueError):
            continue
    return found if read_any else None


def holds_listener(pid: int, address: str, port: int) -> bool | None:
    """Whether process ``pid`` holds a socket listening on ``address``:``port`` (Linux: /proc/net/tcp and the
    process's open files); None when it cannot be told (no /proc, its files not readable). A Streamlit process
    started on a port another Streamlit process holds (another launcher's, one run by hand) lives a moment before it
    exits with "Port … is not available", and the other one answered its health check meanwhile: it was logged as
    "serving again", and nginx sent students to the other one, whose progress may be kept elsewhere (break-it pass
    brk19ops: two launchers started on the same ports at once)."""
    inodes = _listening_inodes(address, port)
    if inodes is None:
        return None
    wanted = {f"socket:[{inode}]" for inode in inodes}
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(fd.path) in wanted:
                    return True
            except OSError:
                continue
    except OSError:
        return None
    return False


def _death(code: int) -> str:
    """A death in a supervisor line: ``exited (code 3)``, or ``was killed by SIGKILL`` (ended)."""
    return f"exited (code {code})" if code >= 0 else ended(code)


def _last(code: int) -> str:
    """The last death, as a crash-loop summary names it: ``exit code 3``, ``killed by SIGKILL`` (ended)."""
    return f"exit code {code}" if code >= 0 else ended(code).removeprefix("was ")


class Child:
    """One supervised process: ``start()`` (re)starts it; ``name`` is what the log calls it.

    ``watch``: while it serves, ask its health check every HEALTH_EVERY s and treat HEALTH_FAILURES
    unanswered in a row as a death (a hung Streamlit process, or a hung nginx: its check is HEALTH_PATH,
    which nginx answers itself). A restarted process that has not answered within STARTUP_TIMEOUT s is
    killed and started again after a growing delay, as one that died at start; so is one that keeps dying or
    hanging within STABLE_AFTER s of answering (from its second such death in a row). ``pid_file``: it serves
    only once that file holds its own pid (nginx writes it after binding its port), so a leftover
    process answering on the port does not count. ``listens``: the (address, port) it binds (default
    127.0.0.1:``warm_port``), named in the log when another program holds it while it keeps dying."""

    def __init__(self, name: str, argv: list[str], health: str | None, env: dict[str, str] | None = None,
                 warm_port: int | None = None, watch: bool = False, pid_file: Path | None = None,
                 listens: tuple[str, int] | None = None):
        self.name, self.argv, self.health, self.env = name, argv, health, env
        self.warm_port = warm_port  # a Streamlit process: visited once (warm_process) when it serves again
        self.listens = listens if listens is not None else ("127.0.0.1", warm_port) if warm_port else None
        self.watch, self.pid_file = watch, pid_file
        self.proc: subprocess.Popen | None = None
        self.restarts = 0
        self.quick_exits = 0  # consecutive exits before answering the health check (or soon after: STABLE_AFTER)
        self.served_at: float | None = None  # when the current process answered its first health check
        self.died_soon = False  # the last death came at start or within STABLE_AFTER s of serving
        self.held_by_other = False  # while it is dead, another program took its address (until it serves again)
        self.failing_since = ""  # UTC time (HH:MM:SS) of the first of those exits
        self.quiet = False  # the crash loop was summarised: no line per try until it serves again
        self.restart_at: float | None = None  # when a dead child is due to start again
        self.waiting_health = False
        self.started_at: float | None = None  # when supervise first saw it waiting for its health check
        self.failures = 0  # health checks unanswered in a row while serving
        self.next_check = 0.0
        self.checking = False  # a health check is under way (in a thread: a hung process must not stall the rest)

    def serves(self, timeout: float = 2.0) -> bool:
        """True if the current process is running, is the one its pid file names (when it has one),
        and its health check answers 200 within ``timeout`` seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return False
        if self.pid_file is not None:
            try:
                if int(self.pid_file.read_text().strip()) != self.proc.pid:
                    return False
            except (OSError, ValueError):
                return False
        if self.health is not None and not healthy(self.health, timeout):
            return False
        # a process that just started: the answer may be another's that holds its port (another launcher's Streamlit
        # process answers "ok" too) while this one is about to exit with "Port … is not available"
        return not (self.waiting_health and self.pid_file is None and self.listens is not None
                    and holds_listener(self.proc.pid, *self.listens) is False)

    def _check(self, proc: subprocess.Popen) -> None:
        ok = self.serves(HEALTH_TIMEOUT)
        if proc is self.proc:  # not a check of a process already replaced
            self.failures = 0 if ok else self.failures + 1
        self.checking = False

    def start(self) -> subprocess.Popen:
        # its stderr through an OutputRelay (capped), its stdout nowhere (its banner names a private port)
        self.proc = subprocess.Popen(self.argv, cwd=REPO, stdout=subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE if _fd_open(2) else subprocess.DEVNULL,
                                     env=self.env, text=True, encoding="utf-8", errors="replace",
                                     start_new_session=True,  # Ctrl+C reaches only the launcher, which stops the rest
                                     preexec_fn=_die_with_parent)
        if self.proc.stderr is not None:
            threading.Thread(target=OutputRelay(self.name).pump, args=(self.proc.stderr,), daemon=True).start()
        self.waiting_health = self.health is not None
        self.failures, self.checking, self.started_at, self.served_at = 0, False, None, None
        return self.proc

    def _note(self, text: str) -> None:
        """log(text), unless this process is in a crash loop the log has already summarised."""
        if not self.quiet:
            log(text)

    def _quick_exit(self, last: str, soon: bool = False) -> float:
        """Count one more exit (or start failure) before answering, or (``soon``) within STABLE_AFTER s of it; return
        the wait before the next start: 2, 4, 8 … s (at most MAX_BACKOFF), then, from the QUIET_AFTER-th in a row,
        QUIET_BACKOFF s, after one summary line naming ``last`` (what happened the last time: ``exit code 1``)."""
        self.quick_exits += 1
        self.died_soon = True
        if self.quick_exits == 1:
            self.failing_since = time.strftime("%H:%M:%S", time.gmtime())
        if self.quick_exits < QUIET_AFTER:
            return min(MAX_BACKOFF, 2.0 ** self.quick_exits)
        if not self.quiet:
            when = f"within {STABLE_AFTER:.0f} s of serving" if soon else "at start"
            log(f"{self.name} keeps dying {when}: {self.quick_exits} times in a row since {self.failing_since} UTC "
                f"(the last: {last}){self.port_taken()}. It is started again every {QUIET_BACKOFF / 60:.0f} "
                "minutes from now on, without a line per try, and a line says when it serves again; the other "
                "processes keep serving. To see why it dies, run: streamlit run app.py")
            self.quiet = True
        return QUIET_BACKOFF

    def supervise(self, now: float) -> None:
        """Called every half second: notice a death (log it, schedule the restart), start it
        again when due, log when a restarted process answers its health check."""
        if self.restart_at is not None:
            if self.listens is not None:  # dead: is its address taken meanwhile (nginx must not send students there)
                self.held_by_other = bind_problem(*self.listens) == "already in use"
            if now >= self.restart_at:
                self.restart_at = None
                self.restarts += 1
                if self.launch(now):
                    self._note(f"{self.name}: started again (restart {self.restarts})")
            return
        code = self.proc.poll() if self.proc is not None else None
        if code is None:
            if self.served_at is not None and now - self.served_at >= STABLE_AFTER and self.died_soon:
                if self.quiet:  # said once it has served a while: a loop dying soon after serving logged it each time
                    log(f"{self.name}: serving again, after {self.quick_exits} failed starts in a row since "
                        f"{self.failing_since} UTC")
                self.quick_exits, self.quiet, self.died_soon = 0, False, False
            if self.waiting_health and self.serves(timeout=0.3):
                self.waiting_health, self.held_by_other = False, False
                self.served_at, self.next_check = now, now + HEALTH_EVERY
                if self.restarts:
                    if not self.quiet:  # a quiet loop says so once it has served STABLE_AFTER s (above)
                        log(f"{self.name}: serving again")
                    if self.warm_port is not None:
                        threading.Thread(target=warm_process, args=(self.warm_port,), daemon=True).start()
            elif self.watch and not self.waiting_health:
                self._watch(now)
            elif self.waiting_health and self.started_at is None:
                self.started_at = now
            elif self.waiting_health and now - self.started_at > STARTUP_TIMEOUT:
                why = f"did not answer its health check within {STARTUP_TIMEOUT:.0f} s of starting"
                self._kill_silent(now, why)
                self.restart_at = now + self._quick_exit(why)  # stuck at start, like dying at start: it waits
            return
        kill_group(self.proc)  # what it leaves behind (nginx workers holding the port) goes with it
        life = None if self.served_at is None else now - self.served_at
        soon = life is not None and life < STABLE_AFTER
        if self.waiting_health:
            delay = self._quick_exit(_last(code))
        elif soon and self.died_soon:
            delay = self._quick_exit(f"{_last(code)}, {life:.0f} s after it served", soon=True)
        else:
            self.quick_exits, delay, self.quiet, self.died_soon = 0, 0.0, False, soon
        why = "at start" if self.waiting_health else f"within {STABLE_AFTER:.0f} s of serving"
        self._note(f"{self.name} {_death(code)}{self.port_taken() if self.quick_exits else ''}; restarting it"
                   + (f" in {delay:.0f} s (it keeps dying {why})" if delay else "")
                   + "; the other processes keep serving")
        self.restart_at = now + delay

    def port_taken(self) -> str:
        """`` (ADDRESS:PORT is in use by another program)`` when the address this process listens on is taken
        now (why a restart dies at once), else ""."""
        if self.listens is None or bind_problem(*self.listens) != "already in use":
            return ""
        address, port = self.listens
        return f" ({host_port(address, port)} is in use by another program)"

    def launch(self, now: float) -> bool:
        """start(), or, when the OS refuses to start the program (no memory or processes left, the interpreter
        gone): log why and schedule the next try as for a process that died at start; never raises."""
        try:
            self.start()
        except OSError as exc:
            self.proc, self.waiting_health = None, self.health is not None
            why = f"could not be started ({exc.strerror or exc})"
            delay = self._quick_exit(why)
            self._note(f"{self.name} {why}; trying again in {delay:.0f} s")
            self.restart_at = now + delay
            return False
        return True

    def _watch(self, now: float) -> None:
        """A serving process: start its next health check when due; kill and restart it after
        HEALTH_FAILURES unanswered in a row."""
        if self.failures >= HEALTH_FAILURES:
            # it served from served_at until about HEALTH_FAILURES checks ago
            life = now - (self.served_at or now) - HEALTH_FAILURES * HEALTH_EVERY
            why = f"did not answer {self.failures} health checks in a row ({HEALTH_TIMEOUT:.0f} s each)"
            if life < STABLE_AFTER and self.died_soon:
                delay = self._quick_exit(f"{why}, {max(0.0, life):.0f} s after it served", soon=True)
                self._kill_silent(now, why, delay)
            else:
                self._kill_silent(now, why)
                self.quick_exits, self.quiet, self.died_soon = 0, False, life < STABLE_AFTER
        elif not self.checking and now >= self.next_check:
            self.checking, self.next_check = True, now + HEALTH_EVERY
            threading.Thread(target=self._check, args=(self.proc,), daemon=True).start()

    def _kill_silent(self, now: float, why: str, delay: float = 0.0) -> None:
        """Log ``why``, kill the running process and its group (SIGKILL: a stopped or hung process
        ignores SIGTERM) and schedule its restart in ``delay`` s, as for a process that died."""
        self._note(f"{self.name} {why}: hung; killing it (SIGKILL) and restarting it"
                   + (f" in {delay:.0f} s (it keeps dying or hanging within {STABLE_AFTER:.0f} s of serving)"
                      if delay else "") + "; the other processes keep serving")
        kill_group(self.proc)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        self.failures, self.restart_at = 0, now + delay


def reroute(conf: Path, text: Callable[[frozenset[str]], str], nginx: Child, held: frozenset[str],
            marked: frozenset[str], failing: bool = False) -> frozenset[str]:
    """Make nginx send no student to the backends in ``held`` (another program holds their address while their
    process is dead; Child.held_by_other) and to the others again: write ``text(held)`` (nginx_conf with ``down``)
    to ``conf`` and ask the running nginx to reload it (SIGHUP: new workers take new requests, the old ones finish
    theirs, open websockets included), logging each change against ``marked`` (what was marked so far). Returns
    what nginx is told now: ``held``, or ``marked`` when the configuration could not be written (logged unless
    ``failing``, which says the last try failed too), so that the caller tries again; never raises. It returned
    ``held`` then, and nothing tried again: once a full disk freed, nginx went on sending students to the port
    another program held, or none to a process serving again, until the next change (break-it pass brk17new)."""
    try:
        conf.write_text(text(held))
    except (OSError, ValueError) as exc:
        still = ([f"sends students to {', '.join(sorted(held - marked))} (held by another program)"] if held - marked
                 else []) + ([f"sends none to {', '.join(sorted(marked - held))}"] if marked - held else [])
        if not failing:
            log(f"nginx.conf could not be rewritten ({exc}): nginx still {' and '.join(still)}; tried again every "
                f"{REROUTE_EVERY:.0f} s")
        return marked
    if nginx.proc is not None and nginx.proc.poll() is None:
        nginx.proc.send_signal(signal.SIGHUP)  # a dead or restarting nginx reads the file when it starts
    for b in sorted(held - marked):
        log(f"{b} is in use by another program while its Streamlit process is down: nginx sends no student there "
            "(those pinned to it go to the other processes) until the process serves there again")
    for b in sorted(marked - held):
        log(f"{b} is no longer held by another program: nginx sends students there again once its process serves "
            "(until then they go to the other processes)")
    return held


#: Seconds between two reloads of nginx by Routing at least: each reload leaves the old worker running while its
#: websockets stay open (a day at most), so a program taking and freeing a dead process's port over and over
#: would otherwise have nginx reloaded twice a second, each old worker kept.
REROUTE_EVERY = 10.0


class Routing:
    """What nginx is told of the backends another program holds (reroute), changed at most once per REROUTE_EVERY s;
    a change that comes sooner is made when that time has passed, if it still holds, and one whose configuration
    could not be written is tried again every REROUTE_EVERY s (said once) until it is."""

    def __init__(self, conf: Path, text: Callable[[frozenset[str]], str], nginx: Child):
        self.conf, self.text, self.nginx = conf, text, nginx
        self.marked: frozenset[str] = frozenset()
        self.failing = False  # the last change could not be written: nginx still has ``marked``
        self._next = 0.0

    def update(self, now: float, held: frozenset[str]) -> None:
        """Tell nginx ``held`` (the backends another program holds now) unless it knows, or it was told (or a try
        failed) within the last REROUTE_EVERY s."""
        if held == self.marked:
            self.failing = False  # nginx has what holds now, written or not
        elif now >= self._next:
            self.marked = reroute(self.conf, self.text, self.nginx, held, self.marked, self.failing)
            self.failing = self.marked != held
            self._next = now + REROUTE_EVERY


#: Seconds between two looks at the SQLite data folder while the class runs (StorageWatch).
STORAGE_EVERY = 30.0


class StorageWatch:
    """What the operator reads about the SQLite progress store in ``folder`` while the class runs. The launcher looked
    at it only before the class started: a disk that filled during the class, or a file system the kernel remounted
    read-only after an I/O error, was told to every student ("Progress is not being saved right now: the server's
    disk is full. Tell your instructor.") and not a word of it to the operator, whose log was the place to look
    (break-it pass brk19ops). Every STORAGE_EVERY s one look (the free space, whether the folder and the file can be
    written: no SQLite, no lock): a problem is logged once when it begins, and once when it ends."""

    def __init__(self, folder: Path):
        from toolcall.progress import DB_NAME

        self.folder, self.path = folder, folder / DB_NAME
        self.problem: str | None = None
        self._next = 0.0

    def look(self) -> str | None:
        """Why nothing can be saved in the folder now, or None. Never raises."""
        from toolcall.progress import FULL_BELOW, disk_full_problem, read_only_problem

        try:
            if shutil.disk_usage(self.folder).free < FULL_BELOW:
                return disk_full_problem(self.folder)
        except OSError as exc:  # removed, unmounted: the processes' pages say what they find
            return (f"the data folder {_quoted(self.folder)} cannot be looked at ({exc.strerror or exc}): progress "
                    "may not be saved (TOOLCALL_DATA_DIR, default <repo>/data)")
        if not os.access(self.folder, os.W_OK) or (os.path.lexists(self.path) and not os.access(self.path, os.W_OK)):
            return read_only_problem(self.path)
        return None

    def update(self, now: float) -> None:
        """Look, when STORAGE_EVERY s have passed since the last look, and log a change."""
        if now < self._next:
            return
        self._next = now + STORAGE_EVERY
        problem = self.look()
        if problem == self.problem:
            return
        if problem is not None:
            log(f"progress storage: {problem}. Students are told so on their pages; their answers are kept in their "
                "browser tabs meanwhile")
        else:
            log(f"progress storage: {_quoted(self.folder)} can be written again: progress is saved again (the answers "
                "kept in students' tabs are saved at their next page)")
        self.problem = problem


def sqlite_problem() -> str | None:
    """Why the SQLite progress store the processes would open (in TOOLCALL_DATA_DIR, default <repo>/data)
    is set up wrongly, or None: it is opened (made and migrated) once before any process starts, so a data
    folder that is a file (or a link to nothing, a loop), a database file that is not SQLite or that this user
    cannot write, or a folder on a full disk (the class would save nothing) stops the launch with the setting named,
    instead of every student of the class being told progress cannot be saved. A failure that may pass
    (a lock held by another program) is left to the processes, which retry."""
    from toolcall.progress import (ProgressStore, StorageError, companion_problem, data_dir_setting_problem,
                                   disk_full_problem, read_only_problem)

    if (setting := data_dir_setting_problem()) is not None:  # white space, ~nosuchuser: a folder no one meant
        return setting
    try:
        store = ProgressStore(Path(data_folder()))
    except StorageError as exc:  # a full disk too: the class would save nothing until the operator frees space
        return str(exc) if exc.setup or str(exc) == disk_full_problem(Path(data_folder())) else None
    store.close()
    # every answer of the class would be lost (a -wal that is a FIFO opens, then fails each save)
    return (store.read_only_problem or read_only_problem(store.path)) if store.read_only else \
        companion_problem(store.path)


#: Where Streamlit reads the app's secrets (ui/learner.py and ui/instructor.py read TOOLCALL_DATABASE_URL and
#: the instructor settings there when the environment has none).
SECRETS_FILE = REPO / ".streamlit" / "secrets.toml"
#: A secrets file is a few lines; anything larger is not one.
MAX_SECRETS_CHARS = 100_000


def secrets_files() -> list[Path]:
    """The secrets files the Streamlit processes read, in Streamlit's order (a later file's key wins): those
    STREAMLIT_SECRETS_FILES names (Streamlit's ``secrets.files``, white-space separated) when it is set, else the
    files ``[secrets] files`` names in ``~/.streamlit/config.toml`` or the checkout's ``.streamlit/config.toml``, else
    the home folder's ``~/.streamlit/secrets.toml`` and the checkout's SECRETS_FILE (the processes run in the
    checkout; streamlit/config.py, ``get_config_files``). Only the checkout's was read, so a
    TOOLCALL_DATABASE_URL in the home folder's file, which every process used, was neither checked nor
    reached: the launcher checked SQLite instead."""
    from toolcall.progress import secrets_files as app_secrets_files

    # as the app reads them, from the checkout: [secrets] files in a config.toml included (the launcher planned for
    # SQLite while every process used the PostgreSQL of a file named there, brk21probe)
    return app_secrets_files(local=SECRETS_FILE)


def secrets_database_source() -> Path | None:
    """The secrets file whose TOOLCALL_DATABASE_URL the processes use (the last of secrets_files() that sets it),
    or None; a file that cannot be read counts as not setting it (secrets_database_url says why)."""
    for path in reversed(secrets_files()):
        try:
            setting = _secrets_setting(path)
        except ValueError:
            continue
        if setting is not None:  # the last file that sets it decides, even to "" (SQLite)
            return path if setting else None
    return None


def secrets_database_url(path: Path | None = None) -> str:
    """TOOLCALL_DATABASE_URL as the secrets file at ``path`` gives it to the processes (default: as
    secrets_files() give it, the last file that sets it winning); "" when no file exists or sets it (their
    progress is then in SQLite, and its folder is checked).

    Raises ValueError naming the file when every process would fail on it, so the launch stops before any of
    them starts: not a regular file (a FIFO would block the launcher and each process for ever), larger than
    MAX_SECRETS_CHARS, not UTF-8, not TOML (``line 2, column 1: …``), or a TOOLCALL_DATABASE_URL that is not
    text. The URL itself is checked by the caller, like --database-url."""
    if path is None:
        # each file checked (each is read); the last that sets it decides, as Streamlit merges them: an empty one in
        # the checkout over a URL in ~/.streamlit is SQLite for every process, and the launcher reached, planned
        # and named the server instead (break-it pass brk20new)
        urls = [_secrets_setting(p) for p in secrets_files()]
        return next((u for u in reversed(urls) if u is not None), "")
    return _secrets_setting(path) or ""


def _secrets_setting(path: Path) -> str | None:
    """The TOOLCALL_DATABASE_URL the secrets file at ``path`` sets (stripped; "" when it sets it empty), or None when
    the file does not exist or does not set it. Raises ValueError as secrets_database_url says."""
    import tomllib

    from toolcall.files import ReadError, read_text_bounded

    try:
        text = read_text_bounded(path, MAX_SECRETS_CHARS)
    except ReadError as exc:
        if exc.code == "no_such_file":
            return None
        raise ValueError(f"{path}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not TOML: {exc}") from None
    except (RecursionError, MemoryError) as exc:  # tomllib reads nested arrays recursively: 20 000 "[" (brk20new)
        raise ValueError(f"{path}: nested too deeply to read ({type(exc).__name__})") from None
    if "TOOLCALL_DATABASE_URL" not in data:
        return None
    url = data["TOOLCALL_DATABASE_URL"]
    if not isinstance(url, str):
        raise ValueError(f"{path}: TOOLCALL_DATABASE_URL must be text in quotes (\"postgresql://…\"), "
                         f"not {type(url).__name__}")
    return url.strip()


def data_folder() -> str:
    """The SQLite data folder the processes use: TOOLCALL_DATA_DIR (``~`` expanded) made absolute against the
    folder this launcher was started from, where the operator typed it, not the repository the processes run
    in; ``<repo>/data`` when unset. Raises ValueError when it is relative and that folder no longer exists (removed
    while the operator's shell was in it): a traceback ended the launcher (break-it pass brk19ops)."""
    folder = os.environ.get("TOOLCALL_DATA_DIR", "")
    if not folder:
        return str(REPO / "data")
    try:
        return os.path.abspath(os.path.expanduser(folder))
    except OSError:  # os.getcwd(): the folder it was started from is gone
        from toolcall.text import escape_line
        raise ValueError(f"TOOLCALL_DATA_DIR {escape_line(folder)} is a relative path, and the folder this launcher "
                         "was started from no longer exists: write the folder's full path, or start the launcher "
                         "from an existing folder") from None


def pool_plan(room: int | None, processes: int) -> tuple[str | None, int | None]:
    """(why the class cannot start, or None; the most connections each of ``processes`` processes' pools may hold,
    or None for the pool's default) when the PostgreSQL server lets the app open ``room`` more connections
    (progress_pg.connection_room; None: unknown, nothing is changed). Each process's pool grows on demand to
    POOL_SIZE connections: four processes (two per core on 2 cores) need 40, a server's default max_connections is
    100, and several hosts share it ("Scaling out"); past it the server refuses with "too many clients" in the
    middle of the class, under load, and every page said progress could not be saved. So each pool is given an
    equal share of the room (logged), and when there is not one connection per process the launch stops."""
    from toolcall.progress_pg import POOL_SETTING, POOL_SIZE

    if room is None or room >= POOL_SIZE * processes:
        return None, None
    if room < processes:
        return (f"the progress database server lets the app open {room} more connection{'s' if room != 1 else ''} "
                f"now, fewer than the {processes} processes need (one each). Raise the server's max_connections "
                "(or the CONNECTION LIMIT of the database or user), close other programs' connections, or serve "
                f"the class from fewer processes (--processes {max(1, room)})"), None
    share = room // processes
    log(f"progress database: the server lets the app open {room} more connections, so each of the {processes} "
        f"processes keeps at most {share} (not {POOL_SIZE}; {POOL_SETTING}={share}); raise the server's "
        "max_connections to give them more")
    return None, share


#: The file in the run folder where the processes share their instructor passphrase throttle (toolcall/instructor.py,
#: SharedLoginThrottle): with one throttle each, N processes gave a guesser N tries at a time.
THROTTLE_FILE = "login-throttle.json"


def child_env(database_url: str, run_dir: Path | None = None, pool: int | None = None) -> dict[str, str]:
    """The environment of each Streamlit process: ours, with TOOLCALL_DATABASE_URL set to
    ``database_url`` when it is not empty (the processes then keep progress in PostgreSQL), and
    TOOLCALL_DATA_DIR made absolute (data_folder: the processes run in the repository, so a relative
    folder would otherwise mean another place than the one the launcher checked), and, with ``run_dir``,
    TOOLCALL_LOGIN_THROTTLE_FILE naming THROTTLE_FILE there; with ``pool`` (pool_plan), TOOLCALL_DATABASE_POOL
    set to it, else removed (one in the launcher's environment is not the operator's to set)."""
    from toolcall.progress_pg import POOL_SETTING

    env = {**os.environ, **({"TOOLCALL_DATABASE_URL": database_url} if database_url else {})}
    env.pop(POOL_SETTING, None)
    if pool is not None:
        env[POOL_SETTING] = str(pool)
    if run_dir is not None:
        env["TOOLCALL_LOGIN_THROTTLE_FILE"] = str(run_dir / THROTTLE_FILE)
    if env.get("TOOLCALL_DATA_DIR"):
        env["TOOLCALL_DATA_DIR"] = data_folder()
    return env


#: While the class starts, a Streamlit process that dies this many times in a row before it first answers is
#: taken for a setup problem (a broken install, its port taken meanwhile), and the launcher stops with its name.
START_ATTEMPTS = 3


def start_children(children: list[Child], timeout: float = STARTUP_TIMEOUT, tick: float = 0.5,
                   clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
    """Start every child and supervise them (Child.supervise, every ``tick`` s) until each answers its health
    check: one that dies or hangs at start is started again, logged, after a growing delay, while the others
    wait. Raises RuntimeError naming the child when one died START_ATTEMPTS times in a row before answering,
    or when they do not all answer within ``timeout`` seconds (then naming those that did not)."""
    for child in children:
        child.launch(clock())
    deadline = clock() + timeout
    while True:
        now = clock()
        report_signals()
        for child in children:
            child.supervise(now)
            if child.quick_exits >= START_ATTEMPTS:
                raise RuntimeError(f"{child.name} stopped {child.quick_exits} times in a row before it answered its "
                                   f"health check{child.port_taken()}; not starting the class (try `streamlit run "
                                   "app.py` to see why)")
        waiting = [c.name for c in children if c.waiting_health or c.restart_at is not None]
        if not waiting:
            return
        if now >= deadline:
            raise RuntimeError(f"not answering {timeout:.0f} s after the start: " + ", ".join(waiting))
        sleep(tick)


def warm_children(children: list[Child], ports: list[int], timeout: float = WARM_TIMEOUT, tick: float = 0.5,
                  clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
    """Visit each process once (warm_process on its port), all at once, and supervise them (Child.supervise, every
    ``tick`` s) until every visit ended or ``timeout`` s passed. The launcher waited for the visits alone: a process
    that hung (stopped) as the class started held the start up for WARM_TIMEOUT s without a line, the others ready,
    and one that died then was started again only after it (break-it pass brk19ops). Now a hung process is killed
    after its unanswered health checks, which ends its visit, and is started again (and visited) like any other."""
    warmers = [threading.Thread(target=warm_process, args=(port,), daemon=True) for port in ports]
    for warmer in warmers:
        warmer.start()
    deadline = clock() + timeout
    while any(w.is_alive() for w in warmers) and clock() < deadline:
        now = clock()
        report_signals()
        for child in children:
            child.supervise(now)
        sleep(tick)


def main(argv: list[str] | None = None) -> int:
    """Run the launcher with ``argv`` (default sys.argv[1:]); returns the exit code: 0 after the operator's
    signal, 1 when the class could not start, 2 for a setting refused before anything started, 130 for Ctrl+C
    during those checks (one line, no traceback; nothing was started yet)."""
    global _stopping
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, *STOP_SIGNALS, *NOTED_SIGNALS)}
    _stopping = False
    _noted.clear()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        say("interrupted before the class started; nothing is running")
        return 130
    finally:
        _WRITER.drain(EXIT_DRAIN)  # the last lines (a slow terminal) before the launcher exits, if it takes them
        for sig, handler in handlers.items():  # as they were (a test calling main() keeps its own)
            if handler is not None:  # None: set outside Python, left as it is
                signal.signal(sig, handler)


#: The signals that stop the class besides Ctrl+C (SIGINT): SIGTERM, SIGHUP (the terminal closed) and SIGQUIT
#: (Ctrl+\, whose default killed the launcher alone, with a core dump, leaving its run folder behind).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: The other signals whose default action ends a process (man 7 signal) and that only someone's ``kill`` sends to
#: the launcher: SIGUSR1 (nginx's "reopen the logs", which an operator or a logrotate script sends to what serves
#: the class), SIGUSR2, timers and the like. Each ended the launcher at once, without a line: its processes
#: followed it (PR_SET_PDEATHSIG), students lost the class, and its run folder was left behind (break-it pass
#: brk19ops). Each is now logged and does not stop the class (noted_signals, report_signals).
NOTED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF",
                                                         "SIGIO", "SIGPWR", "SIGSTKFLT", "SIGXCPU")
                      if hasattr(signal, name))
_stopping = False  # a stop signal came: the clean stop is under way
_noted: list[int] = []  # noted signals not yet logged (a handler must not take the output's lock: report_signals)


def _on_signal(signum, frame):
    """A stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT): the same clean stop as Ctrl+C, from the first check on.
    Only the first raises: a second one, sent at once ("twice fast"), landed in the cleanup itself before it could
    ignore it, and cut it short (the processes left to their death signal, and "nothing is running" printed while
    nginx still ran)."""
    global _stopping
    if _stopping:
        return
    _stopping = True
    raise KeyboardInterrupt


def _on_noted_signal(signum, frame):
    """A signal in NOTED_SIGNALS: kept for report_signals to log (from the supervisor's loop, not from here)."""
    if len(_noted) < 64:  # a flood of them is logged as what it is, not kept without end
        _noted.append(signum)


def report_signals() -> None:
    """Log each noted signal (NOTED_SIGNALS) that came since the last call, once per kind of signal."""
    seen = []
    while _noted:
        sig = _noted.pop(0)
        if sig not in seen:
            seen.append(sig)
    for sig in seen:
        log(f"{signal.Signals(sig).name} received and ignored: it does not stop the class (Ctrl+C, SIGTERM, SIGHUP "
            "or SIGQUIT do)")


def stop_signals() -> list[signal.Signals]:
    """The signals that stop the class besides Ctrl+C (SIGINT): STOP_SIGNALS, each unless the launcher was
    started with it ignored. ``nohup python deploy/serve_class.py &`` (or a service manager) ignores SIGHUP so that
    closing the terminal leaves the class running; the launcher put its own handler over that, and the teacher
    who closed the terminal stopped the class (break-it pass brk16ops). An ignored signal stays ignored (a shell
    starts a background job with SIGINT and SIGQUIT ignored)."""
    return [sig for sig in STOP_SIGNALS if signal.getsignal(sig) != signal.SIG_IGN]


def noted_signals() -> list[signal.Signals]:
    """NOTED_SIGNALS, each unless the launcher was started with it ignored."""
    return [sig for sig in NOTED_SIGNALS if signal.getsignal(sig) != signal.SIG_IGN]


def _main(argv: list[str] | None) -> int:
    for sig in stop_signals():
        signal.signal(sig, _on_signal)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # Ctrl+C: once, as the others
        signal.signal(signal.SIGINT, _on_signal)
    for sig in noted_signals():
        signal.signal(sig, _on_noted_signal)
    if str(REPO) not in sys.path:  # run as a script: the repository is not on sys.path yet
        sys.path.insert(0, str(REPO))
    from toolcall.cli import whole_number_arg  # as python -m toolcall reads one: ASCII or full-width digits, a
    # refused one quoted cut (int() took 9_801 and Arabic-Indic digits; argparse echoed 100 000 characters; brk21probe)

    ap = argparse.ArgumentParser(prog="serve_class.py", description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=whole_number_arg, default=default_processes(),
                    help=f"Streamlit processes (default 2 per core: {default_processes()} here; 1..16)")
    ap.add_argument("--public", action="store_true",
                    help="serve the whole network: listen on every interface (0.0.0.0) unless --address says otherwise")
    ap.add_argument("--address", help="address nginx listens on (default 127.0.0.1; 0.0.0.0 with --public)")
    ap.add_argument("--port", type=whole_number_arg, default=8501, help="port nginx listens on (default 8501)")
    ap.add_argument("--first-backend-port", type=whole_number_arg, default=8601,
                    help="Streamlit processes listen on 127.0.0.1 from this port up (default 8601)")
    ap.add_argument("--database-url", default=None,
                    help="postgresql://… shared by every process (and host) for progress; default "
                         "$TOOLCALL_DATABASE_URL, else SQLite in the data folder")
    args = ap.parse_args(argv)
    source = "--database-url"  # how a refusal names the setting: the one the operator actually gave
    if args.database_url is None:
        args.database_url, source = os.environ.get("TOOLCALL_DATABASE_URL", ""), "TOOLCALL_DATABASE_URL (environment)"
    # white space around it is not part of it, as the app's open_store reads it: `TOOLCALL_DATABASE_URL= ` (an env
    # file's empty value) is SQLite for every process, and the launcher refused it, "must start with postgresql://"
    args.database_url = args.database_url.strip()
    sys.path.insert(0, str(REPO))
    from toolcall.progress import scheme_problem
    if args.database_url and (why := scheme_problem(args.database_url, source)) is not None:
        ap.error(why)
    if args.database_url:
        from toolcall.progress_pg import url_problem
        problem = url_problem(args.database_url)
        if problem is not None:
            ap.error(f"{source}: {problem}")
    if not 1 <= args.processes <= 16:
        ap.error("--processes must be 1..16")
    # each names the argument it is about: "ports must be 1..65535" alone was said of a valid --port 9180 when
    # the processes' ports ran past 65535 (break-it pass brk17fresh)
    if not 0 < args.port < 65536:
        ap.error(f"--port {args.port}: ports must be 1..65535")
    if not (0 < args.first_backend_port and args.first_backend_port + args.processes - 1 <= 65535):
        first, last = args.first_backend_port, args.first_backend_port + args.processes - 1
        uses = f"uses ports {first} to {last}" if last != first else f"uses port {first}"
        ap.error(f"--first-backend-port {first} with {args.processes} process{'es' if args.processes != 1 else ''} "
                 f"{uses}; ports must be 1..65535")
    last_backend = args.first_backend_port + args.processes - 1
    if args.first_backend_port <= args.port <= last_backend:  # each free alone: nginx then found its own in use
        ap.error(f"--port {args.port} is also a Streamlit process's port (--first-backend-port "
                 f"{args.first_backend_port} to {last_backend} for {args.processes} processes); choose a --port "
                 "outside that range, or another --first-backend-port")
    if args.address is None:
        args.address = "0.0.0.0" if args.public else "127.0.0.1"
    typed = args.address
    try:
        args.address = listen_address(args.address, args.public)
    except ValueError as exc:
        ap.error(str(exc))
    # a host name is named with the address it resolved to: "192.0.2.7:8501: not an address of this machine" did not
    # say it came from --address class.example (break-it pass brk19ops)
    named = f" (--address {_quoted(typed)})" if typed.strip().strip("[]") != args.address else ""
    problems = [(host_port(args.address, args.port) + named, bind_problem(args.address, args.port))]
    problems += [(f"127.0.0.1:{p}", bind_problem("127.0.0.1", p))
                 for p in range(args.first_backend_port, args.first_backend_port + args.processes)]
    busy = [where for where, why in problems if why == "already in use"]
    if busy:
        print(f"already in use: {', '.join(busy)}. Stop what listens there, or choose other ports with "
              "--port / --first-backend-port.", file=sys.stderr)
        return 2
    other = [f"{where}: {why}" for where, why in problems if why]
    if other:
        print("cannot listen on " + "; ".join(other), file=sys.stderr)
        return 2
    nginx = find_nginx()
    if nginx is None:
        print("nginx not found. Install Debian's nginx (sudo apt-get install nginx), "
              "or run one process with: streamlit run app.py", file=sys.stderr)
        return 2

    from toolcall import content_root_problem
    from toolcall.i18n import t
    from toolcall.text import escape_line
    if (wrong := content_root_problem()) is not None:  # every page of every process would fail on it
        say(t(f"content_root.{wrong[0]}", "en", value=escape_line(wrong[1])))
        return 2
    try:
        # read even when --database-url or the environment gives the URL: every process reads the file for the
        # instructor settings too (a FIFO there would block each page that asks)
        secret_url = secrets_database_url()
        where = f"{secrets_database_source()}: TOOLCALL_DATABASE_URL" if secret_url else ""
        if secret_url and not args.database_url:  # used, so checked as --database-url is
            from toolcall.progress import scheme_problem
            if (why := scheme_problem(secret_url, where)) is not None:
                raise ValueError(why)
            from toolcall.progress_pg import url_problem
            if (problem := url_problem(secret_url)) is not None:
                raise ValueError(f"{where}: {problem}")
    except ValueError as exc:
        say(f"secrets: {exc}")
        return 2
    try:
        data_folder()  # every process is told it, PostgreSQL or not (child_env)
    except ValueError as exc:
        say(f"progress storage: {exc}")
        return 2
    args.pool = None  # the most connections each process's pool may hold (PostgreSQL), when fewer than its default
    args.sqlite_folder = None  # the SQLite data folder, when progress is kept there
    if args.database_url or secret_url:  # every process would open it: reach it once first
        from toolcall.progress_pg import reach
        problem, room = reach(args.database_url or secret_url, source if args.database_url else where)
        if problem is None:
            problem, args.pool = pool_plan(room, args.processes)
    else:
        problem = sqlite_problem()
        args.sqlite_folder = Path(data_folder())  # watched while the class runs (StorageWatch)
    if problem is not None:
        say(f"progress storage: {problem}")
        return 2

    parent = run_parent(os.geteuid() == 0)
    for stale in remove_stale_run_dirs(parent):
        log(f"removed {_quoted(stale)}, left behind by a launcher that was killed")
    try:
        run_dir, lock = new_run_dir(parent)
    except OSError as exc:
        say(f"cannot make the launcher's run folder in {_quoted(parent)} (the temp folder: TMPDIR): {_os_words(exc)}")
        return 1
    try:
        return _serve(args, nginx, run_dir)
    finally:
        if (kept := keep_error_log(run_dir)) is not None:
            say(f"nginx's error log is kept at {_quoted(kept)}")
        shutil.rmtree(run_dir, ignore_errors=True)
        os.close(lock)


def everyone_can_enter(folder: Path) -> bool:
    """Whether a user other than the owner (nginx's workers, ``nobody``) can reach what is inside ``folder``:
    it and every folder above it let others search them (``o+x``). Never raises (a folder that cannot be looked
    at counts as not enterable)."""
    try:
        folder = folder.resolve()
        return all(os.stat(f).st_mode & stat.S_IXOTH for f in (folder, *folder.parents))
    except (OSError, RuntimeError):
        return False


def run_parent(as_root: bool, temp: str | None = None) -> Path:
    """The folder the run folder is made in: the temp folder (``temp``, default tempfile.gettempdir(): TMPDIR),
    unless the launcher runs as root and nginx's workers (``user nobody``) cannot enter it, then ``/tmp``. A root
    launcher with TMPDIR a folder only root may enter (libpam-tmpdir's /tmp/user/0, mode 0700) gave nginx a body
    folder its workers could not open: every upload past 16 KB failed with a 500 (the page said "AxiosError:
    Request failed with status code 500"), and nginx logged "Permission denied" (issue 13, round 6)."""
    parent = Path(temp or tempfile.gettempdir())
    if not as_root or everyone_can_enter(parent):
        return parent
    log(f"the temp folder {_quoted(parent)} is closed to other users, and nginx's workers run as nobody: the run "
        "folder is made in /tmp instead")
    return Path("/tmp")


#: Where nginx's error log of a run folder is kept when the folder is removed (in the temp folder).
ERROR_LOG_PREFIX = "toolcall-nginx-error-"


def keep_error_log(run_dir: Path) -> Path | None:
    """Move nginx's error log out of ``run_dir`` (about to be removed) into the folder that holds it, as
    ``toolcall-nginx-error-<UTC time>-<run folder>.log``, when anything was written to it (refused
    connections, 429s past the per-address cap, a crash), and return where; None when it is empty or missing.
    It was removed with the run folder, so what nginx said about a class was gone once the class stopped.
    Never raises."""
    source = run_dir / "error.log"
    try:
        if source.is_symlink() or not source.is_file() or source.stat().st_size == 0:
            return None
        target = run_dir.parent / (f"{ERROR_LOG_PREFIX}{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}-"
                                   f"{run_dir.name.removeprefix(RUN_DIR_PREFIX)}.log")
        os.replace(source, target)
    except OSError:
        return None
    return target


#: The run folders' name prefix (in the temp folder) and the lock file a live launcher holds in its own.
RUN_DIR_PREFIX = "toolcall-nginx-"
RUN_LOCK = "launcher.lock"


def new_run_dir(parent: Path) -> tuple[Path, int]:
    """A new private run folder under ``parent`` and the descriptor of the lock held on it for this launcher's life
    (the kernel drops it when the launcher dies, even by SIGKILL). The lock is taken before the file gets its
    name, so no other launcher can see it unlocked."""
    run_dir = Path(tempfile.mkdtemp(prefix=RUN_DIR_PREFIX, dir=parent))
    try:
        fd = os.open(run_dir / (RUN_LOCK + ".new"), os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
    except OSError:  # no lock: later launchers would take the folder for an older launcher's and keep it for ever
        shutil.rmtree(run_dir, ignore_errors=True)
        raise
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(run_dir / (RUN_LOCK + ".new"), run_dir / RUN_LOCK)
    return run_dir, fd


def _os_words(exc: OSError) -> str:
    """An OSError as a line names it: the OS's words and the file (``No space left on device: /tmp/x``)."""
    words = exc.strerror or str(exc)
    return f"{words}: {_quoted(exc.filename)}" if exc.filename else words


def remove_stale_run_dirs(parent: Path) -> list[Path]:
    """Remove the run folders under ``parent`` that this user's launchers left when killed with SIGKILL (the
    ``finally`` that removes them never ran): those whose lock no launcher holds. A live launcher's folder, another
    user's, a link, or a folder without the lock file (an older launcher's) is left alone. Returns what was
    removed; never raises."""
    removed = []
    for folder in sorted(parent.glob(RUN_DIR_PREFIX + "*")):
        try:
            if folder.is_symlink() or not folder.is_dir() or folder.stat().st_uid != os.geteuid():
                continue
            fd = os.open(folder / RUN_LOCK, os.O_RDWR | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: that launcher is alive
            os.close(fd)
            continue
        keep_error_log(folder)  # what nginx said before its launcher was killed
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)
        removed.append(folder)
    return removed


def _serve(args: argparse.Namespace, nginx: str, run_dir: Path) -> int:
    """Check the generated nginx.conf (``nginx -t``), start the Streamlit processes, then nginx, and supervise
    them until the operator's signal; stops every process before returning."""
    as_root = os.geteuid() == 0
    before, nofile = raise_nofile()  # before any process starts: they inherit it
    connections, per_address = nginx_limits(nofile)
    log(f"open files: {nofile}" + (f" (raised from {before}, the hard limit)" if nofile != before else "")
        + f"; nginx: {connections} connections, at most {per_address} requests at once per client address "
        "(the next is answered 429)")
    try:  # a full disk, no inode left (a small tmpfs): a line naming the folder, not a traceback
        os.chmod(run_dir, 0o755)
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (run_dir / "tmp" / sub).mkdir(parents=True)
            os.chmod(run_dir / "tmp" / sub, 0o1777)  # nginx workers run as nobody when started by root
        os.chmod(run_dir / "tmp", 0o755)
    except OSError as exc:
        say(f"cannot set up the launcher's run folder {_quoted(run_dir)}: {_os_words(exc)}")
        return 1

    ports = [args.first_backend_port + i for i in range(args.processes)]
    backends = [f"127.0.0.1:{p}" for p in ports]
    upload_mb = upload_limit_mb()
    children = [Child(f"Streamlit process on 127.0.0.1:{port}",
                      [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                       "--server.address", "127.0.0.1", "--server.port", str(port),
                       # served at the root nginx and the health checks use, whatever the checkout's config or
                       # STREAMLIT_SERVER_BASE_URL_PATH says: with baseUrlPath "course" every process answered only
                       # /course/_stcore/health, was taken for hung and killed (break-it pass brk21probe)
                       "--server.baseUrlPath", "",
                       "--server.maxUploadSize", str(upload_mb), "--browser.gatherUsageStats", "false"],
                      f"http://127.0.0.1:{port}/_stcore/health",
                      env=child_env(args.database_url, run_dir, getattr(args, "pool", None)),
                      warm_port=port, watch=True)
                for port in ports]

    def procs() -> list[subprocess.Popen]:
        return [c.proc for c in children if c.proc is not None]

    serving = False

    try:
        host = f"[{args.address}]" if ":" in args.address else args.address  # IPv6 in brackets, in URLs too
        conf = run_dir / "nginx.conf"
        def conf_text(down: frozenset[str] = frozenset()) -> str:
            return nginx_conf(listen_directive(args.address, args.port), backends, run_dir, as_root, connections,
                              per_address, upload_mb, down)

        try:
            conf.write_text(conf_text())
        except OSError as exc:  # it said only "[Errno 28] No space left on device"
            raise RuntimeError(f"cannot write {_quoted(conf)}: {exc.strerror or exc}") from None
        check = subprocess.run([nginx, "-t", "-q", "-p", str(run_dir), "-c", str(conf)],  # before any process starts
                               capture_output=True, text=True, errors="replace")
        if check.returncode != 0:
            raise RuntimeError("nginx refused the generated configuration:\n" + check.stderr[-4000:])
        start_children(children)  # one that dies at start is started again; one that keeps dying stops the launch
        warm_children(children, ports)  # one visit per process, all at once, before nginx lets students in
        local = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(args.address, host)  # where this machine reaches it
        proxy = Child("nginx", [nginx, "-p", str(run_dir), "-c", str(conf), "-g", "daemon off;"],
                      f"http://{local}:{args.port}{HEALTH_PATH}", pid_file=run_dir / "nginx.pid",
                      listens=(args.address, args.port), watch=True)
        children.append(proxy)
        try:
            wait_healthy(proxy.health, proxy.start(), 15, check=proxy.serves)
        except RuntimeError as exc:  # free when checked, taken since (the port stolen meanwhile): say so
            raise RuntimeError(f"nginx did not start{proxy.port_taken()}: {exc}") from None
        proxy.waiting_health, proxy.next_check = False, time.monotonic() + HEALTH_EVERY
        proxy.served_at = time.monotonic()
        shown = "localhost" if args.address in ("0.0.0.0", "::") else host
        serving = True  # before the banner: a signal right after it is the operator's stop of a served class
        say(f"Serving the app from {args.processes} Streamlit process{'es' if args.processes != 1 else ''} "
            f"at http://{shown}:{args.port} (nginx, sticky by cookie). Ctrl+C stops everything.", "stdout")
        routing = Routing(conf, conf_text, proxy)  # backends nginx is told are down (another program holds them)
        folder = getattr(args, "sqlite_folder", None)
        storage = StorageWatch(folder) if folder is not None else None
        while True:  # the supervisor: until the operator's signal
            now = time.monotonic()
            if storage is not None:
                storage.update(now)
            for child in children:
                child.supervise(now)
            routing.update(now, frozenset(b for b, c in zip(backends, children) if c.held_by_other))
            report_signals()
            time.sleep(0.5)
    except KeyboardInterrupt:  # the operator's stop: a success once the class was served, else like main()'s
        if serving:
            return 0
        say("interrupted before the class started; every process it had started is stopped")
        return 130
    except (RuntimeError, ValueError, OSError) as exc:  # ValueError: nginx_quote; OSError: writing nginx.conf
        say(str(exc))
        return 1
    finally:
        for sig in (signal.SIGINT, *STOP_SIGNALS):  # a second Ctrl+C must not cut the cleanup short
            signal.signal(sig, signal.SIG_IGN)
        stop(procs())


if __name__ == "__main__":
    sys.exit(main())
