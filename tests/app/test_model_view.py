"""The playground's "What the model sees" panel (ui/model_view.py): each provider's JSON under its own
provider's note, token counts that are the counts of that JSON, and the Anthropic table's source."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.markdown_tables import tables
from tests.app.playground_views import in_order, open_panel
from toolcall.i18n import t
from toolcall.tokens import count, wire_json
from ui.tool_editor import fixture_tool


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_json_follows_its_providers_note_and_is_what_was_counted(lang):
    at = open_panel(fresh_app(lang).switch_page("pages/playground.py").run(), "model")
    assert not at.exception
    items = [e for e in in_order(at.main) if e.type in ("markdown", "code")]
    shown = {}
    for before, element in zip(items, items[1:]):
        if element.type == "code" and element.language == "json":
            shown[before.value] = json.loads(element.value)
    tool = fixture_tool("refund_order", lang)
    openai = shown[t("workbench.openai_adds", lang)]
    assert openai == {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                       "parameters": tool.input_schema}}
    assert shown[t("model_view.anthropic_json", lang)] == {"name": tool.name, "description": tool.description,
                                                          "input_schema": tool.input_schema}
    # the table's two counts are the counts of these two JSON texts, so the caption may say they differ
    row = next(r for table in tables(at) for r in table if r.get(t("workbench.tokens_tool", lang)) == tool.name)
    counted = [row[t("workbench.tokens_openai", lang)], row[t("workbench.tokens_claude", lang)]]
    assert counted == [str(count(wire_json(tool, p)).tokens) for p in ("openai", "anthropic")]
    assert counted[0] != counted[1]
    captions = [c.value for c in at.caption]
    assert t("workbench.tokens_method_o200k", lang) in captions and t("model_view.anthropic_source", lang) in captions
    assert "same count" not in " ".join(captions) and "同样的计数" not in " ".join(captions)
