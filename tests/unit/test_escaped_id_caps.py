"""An id quoted in a report is bounded as drawn, escapes included (issue 13: bytes per rerun; a dozen ids per message).

brk16web: ``pairing.shown_id`` cut an id at 64 characters and then escaped it, so an id of 64 zero-width spaces was
drawn as 384 characters and one of 64 characters past U+FFFF (tag letters) as 768. A report lists a dozen ids per
message, in the detail and again in the advice, on each of its rows: 12 calls and 100 results with such ids, a
14 640-character paste (36 KB), made 1.94 M characters of details (19 378 a row) and a 2.2 MB websocket frame on the
pairing page in Chromium; the harness lab drew a 50 000-character error box for an 18 500-character move. An id is now
at most MAX_SHOWN characters as drawn (toolcall.text.escaped_head), whatever it is made of."""

import json

import pytest

from tests.transcript_builders import USER, assistant, result, use, user
from toolcall.pairing import MAX_IDS, MAX_SHOWN, check_pairing, shown_id
from toolcall.text import escape_identifier, escaped_head

#: Characters an id may be made of, each drawn as an escape of its own length (or as itself, for ASCII).
KINDS = {"ascii": "x", "zero-width space": "\u200b", "Cyrillic a": "\u0430", "direction override": "\u202e",
         "control": "\x01", "tag letter past U+FFFF": "\U000e0041", "Chinese": "退", "emoji": "😀"}


def test_escaped_head_exact_values():
    assert escaped_head("toolu_01", 64) == "toolu_01"
    assert escaped_head("toolu_01\u0430", 64) == "toolu_01\\u0430"  # a look-alike stays named
    assert escaped_head("a" * 64, 64) == "a" * 64
    assert escaped_head("a" * 65, 64) == "a" * 64 + "…"  # ASCII: cut as before
    assert escaped_head("\u200b" * 30 + "r0", 64) == "\\u200b" * 10 + "…"  # was 30 escapes and r0: 182 characters
    assert escaped_head("\U000e0041" * 64, 64) == "\\udb40\\udc41" * 5 + "…"  # was 768 characters
    assert escaped_head("ab\u200b", 8) == "ab\\u200b"
    assert escaped_head("abc\u200b", 8) == "abc…"  # no escape cut in half
    assert shown_id("\u200b" * 64) == escaped_head("\u200b" * 64, MAX_SHOWN)
    assert shown_id(12345) == "12345"


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("length", [1, 10, 63, 64, 65, 1000])
def test_an_id_of_any_characters_is_drawn_in_at_most_max_shown(kind, length):
    text = KINDS[kind] * length
    drawn = shown_id(text)
    assert len(drawn) <= MAX_SHOWN + 1
    if len(escape_identifier(text)) <= MAX_SHOWN:
        assert drawn == escape_identifier(text)  # whole when it fits
    else:
        assert drawn.endswith("…") and escape_identifier(text).startswith(drawn[:-1])


def _transcript(ch: str, results: int = 100, calls: int = 12, width: int = 64) -> str:
    uses = [use(ch * width + f"{i:02d}") for i in range(calls)]
    return json.dumps([USER, assistant(*uses), user(*(result(ch * width + f"r{i:03d}") for i in range(results)))],
                      ensure_ascii=False)


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_report_row_quoting_a_dozen_ids_is_bounded_whatever_they_are_made_of(kind):
    """Each row names the result's id and lists the turn's dozen ids twice (detail and advice): at most
    2 x MAX_IDS + 1 ids of MAX_SHOWN + 1 characters, plus the sentences (was 19 378 characters a row)."""
    report = check_pairing(_transcript(KINDS[kind]))
    mismatches = [v for v in report.violations if v.rule == "id_mismatch"]
    assert len(mismatches) == 100
    bound = (2 * MAX_IDS + 1) * (MAX_SHOWN + 3) + 400
    assert max(len(v.detail) + len(v.advice) for v in mismatches) <= bound
    assert sum(len(v.detail) + len(v.advice) for v in report.violations) <= len(report.violations) * bound


def test_the_tag_letter_report_exact_detail_and_size():
    report = check_pairing(_transcript("\U000e0041"))
    first = report.violations[0]
    cut = "\\udb40\\udc41" * 5 + "…"
    assert first.detail.startswith(f"Result for {cut}, but the turn before called: {cut}, {cut}, ")
    assert sum(len(v.detail) + len(v.advice) for v in report.violations[:100]) == 167_800  # was 1 937 800


def test_the_harness_lab_lists_the_calls_within_the_same_bound():
    """A json move whose results answer none of a dozen calls named by 64 zero-width spaces: every finding is
    bounded as the pairing rows are (the lab drew 49 968 characters of findings for this move)."""
    from toolcall.harness import load_scenarios
    from toolcall.harness_grading import MAX_LISTED_FINDINGS, grade_json_move
    from toolcall.wire import ANTHROPIC

    scenario = next(s for s in load_scenarios().scenarios if s.id == "plain_call")
    step = next(s for s in scenario.steps_for(ANTHROPIC) if s.kind == "json")
    zw = "\u200b" * 64
    move = json.dumps({"messages": [{"role": "user", "content": "refund"},
                                    {"role": "assistant", "content": [use(zw + f"{i:02d}") for i in range(12)]},
                                    {"role": "user", "content": [result(zw + f"r{i:02d}") for i in range(40)]}]},
                      ensure_ascii=False)
    grade = grade_json_move(scenario, step, ANTHROPIC, move, "en")
    listed, _more = grade.listed()
    assert not grade.correct and len(listed) == MAX_LISTED_FINDINGS
    assert max(len(f.message) for f in listed) <= (MAX_IDS + 1) * (MAX_SHOWN + 3) + 400
    assert sum(len(f.message) for f in listed) < 20_000  # was 49 968 drawn in the lab's error box
