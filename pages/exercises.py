"""Exercises: every exercise of the chapter with this learner's scores, the progress
downloads for an instructor, and the general exercises."""

import streamlit as st

from ui.common import lang, show_table, tr
from ui.exercise_widgets import course_entries, exercise_set, safe_store, show_exercise, show_load_problems
from ui.learner import current_learner, progress_store
from toolcall.grading import answer_text, finished_short, grading_inputs, max_scores, status, totals
from toolcall.harness_grading import progress_entries
from toolcall.progress import export_rows, to_csv_bytes, to_json
from ui.harness_lab import scenario_set
from ui.page import start

start("exercises")


@st.cache_data(show_spinner=False, max_entries=4)
def _max_score_table(_exercises, answers: tuple[tuple[str, str], ...]) -> dict[str, float]:
    """toolcall.grading.max_scores, cached: ``answers`` (the ids with their reference answer texts)
    is the cache key."""
    return max_scores(_exercises, grading_inputs)


def _max_scores(loaded) -> dict[str, float]:
    return _max_score_table(loaded.exercises, tuple((ex.id, answer_text(ex, ex.answer)) for ex in loaded.exercises))


loaded = exercise_set()
learner = current_learner()
harness = progress_entries(scenario_set().scenarios)  # the harness lab's scenarios: their max scores, for the export

st.title(tr("exercises.title"))
st.markdown(tr("exercises.intro"))
show_load_problems(loaded)
summary = st.container()  # filled after the exercises below, so a submit shows at once

st.divider()
st.subheader(tr("exercises.general_title"))
for ex in loaded.for_page("exercises"):
    show_exercise(ex, learner)

records = safe_store(progress_store().all, learner) or {}

listed = course_entries()  # the table's rows: every exercise and scenario, in the dashboard's order too
solved, score, points = totals(listed, records)
finished = finished_short(listed, records)
summary.subheader(tr("exercises.all_title"))
if not points:
    total_line = tr("exercises.total_untried", solved=solved, total=len(listed))
elif finished:  # a scenario run to its end below full marks is said apart: neither solved nor in progress
    total_line = tr("exercises.total_finished", solved=solved, total=len(listed), finished=finished,
                    score=f"{score:g}", max=f"{points:g}")
else:
    total_line = tr("exercises.total", solved=solved, total=len(listed), score=f"{score:g}", max=f"{points:g}")
summary.progress(solved / max(len(listed), 1), text=total_line)


def _status(ex) -> str:
    key, params = status(ex, records.get(ex.id))
    return tr(f"exercises.status.{key}", **params)


rows = []  # Status right after the title, the type last: at 1280 px the type is the column cut off, not the status
for ex in listed:
    rec = records.get(ex.id)
    rows.append({tr("exercises.col_page"): tr(f"exercises.page.{ex.page}"), tr("exercises.col_title"): ex.title[lang()],
                 tr("exercises.col_status"): _status(ex),
                 tr("exercises.col_score"): f"{rec.best_score:g} / {rec.max_score:g}" if rec and rec.tries else "–",
                 tr("exercises.col_tries"): rec.tries if rec else 0,
                 tr("exercises.col_type"): tr(f"exercises.type.{ex.type}")})
show_table(rows, where=summary, key="exercises_table", height=35 * (len(rows) + 1) + 3)

# In the table's order (course order), not the files': a spreadsheet reads the rows as the student saw them.
export = export_rows(learner, listed, records, lang(), {**_max_scores(loaded), **{h.id: h.max_score for h in harness}})
summary.caption(tr("exercises.download_intro"))
c1, c2 = summary.columns(2)
# Built only when clicked (a callable, as the dashboard's exports): both files cost nothing on every render.
c1.download_button(tr("exercises.download_csv"), lambda: to_csv_bytes(export),
                   file_name=f"progress-{learner}.csv", mime="text/csv", key="exercises_download_csv",
                   width="stretch", icon="📄")
c2.download_button(tr("exercises.download_json"), lambda: to_json(learner, export),
                   file_name=f"progress-{learner}.json", mime="application/json", key="exercises_download_json",
                   width="stretch", icon="🧾")
