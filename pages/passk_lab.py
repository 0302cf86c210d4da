"""pass^k lab: how reliability falls with ambiguity, and how to estimate it honestly from runs."""

import streamlit as st

from ui.common import PERSIST, box_chars, lang, load, show_cached_chart, tr
from ui.exercise_widgets import show_page_exercises
from ui.lesson_widgets import show_page_lessons
from toolcall.charts import PASSK_DEFAULTS, RETRY_DEFAULTS, passk_chart_for, retry_chart, simulation_for
from toolcall import numfmt
from toolcall.passk import K_MAX, EstimateInputError, curve, equivalent_q, estimate, pass_k, prob_all, read_whole
from toolcall.markdown import label_head, plain
from toolcall.text import escaped_head
from toolcall.points import MAX_LISTED_SENTENCES, MAX_SHOWN_SENTENCE_CHARS, description_points, missing_points
from toolcall.tooldef import MAX_DESCRIPTION_CHARS
from ui.tool_editor import description_identity, lab_description, points_text
from ui.page import start

start("passk_lab")


def percent(x) -> str:
    """A probability as the app writes it, in the page's language (toolcall.numfmt.percent)."""
    return numfmt.percent(x, lang())


def points(delta) -> str:
    """A change in probability as percentage points, signed (for st.metric deltas; toolcall.numfmt.points)."""
    return numfmt.points(delta, lang())


#: Characters of a typed n, c or k a refusal quotes (and a quarter of what its box holds): a count this page accepts
#: has at most 5 digits.
MAX_TYPED_CHARS = 40

tool = load("tool", "tools/refund_order.json")
st.title(tr("passk.title"))
st.markdown(tr("passk.intro"))
show_page_lessons("passk_lab")

# 1. The ambiguity model ------------------------------------------------------------------
st.header(tr("passk.model_title"))
c1, c2, c3, c4 = st.columns(4)
m = c1.slider(tr("passk.m_label"), 0, 8, PASSK_DEFAULTS[1], key="passk_m", help=tr("passk.m_help"), **PERSIST)
q = c2.slider(tr("passk.q_label"), 0.50, 0.99, PASSK_DEFAULTS[0], 0.01, key="passk_q", help=tr("passk.q_help"),
               **PERSIST)
k = c3.slider(tr("passk.k_label"), 1, K_MAX, 8, key="passk_k", help=tr("passk.k_help"), **PERSIST)
rho = c4.slider(tr("passk.rho_label"), 0.0, 1.0, PASSK_DEFAULTS[2], 0.05, key="passk_rho", help=tr("passk.rho_help"),
                 **PERSIST)
lines, sim = curve(q, m, rho), simulation_for(q, m, rho)  # the chart's own, once per (q, m, rho)
show_cached_chart(passk_chart_for, q, m, rho, lang())  # the same curve and simulation, built once per input
cols = st.columns(4)
cols[0].metric(tr("passk.metric_independent", k=k), percent(lines.independent[k - 1]))
cols[1].metric(tr("passk.metric_exact", k=k, rho=f"{rho:.2f}"), percent(lines.exact[k - 1]))
cols[2].metric(tr("passk.metric_correlated", k=k), percent(lines.correlated[k - 1]))
cols[3].metric(tr("passk.metric_mc", k=k, trials=sim.trials), percent(sim.estimate[k - 1]),
               help=tr("passk.mc_help", low=percent(sim.low[k - 1]), high=percent(sim.high[k - 1]), seed=sim.seed))
with st.expander(tr("passk.derivation_title")):
    st.markdown(tr("passk.derivation"))

# 2. Each sentence you cut -----------------------------------------------------------------
st.header(tr("passk.cut_title"))
description, expected, edited = lab_description(tool)
st.markdown(tr("workbench.lab_intro_edited" if edited else "workbench.lab_intro", m=m))
if len(description) > MAX_DESCRIPTION_CHARS:  # the editor's box holds 4x what the playground accepts (box_chars)
    # read no more than the playground would: its sentences were split and drawn whole (brk16web: 40 000 characters,
    # 0.5 s per rerun and a 140 KB checkbox label); said here, since the playground's refusal is on another page
    st.warning(tr("passk.description_cut", size=f"{len(description):,}", limit=f"{MAX_DESCRIPTION_CHARS:,}"),
               icon="✂️")
    description = description[:MAX_DESCRIPTION_CHARS]
sentences = description_points(description)
# The cuts are kept while the description is the same one, translated or not (a language switch translates the
# reference: the same sentences, one for one). A new description starts with every sentence kept, each box set to
# True rather than its key deleted: deleted, a box the student had unticked stayed drawn unticked while the page
# counted it kept (newcomer session 14: "every point is still there" under an unticked box, after a switch).
identity = (description_identity(description), len(sentences))
if st.session_state.get("passk_sentences_for") != identity:
    for key in [k for k in st.session_state if str(k).startswith("passk_sentence_")]:
        del st.session_state[key]
    for i in range(min(len(sentences), MAX_LISTED_SENTENCES)):
        st.session_state[f"passk_sentence_{i}"] = True
    st.session_state["passk_sentences_for"] = identity
kept = [st.checkbox(label_head(s.text, MAX_SHOWN_SENTENCE_CHARS), value=True, key=f"passk_sentence_{i}", **PERSIST,
                    help=tr("workbench.lab_states", points=points_text(s.points)))
        for i, s in enumerate(sentences[:MAX_LISTED_SENTENCES])]
if len(sentences) > MAX_LISTED_SENTENCES:  # the rest stay kept
    kept += [True] * (len(sentences) - MAX_LISTED_SENTENCES)
    st.caption(tr("passk.sentences_not_listed", count=len(sentences) - MAX_LISTED_SENTENCES,
                  limit=MAX_LISTED_SENTENCES))
missing = missing_points(expected, sentences, kept)
cut = len(missing)
st.caption(tr("workbench.lab_missing", points=points_text(missing)) if missing else tr("workbench.lab_none_missing"))
before, after = pass_k(q, m, k, rho), pass_k(q, m + cut, k, rho)
c1, c2, c3 = st.columns(3)
c1.metric(tr("passk.cut_m"), m + cut, delta=cut or None, delta_color="inverse")
c2.metric(tr("passk.cut_pass", k=k, rho=f"{rho:.2f}"), percent(after), delta=points(after - before) if cut else None)
c3.metric(tr("passk.cut_fell"), percent(0 if before == 0 else (before - after) / before),
          help=tr("passk.cut_fell_help"))
st.caption(tr("passk.cut_band", low=percent(pass_k(q, m + cut, k, 0.0)), high=percent(pass_k(q, m + cut, k, 1.0))))
with st.expander(tr("workbench.lab_mapping_title")):
    st.markdown(tr("workbench.lab_mapping"))

# 3. Equivalences worth seeing ------------------------------------------------------------
# From here on m is the one section 2 shows: the slider's m plus every point the cuts left unstated, so the
# same screen never gives two ranges for one description (newcomer session 7, item 1).
st.header(tr("passk.equiv_title"))
if cut:
    st.caption(tr("passk.equiv_m_cut", m_set=m, cut=cut, m=m + cut))
m = m + cut
if m >= 1:
    st.markdown(tr("passk.equiv_remove", m=m, m1=m - 1, q=percent(q), q2=percent(equivalent_q(q, m)),
                   value=percent(q ** (m - 1))))
else:
    st.markdown(tr("passk.equiv_none"))
st.markdown(tr("passk.equiv_band", q=percent(q), k=k, m=m, low=percent(pass_k(q, m, k, 0.0)),
               high=percent(pass_k(q, m, k, 1.0))))

# 4. Estimating from real runs -------------------------------------------------------------
st.header(tr("passk.est_title"))
st.markdown(tr("passk.est_intro"))
c1, c2, c3 = st.columns(3)
# Text boxes, not number inputs: a number input refuses in the browser, in English, what JavaScript cannot hold
# exactly (past 9 007 199 254 740 991; with min_value / max_value, anything out of range) and keeps showing it while
# the page computes with the previous value. Every value typed is used; read_whole() and estimate() refuse it in the
# student's language.
typed = {name: column.text_input(tr(label), value=default, key=key, max_chars=box_chars(MAX_TYPED_CHARS), **PERSIST)
         for column, name, label, default, key in ((c1, "n", "passk.n_label", "10", "passk_n"),
                                                   (c2, "c", "passk.c_label", "9", "passk_c"),
                                                   (c3, "k", "passk.est_k_label", "3", "passk_est_k"))}
wholes = {name: read_whole(text) for name, text in typed.items()}
unread = next((name for name, value in wholes.items() if value is None), None)
try:
    if unread is not None:
        raise EstimateInputError("not_integer" if typed[unread].strip() else "empty", "", name=unread,
                                 value=plain(escaped_head(typed[unread].strip(), MAX_TYPED_CHARS)))
    est = estimate(wholes["n"], wholes["c"], wholes["k"])
except EstimateInputError as exc:
    st.error(tr(f"passk.err.{exc.code}", **exc.params), icon="🚫")
else:
    c1, c2, c3 = st.columns(3)
    c1.metric(tr("passk.est_hat"), percent(est.pass_hat_k))
    c2.metric(tr("passk.est_at"), percent(est.pass_at_k))
    c3.metric(tr("passk.est_naive"), percent(est.naive),
              delta=points(est.naive - est.pass_hat_k), delta_color="off",
              delta_description=tr("passk.est_naive_vs"))
    if est.printable:
        st.markdown(tr("passk.est_worked", n=est.n, c=est.c, k=est.k, good=est.comb_c_k, total=est.comb_n_k,
                       bad=est.comb_fail_k, hat=percent(est.pass_hat_k), at=percent(est.pass_at_k),
                       naive=percent(est.naive)))
st.markdown(tr("passk.est_which"))

# 5. Retries ------------------------------------------------------------------------------
st.header(tr("passk.retry_title"))
st.markdown(tr("passk.retry_intro"))
c1, c2, c3 = st.columns(3)
fail = c1.slider(tr("passk.fail_label"), 0.05, 0.50, RETRY_DEFAULTS[0], 0.01, key="passk_fail", **PERSIST)
retries = c2.slider(tr("passk.retries_label"), 0, 5, RETRY_DEFAULTS[1] - 1, key="passk_retries", **PERSIST)
retry_rho = c3.slider(tr("passk.retry_rho_label"), 0.0, 1.0, RETRY_DEFAULTS[2], 0.05, key="passk_retry_rho",
                       **PERSIST)
attempts = retries + 1
c1, c2, c3 = st.columns(3)
c1.metric(tr("passk.retry_independent", attempts=attempts), percent(prob_all(fail, attempts, 0.0)))
c2.metric(tr("passk.retry_at_rho", rho=f"{retry_rho:.2f}"), percent(prob_all(fail, attempts, retry_rho)))
c3.metric(tr("passk.retry_single"), percent(fail))
show_cached_chart(retry_chart, fail, attempts, retry_rho, lang())
st.markdown(tr("passk.retry_outro"))

st.divider()
st.header(tr("exercises.section_title"))
show_page_exercises("passk_lab")
