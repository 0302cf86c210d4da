"""What the playground sends for deeply nested JSON is bounded by the place's limit, not by the JSON's
indentation (64 levels deep: about 64 times the compact text): the free box's card, the strict panel and the
definition panel, and a share link's editor. Sizes are counted in characters of the code blocks and boxes."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import open_panel, show_free
from toolcall.fixtures import Tool
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.parsing import MAX_DEPTH, MAX_INPUT_CHARS
from toolcall.strict import MAX_PANEL_CHARS, MAX_PANEL_SUBSCHEMAS
from toolcall.tooldef import MAX_DEFINITION_CHARS, share_token
from toolcall.validation import MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH
from ui.common import JSON_DISPLAY_LIMIT
from ui.playground_pick import DEFINITION
from ui.tool_editor import SHARE_PARAM


def nested_output() -> str:
    head, tail = '{"a":' + "[" * (MAX_DEPTH - 4), "]" * (MAX_DEPTH - 4) + "}"
    return head + ",".join(["0"] * ((MAX_INPUT_CHARS - 1_000 - len(head) - len(tail)) // 2)) + tail


def nested_schema(chars: int = MAX_SCHEMA_CHARS - 1_000) -> str:
    depth = MAX_SCHEMA_DEPTH - 6
    head, tail = '{"type":"object","properties":{"a":{"enum":[' + "[" * depth, "]" * depth + "]}}}"
    return head + ",".join(["0"] * ((chars - len(head) - len(tail)) // 2)) + tail


def code_sizes(at) -> list[int]:
    return sorted((len(c.value) for c in at.code), reverse=True)


@pytest.mark.parametrize("fmt", ["anthropic", "openai"])
def test_the_free_card_of_a_deep_output_shows_bounded_json_and_says_so(fmt):
    at = fresh_app("en", page="pages/playground.py")
    at.radio(key="playground_format").set_value(fmt).run()
    show_free(at)
    at.text_area(key="playground_free_input").input(nested_output()).run()
    assert not at.exception, [e.value for e in at.exception]
    assert code_sizes(at)[0] <= JSON_DISPLAY_LIMIT  # was 6.3 MB (anthropic) and 99 000 (openai)
    assert t("common.json_cut", "en", limit=f"{JSON_DISPLAY_LIMIT:,}") in [c.value for c in at.caption]


def test_a_deep_schema_in_the_strict_and_definition_panels_is_sent_at_most_once_its_own_size():
    at = fresh_app("zh", page="pages/playground.py")
    schema = nested_schema()
    at.text_area(key="schema_editor").input(schema).run()
    at.toggle(key="playground_strict_open").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert sum(code_sizes(at)) <= len(schema) + 20_000  # was 12.6 MB
    # past the strict panel's caps (issue 13: CPU per edit) the panel draws none of it and says why
    assert t("strict.panel.too_large", "zh", nodes=MAX_PANEL_SUBSCHEMAS, chars=f"{MAX_PANEL_CHARS:,}") in [
        i.value for i in at.info]
    within = nested_schema(MAX_PANEL_CHARS * 2 // 3)  # "0,0" is "0, 0" to json.dumps; indented past 200 000
    assert len(json.dumps(json.loads(within))) <= MAX_PANEL_CHARS
    at.text_area(key="schema_editor").input(within).run()
    at.toggle(key="playground_strict_full").set_value(True).run()  # the full schemas are drawn only when asked
    assert not at.exception, [e.value for e in at.exception]
    assert sum(code_sizes(at)) <= 4 * len(within) + 20_000
    assert t("common.json_compact", "zh", limit=f"{MAX_SCHEMA_CHARS:,}") in [c.value for c in at.caption]
    at.text_area(key="schema_editor").input(schema).run()
    open_panel(at, DEFINITION)
    assert len(at.text_area(key="workbench_definition_text").value) <= MAX_DEFINITION_CHARS
    at.button(key="workbench_apply_definition").click().run()
    assert not at.exception and "workbench_definition_error" not in at.session_state


def test_a_share_link_of_a_deep_schema_fills_an_editor_that_checks():
    """A 416-character link: its schema is put in the editor compactly and is accepted (before: refused as
    298 421 characters, and a slightly smaller one filled the editor with megabytes of indentation)."""
    schema = json.loads(nested_schema())
    token = share_token(Tool("refund_order", "Refund.", schema))
    at = fresh_app("en", query={SHARE_PARAM: token}, page="pages/playground.py")
    assert not at.exception, [e.value for e in at.exception]
    text = at.text_area(key="schema_editor").value
    assert len(text) <= MAX_SCHEMA_CHARS and json.loads(text) == schema
    assert "workbench_link_error" not in at.session_state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_free_output_of_thousands_of_whole_number_floats_lists_a_few_and_counts_the_rest(lang):
    """19 800 floats such as 1.0 were one note each in the card's info box (2.3 MB on every render; under a
    40 000-character key, 473 million characters)."""
    from toolcall.validation import MAX_LISTED

    count = (MAX_INPUT_CHARS - 2_000) // 4
    at = fresh_app(lang, page="pages/playground.py")
    show_free(at)
    at.text_area(key="playground_free_input").input('{"amount_cents":[' + ",".join(["1.0"] * count) + "]}").run()
    assert not at.exception, [e.value for e in at.exception]
    more = plain(t("note.integral_floats_more", lang, count=count - MAX_LISTED))
    notes = [i.value for i in at.info if more in i.value]
    assert len(notes) == 1 and len(notes[0]) < 5_000


def test_the_free_card_is_judged_once_per_input_not_on_every_rerun(monkeypatch):
    """A 98 000-character output with thousands of errors cost about 1 s of CPU per rerun: clicks on the panel
    picker judged it again each time."""
    import toolcall.judge as judge
    from ui.playground_pick import OUTPUTS, REVIEW

    calls = []
    real = judge.evaluate
    monkeypatch.setattr(judge, "evaluate", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    judge._free.clear()
    at = fresh_app("en", page="pages/playground.py")
    show_free(at)
    free = '{"order_id": "ORD-20260917", "extra": [' + ",".join(["1.5"] * 5_000) + "]}"
    at.text_area(key="playground_free_input").input(free).run()
    for panel in (REVIEW, OUTPUTS, REVIEW, OUTPUTS):
        open_panel(at, panel)
        assert not at.exception, [e.value for e in at.exception]
    assert calls.count(free) == 1
