"""The strict-mode table in Chinese, where newcomer session 7 saw "minimum: 1：Anthropic" (tests/content/test_zh_spacing.py
holds every zh string to the same rules; tests/app/test_harness_lab_page.py the wrong-move heading and its 400)."""

from tests.app.test_strict_panel import column, findings, panel
from tests.content.test_zh_spacing import stray_spacing
from toolcall.i18n import t


def test_the_strict_table_reads_keyword_then_value_in_chinese():
    at = panel("zh")
    rows = findings(at, "zh")
    reasons = column(rows, t("strict.panel.col_message", "zh"))
    assert [r.split("：")[0] for r in reasons] == ["minimum 为 1", "maxLength 为 200"]  # the table drops the backticks
    assert [s for r in reasons for s in stray_spacing(r)] == []
