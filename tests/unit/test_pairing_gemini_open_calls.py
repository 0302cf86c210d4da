"""A Gemini functionResponse that matches no call lists the calls it could answer: each name and id cut as drawn,
at most MAX_IDS of them, then how many more (break-it pass brk21probe: 12 ids of 40 000 characters were listed whole
in each of 500 violations, a 240 MB report and a 48 MB table a rerun; a turn of 30 calls was listed as 12)."""

import json

import pytest

from toolcall.i18n import t
from toolcall.pairing import MAX_IDS, MAX_SHOWN, check_pairing


def _transcript(calls: list[dict], responses: list[dict]) -> str:
    return json.dumps({"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": c} for c in calls]},
        {"role": "user", "parts": [{"functionResponse": r} for r in responses]}]})


def test_long_ids_are_cut_in_every_violation():
    calls = [{"name": "get_order", "args": {}, "id": f"{i}" + "y" * 40_000} for i in range(12)]
    report = check_pairing(_transcript(calls, [{"name": "x", "response": {}}] * 600), "gemini", "en")
    assert len(report.violations) == 500 and report.more == 100 + 12  # 100 more responses; 12 calls unanswered
    assert {v.rule for v in report.violations} == {"name_mismatch"}
    first = report.violations[0]
    head = "0" + "y" * (MAX_SHOWN - 1) + "…"
    assert first.detail.startswith(f"functionResponse x (id -) matches none of the calls of the turn before: "
                                   f"get_order ({head}), get_order (1")
    assert first.advice == f"Give it the name and id of the call it answers: get_order ({head})."
    assert max(len(v.detail) + len(v.advice) for v in report.violations) < 12 * (MAX_SHOWN + 20) + 200


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_turn_of_more_calls_than_are_listed_says_how_many_more(lang):
    calls = [{"name": f"n{i}", "args": {}} for i in range(30)]
    detail = check_pairing(_transcript(calls, [{"name": "m", "response": {}}]), "gemini", lang).violations[0].detail
    listed = ", ".join(f"n{i}" for i in range(MAX_IDS))
    assert listed + t("pairing.ids_more", lang, count=30 - MAX_IDS) in detail


def test_a_turn_of_few_calls_is_listed_whole_without_a_count():
    calls = [{"name": f"n{i}", "args": {}} for i in range(3)]
    detail = check_pairing(_transcript(calls, [{"name": "m", "response": {}}]), "gemini", "en").violations[0].detail
    assert detail == "functionResponse m (id -) matches none of the calls of the turn before: n0, n1, n2."
