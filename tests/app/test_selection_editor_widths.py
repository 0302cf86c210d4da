"""The selection lab's editable table is as wide as the shipped texts (newcomer session 7, item 7: at 1366 px the
fixed 380 px request and argument columns cut "I ordered a desk lamp a while ago but lost the order number. Can…"
and most expected arguments). Widths come from the shipped set and the headers (ui.eval_lab.editor_widths)."""

import json

import pytest

from tests.app.conftest import fresh_app
from toolcall import CONTENT_ROOT, FIXTURES_DIR, REPO_ROOT
from toolcall.columns import PADDING_PX, text_px
from toolcall.selection import load_set, to_rows
from ui.eval_lab import EDITOR_MAX_PX, EDITOR_ORDER

#: What the editor gets for the shipped sets (the en request column: its longest request, 634 px).
SHIPPED = {
    "en": {"id": 126, "expected_tool": 135, "request": 634, "expected_arguments": 551, "should_not_call": 292},
    "zh": {"id": 126, "expected_tool": 135, "request": 419, "expected_arguments": 529, "should_not_call": 292},
}


def editor_widths_shown(lang: str) -> dict[str, int]:
    at = fresh_app(lang, page="pages/eval_lab.py")
    assert not at.exception
    columns = json.loads(at.data_editor[0].proto.columns)
    return {c: columns[c]["width"] for c in EDITOR_ORDER}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_editor_columns_fit_the_shipped_texts(lang):
    widths = editor_widths_shown(lang)
    if CONTENT_ROOT == REPO_ROOT:  # an instructor's grown copy has other texts, so other widths: the fit below holds
        assert widths == SHIPPED[lang]
    rows = to_rows(load_set(FIXTURES_DIR / "selection" / f"shop.{lang}.yaml").cases)
    cut = [(c, row[c]) for row in rows for c in EDITOR_ORDER
           if text_px(str(row.get(c, ""))) + PADDING_PX > widths[c] and widths[c] < EDITOR_MAX_PX]
    assert cut == []
