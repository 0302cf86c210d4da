"""A zero-width space typed into the playground is shown as ``\\u200b`` in every view that echoes it: the
definition panel, the model view's two JSON blocks, the free box's call and the strict panel's diff (issue 13).

Before: each of these drew the text with st.code directly, so ``or\\u200bder_id`` read as ``order_id``.
tests/unit/test_display_boundary.py holds every other view to the same escaping helpers.
"""

import json

from tests.app.conftest import fresh_app
from tests.app.playground_views import in_order, open_panel, show_free
from toolcall.text import HIDDEN
from ui.playground_pick import DEFINITION, MODEL

ZW = "\u200b"
DESCRIPTION = "Refund" + ZW + " an order."
SCHEMA = {"type": "object", "properties": {"or" + ZW + "der_id": {"type": "string", "description": "id" + ZW, "pattern": "^ORD"},
                                           "amount_cents": {"type": "integer"}},
          "required": ["or" + ZW + "der_id"], "additionalProperties": False}


def _literal(at) -> list[str]:
    """The text of every code block and st.text element on the page, in page order."""
    return [e.value for e in in_order(at.main) if e.type in ("code", "text")]


def _no_hidden(texts: list[str]) -> None:
    for text in texts:
        assert not HIDDEN & set(text), text[:200]


def test_every_view_of_the_playground_shows_a_zero_width_space_escaped():
    at = fresh_app("en").switch_page("pages/playground.py").run()
    at.text_area(key="tool_description").input(DESCRIPTION).run()
    at.text_area(key="schema_editor").input(json.dumps(SCHEMA, ensure_ascii=False)).run()
    assert not at.exception

    open_panel(at, DEFINITION)
    definition = [json.loads(text.replace("\\u200b", "\\\\u200b")) for text in _literal(at) if '"Refund' in text]
    _no_hidden(_literal(at))
    assert definition[0]["description"] == "Refund\\u200b an order."
    assert "or\\u200bder_id" in definition[0]["input_schema"]["properties"]

    open_panel(at, MODEL)
    shown = [text for text in _literal(at) if '"description":"Refund' in text]
    _no_hidden(_literal(at))
    assert len(shown) == 2 and all('"description":"Refund\\u200b an order."' in text for text in shown)
    assert json.loads(shown[0])["description"] == DESCRIPTION  # the escape means the same character in JSON

    show_free(at)
    at.text_area(key="playground_free_input").input('{"or\u200bder_id": "x\u200b", "amount_cents": 1}').run()
    assert not at.exception
    _no_hidden(_literal(at))
    assert '{"or\\u200bder_id": "x\\u200b", "amount_cents": 1}' in _literal(at)

    at.toggle(key="playground_strict_open").set_value(True).run()
    assert not at.exception
    diffs = [text for text in _literal(at) if text.startswith("--- original")]
    _no_hidden(_literal(at))
    assert diffs and '"or\\u200bder_id": {' in diffs[0]
