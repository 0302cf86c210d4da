"""The strict panel says which cells of its leak matrix were not checked, and why, in the page's language (issue 13,
time kind: the matrix now has one shared time budget per edit; tests/unit/test_leak_matrix_budget.py). The matrix's
shared budget reads as spent from its first cell (no clock is touched, so no other check of the page, and no cache
shared with other tests, sees a spent budget), and the schema is this test's own (a unique description)."""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_strict_panel import matrix
from tests.unit.test_leak_matrix_budget import FREE, SLOW
import toolcall.strict
from toolcall.i18n import t
from toolcall.strict import COLUMNS

WORDS = {
    "en": ("not checked (time budget spent)",
           "Cells not checked: {count}. Judging the whole matrix may take 1 s of server CPU per edit, and that was "
           "spent on the cells before them. A cell not checked is not a verdict and shows no leak. Make the schema "
           "cheaper to check, or shorten the text in \"Try any model output\", to see them judged."),
    "zh": ("未检查（时间预算已用完）",
           "未检查的格子：{count} 个。每次编辑，整张矩阵最多用 1 秒服务器 CPU，这些时间已经花在它们前面的格子上了。"
           "未检查的格子不是结论，也不算泄漏。把 schema 改得更容易检查，或者缩短“试试任意模型输出”里的文本，就能看到它们的判定。"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cells_left_when_the_budget_is_spent_are_named_not_judged(monkeypatch, lang):
    at = fresh_app(lang, page="pages/playground.py")
    at.toggle(key="playground_strict_open").set_value(True).run()
    at.session_state["playground_free_input"] = FREE
    monkeypatch.setattr(toolcall.strict, "shared_budget_spent", lambda: True)
    at.text_area(key="schema_editor").input(json.dumps({**SLOW, "description": f"brk13web {lang}"})).run()
    assert not at.exception, [e.value for e in at.exception]
    cell, caption = WORDS[lang]
    rows = matrix(at, lang)
    cells = [value for row in rows.values() for name, value in row.items() if name != next(iter(row))]
    assert len(cells) == len(rows) * len(COLUMNS) and set(cells) == {cell}
    assert caption.format(count=len(cells)) in [c.value for c in at.caption]
    assert not any(c.value == t("strict.panel.no_leaks", lang) for c in at.caption)  # nothing was judged
