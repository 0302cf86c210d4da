"""Altair charts for the selection lab: the confusion matrix as a heatmap and the failure
taxonomy as bars (plain alt.Chart objects built from toolcall.evaluation results)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from toolcall.evaluation import OTHER_TOOLS, TAXONOMY
from toolcall.i18n import t
from toolcall.selection import NO_TOOL
from toolcall.text import escape_identifier

#: Every label of a category axis is drawn: Streamlit's chart theme turns on Vega's label-overlap removal,
#: which at a phone's width (420 px) dropped four of the six tool names under the confusion matrix, leaving
#: columns nobody could name. Each label names a category, so none may be left out.
CATEGORY_AXIS = {"labelOverlap": False}


def tool_label(name: str, lang: str) -> str:
    """A tool name as an axis label: NO_TOOL and OTHER_TOOLS translated; any other name through escape_identifier, so a
    model's look-alike or invisible-character call (``get_оrder``, Cyrillic о) is not a second column
    that reads exactly like ``get_order`` (tool names are ASCII for every provider)."""
    if name == OTHER_TOOLS:
        return t("eval.other_tools", lang)
    return t("eval.no_tool", lang) if name == NO_TOOL else escape_identifier(str(name))


def confusion_chart(confusion: pd.DataFrame, lang: str) -> alt.LayerChart:
    """Heatmap of runs per (expected tool, chosen tool) with the count written in each cell.

    ``confusion`` is Analysis.confusion (rows expected, columns chosen; may be empty, which
    gives an empty chart). Axis order follows the DataFrame; NO_TOOL is shown translated.
    """
    expected_title, chosen_title = t("eval.chart.expected", lang), t("eval.chart.chosen", lang)
    rows = [
        {
            "expected": tool_label(e, lang),
            "chosen": tool_label(c, lang),
            "runs": int(confusion.loc[e, c]),
            "diagonal": e == c,
        }
        for e in confusion.index
        for c in confusion.columns
    ]
    data = pd.DataFrame(rows, columns=["expected", "chosen", "runs", "diagonal"])
    order_rows = [tool_label(e, lang) for e in confusion.index]
    order_cols = [tool_label(c, lang) for c in confusion.columns]
    base = alt.Chart(data).encode(
        x=alt.X("chosen:N", title=chosen_title, sort=order_cols, axis=alt.Axis(labelAngle=-45, **CATEGORY_AXIS)),
        y=alt.Y("expected:N", title=expected_title, sort=order_rows, axis=alt.Axis(**CATEGORY_AXIS)),
    )
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color("runs:Q", title=t("eval.chart.runs", lang), scale=alt.Scale(scheme="blues")),
        tooltip=[
            alt.Tooltip("expected:N", title=expected_title),
            alt.Tooltip("chosen:N", title=chosen_title),
            alt.Tooltip("runs:Q", title=t("eval.chart.runs", lang)),
        ],
    )
    labels = base.mark_text(fontSize=13).encode(
        text=alt.Text("runs:Q"), color=alt.condition(alt.datum.runs > 0, alt.value("black"), alt.value("#bbbbbb"))
    )
    return alt.layer(cells, labels).properties(height=alt.Step(34))


def taxonomy_chart(counts: dict[str, int], lang: str) -> alt.Chart:
    """Horizontal bars: runs per failure class, in TAXONOMY's fixed order (zeros shown)."""
    data = pd.DataFrame(
        [
            {"class": t(f"eval.taxonomy.{name}", lang), "runs": int(counts.get(name, 0)), "order": i}
            for i, name in enumerate(TAXONOMY)
        ]
    )
    return (
        alt.Chart(data)
        .mark_bar(color="#d62728")
        .encode(
            y=alt.Y(
                "class:N",
                title=None,
                sort=[t(f"eval.taxonomy.{n}", lang) for n in TAXONOMY],
                axis=alt.Axis(labelLimit=320, **CATEGORY_AXIS),
            ),
            x=alt.X("runs:Q", title=t("eval.chart.runs", lang), axis=alt.Axis(tickMinStep=1)),
            tooltip=[alt.Tooltip("class:N", title=" "), alt.Tooltip("runs:Q", title=t("eval.chart.runs", lang))],
        )
        .properties(height=alt.Step(30))
    )
