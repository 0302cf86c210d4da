"""Progress load benchmark: N learners answering an exercise through the class deployment,
progress kept in PostgreSQL, then every try counted in the database.

Each simulated learner (bench/load.py's websocket client, on the Exercises page with its own
``?learner=``) submits the "truncated reply" exercise (a radio and a form submit) once every
``--period`` seconds for ``--seconds`` seconds. Latency is answer sent -> the rerun that grades
it, saves it and shows the feedback finished (server CPU per answer: summed over the
deployment's processes, as bench/load.py's Deployment measures it). Afterwards the database must hold exactly one
try per answer that got its feedback: lost = answered − counted (> 0: a write was lost),
extra = counted − answered (> 0: a try counted twice, or one whose reply timed out).

    python bench/progress_load.py --database-url postgresql://… --sessions 100 --seconds 60 --period 3
    python bench/progress_load.py --sessions 2 --seconds 4 --processes 1      # smoke run

The database URL defaults to $TOOLCALL_DATABASE_URL, then $TOOLCALL_TEST_DATABASE_URL; the
run's learner ids (``bench-<run>-<n>``) are its own, so an existing class is not disturbed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
from load import Deployment, Session, drive, open_all, percentile  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from toolcall.progress import open_store  # noqa: E402

EXERCISE = "ex_truncated"


class AnswerSession(Session):
    """A learner on the Exercises page answering EXERCISE again and again."""

    page = "exercises"

    def __init__(self, host: str, port: int, name: int, run: str):
        super().__init__(host, port, name)
        self.learner = f"bench-{run}-{name}"
        self.query = f"learner={self.learner}"
        self.submit_id, self.options = "", [""]

    def see(self, delta, element, which: str) -> None:
        if which == "radio" and element.radio.id.endswith(f"-exercises_{EXERCISE}_answer"):
            self.widget_id, self.options = element.radio.id, list(element.radio.options) or [""]
        elif which == "button" and element.button.id.endswith(f"-exercises_{EXERCISE}_submit"):
            self.submit_id = element.button.id

    async def edit(self, i: int) -> float:
        back = self._state()
        back.rerun_script.widget_states.widgets.extend(
            [
                WidgetState(id=self.widget_id, string_value=self.options[i % len(self.options)]),  # the label shown
                WidgetState(id=self.submit_id, trigger_value=True),
            ]
        )
        return await self._run(back)

    def _state(self):
        from streamlit.proto.BackMsg_pb2 import BackMsg

        back = BackMsg()
        self._client_state(back)
        return back


async def run(url: str, processes: int, n: int, seconds: float, period: float) -> dict:
    os.environ["TOOLCALL_DATABASE_URL"] = url  # serve_class.py hands it to every process
    tag = secrets.token_hex(3)
    deployment = Deployment(processes)
    try:
        for k in range(2 * processes):  # every process runs the page (and opens its pool) once
            warm = AnswerSession(deployment.host, deployment.port, 10_000 + k, "warm" + tag)
            await warm.open()
            await warm.edit(0)
            await warm.close()
        sessions = [AnswerSession(deployment.host, deployment.port, i, tag) for i in range(n)]
        live, errors = await open_all(sessions)
        t0, cpu0 = time.perf_counter(), deployment.cpu()
        await drive(live, seconds, 1.0 / period)
        elapsed, cpu = time.perf_counter() - t0, deployment.cpu() - cpu0
        for s in live:
            await s.close()
    finally:
        deployment.stop()
    store = open_store(url)
    try:
        counted = {s.learner: len(store.attempts(s.learner)) for s in sessions}
    finally:
        store.close()
    answered = {s.learner: len(s.stats.latencies) for s in sessions}
    lat = [x for s in live for x in s.stats.latencies]
    errors += [e for s in live for e in s.stats.errors]
    return {
        "sessions": n,
        "processes": processes,
        "seconds": round(elapsed, 1),
        "period_s": period,
        "answers": sum(answered.values()),
        "answers_per_s": round(sum(answered.values()) / max(elapsed, 1e-9), 1),
        "counted_in_db": sum(counted.values()),
        "lost": sum(max(0, answered[k] - counted[k]) for k in answered),
        "extra": sum(max(0, counted[k] - answered[k]) for k in answered),
        "errors": len(errors),
        "error_samples": errors[:5],
        "p50_ms": round(percentile(lat, 50) * 1e3, 1),
        "p95_ms": round(percentile(lat, 95) * 1e3, 1),
        "max_ms": round(max(lat, default=math.nan) * 1e3, 1),
        "server_cpu_ms_per_answer": round(cpu / max(1, len(lat)) * 1e3, 1),
        "loadavg_1min": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="progress_load.py", description=__doc__.splitlines()[0])
    ap.add_argument(
        "--database-url",
        default=os.environ.get("TOOLCALL_DATABASE_URL") or os.environ.get("TOOLCALL_TEST_DATABASE_URL", ""),
        help="postgresql://… (see above)",
    )
    ap.add_argument("--sessions", type=int, default=100, help="simulated learners (default 100)")
    ap.add_argument("--seconds", type=float, default=60.0, help="answering phase (default 60)")
    ap.add_argument("--period", type=float, default=3.0, help="seconds between one learner's answers (default 3)")
    ap.add_argument("--processes", type=int, default=2, help="Streamlit processes of the deployment (default 2)")
    ap.add_argument("--json", type=Path, help="also write the result as JSON here")
    args = ap.parse_args(argv)
    if not args.database_url.startswith(("postgresql://", "postgres://")):
        ap.error("needs --database-url postgresql://… (or TOOLCALL_DATABASE_URL)")
    if not (
        1 <= args.sessions <= 1000
        and 0 < args.seconds <= 3600
        and 0.1 <= args.period <= 600
        and 1 <= args.processes <= 16
    ):
        ap.error("sessions 1..1000, seconds 0..3600, period 0.1..600, processes 1..16")
    result = asyncio.run(run(args.database_url, args.processes, args.sessions, args.seconds, args.period))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0 if result["lost"] == 0 and result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
