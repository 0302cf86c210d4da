"""The playground's pickers (pages/playground.py): the summary of every canned output, the panel beside the
editor and the output whose card is drawn. One panel and one card are drawn at a time: ``st.tabs`` sends
every tab's elements on every rerun, and with a card per canned output in tabs a schema edit sent 152
messages (bench/README.md, section I; issue 18). The pickers' values are ids, kept across edits, language
switches and page visits (``**PERSIST``).
"""

from __future__ import annotations

import streamlit as st

from toolcall.safe_validator import SizedCache
from ui.common import PERSIST, label, lang, plain, tr
from ui.tool_editor import CUSTOM
from ui.widgets import translated

#: The panels beside the editor, in the picker's order: ``playground_panel``'s values.
OUTPUTS, REVIEW, DEFINITION, MODEL = "outputs", "review", "definition", "model"
PANELS = (OUTPUTS, REVIEW, DEFINITION, MODEL)
_PANEL_LABELS = {OUTPUTS: "workbench.tab_outputs", REVIEW: "workbench.tab_review",
                 DEFINITION: "workbench.tab_definition", MODEL: "workbench.tab_model"}
#: ``playground_output``'s value for the free box. Output ids match ^[a-z][a-z0-9_]*$ (fixtures/schemas/
#: outputs.schema.json), so no canned output can take it.
FREE = "-free"
#: How each output's outcome under the edited schema is marked in the summary (the picker's captions match).
ICONS = {"matched": "✅", "leaked": "🚨", "overrejected": "⚠️", "not_checked": "⏳"}


def outcome(canned) -> str:
    """``matched`` (the expected verdict), ``leaked`` (a bad output accepted), ``not_checked`` (the rerun's time
    budget was spent before it) or ``overrejected``."""
    return ("leaked" if canned.leaked else "matched" if canned.matches else "not_checked" if canned.not_checked
            else "overrejected")


def show_summary(cards, summary, picked: str) -> None:
    """Every canned output counted (matched N of M; the leaked and the wrongly rejected ones by label), or
    the note that ``picked`` has none."""
    if not cards:
        # "custom" is an id, never a name to show a student
        st.info(tr("workbench.no_outputs_custom") if picked == CUSTOM else tr("workbench.no_outputs", tool=picked))
        return
    with st.container(border=True, key="playground_summary"):
        labels = {c.output.id: c.output.label[lang()] for c in cards}
        st.markdown("**" + tr("playground.summary", matched=summary.matched, total=summary.total) + "**")
        if summary.leaked:
            st.error(plain(tr("playground.summary_leaked", ids=tr("word.list_sep").join(
                labels[i] for i in summary.leaked))), icon=ICONS["leaked"])
        if summary.unexpected_rejections:
            st.warning(plain(tr("playground.summary_overrejected", ids=tr("word.list_sep").join(
                labels[i] for i in summary.unexpected_rejections))), icon=ICONS["overrejected"])
        if summary.not_checked:
            st.warning(plain(tr("playground.summary_not_checked", ids=tr("word.list_sep").join(
                labels[i] for i in summary.not_checked))), icon=ICONS["not_checked"])
        elif not summary.leaked:  # "no bad output leaks" is not known of the outputs left unchecked
            st.success(tr("playground.summary_all_good"))


def pick_panel() -> str:
    """The panel picker (a segmented control, one of PANELS; the outputs at first)."""
    st.session_state.setdefault("playground_panel", OUTPUTS)
    return translated("segmented_control", tr("playground.panel_label"), PANELS,
                      {p: tr(_PANEL_LABELS[p]) for p in PANELS}, key="playground_panel", required=True,
                      label_visibility="collapsed", wrap=True, **PERSIST) or OUTPUTS


#: The picker's labels and captions by the identity of the judged cards (evaluate_canned_cached shares one list
#: per schema across reruns and sessions; the entry holds it, so its id is not reused meanwhile) and the language:
#: an edit that leaves the verdicts as another edit left them translates and escapes nothing again.
_labels = SizedCache(max_entries=512, max_bytes=4 * 1024 ** 2)


def output_labels(cards) -> tuple[dict[str, str], list[str]]:
    """The output picker's options: each canned output's id → its label, then FREE → the free box; and
    one caption per option: empty when the output got its expected verdict, else what went wrong under
    this schema (leaked, or a valid output rejected), so every problem shows at a glance. The labels stay
    the same from edit to edit: the browser sends back the label of the option clicked, and a label that
    changed while an edit's rerun was on its way (a click right after the edit) would match no option.
    Shared: read them, never change them."""
    key = (id(cards), lang())
    hit = _labels.get(key)
    if hit is not None and hit[0] is cards:
        return hit[1], hit[2]
    labels = {c.output.id: label(c.output.label[lang()]) for c in cards}  # read aloud: no needless backslashes
    labels[FREE] = tr("playground.output_free", label=tr("workbench.tab_free"))
    captions = [{"matched": "", "leaked": tr("playground.output_leaked"),
                 "overrejected": tr("playground.output_overrejected"),
                 "not_checked": tr("playground.output_not_checked")}[outcome(c)] for c in cards] + [""]
    _labels.put(key, (cards, labels, captions))
    return labels, captions


def pick_output(cards) -> str:
    """The output picker (a radio list with captions, see output_labels): the picked output's id, or FREE.
    A tool that lacks the picked output shows its first one."""
    labels, captions = output_labels(cards)
    return translated("radio", tr("playground.output_pick"), list(labels), labels, key="playground_output",
                      captions=captions, help=tr("playground.output_pick_help"), **PERSIST)
