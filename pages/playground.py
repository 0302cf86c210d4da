"""Schema playground: edit refund_order's input_schema, watch the canned outputs pass or fail."""

import streamlit as st

from ui.cards import show_card
from ui.common import lang, load, plain, show_json, tr
from ui.widgets import translated
from ui.exercise_widgets import show_page_exercises
from ui.lesson_widgets import show_page_lessons
from toolcall.backend import RefundBackend
from toolcall.judge import evaluate, evaluate_canned_cached, summarize
from toolcall.presets import PRESETS, preset_text, schema_text
from toolcall.results import call_id
from toolcall.markdown import table
from toolcall.wire import FORMATS
from toolcall.validation import check_schema_cached
from ui.page import start
from ui.strict_panel import render_strict_panel

start("playground")
# The schema editor shows JSON: a monospace font lines up nesting and makes "line 35, column 27" findable.
st.html("<style>.st-key-schema_editor textarea { font-family: 'Source Code Pro', ui-monospace, monospace; }</style>")

tool = load("tool", "tools/refund_order.json")
fixture = load("outputs", "outputs/refund_order.yaml")
book = load("orders", "orders/orders.yaml")
reference = schema_text(tool.input_schema)

if "schema_editor" not in st.session_state:
    st.session_state["schema_editor"] = reference


def _preset_text(preset: str) -> str:
    """The editor text a preset writes (the reference schema's text for "reference")."""
    return preset_text(reference, preset)


def _apply_preset() -> None:
    st.session_state["schema_editor"] = _preset_text(st.session_state["playground_preset"])


def _reset() -> None:
    st.session_state["playground_preset"] = "reference"
    st.session_state["schema_editor"] = reference


st.title(tr("playground.title"))
st.markdown(tr("playground.intro"))
show_page_lessons("playground")


@st.fragment
def live_part() -> None:
    """The editor, the canned cards and the free box. A schema edit reruns only this fragment:
    about half the messages of a full run (bench/README.md has the measurements)."""
    left, right = st.columns([2, 3], gap="large")

    with left:
        preset = translated("selectbox", tr("playground.preset_label"), PRESETS,
                            {p: tr(f"playground.preset.{p}") for p in PRESETS}, key="playground_preset",
                            on_change=_apply_preset)
        edited = st.session_state["schema_editor"] != _preset_text(preset)
        st.caption(tr("playground.preset_edited") if edited else tr(f"playground.preset_lesson.{preset}"))
        with st.container(horizontal=True):  # one block, not a row of two columns (fewer messages per edit)
            st.button(tr("playground.preset_apply"), key="playground_apply_preset", on_click=_apply_preset,
                      width="stretch")
            st.button(tr("playground.reset"), key="playground_reset", on_click=_reset, width="stretch")
        # the verdict on the schema sits above the tall editor, where a student sees it
        checked = check_schema_cached(st.session_state["schema_editor"], lang())
        if checked.ok:
            st.session_state["playground_last_good"] = checked.schema
            st.success(tr("playground.schema_ok"), icon="✅")
        else:
            st.error(plain(checked.message), icon="❌")
            st.warning(tr("playground.stale"), icon="⏳")
        st.text_area(tr("playground.editor_label"), key="schema_editor", height=620, persist_state="session")
    schema = st.session_state.get("playground_last_good", tool.input_schema)

    with right:
        fmt = translated("radio", tr("playground.format_label"), FORMATS,
                         {f: tr(f"playground.format.{f}") for f in FORMATS}, key="playground_format", horizontal=True)
        if st.session_state.setdefault("playground_format_drawn", fmt) != fmt:
            st.session_state["playground_format_drawn"] = fmt
            st.rerun(scope="app")  # the business cases below show the wire format too
        assert_format = st.toggle(tr("validator.assert_format"), key="playground_assert_format",
                                  help=tr("validator.assert_format_help"))
        cards = evaluate_canned_cached(fixture.outputs, schema, tool.name, book, lang(), fmt, assert_format)
        summary = summarize(cards)
        with st.container(border=True, key="playground_summary"):
            st.markdown("**" + tr("playground.summary", matched=summary.matched, total=summary.total) + "**")
            labels = {c.output.id: c.output.label[lang()] for c in cards}
            if summary.leaked:
                leaked = tr("word.list_sep").join(labels[i] for i in summary.leaked)
                st.error(plain(tr("playground.summary_leaked", ids=leaked)),
                         icon="🚨")
            if summary.unexpected_rejections:
                st.warning(plain(tr("playground.summary_overrejected",
                                    ids=tr("word.list_sep").join(labels[i] for i in summary.unexpected_rejections))))
            if not summary.leaked:
                st.success(tr("playground.summary_all_good"))
        if not checked.ok:
            st.caption(tr("playground.stale"))
        for canned in cards:
            show_card(canned.card, f"playground_card_{canned.output.id}", canned.output.label[lang()], canned)

    st.divider()
    st.subheader(tr("playground.free_title"))
    free = st.text_area(tr("playground.free_label"), key="playground_free_input", height=140, persist_state="session")
    if free:
        show_card(evaluate(free, schema, tool.name, lang(), fmt, call_id("free:" + free, fmt), RefundBackend(book),
                           assert_format),
                  "playground_card_free")
    else:
        st.caption(tr("playground.free_empty"))
    render_strict_panel(schema, tool.name, lang(), outputs=fixture.outputs)  # computed only when its toggle is on


live_part()
fmt = st.session_state["playground_format"]

st.divider()
st.subheader(tr("playground.business_title"))
st.markdown(tr("playground.business_intro"))
st.caption(tr("playground.orders_caption", customer=book.current_customer))
ORDER_COLUMNS = ("order_id", "customer_id", "paid_cents", "status", "item")
st.markdown(table(list(ORDER_COLUMNS), [[o.order_id, o.customer_id, o.paid_cents, o.status, o.item_for(lang())]
                                        for o in book.orders]))  # Markdown, not st.dataframe: no pandas on this page
cols = st.columns(2)
for i, case in enumerate(fixture.business_cases):
    with cols[i % 2]:
        card = evaluate(case.raw, tool.input_schema, tool.name, lang(), fmt, call_id(case.id, fmt), RefundBackend(book))
        show_card(card, f"playground_business_{case.id}", case.label[lang()])

st.subheader(tr("playground.idempotency_title"))
st.markdown(tr("playground.idempotency_intro"))
valid = next((o for o in fixture.outputs if o.expected == "accepted"), fixture.outputs[0])
replay_backend = RefundBackend(book)
replay_call = call_id("replay:" + valid.id, fmt)
first = evaluate(valid.raw, tool.input_schema, tool.name, lang(), fmt, replay_call, replay_backend)
again = evaluate(valid.raw, tool.input_schema, tool.name, lang(), fmt, replay_call, replay_backend)
c1, c2 = st.columns(2)
with c1:
    st.caption(tr("playground.first_call"))
    show_json(first.tool_result)
with c2:
    st.caption(tr("playground.replayed_call"))
    show_json(again.tool_result)
for order_id, cents in replay_backend.refunded.items():
    st.info(tr("playground.refunded_total", order_id=order_id, cents=cents, double=2 * cents), icon="🔁")

st.divider()
st.header(tr("exercises.section_title"))
show_page_exercises("playground")
