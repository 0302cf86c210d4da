"""Each page's first render on a warm server process, old tree against new, in one run.

Default (``--mode server``): a real ``streamlit run app.py`` per tree (loopback). The first session opens
the playground (cold: imports, fixtures, lessons; timed), then the server is left until it is idle (the
warm-up thread, toolcall/warmup.py, has finished); then, for every page in toolcall/pages_registry.py,
``--sessions`` new sessions (a new websocket each, as a new browser tab) each load the page once. Per
page: the latency of that first run (BackMsg sent -> script_finished, the median) and the server
process's CPU during it (the median): what a student opening the page on a warm server waits for,
without the browser's drawing. The server's CPU includes the websocket work; nothing of the client.

``--mode apptest`` (the earlier measure): a worker process per tree plays a server: the first session
opens the playground (cold: imports, fixtures, lessons), then waits for the warm-up thread if the tree has one
(toolcall/warmup.py); then, for every page in toolcall/pages_registry.py, ``--sessions`` new
sessions (a fresh ``AppTest`` each, same process, so shared caches and imported modules stay)
each render the page once: the time of that first run is what a student opening the page on a
warm server waits for in the script (the browser's own drawing not included). Prints wall ms
(median) and CPU ms (median, the worker's process CPU) per page and tree, and new / old.

AppTest adds its own work to the CPU figure (its component manifest scan, ≈ 0.3 s per fresh AppTest),
so that mode's numbers are upper bounds.

    python bench/pages_first_render.py --sessions 5
    python bench/pages_first_render.py --base ffb9aa4 --sessions 3 [--mode apptest]

The old tree is ``git archive``d into a temporary folder. Bounded: pages × sessions renders of at most
30 s each (server mode) or 120 s (AppTest mode).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def worker(root: Path, sessions: int) -> dict:
    """Run in a child process with cwd = root: the cold playground, then each page's warm first renders."""
    sys.path.insert(0, str(root))
    from streamlit.testing.v1 import AppTest

    from toolcall.pages_registry import PAGES

    def render(script: str) -> tuple[float, float, str]:
        at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
        at.switch_page(script)
        wall, cpu = time.perf_counter(), time.process_time()
        at.run()
        problem = "; ".join(str(e.value)[:80] for e in at.exception)
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, problem

    out: dict = {"cold_playground": render("pages/playground.py")[:2]}
    warm_at = time.perf_counter()
    for thread in threading.enumerate():
        if thread.name == "toolcall-warmup":
            thread.join(timeout=120)
    out["warm_up_wait_ms"] = (time.perf_counter() - warm_at) * 1000
    pages = {}
    for p in PAGES:
        runs = [render(p.script) for _ in range(sessions)]
        pages[p.id] = {"wall_ms": statistics.median(r[0] for r in runs),
                       "cpu_ms": statistics.median(r[1] for r in runs),
                       "problem": runs[0][2]}
    out["pages"] = pages
    return out


def server_worker(root: Path, sessions: int) -> dict:
    """Server mode for one tree: a ``streamlit run`` of ``root``, its cold playground, then each page's first
    render by ``sessions`` new sessions once the server is idle."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from load import Server, Session, free_port, settle

    sys.path.insert(0, str(root))
    pages = json.loads(subprocess.run(
        [sys.executable, "-c", "import json; from toolcall.pages_registry import PAGES; "
                               "print(json.dumps([[p.id, p.url_path] for p in PAGES]))"],
        cwd=root, capture_output=True, text=True, check=True, timeout=60).stdout)

    class PageSession(Session):
        def __init__(self, server: Server, url_path: str):
            super().__init__(server.host, server.port, 0)
            self.page = url_path

        def see(self, delta, element, which: str) -> None:
            pass

    async def first(server: Server, url_path: str) -> tuple[float, float, str]:
        session = PageSession(server, url_path)
        await session.connect()
        try:
            cpu = server.cpu()
            seconds = await session.first_run()
            return seconds * 1000, (server.cpu() - cpu) * 1000, ""
        except Exception as exc:  # counted, reported, the run goes on
            return float("nan"), float("nan"), f"{type(exc).__name__}: {exc}"[:120]
        finally:
            await session.close()

    async def run(server: Server) -> dict:
        out: dict = {"cold_playground": (await first(server, "playground"))[:2]}
        out["warm_up_wait_ms"] = await settle(server.cpu, timeout=120.0) * 1000
        out["pages"] = {}
        for page_id, url_path in pages:
            runs = [await first(server, url_path) for _ in range(sessions)]
            ok = [r for r in runs if not r[2]] or runs
            out["pages"][page_id] = {"wall_ms": statistics.median(r[0] for r in ok),
                                     "cpu_ms": statistics.median(r[1] for r in ok),
                                     "problem": next((r[2] for r in runs if r[2]), "")}
        return out

    server = Server("app.py", free_port(), [], root=root)
    try:
        return asyncio.run(run(server))
    finally:
        server.stop()


def export(rev: str, into: Path) -> Path:
    """``git archive`` the whole tree of ``rev`` into ``into``; returns it."""
    archive = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=True, timeout=60).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True, timeout=60)
    return into


def run_worker(root: Path, sessions: int, mode: str = "server") -> dict:
    if mode == "server":
        return server_worker(root, sessions)
    out = subprocess.run([sys.executable, __file__, "--worker", str(root), "--sessions", str(sessions)], cwd=root,
                         capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(f"worker for {root} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="old revision to compare with (git archive); omitted: this tree only")
    ap.add_argument("--sessions", type=int, default=3, help="new sessions per page (median; default 3)")
    ap.add_argument("--mode", choices=("server", "apptest"), default="server",
                    help="a real streamlit server over its websocket (default), or AppTest in one process")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)
    if not 1 <= args.sessions <= 20:
        ap.error("sessions 1..20")
    if args.worker:
        print(json.dumps(worker(args.worker.resolve(), args.sessions)))
        return 0
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.base:
            results["old"] = run_worker(export(args.base, Path(tmp)), args.sessions, args.mode)
        results["new"] = run_worker(REPO, args.sessions, args.mode)
    trees = list(results)
    print("cold playground (first session of a process): " + ", ".join(
        f"{k} {results[k]['cold_playground'][0]:.0f} ms wall / {results[k]['cold_playground'][1]:.0f} ms CPU"
        for k in trees))
    print(f"mode: {args.mode}; load average {__import__('os').getloadavg()[0]:.1f}")
    print("waited for the warm-up thread: " + ", ".join(f"{k} {results[k]['warm_up_wait_ms']:.0f} ms" for k in trees))
    header = " | ".join(f"{k} wall ms | {k} CPU ms" for k in trees)
    print(f"| page | {header} |" + (" new/old CPU |" if args.base else ""))
    print("|---|" + "---|" * (2 * len(trees) + (1 if args.base else 0)))
    for page in results["new"]["pages"]:
        cells = []
        for k in trees:
            row = results[k]["pages"].get(page)
            cells += [f"{row['wall_ms']:.0f}", f"{row['cpu_ms']:.0f}"] if row else ["–", "–"]
        ratio = ""
        if args.base and page in results["old"]["pages"]:
            new, old = results["new"]["pages"][page]["cpu_ms"], results["old"]["pages"][page]["cpu_ms"]
            ratio = f" {new / max(old, 1e-9):.2f} |"
        print(f"| {page} | {' | '.join(cells)} |" + ratio)
        for k in trees:
            if results[k]["pages"].get(page, {}).get("problem"):
                print(f"    {k} {page}: exception {results[k]['pages'][page]['problem']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
