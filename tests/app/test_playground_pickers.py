"""The playground draws one panel and one output's card at a time (issue 18): the pickers list every
canned output of the fixture with this schema's verdict, keep their choice across edits, language
switches and page visits, and a closed panel draws nothing. Cases come from fixtures/outputs/."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import each_card, open_panel, show_free, show_output
from toolcall.fixtures import load_outputs
from toolcall.i18n import t
from toolcall.markdown import label, plain
from ui.playground_pick import FREE, PANELS

OUTPUTS = load_outputs().outputs
#: The canned output the no_additional_properties preset lets through.
EXTRA = next(o for o in OUTPUTS if o.catches == "additionalProperties")


def playground(lang="en"):
    return fresh_app(lang, page="pages/playground.py")


def texts(elements):
    return [e.value for e in elements]


def calls(at):
    """The model's calls drawn on the page's cards (one per card)."""
    return [json.loads(c.value) for c in at.code if c.language == "json" and '"tool_use"' in c.value]


def free_label(lang):
    return t("playground.output_free", lang, label=t("workbench.tab_free", lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_output_picker_lists_every_canned_output(lang):
    at = playground(lang)
    radio = at.radio(key="playground_output")
    assert list(radio.options) == [label(o.label[lang]) for o in OUTPUTS] + [free_label(lang)]
    assert list(radio.proto.captions) == [""] * (len(OUTPUTS) + 1)  # every output as expected: nothing to flag
    assert radio.value == OUTPUTS[0].id
    assert len(calls(at)) == 1  # one card drawn, not one per output


def test_a_leak_shows_under_its_output_and_the_picked_card_follows_the_edit():
    at = show_output(playground(), EXTRA.id)
    at.selectbox(key="playground_preset").select("no_additional_properties").run()
    assert not at.exception
    radio = at.radio(key="playground_output")
    assert radio.value == EXTRA.id  # the choice survives the edit
    assert list(radio.options) == [label(o.label["en"]) for o in OUTPUTS] + [free_label("en")]  # labels stay
    assert list(radio.proto.captions) == [t("playground.output_leaked", "en") if o is EXTRA else ""
                                          for o in OUTPUTS] + [""]
    assert any(e.startswith("LEAKED") for e in texts(at.error))  # the picked card says so


def test_a_valid_output_rejected_is_flagged_under_it():
    valid = next(o for o in OUTPUTS if o.expected == "accepted")
    at = playground()
    schema = json.loads(at.text_area(key="schema_editor").value)
    schema["required"] = [*schema.get("required", []), "added_by_test"]
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    captions = list(at.radio(key="playground_output").proto.captions)
    assert captions[OUTPUTS.index(valid)] == t("playground.output_overrejected", "en")


def test_every_card_can_be_drawn_and_shows_its_own_output():
    at = playground()
    for output in each_card(at, OUTPUTS):
        drawn = [m.value for m in at.markdown if m.value.startswith("**") and " · expected: " in m.value]  # canned
        assert [d.split("  \n")[0] for d in drawn] == [f"**{plain(output.label['en'])}**"]
        assert len(calls(at)) == 1
        assert output.raw in [c.value for c in at.code] or len(output.raw) > 3000


def test_the_choices_survive_a_language_switch_and_a_page_visit():
    at = show_output(playground(), EXTRA.id)
    at.session_state["app_lang"] = "zh"
    at.run()
    assert not at.exception
    assert at.radio(key="playground_output").value == EXTRA.id
    assert any(plain(EXTRA.label["zh"]) in m.value for m in at.markdown)
    open_panel(at, "review")
    at.switch_page("pages/passk_lab.py").run()
    at.switch_page("pages/playground.py").run()
    assert not at.exception
    assert at.segmented_control(key="playground_panel").value == "review"
    open_panel(at, "outputs")
    assert at.radio(key="playground_output").value == EXTRA.id


@pytest.mark.parametrize("panel", [p for p in PANELS if p != "outputs"])
def test_a_closed_panel_draws_nothing_but_the_summary_stays(panel):
    at = open_panel(playground(), panel)
    assert not at.exception
    assert calls(at) == []  # no card
    assert not [r for r in at.radio if r.key == "playground_output"]
    assert f"**{len(OUTPUTS)} of {len(OUTPUTS)} outputs got their expected verdict.**" in texts(at.markdown)
    review = t("workbench.checklist_title", "en")
    assert (f"**{review}**" in texts(at.markdown)) == (panel == "review")


def test_review_checks_and_the_free_box_keep_their_values_while_closed():
    at = show_free(playground())
    at.text_area(key="playground_free_input").input('{"order_id": "ORD-20260917"}').run()
    at.radio(key="playground_free_stop_reason").set_value("max_tokens").run()
    open_panel(at, "review")
    first = at.checkbox[0]
    first.check().run()
    key = first.key
    open_panel(at, "model")
    show_output(at, FREE)
    assert at.text_area(key="playground_free_input").value == '{"order_id": "ORD-20260917"}'
    assert at.radio(key="playground_free_stop_reason").value == "max_tokens"
    open_panel(at, "review")
    assert at.checkbox(key=key).value is True


def test_a_tool_without_the_picked_output_shows_its_first():
    from toolcall import FIXTURES_DIR

    others = load_outputs(FIXTURES_DIR / "outputs" / "get_order.yaml").outputs
    at = show_output(playground(), EXTRA.id)
    at.selectbox(key="playground_tool").select("get_order").run()
    assert not at.exception
    assert at.radio(key="playground_output").value == (EXTRA.id if EXTRA.id in {o.id for o in others}
                                                        else others[0].id)
    assert {c["name"] for c in calls(at)} == {"get_order"}


def test_a_picker_click_checks_no_definition_again(monkeypatch):
    """Picking an output or a panel reruns the editor with the same fields: from_fields runs only when a
    field changed (issue 18: cut what is recomputed when its inputs did not change)."""
    import ui.tool_editor as editor

    at = playground()
    seen = []
    real = editor.from_fields
    monkeypatch.setattr(editor, "from_fields", lambda *a, **k: seen.append(a[2]) or real(*a, **k))
    show_output(at, EXTRA.id)
    open_panel(at, "model")
    open_panel(at, "outputs")
    assert seen == []
    schema = json.loads(at.text_area(key="schema_editor").value)
    del schema["additionalProperties"]
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert len(seen) == 1 and json.loads(seen[0]) == schema
    assert any(e.startswith("LEAKED") for e in texts(at.error))


def test_the_reference_is_serialised_once_per_tool_object():
    from ui.tool_editor import _ref_key, fixture_tool

    ref = fixture_tool("refund_order", "en")
    assert _ref_key(ref) is _ref_key(ref)
    assert json.loads(_ref_key(ref)) == [ref.name, ref.description, ref.input_schema]


def test_the_picker_labels_are_built_once_per_judged_cards_and_language(monkeypatch):
    """An edit that gives the same verdicts as an earlier one (the same shared cards) translates and escapes
    no label again: label() runs once per output the first time only."""
    import ui.playground_pick as pick
    from toolcall.safe_validator import SizedCache

    monkeypatch.setattr(pick, "_labels", SizedCache(max_entries=512, max_bytes=4 * 1024 ** 2))  # nothing from other tests
    at = playground()
    ref = at.text_area(key="schema_editor").value
    calls = []
    real = pick.label
    monkeypatch.setattr(pick, "label", lambda text: calls.append(text) or real(text))
    for text in (ref + "\n", ref + "\n\n", ref + "\n\n\n"):  # the same schema: the same shared cards
        at.text_area(key="schema_editor").input(text).run()
    assert calls == []
    at.session_state["app_lang"] = "zh"
    at.run()
    assert calls == [o.label["zh"] for o in OUTPUTS]  # once per output, in the new language
