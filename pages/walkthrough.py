"""One tool call, step by step: Anthropic and OpenAI side by side, in every variant of the fixture."""


import streamlit as st

from ui.common import lang, load, show_code, show_json, show_load_problems, tr
from ui.exercise_widgets import show_page_exercises
from ui.lesson_widgets import show_page_lessons
from toolcall.transcripts import (STOPPED, SUCCEEDED, VALIDATION, build_side_by_side, build_transcript,
                                  result_messages)
from toolcall.wire import ANTHROPIC, OPENAI, STEP_FORMATS
from ui.page import start
from ui.widgets import translated

start("walkthrough")

STEP_KEY, VARIANT_KEY = "walkthrough_step", "walkthrough_variant"


def _reset_step() -> None:
    st.session_state[STEP_KEY] = 0


def _move(delta: int, count: int) -> None:
    current = st.session_state.get(STEP_KEY) or 0
    st.session_state[STEP_KEY] = min(max(current + delta, 0), count - 1)


fixture = load("walkthrough", "transcripts/refund_walkthrough.yaml")
variants = {v.id: v for v in fixture.variants}
tools = {name: load("tool", f"tools/{name}.json") for name in fixture.tools}
book = load("orders", "orders/orders.yaml")
if st.session_state.get(VARIANT_KEY) not in variants:
    st.session_state[VARIANT_KEY] = fixture.variants[0].id
if STEP_KEY not in st.session_state:
    st.session_state[STEP_KEY] = 0

st.title(tr("walkthrough.title"))
st.markdown(tr("walkthrough.intro"))
show_page_lessons("walkthrough")

language = lang()  # bound into format_func, which may run outside the script (e.g. under AppTest)
translated("segmented_control", tr("walkthrough.variant_label"), variants,
           {k: x.label[language] for k, x in variants.items()}, key=VARIANT_KEY, on_change=_reset_step)
variant = variants[st.session_state.get(VARIANT_KEY) or fixture.variants[0].id]
st.caption(variant.note[language])
st.markdown(tr("walkthrough.user_said"))
show_code(variant.user[language], language=None, wrap_lines=True)

try:
    pair = build_side_by_side(fixture, variant.id, tools, book, language)
except (KeyError, ValueError) as exc:  # python -m toolcall check reports these with their path
    show_load_problems("page", [exc], stop=True)
steps = pair.steps
if (st.session_state.get(STEP_KEY) or 0) >= len(steps):
    _reset_step()
step_titles = [tr("walkthrough.step_title", n=i + 1, title=tr(f"walkthrough.step.{a.code}"))
               for i, (a, _) in enumerate(steps)]
translated("segmented_control", tr("walkthrough.step_label"), range(len(steps)), dict(enumerate(step_titles)),
           key=STEP_KEY)
index = st.session_state.get(STEP_KEY) or 0
left, right, _ = st.columns([1, 1, 5])
left.button(tr("walkthrough.prev"), key="walkthrough_prev", on_click=_move, args=(-1, len(steps)),
            disabled=index == 0, width="stretch")
right.button(tr("walkthrough.next"), key="walkthrough_next", on_click=_move, args=(1, len(steps)),
             disabled=index == len(steps) - 1, width="stretch")

a_step, o_step = steps[index]
with st.container(border=True, key="walkthrough_explain"):
    st.markdown(f"**{step_titles[index]}** · {tr('walkthrough.turn', turn=a_step.turn)}")
    if a_step.code == "request_retry":
        st.caption(tr("walkthrough.retry_of", n=a_step.turn - 1, max=fixture.max_retries))
    st.markdown(tr(f"walkthrough.explain.{a_step.code}"))

if language != "en" and any(isinstance(p, dict) and "tools" in p for p in (a_step.payload, o_step.payload)):
    # the definitions go out as English wire text (README); what they say, in the page's language
    st.caption(tr("walkthrough.tools_sent_in_english"))
    for name in fixture.tools:
        st.caption(tr("common.labelled", label=f"`{name}`", value=tools[name].for_lang(language).description))


def show_payload(steps_of_format, at: int, fmt: str) -> None:
    """What goes on the wire at step ``at`` of ``steps_of_format`` (one transcript's steps, in ``fmt``).
    A request or response is shown as sent; at the validation and stopped steps nothing is sent (your
    code runs, or the loop stops): the tool results that go out in the next request are shown as such
    (none when the loop stops next), and the app's own record (verdict, backend answer, trace) only
    under a label saying it is never sent."""
    step = steps_of_format[at]
    if step.kind not in (VALIDATION, STOPPED):
        show_json(step.payload)
        return
    stops_next = at + 1 < len(steps_of_format) and steps_of_format[at + 1].kind == STOPPED
    sent_next = step.kind == VALIDATION and not stops_next
    note = "results_next" if sent_next else "results_never_sent" if step.kind == VALIDATION else "nothing_sent"
    st.caption(tr(f"walkthrough_wire.{note}"))
    if sent_next:
        show_json(result_messages(fmt, [call["tool_result"] for call in step.payload["calls"]]))
    with st.expander(tr("walkthrough_wire.own_view")):
        show_json(step.payload)


col_a, col_o = st.columns(2, gap="medium")
with col_a:
    st.subheader(tr("walkthrough.col_anthropic"))
    show_payload(pair.anthropic.steps, index, ANTHROPIC)
with col_o:
    st.subheader(tr("walkthrough.col_openai"))
    show_payload(pair.openai.steps, index, OPENAI)

others = [f for f in STEP_FORMATS if f not in (ANTHROPIC, OPENAI)]
other = translated("segmented_control", tr("walkthrough.other_form_label"), others,
                   {f: tr(f"pairing.format.{f}") for f in others}, key="walkthrough_other_form")
if other:
    st.subheader(tr(f"pairing.format.{other}"))
    show_payload(build_transcript(fixture, variant.id, other, tools, book, language).steps, index, other)

if index == len(steps) - 1:
    ok = pair.anthropic.outcome == SUCCEEDED
    text = tr(f"walkthrough.outcome.{pair.anthropic.outcome}", retries=pair.anthropic.retries)
    (st.success if ok else st.error)(text, icon="✅" if ok else "🛑")
st.caption(tr("walkthrough.usage_note"))
st.markdown(tr("walkthrough.pairing_link"))
st.page_link("pages/pairing.py", label=tr("pairing.nav"), icon="🔗")

st.divider()
st.header(tr("exercises.section_title"))
show_page_exercises("walkthrough")
