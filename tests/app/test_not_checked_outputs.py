"""Outputs left unjudged because the edit's shared time budget was spent (judge.NOT_CHECKED) are shown as not
checked, in the summary, under each output and on its card, never as valid or as matching (en, zh). The budget is
set to nothing so that every output is left unchecked; the cases are the fixture's outputs."""

import json

import pytest

from tests.app.conftest import fresh_app
from toolcall import judge
from toolcall.fixtures import load_outputs, load_tool
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.safe_validator import SizedCache

OUTPUTS = load_outputs().outputs


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_output_left_unchecked_is_said_so(monkeypatch, lang):
    monkeypatch.setattr(judge, "CANNED_BUDGET", 0.0)
    # spent from the start: two readings of a thread's CPU clock may be equal, so "0 s" alone left the first
    # output checked now and then (seen under load, in the grown-content rerun)
    monkeypatch.setattr(judge, "shared_budget_spent", lambda: True)
    # the process-wide judgement cache, for this test only: what it judges with no budget is not kept for the others
    monkeypatch.setattr(judge, "_canned", SizedCache(judge._canned.max_entries, judge._canned.max_bytes))
    at = fresh_app(lang, page="pages/playground.py")
    schema = {**load_tool().input_schema, "$comment": f"not checked {lang}"}  # a schema no cache holds yet
    at.text_area(key="schema_editor").set_value(json.dumps(schema))
    at.radio(key="playground_output").set_value(OUTPUTS[0].id).run()  # a pick kept from an earlier test's session
    assert not at.exception, [e.value for e in at.exception]
    labels = t("word.list_sep", lang).join(o.label[lang] for o in OUTPUTS)
    assert plain(t("playground.summary_not_checked", lang, ids=labels)) in [w.value for w in at.warning]
    assert t("playground.summary_all_good", lang) not in [s.value for s in at.success]
    assert t("playground.summary", lang, matched=0, total=len(OUTPUTS)) in " ".join(m.value for m in at.markdown)
    radio = at.radio(key="playground_output")
    assert list(radio.proto.captions) == [t("playground.output_not_checked", lang)] * len(OUTPUTS) + [""]
    card = t("playground.not_checked_card", lang, seconds=f"{judge.CANNED_BUDGET:g}")
    assert card in [w.value for w in at.warning]
    head = [m.value for m in at.markdown if m.value.startswith(f"**{plain(OUTPUTS[0].label[lang])}**")]
    verdict = t("playground.verdict", lang, verdict=f":gray-badge[{t('playground.not_checked', lang)}]")
    assert len(head) == 1 and verdict in head[0]  # the picked (first) output's card: not checked, not accepted
