"""Browser-side figures for the playground, measured in Debian's Chromium with Playwright.

1. Cold start: ``streamlit run app.py`` spawned -> first usable playground page (the schema
   editor and the extra_field card drawn, websocket CONNECTED); also page.goto -> usable.
2. Edit -> verdict: a schema edit committed in the textarea (Ctrl+Enter) -> the extra_field
   card shows (or stops showing) "LEAKED", p50 / p95 / max over ``--edits`` edits.

    python bench/browser.py --edits 20

Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
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
CARD = ".st-key-playground_card_extra_field"
USABLE = f'[data-testid="stApp"][data-test-connection-state="CONNECTED"] {CARD}'
REFERENCE_LINE = '"additionalProperties": false'
#: True when the extra_field card says LEAKED (checked in the page, polled every frame).
LEAKED_JS = f"(want) => (document.querySelector('{CARD}')?.innerText || '').includes('LEAKED') === want"


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
            page.wait_for_selector(USABLE, timeout=60_000)
            usable = time.perf_counter()
            editor = page.locator(EDITOR)
            # the textarea is drawn first and filled a moment later
            page.wait_for_function(f"() => document.querySelector('{EDITOR}')?.value.length > 0", timeout=30_000)
            reference = editor.input_value()
            leaky = reference.replace(REFERENCE_LINE, '"x-bench": 0')
            assert leaky != reference, "reference schema has no additionalProperties line"
            latencies = []
            for i in range(args.edits):
                want_leak = i % 2 == 0
                editor.fill((leaky if want_leak else reference) + "\n" * (1 + i % 5))
                t0 = time.perf_counter()
                editor.press("Control+Enter")
                page.wait_for_function(LEAKED_JS, arg=want_leak, polling="raf", timeout=30_000)
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
