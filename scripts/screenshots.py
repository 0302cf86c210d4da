"""Take full-page screenshots of every page in both languages into docs/ (for the README).

Usage: .venv/bin/python scripts/screenshots.py [page-url-path ...]   (default: all pages)
Needs Debian's chromium and fonts-noto-cjk (bash .ci/run installs both).
"""

import argparse
import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, REPO, start_server  # noqa: E402
from toolcall.pages_registry import BY_ID, PAGES  # noqa: E402

LABELS = {"en": "English", "zh": "中文"}


def main(paths: list[str]) -> None:
    paths = paths or [p.id for p in PAGES]
    proc, url = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for lang in ("en", "zh"):
                page = browser.new_page(viewport={"width": 1400, "height": int(os.environ.get("SHOT_HEIGHT", "1000"))},
                                        locale="zh-CN" if lang == "zh" else "en-US")
                for path in paths:
                    page.goto(f"{url}/{BY_ID[path].url_path}")  # the default page lives at /
                    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]')
                    page.wait_for_load_state("networkidle")
                    page.wait_for_timeout(6000)
                    out = REPO / "docs" / f"{path}-{lang}.png"
                    page.screenshot(path=str(out), full_page=True)
                    print(out)
                page.close()
            browser.close()
    finally:
        proc.terminate()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="Full-page screenshots of the app's pages in English and Chinese into "
                                             "docs/<page>-<lang>.png (SHOT_HEIGHT sets the window height).")
    ap.add_argument("pages", nargs="*", metavar="page",
                    help="page ids (default: every page): " + ", ".join(p.id for p in PAGES))
    wanted = ap.parse_args().pages
    unknown = [p for p in wanted if p not in BY_ID]
    if unknown:
        ap.error(f"no page {', '.join(unknown)}; the pages are: {', '.join(p.id for p in PAGES)}")
    main(wanted)
