"""Pairing checker: paste a transcript in either format, see every tool_use / tool_result rule it breaks."""

import json

import streamlit as st

from ui.common import PERSIST, box_chars, lang, load, plain, show_json, tr
from ui.mono import monospace
from ui.lesson_widgets import show_page_lessons
from toolcall.convert import MAX_PAGE_CONVERT_CHARS
from toolcall.markdown import table
from toolcall.pairing import MAX_CHARS, RULES
from toolcall.wire import ANTHROPIC, AUTO, FORMATS, OPENAI, PAIRING_CHOICES
from toolcall.transcripts import build_transcript
from ui.page import start
from ui.pairing_checks import checked, conversion
from ui.widgets import translated

#: The violations table: at 420 px the rule id (tool_use_without_result) took a third of the width, the detail
#: wrapped every three characters and the advice column was cut off (newcomer pass). The id breaks anywhere, the
#: detail and the advice keep a readable width, and a table still wider than a phone scrolls inside its own box.
REPORT_KEY = "pairing_report"
_R = f".st-key-{REPORT_KEY}"
REPORT_CSS = (f"<style>{_R} table {{ width: 100%; }} "
              f"{_R} td:first-child {{ overflow-wrap: anywhere; min-width: 5em; }} "
              f"{_R} td:nth-child(4), {_R} td:nth-child(5) {{ min-width: 7em; }} "
              f"{_R} [data-testid=stMarkdownContainer]:has(table) {{ overflow-x: auto; }}</style>")

start("pairing")

INPUT_KEY = "pairing_input"
SOURCE_KEY, TARGET_KEY, CONVERT_KEY = "convert_source", "convert_target", "convert_input"
#: Set once the student picks a converter form; until then the forms follow the transcript above.
CHOSEN_KEY = "convert_forms_chosen"
#: The text the page last put in the converter's box (the student's own text is never replaced).
PREFILLED_KEY = "convert_prefilled"
#: (example id, language, text): what the last example button put in the box above.
FILLED_KEY = "pairing_filled"
#: Problems drawn on the page at most (the report holds up to MAX_VIOLATIONS; the rest are counted).
SHOWN_ROWS = 100


def _valid_request(fmt: str) -> str:
    """The second request of the walkthrough's parallel variant (both results), as pretty JSON."""
    fixture = load("walkthrough", "transcripts/refund_walkthrough.yaml")
    tools = {name: load("tool", f"tools/{name}.json") for name in fixture.tools}
    variant = "parallel" if any(v.id == "parallel" for v in fixture.variants) else fixture.variants[0].id
    built = build_transcript(fixture, variant, fmt, tools, load("orders", "orders/orders.yaml"), lang())
    return json.dumps(built.of_kind("request")[-1], ensure_ascii=False, indent=2)


def _fill(example_id: str, text: str) -> None:
    st.session_state[INPUT_KEY] = text
    st.session_state[FILLED_KEY] = (example_id, lang(), text)


def _example_follows_language(texts: dict[str, str]) -> None:
    """Before the box is drawn: an example loaded and left as it was is the page's, so after a language switch
    it is the same example in the language the page now shows (``texts``: each example's text in it), as the
    playground's editor does (newcomer session 14: the English transcript stayed on the Chinese page). A box the
    student typed in or edited is theirs and stays."""
    filled = st.session_state.get(FILLED_KEY)
    if not filled:
        return
    example_id, language, text = filled
    if language != lang() and st.session_state.get(INPUT_KEY) == text and example_id in texts:
        _fill(example_id, texts[example_id])


def _next_form(form: str) -> str:
    """The form after ``form`` in toolcall/wire.py's FORMATS (wrapping round): the converter's default target."""
    return FORMATS[(FORMATS.index(form) + 1) % len(FORMATS)]


def _forms_chosen() -> None:
    st.session_state[CHOSEN_KEY] = True


def _use_above(text: str) -> None:
    st.session_state[CONVERT_KEY] = st.session_state[PREFILLED_KEY] = text


def _follow_above(form: str | None, text: str) -> None:
    """Before the converter is drawn: until the student picks a form, read as the form of the transcript
    above (chosen or detected; Anthropic when there is none) and show as the next form; while the
    converter's box holds nothing the student typed (empty, or what was put there last), it holds the
    transcript above, unless that is longer than the converter converts (MAX_PAGE_CONVERT_CHARS): then it is
    not copied (it was sent to the browser a second time only to be refused; the page says so instead)."""
    state = st.session_state
    if not state.get(CHOSEN_KEY):
        source = form if form in FORMATS else ANTHROPIC
        state[SOURCE_KEY], state[TARGET_KEY] = source, _next_form(source)
    prefilled = state.get(CONVERT_KEY, "") in ("", state.get(PREFILLED_KEY))
    if len(text) > MAX_PAGE_CONVERT_CHARS:  # not copied: the paste sent to the browser again, only to be refused
        if prefilled and state.get(CONVERT_KEY):  # what the page put there was an earlier transcript above
            state[CONVERT_KEY] = state[PREFILLED_KEY] = ""
    elif text.strip() and prefilled and state.get(CONVERT_KEY) != text:
        state[CONVERT_KEY] = state[PREFILLED_KEY] = text  # only when it changes: set, the box's text is sent again


examples = load("pairing", "pairing/examples.yaml")

st.title(tr("pairing.title"))
st.markdown(tr("pairing.intro"))
show_page_lessons("pairing")

# open while the box is empty; once a transcript is in, fold it so the verdict is in view
with st.expander(tr("pairing.examples"), expanded=not st.session_state.get("pairing_input")):
    # grouped by what the fixture expects of each example (no rule → valid), not by a list kept here
    valid = [(tr("pairing.valid_anthropic"), "valid_anthropic", _valid_request(ANTHROPIC)),
             (tr("pairing.valid_openai"), "valid_openai", _valid_request(OPENAI))]
    broken = []
    for example in examples:
        (broken if example.expect else valid).append((example.label[lang()], example.id, example.text[lang()]))
    for group, entries, icon in (("valid", valid, "✅"), ("broken", broken, None)):
        st.markdown(f"**{tr(f'pairing.group.{group}')}**")
        cols = st.columns(3)
        for i, (label, example_id, example_text) in enumerate(entries):
            cols[i % 3].button(label, key=f"pairing_example_{example_id}", width="stretch", on_click=_fill,
                               args=(example_id, example_text), icon=icon)
_example_follows_language({example_id: text for _, example_id, text in valid + broken})

names = {f: tr(f"pairing.format.{f}") for f in PAIRING_CHOICES}
fmt = translated("radio", tr("pairing.format_label"), PAIRING_CHOICES, names, key="pairing_format", horizontal=True)
monospace((INPUT_KEY, CONVERT_KEY))  # the transcripts are JSON: the same font as the schema editor
# persist_state: a visit to another page left both boxes empty (break-it pass brk10web)
text = st.text_area(tr("pairing.input_label"), key=INPUT_KEY, height=320, max_chars=box_chars(MAX_CHARS),
                    help=tr("pairing.input_help"), **PERSIST)
above_text, above_form = text, fmt if fmt != AUTO else None  # what the converter below starts from
above_failed = False  # the checker above could not read the transcript (its error is shown there)

if not text.strip():
    st.caption(tr("pairing.empty_input"))
else:
    report = checked(text, fmt, lang())
    if report.error:
        st.error(plain(report.error), icon="❌")
        above_failed = True
        above_form = report.looks or above_form  # the converter reads it as what it is, not as chosen
    else:
        name = names[report.fmt]
        above_form = report.fmt
        st.caption(tr("pairing.detected" if report.detected else "pairing.chosen", count=report.message_count,
                      fmt=name))
        if not report.violations and not report.message_count:  # `[]`: not a green verdict on nothing
            st.info(tr("pairing.no_messages"), icon="ℹ️")
        elif not report.violations and report.not_checked:  # also when its notes are past the notes' cap
            st.info(tr("pairing.no_violations_unchecked"), icon="ℹ️")  # not a green verdict on what was not read
        elif not report.violations:
            st.success(tr("pairing.no_violations"), icon="✅")
        else:
            total = len(report.violations) + report.more
            st.error(tr("pairing.violations", count=total), icon="🚨")
            shown = report.violations[:SHOWN_ROWS]
            # an escaped Markdown table, not st.dataframe: its cells wrap, so the detail and the advice are read
            # whole at any width (a grid cut them off at 1366 px and hid them on a phone)
            st.html(REPORT_CSS)
            st.container(key=REPORT_KEY).markdown(table([
                {tr("pairing.col_rule"): v.rule,
                 tr("pairing.col_message"): "" if v.message_index is None else v.message_index,
                 tr("pairing.col_block"): "" if v.block_index is None else v.block_index,
                 tr("pairing.col_detail"): v.detail, tr("pairing.col_advice"): v.advice} for v in shown]))
            if total > len(shown):
                st.caption(tr("pairing.shown_rows", shown=len(shown), total=total))
        if report.notes:
            left = len(report.notes) + report.notes_more - SHOWN_ROWS  # notes past the rows shown, counted
            st.info(tr("pairing.notes_title") + "\n\n" + "\n\n".join(
                [plain(f"messages[{n.message_index}]: {n.detail} {n.advice}") for n in report.notes[:SHOWN_ROWS]]
                + ([tr("pairing.notes_more", count=left)] if left > 0 else [])), icon="ℹ️")

with st.expander(tr("pairing.rules_title")):
    st.markdown(table([{tr("pairing.col_rule"): rule, tr("pairing.col_detail"): tr(f"pairing.rule.{rule}")}
                       for rule in RULES]))

st.divider()
st.subheader(tr("convert.title"))
st.markdown(tr("convert.intro"))
form_names = {f: tr(f"pairing.format.{f}") for f in FORMATS}
_follow_above(above_form, above_text)
left, right = st.columns(2)
with left:
    source = translated("selectbox", tr("convert.source_label"), FORMATS, form_names, key=SOURCE_KEY,
                        on_change=_forms_chosen)
with right:
    target = translated("selectbox", tr("convert.target_label"), FORMATS, form_names, key=TARGET_KEY,
                        on_change=_forms_chosen)
if len(above_text) > MAX_PAGE_CONVERT_CHARS:
    st.info(tr("convert.above_too_large", size=f"{len(above_text):,}", limit=f"{MAX_PAGE_CONVERT_CHARS:,}"), icon="ℹ️")
elif above_text.strip() and st.session_state.get(CONVERT_KEY) != above_text:
    st.button(tr("convert.use_above"), key="convert_use_above", help=tr("convert.use_above_help"),
              on_click=_use_above, args=(above_text,))
convert_text = st.text_area(tr("convert.input_label"), key=CONVERT_KEY, height=200, max_chars=box_chars(MAX_CHARS),
                            **PERSIST)
if source == target:
    st.info(tr("convert.same_form", form=form_names[source]), icon="ℹ️")
elif len(convert_text) > MAX_PAGE_CONVERT_CHARS:  # nothing converted: bounded CPU per rerun (issue 13)
    st.info(tr("convert.too_large", size=f"{len(convert_text):,}", limit=f"{MAX_PAGE_CONVERT_CHARS:,}"), icon="ℹ️")
elif convert_text.strip():
    converted, losses, error, problems, unchecked = conversion(convert_text, source, target, lang())
    if error and above_failed and convert_text == above_text:  # the same text's error once, not twice
        st.info(tr("convert.above_unreadable"), icon="ℹ️")
    elif error:
        st.error(plain(error), icon="❌")
    else:
        show_json(converted, MAX_CHARS)  # no longer than the transcript the box may hold, however deep it nests
        if losses:
            st.warning(tr("convert.losses_title") + "\n\n" + "\n\n".join(plain(line) for line in losses),
                       icon="⚠️")
        elif unchecked:  # not "nothing lost" in green: whether the mistakes came along is not known
            st.info(plain(tr("convert.no_loss_unchecked", reason=unchecked)), icon="ℹ️")
        elif problems:  # nothing lost, and so the pasted transcript's mistakes are carried over too
            st.warning(tr("convert.no_loss_broken", count=problems, form=form_names[target]), icon="⚠️")
        else:
            st.success(tr("convert.no_loss"), icon="✅")
