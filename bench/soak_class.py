"""Soak the class deployment while one Streamlit process is killed every minute.

Starts ``deploy/serve_class.py`` (``--processes`` behind nginx, through ``load.py``'s
Deployment), opens ``--sessions`` simulated browsers on the playground (each pinned by nginx's
cookie, as a browser is), drives one edit per second per session for ``--seconds`` and sends
SIGKILL to the same Streamlit process (the lowest backend port) every ``--kill-every`` seconds.
The launcher restarts it; its sessions see their websocket close and reconnect (a browser
does the same), landing on a live process. Reported separately:

* sessions pinned to the processes never killed: reruns, errors, p50/p95/max (the claim:
  no error, p95 ≤ 300 ms);
* sessions that were on the killed process: errors (one per kill is expected: the lost
  websocket) and reconnects;
* the launcher's restart log lines.

    python bench/soak_class.py --processes 4 --sessions 50 --seconds 240 --kill-every 60

Loopback only; every loop bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Deployment, Session, percentile  # noqa: E402

#: Reconnect attempts after a session's process died (1 s apart), as a browser retries.
RECONNECTS = 30


def victim_pid(deployment: Deployment) -> tuple[int, int]:
    """(pid, port) of the Streamlit process on the lowest backend port."""
    found = []
    for child in deployment.ps.children():
        match = re.search(r"--server\.port (\d+)", " ".join(child.cmdline()))
        if match:
            found.append((int(match.group(1)), child.pid))
    port, pid = min(found)
    return pid, port


async def run(processes: int, n: int, seconds: float, kill_every: float) -> int:
    deployment = Deployment(processes)
    try:
        _, victim_port = victim_pid(deployment)
        victim = f"127.0.0.1:{victim_port}"
        sessions = [Session(deployment.host, deployment.port, i) for i in range(n)]
        for s in sessions:
            await s.open()
        pinned = {s.name: s.cookie.split("=", 1)[-1] for s in sessions}
        touched = {s.name for s in sessions if pinned[s.name] == victim}  # sessions the kills reach
        reconnects = 0
        start = time.perf_counter()
        deadline = start + seconds
        kills: list[float] = []

        async def killer() -> None:
            for k in range(1, int(seconds / kill_every) + 1):
                await asyncio.sleep(max(0.0, start + k * kill_every - time.perf_counter()))
                if time.perf_counter() >= deadline:
                    return
                try:
                    os.kill(victim_pid(deployment)[0], signal.SIGKILL)
                    kills.append(round(time.perf_counter() - start, 1))
                except (ValueError, ProcessLookupError, psutil.Error):
                    pass  # it is still restarting from the previous kill

        async def one(s: Session) -> None:
            nonlocal reconnects
            next_at = start + (s.name % 10) / 10
            for i in range(int(seconds) + 1):
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                if time.perf_counter() >= deadline:
                    return
                try:
                    s.stats.latencies.append(await s.edit(i))
                except Exception as exc:
                    s.stats.errors.append(f"{round(time.perf_counter() - start, 1)} s: {type(exc).__name__}: {exc}")
                    if s.ws is None or s.ws.close_code is not None:
                        touched.add(s.name)
                        for _ in range(RECONNECTS):  # the browser reconnects; nginx pins it to a live process
                            await asyncio.sleep(1.0)
                            try:
                                s.cached = set()  # a new process has none of the old one's messages
                                await s.open()
                                reconnects += 1
                                break
                            except Exception:
                                if time.perf_counter() >= deadline:
                                    return
                next_at += 1.0

        await asyncio.gather(killer(), *(one(s) for s in sessions))
        for s in sessions:
            await s.close()
    finally:
        deployment.stop()
    deployment.log.seek(0)
    log = [line for line in deployment.log.read().decode(errors="replace").splitlines() if line.startswith("[")]

    others = [s for s in sessions if s.name not in touched]
    lat = [x for s in others for x in s.stats.latencies]
    errs = [e for s in others for e in s.stats.errors]
    hit = [s for s in sessions if s.name in touched]
    print(f"{processes} processes, {n} sessions, {seconds:g} s, one process killed every {kill_every:g} s "
          f"(at {', '.join(f'{k:g}' for k in kills)} s); load average {os.getloadavg()[0]:.1f}")
    print(f"sessions never on the killed process: {len(others)}, reruns {len(lat)}, errors {len(errs)}, "
          f"p50 {percentile(lat, 50) * 1e3:.0f} ms, p95 {percentile(lat, 95) * 1e3:.0f} ms, "
          f"max {max(lat, default=float('nan')) * 1e3:.0f} ms")
    hit_lat = [x for s in hit for x in s.stats.latencies]
    print(f"sessions on the killed process: {len(hit)}, reruns {len(hit_lat)}, "
          f"errors {sum(len(s.stats.errors) for s in hit)}, reconnects {reconnects}, "
          f"p95 {percentile(hit_lat, 95) * 1e3:.0f} ms")
    for line in log:
        print("launcher:", line)
    for e in errs[:5]:
        print("error (never-killed side):", e)
    return 0 if not errs else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=240.0)
    ap.add_argument("--kill-every", type=float, default=60.0)
    args = ap.parse_args(argv)
    if not (2 <= args.processes <= 16 and 1 <= args.sessions <= 500 and 0 < args.seconds <= 3600
            and 1 <= args.kill_every):
        ap.error("--processes 2..16, --sessions 1..500, --seconds up to 3600, --kill-every ≥ 1")
    return asyncio.run(run(args.processes, args.sessions, args.seconds, args.kill_every))


if __name__ == "__main__":
    sys.exit(main())
