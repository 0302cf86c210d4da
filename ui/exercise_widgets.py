"""Render the exercises of one page: ``show_page_exercises("playground")`` at its bottom.

Each exercise is a form (keys ``exercises_<id>_…``) with Submit; Hint and Reveal sit
below it. Grading is toolcall.grading; progress is saved per learner in the store.
"""

from __future__ import annotations

import streamlit as st

from ui.common import file_mtime, first_in_run, lang, plain, tr
from ui.common import show_load_problems as show_load_problems_of
from ui.common import load as load_fixture
from ui.exercise_inputs import answer, draw, key, prefill, show_reference, untouched
from ui.learner import current_learner, progress_store, save_answer, storage_detail
from toolcall.exercises import Exercise, ExerciseSet, exercise_files, load_exercises
from toolcall.grading import MAX_ANSWER_CHARS, EXERCISE_TYPES, Grade, GradingInputs, grade, in_course_order
from toolcall.harness_grading import progress_entries
from ui.harness_lab import scenario_set
from toolcall.progress import REVEAL_AFTER, StorageError, cap_notes

_SHOW = {"ok": st.success, "wrong": st.error, "info": st.info, "error": st.warning}


@st.cache_data(show_spinner=False, max_entries=4)
def _load(stamp: tuple[tuple[str, float], ...]) -> ExerciseSet:
    return load_exercises()


def exercise_set() -> ExerciseSet:
    """Every exercise (cached until an exercise file changes)."""
    return _load(tuple((str(p), file_mtime(p)) for p in exercise_files()))


def course_entries() -> list:
    """Every exercise and every harness scenario (toolcall.harness_grading.progress_entries), in course order
    (toolcall.grading.in_course_order): the rows of the Exercises page's table and of the dashboard's, so both
    list them alike."""
    return in_course_order([*exercise_set().exercises, *progress_entries(scenario_set().scenarios)])


def inputs(ex: Exercise) -> GradingInputs:
    """What grading ``ex`` needs (its tool and canned outputs for schema_fix), from the cached
    fixtures; a broken file raises FixtureError."""
    return EXERCISE_TYPES[ex.type].inputs(ex, load_fixture)


def show_load_problems(loaded: ExerciseSet) -> None:
    """Tell the student, once per page, that some exercises were left out and why."""
    show_load_problems_of("exercises", loaded.problems)


def _show_grade(g: Grade) -> None:
    if g.malformed:  # not graded and not counted: no score line, only why (issue 14: "0 of 1. Try again")
        st.markdown("✍️ **" + tr("exercises.not_counted") + "**")
        for item in g.feedback:
            _SHOW[item.level](plain(item.render(lang())))
        return
    text = tr("exercises.result_correct" if g.correct else "exercises.result_partial",
              score=f"{g.score:g}", max=f"{g.max_score:g}")
    if g.correct:  # one green box: the verdict, then what the feedback adds (a second "Correct." box said it twice)
        st.success("\n".join([f"**{text}**", *(f"- {plain(item.render(lang()))}" for item in g.feedback)]),
                   icon="✅")
        return
    st.markdown(f"✍️ **{text}**")
    for item in g.feedback:
        _SHOW[item.level](plain(item.render(lang())))


def safe_store(call, *args):
    """Run a store call; on a storage failure warn (once per run, however many calls fail) and return None
    (grading goes on)."""
    try:
        return call(*args)
    except StorageError as exc:
        if first_in_run("store_error"):
            st.warning(tr("exercises.store_error", detail=storage_detail(exc)))
        return None


def show_exercise(ex: Exercise, learner: str) -> None:
    """One exercise: prompt, answer form, feedback, hints, reveal, saved progress."""
    L, store = lang(), progress_store()
    rec = safe_store(store.get, learner, ex.id)
    prefill(ex, rec.last_answer if rec else None)
    with st.container(border=True, key=key(ex, "box")):
        st.markdown(f"#### {ex.title[L]}")
        st.caption(tr(f"exercises.type.{ex.type}"))
        st.markdown(ex.prompt[L])
        draw(ex, in_form=False)
        # Submit is the one way to submit: with Enter submitting too, Enter then Submit (what a student does)
        # graded the answer twice and said "the same answer as your last try"
        with st.form(key(ex, "form"), border=False, enter_to_submit=False):
            draw(ex, in_form=True)
            submitted = st.form_submit_button(tr("exercises.submit"), key=key(ex, "submit"), type="primary")
        unanswered = untouched(ex) if submitted else None
        if unanswered:  # the starting value is never an answer: say so, grade nothing, count no try
            st.session_state.pop(key(ex, "grade"), None)
            st.info(tr(unanswered), icon="↕️")
        elif submitted:
            text = answer(ex)
            result = grade(ex, text, inputs(ex))
            st.session_state[key(ex, "grade")] = result
            # the same answer as the last try (Submit pressed twice) is graded again, not counted again
            repeat = bool(rec and rec.tries and rec.last_answer == text[:MAX_ANSWER_CHARS])
            st.session_state[key(ex, "repeat")] = repeat and not result.malformed
            if not result.malformed and not repeat:  # an empty or unreadable answer is not a try either
                saved = save_answer(learner, ex.id, text[:MAX_ANSWER_CHARS], result.score, result.max_score)
                st.session_state[key(ex, "caps")] = cap_notes(text, saved)
                rec = saved or rec
        if key(ex, "grade") in st.session_state:
            _show_grade(st.session_state[key(ex, "grade")])
            if st.session_state[key(ex, "grade")].correct:
                st.info(ex.explanation[L], icon="💡")
            if st.session_state.get(key(ex, "repeat")):
                st.caption(tr("exercises.same_answer"))
        for note, params in st.session_state.get(key(ex, "caps"), ()):
            st.info(tr(note, **params), icon="🗄️")
        if rec and rec.tries:
            st.caption(tr("exercises.progress_line", best=f"{rec.best_score:g}", max=f"{rec.max_score:g}",
                          tries=rec.tries))
        row = st.container(horizontal=True, key=key(ex, "actions"))
        if row.button(tr("exercises.hint"), key=key(ex, "hint"), disabled=not ex.hints):
            rec = safe_store(store.show_hint, learner, ex.id, len(ex.hints)) or rec
        for n in range(min(rec.hints_shown if rec else 0, len(ex.hints))):
            st.info(f"**{tr('exercises.hint_line', n=n + 1, total=len(ex.hints))}** · {ex.hints[n][L]}", icon="🔎")
        can = bool(rec and rec.can_reveal)
        if row.button(tr("exercises.reveal"), key=key(ex, "reveal"), disabled=not can) and can:
            safe_store(store.reveal, learner, ex.id)
            rec = safe_store(store.get, learner, ex.id) or rec
        graded = st.session_state.get(key(ex, "grade"))
        solved = bool(rec and rec.solved) or bool(graded and graded.correct)
        if not can and not solved:  # a solved exercise has nothing left to unlock
            st.caption(tr("exercises.reveal_locked", needed=REVEAL_AFTER, done=rec.failed_tries if rec else 0))
        elif rec and rec.revealed:
            _show_reference(ex)


def _show_reference(ex: Exercise) -> None:
    st.markdown(f"**{tr('exercises.reference')}**")
    show_reference(ex)
    st.info(ex.explanation[lang()], icon="💡")


def show_page_exercises(page_id: str) -> None:
    """Every exercise of ``page_id`` (playground, passk_lab, walkthrough, exercises)."""
    loaded, learner = exercise_set(), current_learner()
    show_load_problems(loaded)
    exercises = loaded.for_page(page_id)
    if not exercises:
        st.caption(tr("exercises.none_for_page"))
    for ex in exercises:
        show_exercise(ex, learner)

