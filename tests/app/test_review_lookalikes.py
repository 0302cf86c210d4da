"""The design review quotes the schema's property names with look-alike letters of other scripts escaped (issue 13).
A property named оrder_id (Cyrillic о) beside a typed, described order_id read, in the review and in
``python -m toolcall lint``: 'Parameter "order_id" has no type.' at '$.input_schema.properties.order_id', a finding
about a field that is plainly typed. The strict panel, validation errors and exercise feedback already escaped them."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import open_panel
from toolcall.lint import lint_tool
from toolcall.tooldef import from_fields
from ui.playground_pick import REVIEW

SCHEMA = {"type": "object", "properties": {"order_id": {"type": "string", "description": "The order to refund."},
                                           "\u043erder_id": {}}, "required": ["order_id"]}
SHOWN = {"en": '- `$.input_schema.properties.\\u043erder_id` Parameter \\"\\\\u043erder\\_id\\" has no type\\. '
               ':small[(Tool design › 3\\. Parameters)]',
         "zh": '- `$.input_schema.properties.\\u043erder_id` 参数“\\\\u043erder\\_id”没有类型。 :small[(工具设计 › 3\\. 参数)]'}
UNTYPED = {"en": 'Parameter "\\u043erder_id" has no type.', "zh": "参数“\\u043erder_id”没有类型。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_finding_quotes_a_lookalike_name_escaped(lang):
    checked = from_fields("refund_order", "Refund an order.", json.dumps(SCHEMA), lang)
    assert checked.ok
    untyped = [f for f in lint_tool(checked.tool) if f.rule == "param_untyped"]
    assert [f.reason(lang) for f in untyped] == [UNTYPED[lang]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_review_panel_shows_the_path_and_the_name_escaped(lang):
    at = fresh_app(lang, page="pages/playground.py")
    open_panel(at, REVIEW)
    at.text_area(key="schema_editor").input(json.dumps(SCHEMA, ensure_ascii=False)).run()
    assert not at.exception
    shown = "\n".join(e.value for e in [*at.error, *at.warning, *at.info])
    assert SHOWN[lang] in shown.split("\n")  # the path in a code span, the reason through plain()
    assert "\u043e" not in shown
