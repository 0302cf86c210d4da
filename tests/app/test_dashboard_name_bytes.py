"""Display names on the dashboard are bounded as drawn, escapes included (issue 13: bytes sent per rerun).

brk16web: a name was cut at 100 characters and then had its invisible characters escaped, so a name of 100 tag
characters (U+E0041, drawn as 12 characters each) was 1 200 characters in the learners table and again in each option
of the drill-down: with 500 listed learners the dashboard sent 1 318 402 bytes of elements per rerun (AppTest), 718 403
with zero-width spaces, where 100 plain letters make 218 404. A name is now at most
toolcall.dashboard.MAX_NAME_CHARS characters as drawn (toolcall.text.escaped_head), then "…"."""

import pytest

import toolcall.dashboard
from tests.app.conftest import fresh_app
from tests.app.test_dashboard_many_learners import crowded_class  # noqa: F401  (the fixture: 501 learners)
from tests.app.test_pairing_page import _element_bytes
from toolcall.dashboard import MAX_NAME_CHARS, parse_name_map

FLOOD = [f"flood{i:059d}" for i in range(toolcall.dashboard.MAX_LISTED_LEARNERS)]


def _names(ch: str, width: int = 100) -> dict[str, str]:
    return parse_name_map(("learner,name\n" + "\n".join(f"{w},{ch * width}" for w in FLOOD)).encode())


def test_a_name_is_cut_as_drawn_exact_values():
    one = lambda name: parse_name_map(f"learner,name\nalice-fox-0123456789,{name}\n".encode())["alice-fox-0123456789"]
    assert one("Ada  Liu") == "Ada Liu"
    assert one("Bo\u202eb\u200b") == "Bo\\u202eb\\u200b"  # short: every escape shown
    assert one("A" * 100) == "A" * 100
    assert one("A" * 101) == "A" * 100 + "…"
    assert one("\u200b" * 100) == "\\u200b" * 16 + "…"  # was 600 characters
    assert one("\U000e0041" * 100) == "\\udb40\\udc41" * 8 + "…"  # was 1 200
    assert one("李" * 120) == "李" * 100 + "…"  # Chinese is drawn as itself


@pytest.mark.usefixtures("crowded_class")
@pytest.mark.parametrize("ch", ["\u200b", "\U000e0041", "\u202e"], ids=["zero-width", "tag", "bidi"])
def test_hidden_names_cost_the_dashboard_no_more_than_plain_ones(ch):
    sizes = {}
    for fill in ("A", ch):
        at = fresh_app("en", state={"dashboard_instructor": True, "dashboard_names": _names(fill)},
                       page="pages/dashboard.py")
        assert not at.exception
        sizes[fill] = sum(_element_bytes(at).values())
        names = set(at.dataframe[1].value.iloc[:, 1])
        assert len(names) == 1 and all(len(n) <= MAX_NAME_CHARS + 1 for n in names)
    assert sizes[ch] <= sizes["A"] + 2_000, sizes  # was 718 403 (zero-width) and 1 318 402 (tag) against 218 404
