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


#: Characters (as shown, escaped) of a tool name the confusion matrix writes on its axes and in its cells; a longer
#: one is cut there and ends with "…". The chart's data repeat both names in each of its cells (up to
#: (MAX_MATRIX_TOOLS + 1)² of them), and a name may be 200 characters, each look-alike or invisible one shown as a
#: six-character \uXXXX: 20 × 20 such names (a 16 KB upload) made a 1.08 MB chart, sent on every rerun of the page
#: (break-it pass brk14lab). Vega draws at most about 25 characters of an axis label anyway (its labelLimit); the
#: per-case table below the chart shows each expected tool whole.
CHART_LABEL_CHARS = 40


def _cut(name: str) -> str:
    """``name`` escaped as tool_label escapes it, cut before CHART_LABEL_CHARS characters (never inside an
    escape) and ended with "…"."""
    pieces, size = [], 0
    for ch in name:
        piece = escape_identifier(ch)
        if size + len(piece) > CHART_LABEL_CHARS - 1:
            break
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces) + "…"


def axis_labels(names, lang: str) -> list[str]:
    """The confusion matrix's label of each of ``names`` (one axis, in order): tool_label, cut to
    CHART_LABEL_CHARS; names whose cut labels read the same are told apart by "(1) ", "(2) "… before them, in order,
    where an axis drawing only a label's start shows them (a label is a category: two names under one label would
    be summed into one cell). Collision-free: "…" is only ever written
    by the cut (escape_identifier shows a name's own "…" as \\u2026)."""
    labels = [label if len(label := tool_label(name, lang)) <= CHART_LABEL_CHARS else _cut(str(name))
              for name in names]
    clashes = {label for label in labels if labels.count(label) > 1}
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        if label in clashes:
            seen[label] = seen.get(label, 0) + 1
            labels[i] = f"({seen[label]}) {label}"
    return labels


def confusion_chart(confusion: pd.DataFrame, lang: str) -> alt.LayerChart:
    """Heatmap of runs per (expected tool, chosen tool) with the count written in each cell.

    ``confusion`` is Analysis.confusion (rows expected, columns chosen; may be empty, which
    gives an empty chart). Axis order follows the DataFrame; NO_TOOL is shown translated; each name as
    axis_labels gives it (at most CHART_LABEL_CHARS characters), so the chart's size is bounded by its cells.
    """
    expected_title, chosen_title = t("eval.chart.expected", lang), t("eval.chart.chosen", lang)
    order_rows = axis_labels(confusion.index, lang)
    order_cols = axis_labels(confusion.columns, lang)
    rows = [
        {
            "expected": row_label,
            "chosen": col_label,
            "runs": int(confusion.loc[e, c]),
            "diagonal": e == c,
        }
        for e, row_label in zip(confusion.index, order_rows)
        for c, col_label in zip(confusion.columns, order_cols)
    ]
    data = pd.DataFrame(rows, columns=["expected", "chosen", "runs", "diagonal"])
    base = alt.Chart(data).encode(
        x=alt.X("chosen:N", title=chosen_title, sort=order_cols, axis=alt.Axis(labelAngle=-45, **CATEGORY_AXIS)),
        y=alt.Y("expected:N", title=expected_title, sort=order_rows, axis=alt.Axis(**CATEGORY_AXIS)),
    )
    cells = base.mark_rect(stroke="white").encode(
        # counts are whole: with every cell alike (one tool pair, or all cells 1) Vega's default label read
        # "1.000000" and "49,305.000000"; tickMinStep keeps 0.5 off a legend whose counts are 0 and 1
        color=alt.Color("runs:Q", title=t("eval.chart.runs", lang), scale=alt.Scale(scheme="blues"),
                        legend=alt.Legend(format=",d", tickMinStep=1)),
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
            x=alt.X("runs:Q", title=t("eval.chart.runs", lang), axis=alt.Axis(tickMinStep=1, format=",d")),
            tooltip=[alt.Tooltip("class:N", title=" "), alt.Tooltip("runs:Q", title=t("eval.chart.runs", lang))],
        )
        .properties(height=alt.Step(30))
    )
