"""Where a cold start goes, phase by phase, in Debian's Chromium (Playwright): spawn ``streamlit run app.py``
-> server healthy -> index HTML -> front-end bundle loaded -> websocket open -> first message -> last
message before the page is usable -> usable (the definition editor filled and the open tab's card showing
its verdict: ``browser.VERDICT_JS``). Then a second student: a new browser context (empty HTTP cache) on
the now warm server, page.goto -> usable.

    python bench/cold_start.py --rounds 3                  # this tree
    python bench/cold_start.py --base main --rounds 3      # and a git archive of main, alternating

Prints one row per run and the medians per tree. Times are wall clock on whatever the machine is doing:
compare trees measured in the same run only. Server CPU is the ``streamlit run`` process's user+system
time (psutil) from spawn to usable. Browser figures come from the page itself: Navigation and Resource
Timing entries, and a wrapper around ``WebSocket`` installed before any page script (times in ms after
navigation start, sizes in bytes). Loopback only; every wait is bounded.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import ARGS, CHROMIUM, VERDICT_JS  # noqa: E402
from load import REPO, Server, free_port  # noqa: E402
from pages_first_render import export  # noqa: E402

#: Records every websocket's open time and each message's arrival time and size (ms after navigation start).
WS_PROBE = """(() => {
  const Native = window.WebSocket;
  window.__ws = [];
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const rec = {created: performance.now(), open: null, msgs: []};
    window.__ws.push(rec);
    ws.addEventListener('open', () => { rec.open = performance.now(); });
    ws.addEventListener('message', (e) => {
      const d = e.data;
      rec.msgs.push([performance.now(), d.byteLength !== undefined ? d.byteLength : (d.size || d.length || 0)]);
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""

#: Called once the page is usable: the page's own timing figures.
COLLECT_JS = """(usableAt) => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter(r => !r.name.includes('/_stcore/'));
  const ws = window.__ws.find(w => w.open !== null) || {created: null, open: null, msgs: []};
  const before = ws.msgs.filter(m => m[0] <= usableAt);
  const firstMsg = before.length ? before[0][0] : null;
  const late = res.filter(r => firstMsg !== null && r.startTime >= firstMsg);
  const sum = (xs, k) => xs.reduce((a, r) => a + (r[k] || 0), 0);
  return {
    html_end: nav.responseEnd, dom_content_loaded: nav.domContentLoadedEventEnd, load_end: nav.loadEventEnd,
    resources: res.length, res_transfer: sum(res, 'transferSize'), res_encoded: sum(res, 'encodedBodySize'),
    res_decoded: sum(res, 'decodedBodySize'),
    res_end_before_ws: Math.max(0, ...res.filter(r => ws.created === null || r.startTime < ws.created)
                                      .map(r => r.responseEnd)),
    late_resources: late.length, late_decoded: sum(late, 'decodedBodySize'),
    late_end: Math.max(0, ...late.map(r => r.responseEnd)),
    ws_created: ws.created, ws_open: ws.open, first_msg: firstMsg,
    last_msg: before.length ? before[before.length - 1][0] : null,
    msgs: before.length, msg_bytes: before.reduce((a, m) => a + m[1], 0), usable: usableAt,
  };
}"""

USABLE_AT_JS = f"() => ({VERDICT_JS})() ? performance.now() : 0"


def visit(browser, port: int) -> dict:
    """A new browser context (empty cache) opens /playground; its timing figures once usable."""
    context = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(WS_PROBE)
        t0 = time.perf_counter()
        page.goto(f"http://127.0.0.1:{port}/playground", timeout=60_000)
        usable_at = page.wait_for_function(USABLE_AT_JS, polling="raf", timeout=60_000).json_value()
        wall = time.perf_counter() - t0
        figures = page.evaluate(COLLECT_JS, usable_at)
        figures["goto_to_usable_s"] = wall
        return figures
    finally:
        context.close()


def measure(root: Path) -> dict:
    """One cold start of ``root`` and one second visit; seconds, ms after navigation start, bytes, CPU s."""
    port = free_port()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            spawned = time.perf_counter()
            server = Server("app.py", port, [], root=root)
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
    return {"healthy_s": healthy, "cold_start_s": healthy + first["goto_to_usable_s"],
            "server_cpu_first_s": cpu_first, "first": first, "second": second}


PHASES = [  # (label, from, to) in the page's ms after navigation start
    ("HTML", None, "html_end"), ("bundle+DOM", "html_end", "dom_content_loaded"),
    ("to ws open", "dom_content_loaded", "ws_open"), ("ws open->1st msg", "ws_open", "first_msg"),
    ("1st->last msg", "first_msg", "last_msg"), ("last msg->usable", "last_msg", "usable"),
]


def row(tree: str, r: dict) -> str:
    f, s = r["first"], r["second"]
    cells = [tree, f"{r['healthy_s']:.2f}", f"{f['goto_to_usable_s']:.2f}", f"{r['cold_start_s']:.2f}"]
    for _, a, b in PHASES:
        cells.append("–" if f.get(b) is None or (a and f.get(a) is None) else f"{f[b] - (f[a] if a else 0):.0f}")
    cells += [f"{f['resources']} / {f['res_decoded'] / 1e6:.1f} MB", f"{f['late_resources']}",
              f"{f['msgs']} / {f['msg_bytes'] / 1e3:.0f} kB", f"{r['server_cpu_first_s']:.2f}",
              f"{s['goto_to_usable_s']:.2f}", f"{s['msgs']} / {s['msg_bytes'] / 1e3:.0f} kB"]
    return "| " + " | ".join(cells) + " |"


HEADER = ("| tree | healthy s | goto→usable s | **cold start s** | " + " | ".join(p[0] + " ms" for p in PHASES)
          + " | resources / decoded | lazy chunks | ws msgs / bytes | server CPU s | 2nd session s | 2nd msgs |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="also measure a git archive of this revision, alternating with this tree")
    ap.add_argument("--root", type=Path, default=REPO, help="the tree to measure (default this checkout)")
    ap.add_argument("--rounds", type=int, default=3, help="cold starts per tree (default 3)")
    ap.add_argument("--json", type=Path, help="also write every run as JSON here")
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 20:
        ap.error("rounds 1..20")
    runs: dict[str, list[dict]] = {"new": []}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        trees = {"new": args.root}
        if args.base:
            trees["old"] = export(args.base, Path(tmp))
            runs["old"] = []
        print(HEADER)
        print("|---" * (HEADER.count("|") - 1) + "|")
        for i in range(args.rounds):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for name in order:
                r = measure(trees[name])
                runs[name].append(r)
                print(row(name if name == "new" else f"old {args.base}", r), flush=True)
    for name, rs in runs.items():
        med = statistics.median
        print(f"{name}: cold start median {med(r['cold_start_s'] for r in rs):.2f} s "
              f"(healthy {med(r['healthy_s'] for r in rs):.2f} s + goto→usable "
              f"{med(r['first']['goto_to_usable_s'] for r in rs):.2f} s), server CPU to usable "
              f"{med(r['server_cpu_first_s'] for r in rs):.2f} s; second session goto→usable "
              f"{med(r['second']['goto_to_usable_s'] for r in rs):.2f} s")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
