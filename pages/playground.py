"""Schema playground: edit a whole tool definition (name, description, input_schema) and watch the canned
model outputs, the design review and the model's view follow it."""

import streamlit as st

from ui.cards import show_card
from ui.common import PERSIST, box_chars, lang, load, tr
from ui.exercise_widgets import show_page_exercises
from ui.lesson_widgets import show_page_lessons
from ui.model_view import show_model_view
from ui.playground_pick import DEFINITION, OUTPUTS, REVIEW, pick_output, pick_panel, show_summary
from ui.strict_panel import render_strict_panel
from ui.replay import show_replay
from ui.tool_editor import show_definition, show_editor, show_picker, show_review, tool_set
from ui.widgets import translated
from toolcall import FIXTURES_DIR
from toolcall.backend import backend_for
from toolcall.markdown import plain, table
from toolcall.judge import STOP_REASONS, evaluate, evaluate_cached, evaluate_canned_cached, summarize
from toolcall.parsing import MAX_INPUT_CHARS
from toolcall.results import call_id
from toolcall.wire import FORMATS
from ui.mono import monospace
from ui.page import start

start("playground")
# The editors show JSON and code-like names: a monospace font lines up nesting and makes "line 35, column 27" findable.
monospace(("schema_editor", "workbench_definition_text", "tool_name", "playground_free_input"))

book = load("orders", "orders/orders.yaml")
refund = load("outputs", "outputs/refund_order.yaml")
st.title(tr("playground.title"))
st.markdown(tr("playground.intro"))
show_page_lessons("playground")


def _outputs(picked: str):
    """The picked tool's canned outputs (fixtures/outputs/<tool>.yaml), or None when it has none."""
    return load("outputs", f"outputs/{picked}.yaml").outputs if (FIXTURES_DIR / "outputs" / f"{picked}.yaml").exists() \
        else None


def show_free(tool, fmt: str, assert_format: bool) -> None:
    """The free box: paste a model output, pick the response's stop reason, see its card."""
    free = st.text_area(tr("playground.free_label"), key="playground_free_input", height=120, **PERSIST,
                        max_chars=box_chars(MAX_INPUT_CHARS), help=tr("playground.free_help"))
    stop = translated("radio", tr("truncation.stop_label"), STOP_REASONS,
                      {r: tr(f"truncation.stop.{r}") for r in STOP_REASONS},
                      key="playground_free_stop_reason", horizontal=True, **PERSIST)
    if free:
        judged = evaluate_cached(free, tool.input_schema, tool.name, book, lang(), fmt, call_id("free:" + free, fmt),
                                 assert_format, stop, refund.max_tokens)  # a click elsewhere judges nothing again
        show_card(judged, "playground_card_free", None, None, tool.name, fmt)
    else:
        st.caption(tr("playground.free_empty"))


def show_options() -> None:
    """What changes the whole page, drawn above the fragment so that an edit does not send it again (issue 18):
    the tool picker and presets (ui/tool_editor.show_picker), then the wire format (the business cases below
    show it too) and whether formats are asserted. Changing one reruns the page."""
    show_picker()
    fmt_col, assert_col = st.columns([4, 1.3], vertical_alignment="bottom")
    with fmt_col:
        translated("radio", tr("playground.format_label"), FORMATS, {f: tr(f"playground.format.{f}") for f in FORMATS},
                   key="playground_format", horizontal=True)
    with assert_col:
        st.toggle(tr("validator.assert_format"), key="playground_assert_format",
                  help=tr("validator.assert_format_help"), **PERSIST)


@st.fragment
def live_part() -> None:
    """Editor beside the results; a definition edit reruns only this fragment (bench/README.md). Beside the
    editor: the summary of every canned output, then ONE panel (picked with a segmented control) and, in the
    outputs panel, ONE card (picked in a list that shows every output's verdict): what is not open is not
    drawn, so an edit sends the elements of what the student sees, not of every tab (issue 18)."""
    left, right = st.columns([2, 3], gap="medium")
    with left:
        tool, _stale = show_editor()
    picked = st.session_state["playground_tool"]
    fmt = st.session_state["playground_format"]
    assert_format = st.session_state["playground_assert_format"]
    with right:
        # when stale, the editor on the left says so once, beside its error (issue 14: it was said twice)
        outputs = _outputs(picked)
        backend_book = book if picked == "refund_order" else None
        cards = evaluate_canned_cached(outputs or (), tool.input_schema, tool.name, backend_book, lang(), fmt,
                                       assert_format, refund.max_tokens)
        show_summary(cards, summarize(cards), picked)
        panel = pick_panel()
        if panel == OUTPUTS:
            shown = pick_output(cards)
            canned = next((c for c in cards if c.output.id == shown), None)
            if canned is None:
                show_free(tool, fmt, assert_format)
            else:
                show_card(canned.card, f"playground_card_{canned.output.id}", canned.output.label[lang()], canned,
                          tool.name, fmt)
        elif panel == REVIEW:
            show_review(tool, tool_set(tool, picked))
        elif panel == DEFINITION:
            show_definition(tool)
        else:
            show_model_view(tool_set(tool, picked))
    # the page's full width below both columns: its tables and side-by-side code need it (issue 14)
    render_strict_panel(tool.input_schema, tool.name, lang(), outputs=outputs or ())  # computed only when on


show_options()
live_part()
fmt = st.session_state["playground_format"]
reference_tool = load("tool", "tools/refund_order.json")

st.divider()
st.subheader(tr("playground.business_title"))
st.markdown(tr("playground.business_intro"))
# the customer id as written (the table's cells are escaped the same way): `CUST-**1001**` showed CUST-1001 in bold,
# not the id the backend compares (break-it pass brk16content)
st.caption(tr("playground.orders_caption", customer=plain(book.current_customer)))
st.markdown(table([{**o.__dict__, "item": o.item_for(lang())} for o in book.orders]))  # no pandas: bench/README.md, H
cols = st.columns(2)
for i, case in enumerate(refund.business_cases):
    with cols[i % 2]:
        card = evaluate(case.raw, reference_tool.input_schema, reference_tool.name, lang(), fmt, call_id(case.id, fmt),
                        backend_for(reference_tool.name, book))
        show_card(card, f"playground_business_{case.id}", case.label[lang()])

valid = next((o for o in refund.outputs if o.expected == "accepted"), refund.outputs[0])
show_replay(refund.replay_raw or valid.raw, reference_tool.input_schema, reference_tool.name, book, fmt)

st.divider()
st.header(tr("exercises.section_title"))
show_page_exercises("playground")
