"""Classroom load benchmark: N simulated browsers editing the playground's schema editor.

Each session speaks Streamlit's own websocket protocol (BackMsg / ForwardMsg protobufs from
``streamlit.proto``) on ``/_stcore/stream``, exactly as the browser does: it asks for the
``playground`` page, learns the widget id of the ``schema_editor`` text area and the page's
script hash from the server's own messages, then commits a new schema about ``--rate`` times a
second for ``--seconds`` seconds. A rerun's latency is BackMsg sent -> ``script_finished``
received. Server CPU and RSS come from psutil on the server process.

The same run measures ``bench/bare_app.py`` (same widgets and element counts, no validation) as
the floor and prints the ratio playground / bare.

    python bench/load.py --sessions 50 --seconds 60 --rate 1
    python bench/load.py --sessions 2 --seconds 3 --json out.json      # smoke run

Every loop is bounded in iterations and wall time; only loopback addresses are accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import math
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil
from websockets.asyncio.client import connect

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ContextInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "deploy"))
from serve_class import wait_healthy  # noqa: E402  (deploy/ is a folder of scripts, not a package)
PAGE = "playground"
EDITOR_KEY = "schema_editor"
#: Seconds a single rerun may take before it counts as an error.
RERUN_TIMEOUT = 30.0
#: Upper bound on ForwardMsgs read for one rerun (the playground sends ~150).
MAX_MSGS_PER_RUN = 5000
_SUCCESS = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
_NO_ADDITIONAL = re.compile(r',\s*"additionalProperties"\s*:\s*false')


def loopback(host: str) -> str:
    """Return ``host`` if it is a loopback address; raise ValueError otherwise."""
    if host == "localhost" or ipaddress.ip_address(host).is_loopback:
        return host
    raise ValueError(f"{host} is not a loopback address; this benchmark only talks to loopback")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def page_cookies(url: str) -> str:
    """GET ``url`` (loopback only, 10 s timeout) and return its Set-Cookie pairs as a Cookie header value."""
    loopback(urllib.request.urlparse(url).hostname or "")
    with urllib.request.urlopen(url, timeout=10) as r:
        return "; ".join(c.split(";", 1)[0].strip() for c in r.headers.get_all("Set-Cookie") or [])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A ``streamlit run`` subprocess on a loopback port (or an already running one)."""

    def __init__(self, app: str | None, port: int, options: list[str], host: str = "127.0.0.1",
                 root: Path = REPO):
        self.host, self.port, self.proc = loopback(host), port, None
        if app is not None:
            cmd = [sys.executable, "-m", "streamlit", "run", app, "--server.headless", "true",
                   "--server.address", host, "--server.port", str(port), "--browser.gatherUsageStats", "false",
                   *options]
            self.proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.wait_healthy()
        self.ps = psutil.Process(self.proc.pid if self.proc else self._pid_listening())

    def _pid_listening(self) -> int:
        for conn in psutil.net_connections("tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr.port == self.port and conn.pid:
                return conn.pid
        raise RuntimeError(f"no process listens on port {self.port}")

    def wait_healthy(self, timeout: float = 60.0) -> None:
        try:
            wait_healthy(f"http://{self.host}:{self.port}/_stcore/health", self.proc, timeout)
        except RuntimeError as exc:
            exited = self.proc and self.proc.poll() is not None
            stderr = self.proc.stderr.read().decode(errors="replace") if exited else ""
            raise RuntimeError(f"{exc}\n{stderr}".strip()) from None

    def cpu(self) -> float:
        t = self.ps.cpu_times()
        return t.user + t.system

    def rss(self) -> int:
        return self.ps.memory_info().rss

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Deployment:
    """``deploy/serve_class.py``: N Streamlit processes behind nginx, measured through nginx.
    CPU and RSS are summed over every process it started (Streamlit and nginx)."""

    def __init__(self, processes: int, host: str = "127.0.0.1", root: Path = REPO):
        self.host, self.port, self.warmups = loopback(host), free_port(), processes
        # a file, not a pipe: nobody reads a pipe during a long run, and a full one would block the servers
        self.log = tempfile.TemporaryFile()
        first = free_port_range(processes)
        self.proc = subprocess.Popen([sys.executable, "deploy/serve_class.py", "--processes", str(processes),
                                      "--address", host, "--port", str(self.port), "--first-backend-port", str(first)],
                                     cwd=root, stdout=subprocess.DEVNULL, stderr=self.log)
        try:
            wait_healthy(f"http://{self.host}:{self.port}/_stcore/health", self.proc, 120.0)
        except BaseException as exc:  # timeout, Ctrl+C: never leave the deployment running
            self.stop()
            if isinstance(exc, RuntimeError):
                self.log.seek(0)
                raise RuntimeError(f"{exc}\n{self.log.read().decode(errors='replace')}".strip()) from None
            raise
        self.ps = psutil.Process(self.proc.pid)

    def _sum(self, measure) -> float:
        """``measure(process)`` summed over the launcher and every process it started (one may exit meanwhile)."""
        total = 0.0
        for p in [self.ps] + self.ps.children(recursive=True):
            try:
                total += measure(p)
            except psutil.NoSuchProcess:
                pass
        return total

    def cpu(self) -> float:
        return self._sum(lambda p: sum(p.cpu_times()[:2]))  # user + system

    def rss(self) -> int:
        return int(self._sum(lambda p: p.memory_info().rss))

    def stop(self) -> None:
        Server.stop(self)


def bare_tree(root: Path, into: Path) -> Path:
    """A copy of the tree at ``root`` in the folder ``into`` whose ``app.py`` is ``bench/bare_app.py``, so that
    ``deploy/serve_class.py`` (which always serves ``app.py``) serves Streamlit's floor behind nginx:
    ``--deploy N --pages bare``. Copies sources and fixtures only (no ``.git``, venv or caches). Returns the copy."""
    import shutil

    copy = into / "tree"
    shutil.copytree(root, copy, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", "docs", "data"))
    shutil.copyfile(root / "bench" / "bare_app.py", copy / "app.py")
    return copy


def free_port_range(n: int, tries: int = 50) -> int:
    """First of ``n`` consecutive free loopback ports (random base, ``tries`` attempts)."""
    for _ in range(tries):
        base = random.randrange(20000, 60000 - n)
        ok = True
        for port in range(base, base + n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError(f"no {n} consecutive free ports")


@dataclass
class SessionStats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: ForwardMsgs and their bytes received for each measured edit
    messages: list[int] = field(default_factory=list)
    payload: list[int] = field(default_factory=list)


class Session:
    """One simulated browser tab on the playground page (a subclass sets ``page``, ``query``
    and ``see`` for another page: bench/progress_load.py)."""

    page = PAGE
    query = ""

    def __init__(self, host: str, port: int, name: int):
        self.url = f"ws://{host}:{port}/_stcore/stream"
        self.name = name
        self.ws = None
        self.page_hash = ""
        self.widget_id = ""
        self.fragment_id = ""
        self.reference = ""
        self.cached: set[str] = set()
        self.stats = SessionStats()
        self.last_messages = self.last_bytes = 0
        self.cookie = ""  # what the page's HTTP answer set (a deployment's process pin)

    def _client_state(self, back: BackMsg) -> None:
        state = back.rerun_script
        state.query_string = self.query
        state.page_name = self.page if not self.page_hash else ""
        state.page_script_hash = self.page_hash
        state.context_info.CopyFrom(ContextInfo(timezone="UTC", timezone_offset=0, locale="en-US",
                                                url=self.url.replace("ws://", "http://").split("/_stcore")[0]
                                                + "/" + self.page, is_embedded=False, color_scheme="light"))
        state.cached_message_hashes.extend(sorted(self.cached))

    async def _run(self, back: BackMsg) -> float:
        """Send one rerun request; read ForwardMsgs until script_finished. Returns seconds."""
        sent = time.perf_counter()
        await self.ws.send(back.SerializeToString())
        self.last_messages = self.last_bytes = 0
        async with asyncio.timeout(RERUN_TIMEOUT):
            for _ in range(MAX_MSGS_PER_RUN):
                msg = ForwardMsg()
                data = await self.ws.recv()
                self.last_messages += 1
                self.last_bytes += len(data)
                msg.ParseFromString(data)
                kind = msg.WhichOneof("type")
                if msg.metadata.cacheable and msg.hash:
                    self.cached.add(msg.hash)
                if kind == "script_finished":
                    if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        continue  # the page called st.rerun(): the next run follows on this socket
                    if msg.script_finished not in _SUCCESS:
                        raise RuntimeError(f"script finished with status {msg.script_finished}")
                    return time.perf_counter() - sent
                if kind == "navigation":
                    for page in msg.navigation.app_pages:
                        if page.url_pathname == self.page:
                            self.page_hash = page.page_script_hash
                elif kind == "page_not_found":
                    raise RuntimeError("page not found: " + msg.page_not_found.page_name)
                elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                    element = msg.delta.new_element
                    which = element.WhichOneof("type")
                    if which == "exception":
                        raise RuntimeError("exception on the page: " + element.exception.message)
                    self.see(msg.delta, element, which)
            raise RuntimeError(f"no script_finished within {MAX_MSGS_PER_RUN} messages")

    def see(self, delta, element, which: str) -> None:
        """Learn what this session needs from one new element of the page (here: the editor)."""
        if which == "text_area" and element.text_area.id.endswith("-" + EDITOR_KEY):
            self.widget_id = element.text_area.id
            self.fragment_id = delta.fragment_id
            if not self.reference:
                self.reference = element.text_area.value or element.text_area.default

    async def connect(self) -> None:
        """Fetch the page over HTTP (keeping any cookie, as a browser does: the class deployment's
        proxy pins a browser to its process by cookie) and connect the websocket."""
        cookie = self.cookie = await asyncio.to_thread(page_cookies,
                                                       self.url.replace("ws://", "http://").split("/_stcore")[0] + "/")
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, compression=None,
                                open_timeout=RERUN_TIMEOUT, ping_interval=None,
                                additional_headers={"Cookie": cookie} if cookie else None)

    async def first_run(self) -> float:
        """The browser's first rerun of ``page`` on this (connected) socket; seconds."""
        back = BackMsg()
        self._client_state(back)
        return await self._run(back)

    async def open(self) -> None:
        """Connect, load the page (the browser's first rerun) and learn the editor's id."""
        await self.connect()
        await self.first_run()
        if not self.widget_id or not self.page_hash:
            raise RuntimeError(f"page {self.page} gave no widget to drive or no page hash")

    def edit_text(self, i: int) -> str:
        """The i-th committed schema: alternately the reference and the one that lets
        extra fields through, each with different trailing whitespace so every edit is new."""
        text = self.reference if i % 2 else _NO_ADDITIONAL.sub("", self.reference)
        return text + "\n" * (1 + i % 5)

    async def edit(self, i: int) -> float:
        back = BackMsg()
        self._client_state(back)
        back.rerun_script.fragment_id = self.fragment_id  # set when the editor sits in an st.fragment
        back.rerun_script.widget_states.widgets.append(WidgetState(id=self.widget_id, string_value=self.edit_text(i)))
        return await self._run(back)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def open_all(sessions: list[Session]) -> tuple[list[Session], list[str]]:
    """Open the sessions one by one, as a class arriving; returns (the live ones, errors)."""
    errors: list[str] = []
    for s in sessions:
        try:
            await s.open()
        except Exception as exc:
            errors.append(f"open: {type(exc).__name__}: {exc}")
            s.ws = None
    return [s for s in sessions if s.ws is not None], errors


async def drive(sessions: list[Session], seconds: float, rate: float) -> None:
    """Each session commits an edit every 1/rate s (a closed loop: never two in flight)
    until ``seconds`` have passed. Bounded by seconds * rate + 1 edits per session."""
    period = 1.0 / rate
    max_edits = int(seconds * rate) + 1
    start = time.perf_counter()
    deadline = start + seconds

    async def one(session: Session) -> None:
        next_at = start + random.uniform(0, period)
        for i in range(max_edits):
            now = time.perf_counter()
            if next_at > now:
                await asyncio.sleep(next_at - now)
            if time.perf_counter() >= deadline:
                return
            try:
                session.stats.latencies.append(await session.edit(i))
                session.stats.messages.append(session.last_messages)
                session.stats.payload.append(session.last_bytes)
            except Exception as exc:  # every failure is counted, the session goes on
                session.stats.errors.append(f"{type(exc).__name__}: {exc}")
                if session.ws is None or session.ws.close_code is not None:
                    return
            next_at += period

    await asyncio.gather(*(one(s) for s in sessions))


@dataclass
class Result:
    page: str
    servers: int
    proxy: bool
    sessions: int
    seconds: float
    rate: float
    reruns: int
    errors: int
    error_samples: list[str]
    min_reruns_per_session: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    server_cpu_ms_per_rerun: float
    client_cpu_ms_per_rerun: float
    messages_per_rerun: float
    kb_per_rerun: float
    rss_base_mb: float
    rss_idle_mb: float
    idle_mb_per_session: float
    rss_end_mb: float
    rss_samples_mb: list[tuple[float, float]]
    #: sessions per process as the proxy pinned them (by cookie); empty without a proxy
    sessions_per_process: list[int]
    loadavg_1min: float


async def settle(cpu, window: float = 0.5, idle: float = 0.05, timeout: float = 120.0,
                 quiet_for: float = 7.0) -> float:
    """Wait until the servers used under ``idle`` of a core on average over the last ``quiet_for`` s
    (sampled every ``window``; psutil counts CPU in 10 ms ticks, so a single window is too coarse). The
    app's warm-up thread (toolcall/warmup.py) starts 5 s after the first page (``START_DELAY``), imports and
    builds for seconds, and its CPU must not be counted as the edits' or a page's; ``quiet_for`` is longer
    than that delay. Bounded by ``timeout``; returns the seconds waited."""
    start = time.perf_counter()
    samples = [(start, cpu())]
    while time.perf_counter() - start < timeout:
        await asyncio.sleep(window)
        now, used = time.perf_counter(), cpu()
        samples.append((now, used))
        while len(samples) > 2 and now - samples[1][0] >= quiet_for:
            samples.pop(0)  # keep the shortest span that still covers quiet_for
        first_at, first_cpu = samples[0]
        last_at, last_cpu = samples[-3] if len(samples) >= 3 else samples[0]  # the last ~1 s alone as well:
        # a warm-up that just began is diluted in a long span (under load it may get only ~0.1 core)
        if now - first_at >= quiet_for and (used - first_cpu) / (now - first_at) < idle \
                and (used - last_cpu) / (now - last_at) < idle:
            break
    return time.perf_counter() - start


async def measure(servers: list[Server], page: str, n: int, seconds: float, rate: float,
                  sample: float) -> Result:
    """Warm up, connect n idle sessions (memory), drive them (latency, CPU), sample RSS.

    With several servers, session i sticks to server i mod k (a sticky load balancer);
    CPU and RSS are summed over the servers."""
    def cpu() -> float:
        return sum(s.cpu() for s in servers)

    def rss() -> int:
        return sum(s.rss() for s in servers)

    for server in servers:
        warmed: set[str] = set()  # a deployment: warm until every process has run the page (by cookie)
        for _ in range(3 * getattr(server, "warmups", 1)):
            warm = Session(server.host, server.port, -1)
            await warm.open()
            for i in range(3):
                await warm.edit(i)
            await warm.close()
            warmed.add(warm.cookie)
            if len(warmed) >= getattr(server, "warmups", 1):
                break
    await settle(cpu)
    rss_base = rss()
    sessions = [Session(servers[i % len(servers)].host, servers[i % len(servers)].port, i) for i in range(n)]
    live, errors = await open_all(sessions)
    await asyncio.sleep(2.0)
    rss_idle = rss()

    samples: list[tuple[float, float]] = []
    t0 = time.perf_counter()

    async def sampler() -> None:
        for _ in range(int(seconds / sample) + 2):
            samples.append((round(time.perf_counter() - t0, 1), rss() / 2**20))
            await asyncio.sleep(sample)

    cpu0, me0 = cpu(), time.process_time()
    task = asyncio.create_task(sampler())
    await drive(live, seconds, rate)
    task.cancel()
    cpu1, me1 = cpu(), time.process_time()
    rss_end = rss()
    samples.append((round(time.perf_counter() - t0, 1), rss_end / 2**20))
    for s in live:
        await s.close()

    lat = [x for s in live for x in s.stats.latencies]
    errors += [e for s in live for e in s.stats.errors]
    reruns = max(1, len(lat))
    return Result(page=page, servers=sum(getattr(s, "warmups", 1) for s in servers),
                  proxy=any(isinstance(s, Deployment) for s in servers), sessions=n, seconds=seconds, rate=rate,
                  reruns=len(lat),
                  errors=len(errors), error_samples=errors[:5],
                  min_reruns_per_session=min((len(s.stats.latencies) for s in sessions), default=0),
                  p50_ms=percentile(lat, 50) * 1e3, p95_ms=percentile(lat, 95) * 1e3,
                  max_ms=max(lat, default=math.nan) * 1e3,
                  server_cpu_ms_per_rerun=(cpu1 - cpu0) / reruns * 1e3,
                  client_cpu_ms_per_rerun=(me1 - me0) / reruns * 1e3,
                  messages_per_rerun=sum(m for s in live for m in s.stats.messages) / reruns,
                  kb_per_rerun=sum(b for s in live for b in s.stats.payload) / reruns / 1e3,
                  rss_base_mb=rss_base / 2**20, rss_idle_mb=rss_idle / 2**20,
                  idle_mb_per_session=(rss_idle - rss_base) / max(1, n) / 2**20,
                  rss_end_mb=rss_end / 2**20, rss_samples_mb=samples,
                  sessions_per_process=sorted(Counter(s.cookie for s in live).values(), reverse=True)
                  if any(isinstance(s, Deployment) for s in servers) else [], loadavg_1min=os.getloadavg()[0])


def report(results: list[Result]) -> str:
    head = (f"{'page':<11}{'srv':>4}{'sess':>5}{'reruns':>7}{'err':>5}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
            f"{'srv CPU ms/rerun':>18}{'msgs':>6}{'kB':>6}{'idle MB/sess':>14}{'RSS idle→end MB':>18}{'load':>6}")
    lines = [head]
    for r in results:
        lines.append(f"{r.page + ('+nginx' if r.proxy else ''):<11}{r.servers:>4}{r.sessions:>5}{r.reruns:>7}"
                     f"{r.errors:>5}{r.p50_ms:>9.1f}{r.p95_ms:>9.1f}"
                     f"{r.max_ms:>9.1f}{r.server_cpu_ms_per_rerun:>18.1f}{r.messages_per_rerun:>6.0f}{r.kb_per_rerun:>6.1f}"
                     f"{r.idle_mb_per_session:>14.2f}"
                     f"{r.rss_idle_mb:>10.1f}→{r.rss_end_mb:<7.1f}{r.loadavg_1min:>6.1f}")
    by = {r.page: r for r in results}
    if "playground" in by and "bare" in by:
        pg, bare = by["playground"], by["bare"]
        lines.append(f"ratio playground/bare p50: {pg.p50_ms / bare.p50_ms:.2f}")
        lines.append(f"ratio playground/bare server CPU per rerun: "
                     f"{pg.server_cpu_ms_per_rerun / bare.server_cpu_ms_per_rerun:.2f}")
    for r in results:
        # the load client shares the machine's cores: its own CPU says whether it was the bottleneck
        lines.append(f"{r.page} load client CPU: {r.client_cpu_ms_per_rerun:.2f} ms per rerun")
        if r.sessions_per_process:
            lines.append(f"{r.page} sessions per process (pinned by the proxy's cookie): "
                         + "/".join(map(str, r.sessions_per_process)))
        if len(r.rss_samples_mb) > 2:
            lines.append(f"{r.page} RSS MB over time (s, MB): "
                         + " ".join(f"{t:g}:{mb:.1f}" for t, mb in r.rss_samples_mb))
        for e in r.error_samples:
            lines.append(f"{r.page} error: {e}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20, help="simulated browsers (default 20)")
    ap.add_argument("--seconds", type=float, default=30.0, help="edit phase length (default 30)")
    ap.add_argument("--rate", type=float, default=1.0, help="edits per second per session (default 1)")
    ap.add_argument("--servers", type=int, default=1,
                    help="server processes per page, sessions spread over them like a sticky load balancer")
    ap.add_argument("--deploy", type=int, metavar="N",
                    help="measure the class deployment: deploy/serve_class.py with N processes behind nginx "
                         "(the bare page too: a copy of the tree serving bench/bare_app.py as app.py)")
    ap.add_argument("--port", type=int, help="measure an already running `streamlit run app.py` on this port")
    ap.add_argument("--bare-port", type=int, help="an already running bench/bare_app.py on this port")
    ap.add_argument("--host", default="127.0.0.1", help="loopback address (default 127.0.0.1)")
    ap.add_argument("--pages", default="playground,bare", help="which of playground,bare to measure")
    ap.add_argument("--sample", type=float, default=10.0, help="RSS sampling interval in s (default 10)")
    ap.add_argument("--opt", action="append", default=[], metavar="SECTION.NAME=VALUE",
                    help="extra streamlit option for servers this script starts, e.g. runner.postScriptGC=true")
    ap.add_argument("--root", type=Path, default=REPO,
                    help="checkout to serve (a scratch copy of the repo to try a page change; default this one)")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)
    if not (1 <= args.servers <= 8 and 1 <= args.sessions <= 500 and 0 < args.seconds <= 3600 and 0 < args.rate <= 20):
        ap.error("servers 1..8, sessions 1..500, seconds 0..3600, rate 0..20")
    if args.deploy is not None and not 1 <= args.deploy <= 16:
        ap.error("--deploy must be 1..16 processes")
    try:
        loopback(args.host)
    except ValueError as exc:
        ap.error(str(exc))
    options = [part for opt in args.opt for part in ("--" + opt.split("=", 1)[0], opt.split("=", 1)[1])]
    apps = {"playground": ("app.py", args.port), "bare": ("bench/bare_app.py", args.bare_port)}
    results = []
    scratch = tempfile.TemporaryDirectory(prefix="load-bare-")
    for page in args.pages.split(","):
        app, port = apps[page]
        servers: list[Server] = []
        try:
            if args.deploy is not None and page == "playground":
                servers.append(Deployment(args.deploy, args.host, args.root))
            elif args.deploy is not None:  # the floor behind the same nginx: a copy whose app.py is the bare page
                servers.append(Deployment(args.deploy, args.host, bare_tree(args.root, Path(scratch.name))))
            elif port:
                servers.append(Server(None, port, options, args.host, args.root))
            else:
                for _ in range(args.servers):
                    servers.append(Server(app, free_port(), options, args.host, args.root))
            results.append(asyncio.run(measure(servers, page, args.sessions, args.seconds, args.rate,
                                               min(args.sample, max(1.0, args.seconds / 4)))))
        finally:
            for server in servers:
                server.stop()
    scratch.cleanup()
    print(f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.1f} GiB; "
          f"{args.sessions} sessions × {args.rate:g} edit/s × {args.seconds:g} s")
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 1 if any(r.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
