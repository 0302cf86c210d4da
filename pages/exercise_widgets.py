"""Render the exercises of one page: ``show_page_exercises("playground")`` at its bottom.

Each exercise is a form (keys ``exercises_<id>_…``) with Submit; Hint and Reveal sit
below it. Grading is toolcall.grading; progress is saved per learner in the store.
"""

from __future__ import annotations

import json
import sqlite3
import streamlit as st

from pages.common import lang, load, plain, show_json, tr
from pages.learner import current_learner, progress_store
from toolcall.exercises import Exercise, ExerciseSet, exercise_files, load_exercises
from toolcall.grading import MAX_ANSWER_CHARS, Grade, answer_value, grade
from toolcall.playground import apply_preset, schema_text
from toolcall.progress import REVEAL_AFTER

_SHOW = {"ok": st.success, "wrong": st.error, "info": st.info, "error": st.warning}


@st.cache_data(show_spinner=False, max_entries=4)
def _load(stamp: tuple[tuple[str, float], ...]) -> ExerciseSet:
    return load_exercises()


def exercise_set() -> ExerciseSet:
    """Every exercise (cached until an exercise file changes)."""
    return _load(tuple((str(p), p.stat().st_mtime) for p in exercise_files()))


def show_load_problems(loaded: ExerciseSet) -> None:
    """Tell the student, once per page, that some exercises were left out and why."""
    if loaded.problems:
        st.warning(tr("exercises.load_problems"))
        st.code("\n".join(map(str, loaded.problems)), language=None)


def _key(ex: Exercise, part: str) -> str:
    return f"exercises_{ex.id}_{part}"


def _starter(ex: Exercise) -> str:
    if ex.type == "schema_fix":
        tool = load("tool", f"tools/{ex.spec['tool']}.json")
        return schema_text(apply_preset(tool.input_schema, ex.spec["starter_preset"]))
    return ex.spec.get("starter", "")


def _prefill(ex: Exercise, stored: str | None) -> None:
    """Put the stored (or starter) answer into the widgets' keys before they are drawn."""
    value = answer_value(ex, stored) if stored else None
    if ex.type == "choice" and ex.spec["multiple"]:
        for opt in ex.spec["options"]:
            st.session_state.setdefault(_key(ex, "opt_" + opt["id"]), bool(value and opt["id"] in value))
    elif ex.type == "choice":
        st.session_state.setdefault(_key(ex, "answer"), value[0] if value else None)
    elif ex.type == "classify":
        for item in ex.spec["items"]:
            st.session_state.setdefault(_key(ex, "item_" + item["id"]), (value or {}).get(item["id"]))
    elif ex.type == "order":
        st.session_state.setdefault(_key(ex, "answer"), value or [])
    else:
        st.session_state.setdefault(_key(ex, "answer"), value if value is not None else _starter(ex))


def _widgets(ex: Exercise) -> None:
    L = lang()
    labels = {k: ex.labels(k) for k in ("options", "steps", "categories", "items")}
    if ex.type == "choice" and ex.spec["multiple"]:
        st.caption(tr("exercises.choose_many"))
        for oid, text in labels["options"].items():
            st.checkbox(text[L], key=_key(ex, "opt_" + oid))
    elif ex.type == "choice":
        st.radio(tr("exercises.choose_one"), list(labels["options"]), key=_key(ex, "answer"),
                 format_func=lambda o: labels["options"][o][L])
    elif ex.type == "number":
        st.text_input(tr("exercises.number_label"), key=_key(ex, "answer"))
    elif ex.type in ("json", "schema_fix"):
        label = tr("exercises.json_label" if ex.type == "json" else "exercises.schema_label")
        st.text_area(label, key=_key(ex, "answer"), height=360 if ex.type == "schema_fix" else 220)
    elif ex.type == "order":
        st.multiselect(tr("exercises.order_label"), list(labels["steps"]), key=_key(ex, "answer"),
                       format_func=lambda s: labels["steps"][s][L])
    else:
        cats = list(labels["categories"])
        for iid, text in labels["items"].items():
            st.selectbox(text[L], cats, key=_key(ex, "item_" + iid), placeholder=tr("exercises.classify_label"),
                         format_func=lambda c: labels["categories"][c][L])


def _answer(ex: Exercise) -> str:
    """The answer text (toolcall.grading's format) from the widgets' values."""
    s = st.session_state
    if ex.type == "choice" and ex.spec["multiple"]:
        return json.dumps([o["id"] for o in ex.spec["options"] if s.get(_key(ex, "opt_" + o["id"]))])
    if ex.type == "choice":
        return json.dumps([s[_key(ex, "answer")]] if s.get(_key(ex, "answer")) else [])
    if ex.type == "order":
        return json.dumps(s.get(_key(ex, "answer")) or [])
    if ex.type == "classify":
        chosen = {i["id"]: s.get(_key(ex, "item_" + i["id"])) for i in ex.spec["items"]}
        return json.dumps({k: v for k, v in chosen.items() if v})
    return s.get(_key(ex, "answer")) or ""


def _show_grade(g: Grade) -> None:
    text = tr("exercises.result_correct" if g.correct else "exercises.result_partial",
              score=f"{g.score:g}", max=f"{g.max_score:g}")
    st.markdown(("✅ " if g.correct else "✍️ ") + f"**{text}**")
    for item in g.feedback:
        _SHOW[item.level](plain(item.render(lang())))


def safe_store(call, *args):
    """Run a store call; on a storage failure warn and return None (grading goes on)."""
    try:
        return call(*args)
    except (sqlite3.Error, OSError) as exc:
        st.warning(tr("exercises.store_error", detail=type(exc).__name__))
        return None


def show_exercise(ex: Exercise, learner: str) -> None:
    """One exercise: prompt, answer form, feedback, hints, reveal, saved progress."""
    L, store = lang(), progress_store()
    rec = safe_store(store.get, learner, ex.id)
    _prefill(ex, rec.last_answer if rec else None)
    with st.container(border=True, key=_key(ex, "box")):
        st.markdown(f"#### {ex.title[L]}")
        st.caption(tr(f"exercises.type.{ex.type}"))
        st.markdown(ex.prompt[L])
        with st.form(_key(ex, "form"), border=False):
            _widgets(ex)
            submitted = st.form_submit_button(tr("exercises.submit"), key=_key(ex, "submit"), type="primary")
        if submitted:
            text = _answer(ex)
            result = grade(ex, text)
            st.session_state[_key(ex, "grade")] = result
            rec = safe_store(store.record, learner, ex.id, text[:MAX_ANSWER_CHARS], result.score, result.max_score) or rec
        if _key(ex, "grade") in st.session_state:
            _show_grade(st.session_state[_key(ex, "grade")])
            if st.session_state[_key(ex, "grade")].correct:
                st.info(ex.explanation[L], icon="💡")
        if rec and rec.tries:
            st.caption(tr("exercises.progress_line", best=f"{rec.best_score:g}", max=f"{rec.max_score:g}",
                          tries=rec.tries))
        c1, c2 = st.columns(2)
        if c1.button(tr("exercises.hint"), key=_key(ex, "hint"), disabled=not ex.hints):
            rec = safe_store(store.show_hint, learner, ex.id, len(ex.hints)) or rec
        for n in range(min(rec.hints_shown if rec else 0, len(ex.hints))):
            st.info(f"**{tr('exercises.hint_line', n=n + 1, total=len(ex.hints))}** · {ex.hints[n][L]}", icon="🔎")
        can = bool(rec and rec.can_reveal)
        if c2.button(tr("exercises.reveal"), key=_key(ex, "reveal"), disabled=not can) and can:
            safe_store(store.reveal, learner, ex.id)
            rec = safe_store(store.get, learner, ex.id) or rec
        if not can:
            st.caption(tr("exercises.reveal_locked", needed=REVEAL_AFTER, done=rec.failed_tries if rec else 0))
        elif rec and rec.revealed:
            _show_reference(ex)


def _show_reference(ex: Exercise) -> None:
    L = lang()
    st.markdown(f"**{tr('exercises.reference')}**")
    if ex.type in ("json", "schema_fix"):
        show_json(ex.answer)
    elif ex.type == "number":
        st.code(f"{ex.answer:g}", language=None)
    else:
        kinds = {"choice": "options", "order": "steps"}
        if ex.type == "classify":
            items, cats = ex.labels("items"), ex.labels("categories")
            st.dataframe([{"": items[i][L], tr("exercises.classify_label"): cats[c][L]} for i, c in ex.answer.items()],
                         hide_index=True, width="stretch")
        else:
            labels = ex.labels(kinds[ex.type])
            st.markdown("\n".join(f"{n + 1}. {labels[a][L]}" for n, a in enumerate(ex.answer)))
    st.info(ex.explanation[L], icon="💡")


def show_page_exercises(page_id: str) -> None:
    """Every exercise of ``page_id`` (playground, passk_lab, walkthrough, exercises)."""
    loaded, learner = exercise_set(), current_learner()
    show_load_problems(loaded)
    exercises = loaded.for_page(page_id)
    if not exercises:
        st.caption(tr("exercises.none_for_page"))
    for ex in exercises:
        show_exercise(ex, learner)

