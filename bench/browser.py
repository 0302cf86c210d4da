"""Browser-side figures for the playground, measured in Debian's Chromium with Playwright.

1. Cold start: ``streamlit run app.py`` spawned -> first usable playground page, i.e. what a
   student can use: websocket CONNECTED, the definition editor (``schema_editor``) filled, and
   the output card showing its schema verdict (the picked output's, the first one at first);
   also page.goto -> usable.
2. Edit -> verdict: a schema edit committed in the textarea (Ctrl+Enter) -> the visible card's
   verdict flips (the edit raises ``minimum`` of ``amount_cents`` above the valid call's amount,
   so the "Valid call" card goes accepted -> rejected, and back), p50 / p95 / max over ``--edits``.

    python bench/browser.py --edits 20

The playground draws one card at a time, the output picked beside the editor
(ui/playground_pick.py); the waits below still look at visible cards only, as a student would
(a card hidden in a collapsed or closed part of the page is not usable). Loopback only; every
wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import REPO, Server, free_port, percentile  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
EDITOR = ".st-key-schema_editor textarea"
#: The schema line an edit rewrites, and into what: 1999 (the valid call's amount) is then below the minimum.
REFERENCE_LINE = re.compile(r'"minimum":\s*1\b')
EDITED_LINE = '"minimum": 100000'
#: The visible card's verdict ("accepted" / "rejected", English page), or "" while the page is not usable:
#: connected, the editor filled, and a visible card showing "Schema verdict: …".
VERDICT_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]');
  const editor = document.querySelector('EDITOR');
  if (!app || !editor || !editor.value || editor.offsetParent === null) return '';
  for (const card of document.querySelectorAll('[class*="st-key-playground_card_"]')) {
    if (card.offsetParent === null || card.getClientRects().length === 0) continue;  // not visible
    const m = /Schema verdict:\\s*(accepted|rejected)/.exec(card.innerText || '');
    if (m) return m[1];
  }
  return '';
}""".replace("EDITOR", EDITOR)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=20, help="schema edits to time (default 20)")
    ap.add_argument("--root", type=Path, default=REPO, help="checkout to serve (default this one)")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)
    if not 1 <= args.edits <= 200:
        ap.error("edits 1..200")
    port = free_port()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(locale="en-US", viewport={"width": 1400, "height": 1000})
        spawned = time.perf_counter()
        server = Server("app.py", port, [], root=args.root)
        try:
            healthy = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/playground", timeout=60_000)
            page.wait_for_function(VERDICT_JS, polling="raf", timeout=60_000)
            usable = time.perf_counter()
            first = page.evaluate(VERDICT_JS)
            editor = page.locator(EDITOR)
            reference = editor.input_value()
            edited = REFERENCE_LINE.sub(EDITED_LINE, reference, count=1)
            assert edited != reference, "reference schema has no \"minimum\": 1 line"
            assert first == "accepted", f"the picked card should accept the reference call, it says {first!r}"
            latencies = []
            for i in range(args.edits):
                want = "rejected" if i % 2 == 0 else "accepted"
                editor.fill((edited if want == "rejected" else reference) + "\n" * (1 + i % 5))
                t0 = time.perf_counter()
                editor.press("Control+Enter")
                page.wait_for_function(f"(want) => ({VERDICT_JS})() === want", arg=want, polling="raf",
                                       timeout=30_000)
                latencies.append(time.perf_counter() - t0)
        finally:
            browser.close()
            server.stop()
    result = {"cold_start_s": usable - spawned, "server_ready_s": healthy - spawned,
              "goto_to_usable_s": usable - healthy, "edits": len(latencies),
              "edit_p50_ms": percentile(latencies, 50) * 1e3, "edit_p95_ms": percentile(latencies, 95) * 1e3,
              "edit_max_ms": max(latencies) * 1e3}
    print(f"cold start (spawn -> usable page): {result['cold_start_s']:.2f} s "
          f"(server healthy {result['server_ready_s']:.2f} s, then page {result['goto_to_usable_s']:.2f} s)")
    print(f"edit -> verdict visible over {len(latencies)} edits: p50 {result['edit_p50_ms']:.0f} ms, "
          f"p95 {result['edit_p95_ms']:.0f} ms, max {result['edit_max_ms']:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
