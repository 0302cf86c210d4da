"""The pairing page's report is bounded by the ids' drawn length, not their typed length (issue 13, bytes per rerun).

brk16web: 12 calls and 100 results whose ids were 64 characters past U+FFFF each (a 14 640-character paste) made
the report table 2.2 MB in one websocket frame in Chromium: each id was cut at 64 characters and then escaped to
768. toolcall.text.escaped_head now cuts an id at 64 characters as drawn: 197 KB, what ASCII ids of 64 characters
already took."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_pairing_page import _element_bytes, violations
from toolcall.i18n import t
from toolcall.pairing import MAX_IDS, MAX_SHOWN


def _paste(ch: str) -> str:
    uses = [{"type": "tool_use", "id": ch * 64 + f"{i:02d}", "name": "refund_order", "input": {}} for i in range(12)]
    results = [{"type": "tool_result", "tool_use_id": ch * 64 + f"r{i:03d}", "content": "ok"} for i in range(100)]
    return json.dumps([{"role": "user", "content": "refund"}, {"role": "assistant", "content": uses},
                       {"role": "user", "content": results}], ensure_ascii=False)


@pytest.mark.parametrize("ch", ["x", "\u200b", "\U000e0041", "\u0430"], ids=["ascii", "zero-width", "tag", "cyrillic"])
def test_the_report_of_escaped_ids_is_no_larger_than_of_ascii_ones(ch):
    at = fresh_app("en", page="pages/pairing.py")
    at.text_area(key="pairing_input").input(_paste(ch)).run()
    assert not at.exception
    rows = violations(at)
    assert len(rows) == 100
    detail = rows[0][t("pairing.col_detail", "en")]
    assert detail.count("…") == MAX_IDS + 1  # the result's id and the dozen calls, each cut
    # the table's Markdown: 100 rows of at most 2 x 13 ids of MAX_SHOWN + 1 characters (Markdown escapes double a
    # backslash), was 2.2 MB for the tag letters
    assert _element_bytes(at)["Markdown"] <= 100 * (2 * (MAX_IDS + 1) * 2 * (MAX_SHOWN + 3) + 800)
