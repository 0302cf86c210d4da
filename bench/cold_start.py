"""Where a cold start goes, phase by phase, in Debian's Chromium (Playwright): spawn ``streamlit run app.py``
-> server healthy -> page.goto -> index HTML -> the front end loaded, connected and asking for the page (its
first rerun request on the websocket) -> the server's script run(s) done (the last ``script_finished``) ->
usable (the definition editor filled and the open tab's card showing its verdict: ``browser.VERDICT_JS``).
Then a second student: a new browser context (empty HTTP cache) on the now warm server.

    python bench/cold_start.py --rounds 3                       # this tree
    python bench/cold_start.py --base main --rounds 3           # and a git archive of main, alternating
    python bench/cold_start.py --app bench/minimal_app.py       # Streamlit's own floor on this machine

Prints one row per run and the medians per tree. Times are wall clock on whatever the machine is doing:
compare trees measured in the same run only. Websocket frames are timed as Playwright reports them (not
delayed by the page's main thread); "runs" counts ``new_session`` messages (2 = the page ran twice); server
CPU is the ``streamlit run`` process's user+system time (psutil) during the first visit; "renderer busy" is
Chromium's TaskDuration for the tab (its main thread: parsing, script, style, layout), from the Chrome
DevTools Protocol's Performance domain. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import ARGS, CHROMIUM, VERDICT_JS  # noqa: E402
from load import REPO, Server, free_port  # noqa: E402
from pages_first_render import export  # noqa: E402

#: The page's own timing figures once it is usable (ms after navigation start, bytes).
COLLECT_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter(r => !r.name.includes('/_stcore/'));
  const sum = (xs, k) => xs.reduce((a, r) => a + (r[k] || 0), 0);
  return {html_end: nav.responseEnd, dom_content_loaded: nav.domContentLoadedEventEnd, resources: res.length,
          res_transfer: sum(res, 'transferSize'), res_decoded: sum(res, 'decodedBodySize'),
          lazy: res.filter(r => r.startTime > nav.domContentLoadedEventEnd).length};
}"""


def visit(browser, port: int, app_path: str = "playground") -> dict:
    """A new browser context (empty HTTP cache) opens /``app_path``; seconds after page.goto of: the first
    rerun request on the websocket (the front end loaded and connected), the last script_finished before the
    page is usable (the server's script runs), usable; the runs, messages and bytes up to then; the renderer's
    busy time (Chrome DevTools Performance metrics) and the page's Navigation / Resource Timing figures."""
    context = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        frames: list[tuple[float, str, bytes]] = []
        t0 = time.perf_counter()

        def on_ws(ws) -> None:
            ws.on("framesent", lambda p: frames.append((time.perf_counter() - t0, "sent", p)))
            ws.on("framereceived", lambda p: frames.append((time.perf_counter() - t0, "received", p)))

        page.on("websocket", on_ws)
        page.goto(f"http://127.0.0.1:{port}/{app_path}", timeout=60_000)
        page.wait_for_function(VERDICT_JS, polling="raf", timeout=60_000)
        usable = time.perf_counter() - t0
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        figures = page.evaluate(COLLECT_JS)
    finally:
        context.close()
    requested = finished = None
    runs = msgs = size = 0
    for at, way, payload in frames:
        if at > usable:
            break
        if way == "sent":
            requested = at if requested is None else requested
            continue
        msg = ForwardMsg()
        msg.ParseFromString(payload)
        msgs, size = msgs + 1, size + len(payload)
        kind = msg.WhichOneof("type")
        runs += kind == "new_session"
        if kind == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            finished = at
    return {**figures, "requested_s": requested, "finished_s": finished, "usable_s": usable, "runs": runs,
            "msgs": msgs, "msg_bytes": size, "renderer_busy_s": metrics.get("TaskDuration"),
            "renderer_script_s": metrics.get("ScriptDuration")}


def measure(root: Path, app: str = "app.py") -> dict:
    """One cold start of ``app`` in ``root`` and one second visit (:func:`visit`); plus seconds from spawn to
    healthy and the server's CPU seconds during the first visit."""
    port = free_port()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            spawned = time.perf_counter()
            server = Server(app, port, [], root=root)
            try:
                healthy = time.perf_counter() - spawned
                cpu0 = server.cpu()
                first = visit(browser, port)
                cpu_first = server.cpu() - cpu0
                second = visit(browser, port)
            finally:
                server.stop()
        finally:
            browser.close()
    return {"healthy_s": healthy, "cold_start_s": healthy + first["usable_s"], "server_cpu_first_s": cpu_first,
            "first": first, "second": second}


def _span(f: dict, a: str | None, b: str) -> str:
    if f.get(b) is None or (a and f.get(a) is None):
        return "–"
    return f"{f[b] - (f[a] if a else 0):.2f}"


def row(tree: str, r: dict) -> str:
    f, s = r["first"], r["second"]
    cells = [tree, f"{r['healthy_s']:.2f}", f"{f['html_end'] / 1e3:.2f}", _span(f, None, "requested_s"),
             _span(f, "requested_s", "finished_s"), _span(f, "finished_s", "usable_s"), f"{f['usable_s']:.2f}",
             f"**{r['cold_start_s']:.2f}**", f"{f['runs']}", f"{f['msgs']} / {f['msg_bytes'] / 1e3:.0f} kB",
             f"{f['resources']} ({f['lazy']} lazy) / {f['res_decoded'] / 1e6:.1f} MB",
             f"{r['server_cpu_first_s']:.2f}", f"{f['renderer_busy_s']:.2f} ({f['renderer_script_s']:.2f} JS)",
             _span(s, "requested_s", "finished_s"), f"{s['usable_s']:.2f}"]
    return "| " + " | ".join(cells) + " |"


HEADER = ("| tree | spawn→healthy s | goto→HTML s | goto→rerun sent s | script run(s) s | finished→usable s "
          "| goto→usable s | **cold start s** | runs | msgs / bytes | resources / decoded | server CPU s "
          "| renderer busy s | 2nd session: script run s | 2nd session: goto→usable s |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="also measure a git archive of this revision, alternating with this tree")
    ap.add_argument("--root", type=Path, default=REPO, help="the tree to measure (default this checkout)")
    ap.add_argument("--app", action="append", help="script to serve, relative to the tree (default app.py; "
                    "repeat to measure several in turn, e.g. --app app.py --app bench/minimal_app.py)")
    ap.add_argument("--rounds", type=int, default=3, help="cold starts per tree and script (default 3)")
    ap.add_argument("--json", type=Path, help="also write every run as JSON here")
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 20:
        ap.error("rounds 1..20")
    apps = args.app or ["app.py"]
    runs: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        trees = {"new": args.root, **({f"old {args.base}": export(args.base, Path(tmp))} if args.base else {})}
        variants = [(tree, app) for tree in trees for app in apps]
        print(HEADER)
        print("|---" * (HEADER.count("|") - 1) + "|")
        for i in range(args.rounds):
            for tree, app in variants if i % 2 == 0 else reversed(variants):
                name = tree if app == "app.py" else f"{tree}, {app}"
                r = measure(trees[tree], app)
                runs.setdefault(name, []).append(r)
                print(row(name, r), flush=True)
    med = statistics.median
    for name, rs in runs.items():
        print(f"{name}: medians over {len(rs)}: cold start {med(r['cold_start_s'] for r in rs):.2f} s = healthy "
              f"{med(r['healthy_s'] for r in rs):.2f} s + goto→usable {med(r['first']['usable_s'] for r in rs):.2f} s;"
              f" script run(s) {med(r['first']['finished_s'] - r['first']['requested_s'] for r in rs):.2f} s, "
              f"finished→usable {med(r['first']['usable_s'] - r['first']['finished_s'] for r in rs):.2f} s, "
              f"server CPU {med(r['server_cpu_first_s'] for r in rs):.2f} s, renderer busy "
              f"{med(r['first']['renderer_busy_s'] for r in rs):.2f} s; second session goto→usable "
              f"{med(r['second']['usable_s'] for r in rs):.2f} s")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
