"""Rendering of the harness lab (pages/harness_lab.py): one step of one scenario per screen.

State: ``st.session_state["harness_runs"]`` maps (scenario id, format) to a toolcall.harness.Run.
Widget keys carry the language, so a language switch draws fresh widgets in the new language
instead of keeping the old labels (the run itself, with the step reached, is kept).
Scenario texts are instructor content (trusted Markdown); what a student types is only shown
in code blocks, never as Markdown or HTML.
"""

from __future__ import annotations

import json

import streamlit as st

from ui.common import PERSIST, box_chars, file_mtime, lang, plain, show_code, show_json, show_load_problems, tr
from ui.mono import monospace
from toolcall.i18n import LANGS, sentence_gap
from toolcall.markdown import link
from ui.learner import current_learner, progress_store, storage_detail
from ui.widgets import own_words, translated
from toolcall.progress import StorageError, cap_notes
from toolcall.harness import Scenario, ScenarioSet, load_scenarios, model_response, scenario_files, starter
from toolcall.harness_grading import MAX_MOVE_CHARS, Run, new_run, play, progress_score, run_summary, step_points
from toolcall.wire import HARNESS_FORMATS as FORMATS

RUNS_KEY = "harness_runs"
SCENARIO_KEY, FORMAT_KEY = "harness_scenario", "harness_format"
TOAST_KEY = "harness_toast"  # set by a wrong move, taken by the next draw of its feedback
_ICONS = {
    "http_400": "🛑",
    "double_refund": "💸",
    "stuck_loop": "🔁",
    "lost_result": "🕳️",
    "wrong_answer": "❌",
    "crash": "💥",
    "unsafe": "⚠️",
    "context_blowup": "🎈",
}


@st.cache_data(show_spinner=False, max_entries=4)
def _load(stamp: tuple[tuple[str, float], ...]) -> ScenarioSet:
    return load_scenarios()


def scenario_set() -> ScenarioSet:
    """Every scenario, cached until a scenario file is added, removed or edited."""
    return _load(tuple((str(p), file_mtime(p)) for p in scenario_files()))


def _key(name: str, *parts: str) -> str:
    return "_".join(("harness", name, *parts, lang()))


def pick_scenario(loaded: ScenarioSet) -> tuple[Scenario, str]:
    """The scenario and wire-format pickers; returns the chosen (scenario, format)."""
    L, state = lang(), st.session_state
    ids = [s.id for s in loaded.scenarios]
    if state.get(SCENARIO_KEY) not in ids:
        state[SCENARIO_KEY] = ids[0]
    if state.get(FORMAT_KEY) not in FORMATS:
        state[FORMAT_KEY] = FORMATS[0]
    titles = {s.id: f"{s.order}. {s.title[L]}" for s in loaded.scenarios}
    left, right = st.columns([3, 2])
    left.selectbox(
        tr("harness.scenario_label"),
        ids,
        index=ids.index(state[SCENARIO_KEY]),
        key=_key("pick"),
        format_func=titles.__getitem__,
        on_change=_copy,
        args=(_key("pick"), SCENARIO_KEY),
        **own_words("selectbox"),
        **PERSIST,
    )
    right.segmented_control(
        tr("harness.format_label"),
        FORMATS,
        default=state[FORMAT_KEY],
        key=_key("fmt"),
        format_func=lambda f: tr(f"harness.format.{f}"),
        on_change=_copy,
        args=(_key("fmt"), FORMAT_KEY),
        **PERSIST,
    )
    right.caption(tr("harness.formats_only"))
    scenario = loaded.by_id(state[SCENARIO_KEY])
    fmt = state[FORMAT_KEY] if scenario.steps_for(state[FORMAT_KEY]) else FORMATS[0]
    return scenario, fmt


def _copy(widget_key: str, target: str) -> None:
    value = st.session_state.get(widget_key)
    if value is not None:  # a segmented control can be clicked off: keep the last choice
        st.session_state[target] = value


def current_run(scenario: Scenario, fmt: str) -> Run:
    """This session's run of (scenario, fmt), created on first use."""
    runs = st.session_state.setdefault(RUNS_KEY, {})
    if (scenario.id, fmt) not in runs:
        runs[(scenario.id, fmt)] = new_run(scenario, fmt)
    return runs[(scenario.id, fmt)]


def json_key(scenario_id: str, fmt: str, step_id: str) -> str:
    """The session key of a step's JSON editor (one for both languages: the text is the student's)."""
    return f"harness_json_{scenario_id}_{fmt}_{step_id}"


def choice_key(scenario_id: str, fmt: str, step_id: str) -> str:
    """The session key of a step's pick (without the language: see _choice_form)."""
    return f"harness_choice_{scenario_id}_{fmt}_{step_id}"


def _restart(scenario: Scenario, fmt: str) -> None:
    """Start (scenario, fmt) over: a new run, its picks in ``fmt`` and its JSON editors in every format cleared. The
    keys are named one by one: a prefix (``harness_json_plain_``) also cleared another scenario whose id starts with
    this one's and ``_`` (a new scenario ``plain`` wiped ``plain_call``'s editors; break-it pass brk16content)."""
    st.session_state.setdefault(RUNS_KEY, {})[(scenario.id, fmt)] = new_run(scenario, fmt)
    keys = {json_key(scenario.id, f, step.id) for f in FORMATS for step in scenario.steps} \
        | {choice_key(scenario.id, fmt, step.id) for step in scenario.steps}
    for k in keys & set(st.session_state):
        del st.session_state[k]


def show_last(g) -> None:
    """The grade of the last move: the consequence of a wrong one, the feedback of a right one."""
    if g is None:
        return
    if g.correct:
        st.success(g.feedback or tr("harness.right"), icon="✅")
        return
    if g.consequence:
        st.error(
            tr(
                "harness.consequence_line",
                icon=_ICONS[g.consequence],
                what=tr("harness.consequence." + g.consequence),
                feedback=g.feedback,
            )
        )
        return
    # the 400 is a paragraph of its own: a single newline is a soft break that Markdown draws as a space, which
    # Chinese does not put after its "：", and run on ("：**API") the bold cannot close (newcomer session 7)
    http_400 = "\n\n" + tr("harness.http_400") if any(f.http_400 for f in g.findings) else ""
    # a move the API could not even read is not a wrong try (toolcall.harness_grading.play): said as the
    # exercises say it, not "wrong, this is what would happen" (newcomer pass)
    heading = tr("harness.unreadable") if g.unreadable else tr("harness.wrong")
    lines = [f"**{heading}**{http_400}"]
    # one bullet per fault (g.shown), at most MAX_LISTED_FINDINGS; the codes are for tests and logs, not students
    listed, more = g.listed()
    lines += [f"- {plain(f.message)}" for f in listed]
    if more:
        lines.append(f"- {tr('harness.findings_more', count=more)}")
    if g.unreadable:
        st.warning("\n".join(lines), icon="✍️")
    else:
        st.error("\n".join(lines), icon="🛑")


def show_step(scenario: Scenario, run: Run) -> None:
    """The current step: the model's response and the world, then the move
    (two columns on a wide screen, stacked on a phone)."""
    L, fmt = lang(), run.fmt
    steps = scenario.steps_for(fmt)
    step = steps[run.step]
    st.progress(run.step / len(steps), text=tr("harness.step_title", n=run.step + 1, total=len(steps)))
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**{tr('harness.model_said')}**")
        response = model_response(scenario, step, fmt, L)
        if response is None:
            st.caption(tr("harness.no_model"))
        else:
            # whole, lines wrapped: a student reads the ids and stop_reason here (a fixed height scrolled them away)
            show_code(json.dumps(response, ensure_ascii=False, indent=2), language="json", wrap_lines=True)
        if step.formats != FORMATS:
            st.caption(tr("harness.only_format"))
    with right:
        if step.world:
            st.info(tr("harness.world", text=step.world[L]), icon="🌍")
        st.markdown(tr("harness.your_move", text=step.prompt[L]))
        # the feedback goes right under the move button, not below the response: the response runs ~400 px
        # past a 768 px screen, so a wrong move's consequence drawn after it changed nothing the student saw
        if step.kind == "choice":
            _choice_form(scenario, run, step)
            _show_wrong(scenario, run)
        else:
            _json_form(scenario, run, step)


def _show_wrong(scenario: Scenario, run: Run) -> None:
    """The last move's consequence when it was wrong, with the request it built (json moves), and, right after
    the click that made it, a toast with its headline: seen wherever the page is scrolled."""
    last = run.last_grade(scenario, lang())
    if last is None or last.correct:
        return
    if st.session_state.pop(TOAST_KEY, False):
        what = (tr("harness.consequence." + last.consequence) if last.consequence
                else tr("harness.toast_unreadable") if last.unreadable else tr("harness.toast_wrong"))
        st.toast(tr("harness.toast", what=what),
                 icon=_ICONS.get(last.consequence or "", "✍️" if last.unreadable else "🛑"))
    show_last(last)
    if last.request is not None:
        with st.expander(tr("harness.built_request")):
            show_json(last.request)


def _choice_form(scenario: Scenario, run: Run, step) -> None:
    L = lang()
    labels = {o.id: o.label[L] for o in step.options}
    # The pick is drawn outside any form, under a key without the language: in a form it reached the server only
    # with Submit, so a student who picked, then switched the language, found nothing picked. Submit is still the
    # one way to play a move (a pick alone plays nothing).
    picked = translated(
        "radio",
        tr("harness.choice_label"),
        [o.id for o in step.options],
        labels,
        key=choice_key(scenario.id, run.fmt, step.id),
        help=tr("harness.choice_help"),
        index=None,
        captions=[f"`{o.code[run.fmt]}`" if run.fmt in o.code else "" for o in step.options],
    )
    if st.button(tr("harness.submit"), type="primary", key=_key("submit", scenario.id, run.fmt, step.id)):
        if picked is None:  # a press with nothing picked is no move: say so, count no try
            st.warning(tr("harness.pick_first"), icon="👆")
        else:
            _play(scenario, run, picked)


def _json_form(scenario: Scenario, run: Run, step) -> None:
    L = lang()
    key = json_key(scenario.id, run.fmt, step.id)  # one editor for both languages: the text is the student's
    # ... once edited: a starter left as it was is the page's, so after a language switch it holds the customer's
    # sentence in the language the page now shows (newcomer session 14: the English one stayed on a Chinese page)
    others = {starter(scenario, step, run.fmt, other) for other in LANGS if other != L}
    if key not in st.session_state or st.session_state[key] in others:
        st.session_state[key] = starter(scenario, step, run.fmt, L)
    monospace(prefixes=("harness_json_",))  # JSON lines up, so "line 12, column 7" is findable
    if step.explain:
        with st.expander(tr("harness.hint"), icon="💡"):
            st.markdown(step.explain[L])
    with st.form(_key("form", scenario.id, run.fmt, step.id), border=False, enter_to_submit=False):
        st.text_area(tr("harness.json_label"), key=key, height=240, max_chars=box_chars(MAX_MOVE_CHARS),
                     **PERSIST)
        if st.form_submit_button(
            tr("harness.submit"), type="primary", key=_key("submit", scenario.id, run.fmt, step.id)
        ):
            _play(scenario, run, st.session_state[key])
    _show_wrong(scenario, run)  # under the button, before "Start the editor over"
    # on_click: a callback runs before the next run draws the editor; set after it is drawn, Streamlit refused
    # the write (StreamlitAPIException) and the button broke the page (break-it pass brk12web)
    st.button(tr("harness.reset_editor"), key=_key("reset", scenario.id, run.fmt, step.id), on_click=_set_state,
              args=(key, starter(scenario, step, run.fmt, L)))


def _set_state(key: str, value) -> None:
    st.session_state[key] = value


def _play(scenario: Scenario, run: Run, move: str) -> None:
    st.session_state[TOAST_KEY] = not play(scenario, run, move, lang()).correct
    if run.done(scenario):
        _save(scenario, run)
    st.rerun()


def _save(scenario: Scenario, run: Run) -> None:
    score, points = progress_score(scenario, run)
    summary = run_summary(scenario, run)
    st.session_state["harness_caps"] = []
    try:
        rec = progress_store().record(current_learner(), scenario.progress_id, summary, score, points)
    except StorageError as exc:  # what every store raises when its database is unusable
        st.session_state["harness_store_error"] = storage_detail(exc)
    else:
        st.session_state["harness_store_error"] = False
        st.session_state["harness_caps"] = cap_notes(summary, rec)


def show_done(scenario: Scenario, run: Run, following: Scenario | None = None) -> None:
    """The end of a run: the score, where it was saved, each step's result, the best so far, and
    a button to ``following`` (the next scenario, if any)."""
    score, points = run.score(scenario)
    done = (tr("harness.done", score=f"{score:g}", max=f"{points:g}"),
            tr("harness.done_saved", id=scenario.progress_id))
    st.success(sentence_gap(lang()).join(done), icon="🏁")
    st.markdown("\n".join(f"- {line}" for line in recap_lines(scenario, run)))
    if st.session_state.get("harness_store_error"):
        st.warning(tr("exercises.store_error", detail=st.session_state["harness_store_error"]))
    for note, params in st.session_state.get("harness_caps", ()):
        st.info(tr(note, **params), icon="🗄️")
    try:
        rec = progress_store().get(current_learner(), scenario.progress_id)
    except StorageError:
        rec = None
    if rec is not None:
        # best_score is on the scale of progress_score (2/3 of an OpenAI run on a 4-point scenario: 2.67)
        st.caption(tr("harness.progress_line", best=f"{round(rec.best_score, 2):g}", max=f"{rec.max_score:g}",
                      tries=rec.tries))
    if following is not None:
        st.button(tr("harness.next_scenario", title=following.title[lang()]), type="primary", icon="➡️",
                  key=_key("next", scenario.id, run.fmt), on_click=_go_to, args=(following.id,))


def recap_lines(scenario: Scenario, run: Run) -> list[str]:
    """One line per step of a finished run in the page's language: its number, how many wrong moves
    came before the right one, the points it earned (toolcall.harness_grading.step_points)."""
    steps = scenario.steps_for(run.fmt)
    lines = []
    for n, wrong in enumerate(run.wrong[: len(steps)], start=1):
        key = "right_first" if not wrong else "wrong_one" if wrong == 1 else "wrong_many"
        what = tr(f"harness.recap.{key}", count=wrong)
        lines.append(tr("harness.recap.line", n=n, total=len(steps), what=what, points=f"{step_points(wrong):g}"))
    return lines


def next_scenario(loaded: ScenarioSet, scenario: Scenario) -> Scenario | None:
    """The scenario after ``scenario`` in the picker's order, None after the last."""
    ids = [s.id for s in loaded.scenarios]
    at = ids.index(scenario.id)
    return loaded.scenarios[at + 1] if at + 1 < len(ids) else None


def _go_to(scenario_id: str) -> None:
    st.session_state[SCENARIO_KEY] = scenario_id
    # the picker's own state would keep showing the old scenario: dropped, it is drawn again from SCENARIO_KEY
    st.session_state.pop(_key("pick"), None)


def show_lab() -> None:
    """The whole lab below the page title: pickers, the current step (or the result), restart."""
    loaded = scenario_set()
    show_load_problems("scenarios", loaded.problems)
    if not loaded.scenarios:
        st.stop()
    scenario, fmt = pick_scenario(loaded)
    st.caption(scenario.summary[lang()])
    st.markdown(f"**{tr('walkthrough.user_said')}**")
    show_code(scenario.user[lang()], language=None, wrap_lines=True)
    run = current_run(scenario, fmt)
    last = run.last_grade(scenario, lang())
    if last is not None and last.correct:
        show_last(last)
    if run.done(scenario):
        show_done(scenario, run, next_scenario(loaded, scenario))
    else:
        show_step(scenario, run)
    st.button(tr("harness.restart"), key=_key("restart", scenario.id, fmt), on_click=_restart, args=(scenario, fmt))
    st.caption(tr("harness.score_rule"))
    if scenario.sources:
        st.caption(tr("common.labelled", label=tr("harness.sources"), value=" · ".join(map(link, scenario.sources))))
