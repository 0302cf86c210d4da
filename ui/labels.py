"""Labels are shown whole: Streamlit cuts a long button, widget or metric label with an ellipsis
(``stMarkdownEllipsis``); here they wrap instead. app.py applies it on every page.

A label an instructor writes (a pairing example's button, a scenario's title) can be any length,
and a Chinese label is as wide as an English one twice its length, so no label length is safe at
390 px. tests/e2e/test_labels_fit_browser.py checks every page at 1366×768 and 390×844.
"""

import streamlit as st

WHOLE_LABELS_CSS = """<style>
button .stMarkdownEllipsis, button .stMarkdownEllipsis p,
[data-testid="stWidgetLabel"] .stMarkdownEllipsis, [data-testid="stWidgetLabel"] .stMarkdownEllipsis p,
[data-testid="stMetricLabel"] .stMarkdownEllipsis, [data-testid="stMetricLabel"] .stMarkdownEllipsis p {
  white-space: normal; text-overflow: clip; overflow-wrap: anywhere;
}
</style>"""


#: A Markdown table wider than its box (the playground's order book and idempotency replay, at a phone's width)
#: scrolls sideways inside its own box: without this its last columns were cut off at the screen's edge, with no
#: way to reach them (the replay's "keyed by order id + amount" column, the point of the table). The strict panel
#: and the pairing report scope the same rule to their own tables.
SCROLLING_TABLES_CSS = ("<style>[data-testid=stMain] [data-testid=stMarkdownContainer]:has(table) "
                        "{ overflow-x: auto; }</style>")


def whole_labels() -> None:
    """Make button, widget and metric labels wrap rather than end in "…", and a Markdown table wider than its box
    scroll sideways in it (styles only, in one element)."""
    st.html(WHOLE_LABELS_CSS + SCROLLING_TABLES_CSS)
