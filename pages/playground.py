"""Schema playground: edit a whole tool definition (name, description, input_schema) and watch the canned
model outputs, the design review and the model's view follow it."""

import streamlit as st

from ui.cards import show_card
from ui.common import box_chars, lang, load, plain, tr
from ui.exercise_widgets import show_page_exercises
from ui.lesson_widgets import show_page_lessons
from ui.model_view import show_model_view
from ui.strict_panel import render_strict_panel
from ui.replay import show_replay
from ui.tool_editor import show_definition, show_editor, show_review, tool_set
from ui.widgets import translated
from toolcall import FIXTURES_DIR
from toolcall.backend import backend_for
from toolcall.markdown import table
from toolcall.judge import STOP_REASONS, evaluate, evaluate_canned_cached, summarize
from toolcall.parsing import MAX_INPUT_CHARS
from toolcall.results import call_id
from toolcall.wire import FORMATS
from ui.page import start

start("playground")
# The editors show JSON and code-like names: a monospace font lines up nesting and makes "line 35, column 27" findable.
st.html("<style>.st-key-schema_editor textarea, .st-key-workbench_definition_text textarea, .st-key-tool_name input "
        "{ font-family: 'Source Code Pro', ui-monospace, monospace; }</style>")

book = load("orders", "orders/orders.yaml")
refund = load("outputs", "outputs/refund_order.yaml")
st.title(tr("playground.title"))
st.markdown(tr("playground.intro"))
show_page_lessons("playground")


def _outputs(picked: str):
    """The picked tool's canned outputs (fixtures/outputs/<tool>.yaml), or None when it has none."""
    return load("outputs", f"outputs/{picked}.yaml").outputs if (FIXTURES_DIR / "outputs" / f"{picked}.yaml").exists() \
        else None


@st.fragment
def live_part() -> None:
    """Editor beside the results; a definition edit reruns only this fragment (bench/README.md)."""
    left, right = st.columns([2, 3], gap="medium")
    with left:
        tool, _stale = show_editor()
    picked = st.session_state["playground_tool"]
    with right:
        fmt = translated("radio", tr("playground.format_label"), FORMATS,
                         {f: tr(f"playground.format.{f}") for f in FORMATS}, key="playground_format", horizontal=True)
        if st.session_state.setdefault("playground_format_drawn", fmt) != fmt:
            st.session_state["playground_format_drawn"] = fmt
            st.rerun(scope="app")  # the business cases below show the wire format too
        # when stale, the editor on the left says so once, beside its error (issue 14: it was said twice)
        outputs = _outputs(picked)
        backend_book = book if picked == "refund_order" else None
        assert_format = st.toggle(tr("validator.assert_format"), key="playground_assert_format",
                                  help=tr("validator.assert_format_help"))
        cards = evaluate_canned_cached(outputs or (), tool.input_schema, tool.name, backend_book, lang(), fmt,
                                       assert_format, refund.max_tokens)
        summary = summarize(cards)
        tabs = st.tabs([tr("workbench.tab_outputs"), tr("workbench.tab_review"), tr("workbench.tab_definition"),
                        tr("workbench.tab_model")])
        with tabs[0]:
            if cards:
                with st.container(border=True, key="playground_summary"):
                    labels = {c.output.id: c.output.label[lang()] for c in cards}
                    st.markdown("**" + tr("playground.summary", matched=summary.matched, total=summary.total) + "**")
                    if summary.leaked:
                        st.error(plain(tr("playground.summary_leaked", ids=tr("word.list_sep").join(
                            labels[i] for i in summary.leaked))), icon="🚨")
                    if summary.unexpected_rejections:
                        st.warning(plain(tr("playground.summary_overrejected", ids=tr("word.list_sep").join(
                            labels[i] for i in summary.unexpected_rejections))))
                    if not summary.leaked:
                        st.success(tr("playground.summary_all_good"))
            else:
                st.info(tr("workbench.no_outputs", tool=picked))
            names = [plain(c.output.label[lang()]) for c in cards]  # stable labels: the open tab stays open
            for tab, canned in zip(st.tabs([*names, tr("workbench.tab_free")]), [*cards, None]):
                with tab:
                    if canned is not None:
                        show_card(canned.card, f"playground_card_{canned.output.id}", canned.output.label[lang()],
                                  canned, tool.name, fmt)
                        continue
                    free = st.text_area(tr("playground.free_label"), key="playground_free_input", height=120,
                                        persist_state="session", max_chars=box_chars(MAX_INPUT_CHARS))
                    stop = translated("radio", tr("truncation.stop_label"), STOP_REASONS,
                                      {r: tr(f"truncation.stop.{r}") for r in STOP_REASONS},
                                      key="playground_free_stop_reason", horizontal=True)
                    if free:
                        judged = evaluate(free, tool.input_schema, tool.name, lang(), fmt, call_id("free:" + free, fmt),
                                          backend_for(tool.name, book), assert_format, stop, refund.max_tokens)
                        show_card(judged,
                                  "playground_card_free", None, None, tool.name, fmt)
                    else:
                        st.caption(tr("playground.free_empty"))
        with tabs[1]:
            show_review(tool, tool_set(tool, picked))
        with tabs[2]:
            show_definition(tool)
        with tabs[3]:
            show_model_view(tool_set(tool, picked))
    # the page's full width below both columns: its tables and side-by-side code need it (issue 14)
    render_strict_panel(tool.input_schema, tool.name, lang(), outputs=outputs or ())  # computed only when on


live_part()
fmt = st.session_state["playground_format"]
reference_tool = load("tool", "tools/refund_order.json")

st.divider()
st.subheader(tr("playground.business_title"))
st.markdown(tr("playground.business_intro"))
st.caption(tr("playground.orders_caption", customer=book.current_customer))
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
