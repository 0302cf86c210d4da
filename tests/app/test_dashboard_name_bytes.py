"""Display names on the dashboard are bounded as drawn, escapes included (issue 13: bytes sent per rerun).

brk16web: a name was cut at 100 characters and then had its invisible characters escaped, so a name of 100 tag
characters (U+E0041, drawn as 12 characters each) was 1 200 characters in the learners table and again in each option
of the drill-down: with 500 listed learners the dashboard sent 1 318 402 bytes of elements per rerun (AppTest), 718 403
with zero-width spaces, where 100 plain letters make 218 404. A name is now at most
toolcall.dashboard.MAX_NAME_CHARS characters as drawn (toolcall.text.escaped_head), then "…".

The drill-down's answer cells were cut the same way (500 characters, then escaped): a learner's 200 listed tries of
tag characters sent 1 237 606 bytes per rerun against 133 271 for plain letters; an answer cell is now at most
DETAIL_ANSWER_CHARS characters as drawn: 132 869."""

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


def test_an_answer_cell_is_cut_as_drawn_exact_values():
    from toolcall.dashboard import DETAIL_ANSWER_CHARS, shown_answer

    assert shown_answer("y" * 501, DETAIL_ANSWER_CHARS) == "y" * 500 + "…"  # as before
    assert shown_answer("x\u0430", DETAIL_ANSWER_CHARS) == "x\\u0430"
    assert shown_answer("\u200b" * 501, DETAIL_ANSWER_CHARS) == "\\u200b" * 83 + "…"  # was 3 006 characters
    assert shown_answer("\U000e0041" * 500, DETAIL_ANSWER_CHARS) == "\\udb40\\udc41" * 41 + "…"  # was 6 000


@pytest.fixture
def hidden_tries(tmp_path, monkeypatch):
    """One learner per fill: 200 tries (100 stored per exercise, two exercises) of 500 characters of it."""
    from toolcall.progress import MAX_STORED_ATTEMPTS, ProgressStore

    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    for name in ("TOOLCALL_DATABASE_URL", "TOOLCALL_INSTRUCTOR_EMAILS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLCALL_INSTRUCTOR_PASSPHRASE", "correct horse battery staple")
    store = ProgressStore(tmp_path)
    for learner, ch in (("plain-fox-0000000001", "A"), ("tag-fox-0000000002", "\U000e0041")):
        for exercise in ("pg_error_result", "pg_fix_schema"):
            for i in range(MAX_STORED_ATTEMPTS):
                store.record(learner, exercise, f"{i:03d}" + ch * 497, 0, 1)
    store.close()


@pytest.mark.usefixtures("hidden_tries")
def test_the_drill_down_of_hidden_answers_costs_no_more_than_plain_ones():
    sizes = {}
    for learner in ("plain-fox-0000000001", "tag-fox-0000000002"):
        at = fresh_app("en", state={"dashboard_instructor": True}, page="pages/dashboard.py")
        at.selectbox(key="dashboard_learner").select(learner).run()
        assert not at.exception
        sizes[learner] = sum(_element_bytes(at).values())
    assert sizes["tag-fox-0000000002"] <= sizes["plain-fox-0000000001"] + 5_000, sizes
