"""The playground shows the order book as written (break-it pass brk16content): its table escaped every cell, but
the caption above it put ``current_customer`` into Markdown as it was, so ``CUST-**1001**`` (which check accepts:
the backend compares the id as written) showed as a bold CUST-1001."""

import json
import os
import shutil
import subprocess
import sys

from toolcall import CONTENT_ROOT, REPO_ROOT


def test_the_signed_in_customer_and_the_items_show_as_written(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(CONTENT_ROOT / part, tmp_path / part)
    book = tmp_path / "fixtures" / "orders" / "orders.yaml"
    text = book.read_text("utf-8").replace("CUST-1001", "CUST-**1001**").replace(
        'en: "Notebook"', 'en: "Note*book* $5 and $6 <b>x</b>"')
    book.write_text(text, "utf-8")
    check = subprocess.run([sys.executable, "-m", "toolcall", "check", str(tmp_path)], capture_output=True, text=True,
                           cwd=REPO_ROOT, timeout=600)
    assert "fixtures/orders" not in check.stdout, check.stdout  # a book check accepts
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "en", "pages/playground.py"],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-3000:]
    shown = json.loads(run.stdout.strip().splitlines()[-1])["pages/playground.py"]
    assert shown["exception"] == []
    assert "The fake order book (amounts in cents; the signed-in customer is CUST\\-\\*\\*1001\\*\\*):" \
        in shown["caption"], shown["caption"]
    table = next(m for m in shown["markdown"] if m.startswith("| order\\_id |"))
    assert "| ORD\\-20260705 | CUST\\-\\*\\*1001\\*\\* | 1500 | delivered | Note\\*book\\* \\$5 and \\$6 \\<b\\>x\\</b\\> |" \
        in table, table
