"""Chinese pages as drawn: every page on opening, and the strict-mode table, where newcomer session 7 saw
"minimum: 1：Anthropic" (tests/content/test_zh_spacing.py holds every zh string to the same rules;
tests/app/test_harness_lab_page.py the wrong-move heading and its 400)."""

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_strict_panel import column, findings, panel
from tests.content.test_zh_spacing import stray_spacing, unclosed_bold
from tests.zh_prose import _FENCED, _INLINE
from toolcall.i18n import t
from toolcall.pages_registry import PAGES

#: The elements whose text a student reads as prose.
PROSE = ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success")


@pytest.mark.parametrize("page", [p for p in PAGES if not p.instructor_only], ids=lambda p: p.id)
def test_no_zh_page_draws_a_space_after_full_width_punctuation(page):
    """Every prose element and label a zh page draws on opening, code aside, has no stray space and no bold that
    cannot close: this is where strings a page joins itself show up (the selection lab's tool list read "**get_order**: 查询……", an ASCII colon in Chinese)."""
    at = fresh_app("zh", page=page.script)
    assert not at.exception
    texts = [str(e.value) for kind in PROSE for e in getattr(at, kind)]
    texts += [w.label for kind in ("metric", "checkbox", "button") for w in getattr(at, kind)]
    found = [(text[:60], s) for text in texts for s in stray_spacing(_INLINE.sub("`c`", _FENCED.sub(" ", text)))]
    found += [(text[:60], s) for text in texts for s in unclosed_bold(text)]
    assert found == []
    assert len(texts) > 10


def test_the_strict_table_reads_keyword_then_value_in_chinese():
    at = panel("zh")
    rows = findings(at, "zh")
    reasons = column(rows, t("strict.panel.col_message", "zh"))
    assert [r.split("：")[0] for r in reasons] == ["minimum 为 1", "maxLength 为 200"]  # the table drops the backticks
    assert [s for r in reasons for s in stray_spacing(r)] == []
