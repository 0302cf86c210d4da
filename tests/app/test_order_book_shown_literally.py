"""The playground shows the order book as written (break-it pass brk16content): its table escaped every cell, but
the caption above it put ``current_customer`` into Markdown as it was, so ``CUST-**1001**`` (which check accepts:
the backend compares the id as written) showed as a bold CUST-1001."""

import subprocess
import sys

from tests.content_copy import copy_content, shown_on_page
from toolcall import REPO_ROOT


def test_the_signed_in_customer_and_the_items_show_as_written(tmp_path):
    copy_content(tmp_path)
    book = tmp_path / "fixtures" / "orders" / "orders.yaml"
    text = book.read_text("utf-8").replace("CUST-1001", "CUST-**1001**").replace(
        'en: "Notebook"', 'en: "Note*book* $5 and $6 <b>x</b>"')
    book.write_text(text, "utf-8")
    check = subprocess.run([sys.executable, "-m", "toolcall", "check", str(tmp_path)], capture_output=True, text=True,
                           cwd=REPO_ROOT, timeout=600)
    assert "fixtures/orders" not in check.stdout, check.stdout  # a book check accepts
    shown = shown_on_page(tmp_path, "en", "pages/playground.py")
    assert shown["exception"] == []
    assert "The fake order book (amounts in cents; the signed-in customer is CUST\\-\\*\\*1001\\*\\*):" \
        in shown["caption"], shown["caption"]
    table = next(m for m in shown["markdown"] if m.startswith("| order\\_id |"))
    assert "| ORD\\-20260705 | CUST\\-\\*\\*1001\\*\\* | 1500 | delivered | Note\\*book\\* \\$5 and \\$6 \\<b\\>x\\</b\\> |" \
        in table, table
