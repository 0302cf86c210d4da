"""The class dashboard, for instructors only (ui/instructor.py signs them in): the class at
a glance, each exercise, each learner, activity over time, CSV and JSON of everything.

Numbers come from toolcall.dashboard. Learners are shown by their pseudonymous ids; an
uploaded name mapping stays in this session on the server (never in the URL). Everything a
learner typed is shown in st.dataframe cells, never as Markdown.
"""

import streamlit as st

from ui.common import PERSIST, box_chars, lang, plain, show_chart, show_code, show_table, tr
from ui.exercise_widgets import course_entries, exercise_set
from ui.instructor import sign_in
from ui.learner import progress_store, setup_problem
from ui.widgets import accepted_name, file_uploader, no_table_csv, own_words
from toolcall.dashboard import (
    DETAIL_ANSWER_CHARS,
    MAX_LISTED_LEARNERS,
    MAX_PAGE_EXPORT_LEARNERS,
    ClassData,
    activity_chart,
    best_cell,
    common_wrong_cell,
    exercise_table,
    export_bytes,
    learner_detail,
    learner_table,
    readable_time,
    NameMapError,
    overview,
    parse_name_map,
    shown_answer,
    write_export_csv,
    write_export_json,
)
from toolcall.grading import readable_answer, status
from toolcall.harness import PROGRESS_PREFIX
from toolcall.harness_grading import readable_summary
from toolcall.numfmt import number
from toolcall import progress
from toolcall.progress import LEARNER_ID_CHARS, StorageError, valid_learner
from toolcall.text import escaped_head
from ui.page import start

start("dashboard")
NAMES_KEY = "dashboard_names"
NAMES_FILE_KEY, NAMES_ERROR_KEY = "dashboard_names_file", "dashboard_names_error"

st.title(tr("dashboard.title"))
if not sign_in():
    st.stop()
no_table_csv()  # learners' answers fill its tables: a CSV of them leaves only through the page's own export

store = progress_store()
try:
    data = ClassData.load(store, learners=MAX_LISTED_LEARNERS)  # the rows of the learners listed; the rest counted
except StorageError as exc:
    if exc.setup or exc.busy:  # say what is wrong (the server's own words name the setting, or that it is full)
        st.error(tr("storage.dashboard_busy" if exc.busy else "storage.dashboard_setup"))
        show_code(str(exc), language=None)
    else:
        st.warning(tr("dashboard.store_error"))
    st.stop()
if (problem := setup_problem()) is not None:  # a read-only database: shown, but nothing new is saved
    st.error(tr("storage.dashboard_read_only"))
    show_code(str(problem), language=None)

L = lang()
exercises = exercise_set().by_id()
entries = {e.id: e for e in course_entries()}  # exercises and harness scenarios, in the Exercises page's order
titles = {e.id: e.title.get(L) or e.title["en"] for e in entries.values()}


def readable(exercise_id: str):
    """An answer to ``exercise_id`` as the student saw it (option and step texts, not ids), in the page's language;
    a harness scenario's stored run as its wire format and wrong moves by step."""
    ex = exercises.get(exercise_id)
    if ex is not None:
        return lambda answer: readable_answer(ex, answer, L)
    if exercise_id.startswith(PROGRESS_PREFIX):
        return lambda answer: readable_summary(answer, L)
    return lambda answer: answer


def status_cell(record) -> str:
    """A learner's status on one row, said as the Exercises page says it (toolcall.grading.status)."""
    key, params = status(entries.get(record.exercise_id), record)
    return tr(f"exercises.status.{key}", **params)


def _read_names() -> None:
    """The uploader's on_change: read the name file before the script runs, so the tables and the export
    above it show the names on this run (read in the script's body, they came one click late)."""
    upload, state = st.session_state.get(NAMES_FILE_KEY), st.session_state
    state.pop(NAMES_ERROR_KEY, None)
    if upload is None or not accepted_name(upload.name, ["csv"]):
        return  # removed (the names stay), or refused under the box by file_uploader
    try:
        state[NAMES_KEY] = parse_name_map(upload.getvalue())
    except NameMapError as exc:
        state[NAMES_ERROR_KEY] = exc


names: dict[str, str] = st.session_state.get(NAMES_KEY, {})

ov = overview(data)
c1, c2, c3 = st.columns(3)
c1.metric(tr("dashboard.learners"), ov["learners"])
c2.metric(tr("dashboard.active_last_hour"), ov["active_last_hour"])
c3.metric(tr("dashboard.attempts"), ov["attempts"])

st.subheader(tr("dashboard.exercises_title"))
show_table(
    [
        {
            tr("dashboard.col_exercise"): r["title"],
            tr("dashboard.col_tried"): r["tried"],
            tr("dashboard.col_solved"): r["solved"],
            tr("dashboard.col_revealed"): r["revealed"],
            # nobody tried it yet: a dash, not the table's raw "None"
            tr("dashboard.col_median_tries"): "—" if r["median_tries"] is None else number(r["median_tries"]),
            tr("dashboard.col_common_wrong"): common_wrong_cell(r["common_wrong"], readable(r["exercise_id"])),
        }
        for r in exercise_table(data, titles)
    ],
    key="dashboard_exercises",
)

st.subheader(tr("dashboard.activity_title"))
show_chart(activity_chart(data, L))

st.subheader(tr("dashboard.learners_title"))
listed = learner_table(data, names)  # the MAX_LISTED_LEARNERS most recently active; the exports hold every learner
show_table(
    [
        {
            tr("dashboard.col_learner"): r["learner"],
            tr("dashboard.col_name"): r["name"],
            tr("dashboard.col_tried"): r["tried"],
            tr("dashboard.col_solved"): r["solved"],
            tr("dashboard.col_revealed"): r["revealed"],
            tr("dashboard.col_tries"): r["tries"],
            tr("dashboard.col_last_active"): readable_time(r["last_active"]),
        }
        for r in listed
    ],
    key="dashboard_learners",
    height=min(35 * (len(listed) + 1) + 3, 400),
)
if ov["learners"] > len(listed):
    st.caption(tr("dashboard.learners_shown", shown=f"{len(listed):,}", total=f"{ov['learners']:,}"))

who = st.selectbox(
    tr("dashboard.drill_down"),
    [r["learner"] for r in listed],
    index=None,
    format_func=lambda w: f"{w} · {names[w]}" if names.get(w) else w,
    key="dashboard_learner",
    **PERSIST,
    **own_words("selectbox"),
)
if ov["learners"] > len(listed):  # a learner not listed: by id (a box of our own words, not the selectbox's "Add:")
    typed = st.text_input(tr("dashboard.learner_by_id"), key="dashboard_learner_id", **PERSIST,
                          max_chars=box_chars(LEARNER_ID_CHARS)).strip()
    who = typed or who
detail = None
if who and not valid_learner(who):  # typed: ids are ASCII, so a look-alike letter shows as \uXXXX (brk13text)
    st.warning(plain(tr("dashboard.not_a_learner_id", learner=escaped_head(who, 80))))
    who = None
elif who:
    try:  # a typed id is looked up: the page holds the listed learners' rows only
        detail = learner_detail(store, who)
    except StorageError:
        st.warning(tr("dashboard.store_error"))
        st.stop()
if who and not (detail and detail["progress"]):  # typed: an id this class has no progress for
    st.warning(plain(tr("dashboard.no_such_learner", learner=escaped_head(who, 80))))
elif who:
    show_table(
        [
            {
                tr("dashboard.col_exercise"): titles.get(r.exercise_id, r.exercise_id),
                tr("dashboard.col_best"): best_cell(r, L),
                tr("exercises.col_status"): status_cell(r),
                tr("dashboard.col_tries"): r.tries,
                tr("dashboard.col_revealed"): r.revealed,
                tr("dashboard.col_last_answer"): shown_answer(readable(r.exercise_id)(r.last_answer),
                                                              DETAIL_ANSWER_CHARS),
            }
            for r in detail["progress"]
        ],
        key="dashboard_detail",
    )
    show_table(
        [
            {
                tr("dashboard.col_time"): readable_time(a["at"]),
                tr("dashboard.col_exercise"): titles.get(a["exercise_id"], a["exercise_id"]),
                tr("dashboard.col_answer"): shown_answer(readable(a["exercise_id"])(a["answer"]), DETAIL_ANSWER_CHARS),
                tr("dashboard.col_correct"): bool(a["correct"]),
            }
            for a in detail["attempts"]
        ],
        key="dashboard_detail_attempts",
    )
    if detail["attempts_total"] > len(detail["attempts"]):
        st.caption(tr("dashboard.attempts_shown", shown=f"{len(detail['attempts']):,}",
                      total=f"{detail['attempts_total']:,}"))

st.subheader(tr("dashboard.names_title"))
st.caption(tr("dashboard.names_help"))
file_uploader(tr("dashboard.names_upload"), key=NAMES_FILE_KEY, types=["csv"], limit_mb=1, on_change=_read_names)
if (names_problem := st.session_state.get(NAMES_ERROR_KEY)) is not None:  # quotes the file: plain text
    st.error(plain(tr("dashboard.names_error", detail=names_problem.render(lang()))))

st.subheader(tr("dashboard.export_title"))
st.caption(tr("dashboard.export_limit", mb=f"{progress.MAX_EXPORT_ANSWER_BYTES / 1e6:g}",
              chars=f"{progress.MAX_CSV_ANSWER_CHARS:,}"))
if ov["learners"] > MAX_PAGE_EXPORT_LEARNERS:  # Streamlit holds a download whole: the server writes the files
    st.info(tr("dashboard.export_on_server", learners=f"{ov['learners']:,}", limit=f"{MAX_PAGE_EXPORT_LEARNERS:,}"))
    show_code(f"python -m toolcall export class-progress.json --lang {L}\npython -m toolcall export class-progress.csv",
              language="bash")
    st.stop()
e1, e2 = st.columns(2)
# Built only when clicked (a callable), a page of rows at a time: a large class's files cost nothing on every render.
e1.download_button(
    tr("dashboard.export_csv"),
    lambda: export_bytes(write_export_csv, store, names=names),  # the last answers, read only now
    file_name="class-progress.csv",
    mime="text/csv",
    key="dashboard_export_csv",
    width="stretch",
    icon="📄",
)
e2.download_button(
    tr("dashboard.export_json"),
    # the newest tries up to MAX_EXPORT_ANSWER_BYTES of answers and every learner, read only when clicked
    lambda: export_bytes(write_export_json, store, titles, names=names),
    file_name="class-progress.json",
    mime="application/json",
    key="dashboard_export_json",
    width="stretch",
    icon="🧾",
)
