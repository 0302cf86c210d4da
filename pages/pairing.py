"""Pairing checker: paste a transcript in either format, see every tool_use / tool_result rule it breaks."""

import json

import streamlit as st

from ui.common import lang, load, plain, show_json, tr
from ui.lesson_widgets import show_page_lessons
from toolcall.convert import convert
from toolcall.pairing import RULES, check_pairing, read_transcript
from toolcall.text import escape_invisible
from toolcall.wire import ANTHROPIC, FORMATS, OPENAI, PAIRING_CHOICES
from toolcall.transcripts import build_transcript
from ui.page import start
from ui.widgets import translated

start("pairing")

INPUT_KEY = "pairing_input"
#: Problems drawn on the page at most (the report holds up to MAX_VIOLATIONS; the rest are counted).
SHOWN_ROWS = 100


@st.cache_data(max_entries=16, show_spinner=False)
def _check(text: str, fmt: str, language: str):
    """The report for one input, computed once: reruns (any click) reuse it. A report is small
    (details capped by the checker), and at most 16 are kept."""
    return check_pairing(text, fmt, language)


def _valid_request(fmt: str) -> str:
    """The second request of the walkthrough's parallel variant (both results), as pretty JSON."""
    fixture = load("walkthrough", "transcripts/refund_walkthrough.yaml")
    tools = {name: load("tool", f"tools/{name}.json") for name in fixture.tools}
    variant = "parallel" if any(v.id == "parallel" for v in fixture.variants) else fixture.variants[0].id
    built = build_transcript(fixture, variant, fmt, tools, load("orders", "orders/orders.yaml"), lang())
    return json.dumps(built.of_kind("request")[-1], ensure_ascii=False, indent=2)


def _fill(text: str) -> None:
    st.session_state[INPUT_KEY] = text


examples = load("pairing", "pairing/examples.yaml")

st.title(tr("pairing.title"))
st.markdown(tr("pairing.intro"))
show_page_lessons("pairing")

# open while the box is empty; once a transcript is in, fold it so the verdict is in view
with st.expander(tr("pairing.examples"), expanded=not st.session_state.get("pairing_input")):
    cols = st.columns(3)
    cols[0].button(tr("pairing.valid_anthropic"), key="pairing_example_valid_anthropic", width="stretch",
                   on_click=_fill, args=(_valid_request(ANTHROPIC),), icon="✅")
    cols[1].button(tr("pairing.valid_openai"), key="pairing_example_valid_openai", width="stretch",
                   on_click=_fill, args=(_valid_request(OPENAI),), icon="✅")
    for i, example in enumerate(examples):
        cols[(i + 2) % 3].button(example.label[lang()], key=f"pairing_example_{example.id}", width="stretch",
                                 on_click=_fill, args=(example.text,))

names = {f: tr(f"pairing.format.{f}") for f in PAIRING_CHOICES}
fmt = translated("radio", tr("pairing.format_label"), PAIRING_CHOICES, names, key="pairing_format", horizontal=True)
text = st.text_area(tr("pairing.input_label"), key=INPUT_KEY, height=320)

if not text.strip():
    st.caption(tr("pairing.empty_input"))
else:
    report = _check(text, fmt, lang())
    if report.error:
        st.error(plain(report.error), icon="❌")
    else:
        name = names[report.fmt]
        st.caption(tr("pairing.detected" if report.detected else "pairing.chosen", count=report.message_count,
                      fmt=name))
        if not report.violations:
            st.success(tr("pairing.no_violations"), icon="✅")
        else:
            total = len(report.violations) + report.more
            st.error(tr("pairing.violations", count=total), icon="🚨")
            shown = report.violations[:SHOWN_ROWS]
            columns = {tr("pairing.col_rule"): st.column_config.TextColumn(width="medium"),
                       tr("pairing.col_message"): st.column_config.NumberColumn(width="small"),
                       tr("pairing.col_block"): st.column_config.NumberColumn(width="small"),
                       tr("pairing.col_detail"): st.column_config.TextColumn(width="large"),
                       tr("pairing.col_advice"): st.column_config.TextColumn(width="large")}
            st.dataframe([{tr("pairing.col_rule"): v.rule, tr("pairing.col_message"): v.message_index,
                           tr("pairing.col_block"): v.block_index, tr("pairing.col_detail"): escape_invisible(v.detail),
                           tr("pairing.col_advice"): escape_invisible(v.advice)}
                          for v in shown], hide_index=True, width="stretch", column_config=columns)
            if total > len(shown):
                st.caption(tr("pairing.shown_rows", shown=len(shown), total=total))
        if report.notes:
            st.info(tr("pairing.notes_title") + "\n\n" + "\n\n".join(
                plain(f"messages[{n.message_index}]: {n.detail} {n.advice}") for n in report.notes[:SHOWN_ROWS]),
                icon="ℹ️")

with st.expander(tr("pairing.rules_title")):
    st.dataframe([{tr("pairing.col_rule"): rule, tr("pairing.col_detail"): tr(f"pairing.rule.{rule}")}
                  for rule in RULES], hide_index=True, width="stretch")

st.divider()
st.subheader(tr("convert.title"))
st.markdown(tr("convert.intro"))
form_names = {f: tr(f"pairing.format.{f}") for f in FORMATS}
left, right = st.columns(2)
with left:
    source = translated("selectbox", tr("convert.source_label"), FORMATS, form_names, key="convert_source")
with right:
    target = translated("selectbox", tr("convert.target_label"), FORMATS, form_names, key="convert_target")
convert_text = st.text_area(tr("convert.input_label"), key="convert_input", height=200)
if convert_text.strip():
    messages, error = read_transcript(convert_text, lang())
    if error:
        st.error(plain(error), icon="❌")
    else:
        converted, losses = convert(messages, source, target)
        show_json(converted)
        if losses:
            st.warning(tr("convert.losses_title") + "\n\n" + "\n\n".join(
                plain(tr("convert.loss_line", index=loss.index, text=tr(f"convert.loss.{loss.code}")))
                for loss in losses[:SHOWN_ROWS]), icon="⚠️")
        else:
            st.success(tr("convert.no_loss"), icon="✅")
