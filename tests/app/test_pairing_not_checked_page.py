"""A transcript whose only tool traffic is of a type the checker does not read is not given the green "No pairing
problems" (pass fix19left): the page says some of it was not checked, and the note names the type."""

import json

import pytest
from tests.app.conftest import fresh_app

from toolcall.i18n import t
from toolcall.pairing import check_pairing
from ui.common import plain

TRANSCRIPT = json.dumps([{"role": "user", "content": "refund ORD-20260917"},
                         {"type": "custom_tool_call", "call_id": "a", "name": "refund", "input": "ORD-20260917"}])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_checked_is_not_green(lang):
    at = fresh_app(lang, page="pages/pairing.py")
    at.radio(key="pairing_format").set_value("responses").run()
    at.text_area(key="pairing_input").input(TRANSCRIPT).run()
    assert not at.exception
    assert [s.value for s in at.success] == []
    infos = [i.value for i in at.info]
    assert t("pairing.no_violations_unchecked", lang) in infos
    (note,) = check_pairing(TRANSCRIPT, "responses", lang).notes
    assert "custom_tool_call" in note.detail
    assert t("pairing.notes_title", lang) + "\n\n" + plain(f"messages[1]: {note.detail} {note.advice}") in infos


def test_a_type_not_checked_past_the_notes_cap_is_still_not_green():
    """500 notes on arguments that are not JSON fill the notes before the not_checked one, which was only counted,
    and the page said "No pairing problems" (break-it pass brk20new)."""
    from toolcall.pairing import MAX_VIOLATIONS

    items = [{"role": "user", "content": "go"},
             {"role": "assistant", "tool_calls": [{"id": f"c{k}", "type": "function",
                                                   "function": {"name": "f", "arguments": "{"}}
                                                  for k in range(MAX_VIOLATIONS)]},
             *({"role": "tool", "tool_call_id": f"c{k}", "content": "ok"} for k in range(MAX_VIOLATIONS)),
             {"role": "user", "content": [{"type": "video", "video": {}}]}]
    report = check_pairing(json.dumps(items), "openai")
    assert (report.violations, len(report.notes), report.notes_more, report.not_checked) == ([], MAX_VIOLATIONS, 1, 1)
    assert {n.rule for n in report.notes} == {"arguments_invalid_json"}
    at = fresh_app("en", page="pages/pairing.py")
    at.radio(key="pairing_format").set_value("openai").run()
    at.text_area(key="pairing_input").input(json.dumps(items)).run()
    assert not at.exception
    assert [s.value for s in at.success] == []
    assert t("pairing.no_violations_unchecked", "en") in [i.value for i in at.info]
