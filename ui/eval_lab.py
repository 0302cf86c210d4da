"""Rendering of the selection lab (pages/eval_lab.py): the editable selection set and its
checks, the recorded runs for vague vs good descriptions, a drill-down, and uploads.

Everything computed here comes from the core (toolcall.selection, toolcall.evaluation,
toolcall.eval_import, toolcall.eval_charts); this module only reads widgets and draws.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pandas as pd
import streamlit as st

# file_mtime: the fixture cache key pages use
from ui.common import (PERSIST, box_chars, file_mtime, lang, plain, show_chart, show_lines, show_load_problems,
                       show_table, tr)
from ui.exercise_widgets import show_page_exercises
from ui.widgets import file_uploader, own_words, shown_name, translated
from toolcall import FIXTURES_DIR
from toolcall.columns import fit_widths
from toolcall.i18n import name_list, t
from toolcall.eval_charts import confusion_chart, taxonomy_chart
from toolcall.eval_charts import tool_label as chart_tool_label
from toolcall.fixtures import FixtureError
from toolcall.evaluation import ANALYSIS_BUDGET, MAX_MATRIX_TOOLS
from toolcall.eval_import import LogError, Recorded, detect_log_format, read_log, read_recorded
from toolcall.evaluation import (Analysis, analyse, case_counts, case_rows, grade_run, pair_rates,
                                 summary_rates)
from toolcall.numfmt import percent
from toolcall.text import escape_invisible, escape_lookalikes, reading_key
from toolcall import selection
from toolcall.selection import (CELL_LIMITS, MAX_CASES, MIN_PER_TOOL, check_set, edits_to_fold, fold_edits, from_rows,
                                load_set, load_tool_schemas, new_cells, table_chars, to_rows)

VERSIONS = ("vague", "good")
#: Largest upload accepted, in MB.
UPLOAD_LIMIT_MB = 20
K_MAX = 10
#: Cases the per-case table lists at most: an upload may hold 200 000 (toolcall.eval_import.MAX_RUNS), and the
#: table is sent to the browser on every rerun of the page (100 000 cases: 8.9 MB); the means count every case.
SHOWN_CASES = 1_000
#: Characters the per-case table's text cells may hold in all, as shown (escaped): rows past them are not listed (the
#: caption says how many are). SHOWN_CASES alone bounded the rows, not their width: a case id and a tool name may be
#: 200 characters each, and every look-alike or invisible one is shown as a six-character \uXXXX, so 1 000 such
#: cases (a 0.9 MB upload) sent a 2.57 MB table on every rerun of the page (break-it pass brk14lab). 1 000 rows of
#: the shipped sets' width, each with a refusal note, hold about 145 000.
SHOWN_CASE_CHARS = 200_000
#: Cells an edit not kept names at most (the rest counted): a dozen, as every message that lists (issue 13).
MAX_NAMED_CELLS = 12
EDITOR_ORDER = ["id", "expected_tool", "request", "expected_arguments", "should_not_call"]
#: The editor's widest column, in pixels: the longest shipped request (en, 634 px) fits; a longer cell typed in
#: shows in full when the cell is opened.
EDITOR_MAX_PX = 660
#: The pencil Streamlit draws before an editable column's header.
EDIT_ICON_PX = 22
EDITOR_HEADERS = {"id": "eval.col_id", "expected_tool": "eval.col_tool", "request": "eval.col_request",
                  "expected_arguments": "eval.col_args", "should_not_call": "eval.col_avoid"}


def editor_widths(shipped: list[dict], language: str) -> dict[str, int]:
    """``{column: pixels}`` for the selection editor: each column as wide as its header (and pencil) or its widest
    shipped cell, whichever is wider, up to EDITOR_MAX_PX (toolcall.columns.fit_widths). Fixed widths cut the
    requests and arguments at 1366 px (newcomer session 7). Measured on the shipped set only: the widths stay
    the same while the student edits, so the editor is not remounted; the table scrolls sideways where the
    columns are wider than the page."""
    headers = {column: t(key, language) for column, key in EDITOR_HEADERS.items()}
    cells = fit_widths([{c: row.get(c, "") for c in EDITOR_ORDER} for row in shipped], EDITOR_MAX_PX)
    heads = fit_widths([headers], EDITOR_MAX_PX)
    return {c: max(cells.get(c, 0), min(EDITOR_MAX_PX, heads[c] + EDIT_ICON_PX)) for c in EDITOR_ORDER}


@st.cache_data(show_spinner=False, max_entries=4)
def _selection(language: str, mtime: float):
    sset = load_set(FIXTURES_DIR / "selection" / f"shop.{language}.yaml")
    return sset, load_tool_schemas(sset.tools, FIXTURES_DIR / "tools")


@st.cache_data(show_spinner=False, max_entries=8)
def _recorded(version: str, language: str, mtime: float) -> Recorded:
    """The recorded log of ``version``; FixtureError (file and line) when it cannot be used."""
    return read_recorded(_runs_path(version, language))


@st.cache_data(show_spinner=False, max_entries=64)
def _analysed(version: str, language: str, k: int, expectations_json: str, mtime: float) -> Analysis:
    expectations = {case: tuple(calls) for case, calls in json.loads(expectations_json).items()}
    return analyse(_recorded(version, language, mtime).log, k, expectations)


def _recorded_or_problems(version: str, language: str) -> Recorded | None:
    """The recorded log, or None after saying (in the page's language, with the file and line) why it cannot
    be used: a recorded log an instructor broke leaves the rest of the page working."""
    try:
        return _recorded(version, language, file_mtime(_runs_path(version, language)))
    except FixtureError as exc:
        show_load_problems("recorded", exc.problems)
        return None


def _runs_path(version: str, language: str) -> Path:
    return FIXTURES_DIR / "eval_runs" / f"shop_{version}.{language}.jsonl"


def _tool_label(name: str | None) -> str:
    return chart_tool_label(name or "?", lang())  # look-alike and invisible characters escaped


# --- 1. the set ----------------------------------------------------------------------


def _editor_rows(language: str, shipped: list[dict]) -> list[dict]:
    """The rows the editor starts from in ``language``: the shipped set, or, once the student has
    edited the table, their own rows. The editor's identity hangs on its data and its (translated)
    column labels, so a language switch starts a fresh editor and Streamlit drops its edits; the
    table is the student's, like the harness lab's one JSON editor for both languages, so the
    edited rows are carried over. So does a visit to another page: Streamlit drops the state of a widget
    a run does not draw, and the table came back as the shipped set, the student's rows gone for good
    (break-it pass brk10web). Within one language and while the editor keeps its state the start rows
    stay fixed (a changing start would remount the editor on every edit)."""
    state = st.session_state.setdefault("eval_set_state", {"lang": None, "start": None, "rows": None})
    if state["lang"] != language or editor_key(language) not in st.session_state:
        state["lang"], state["start"] = language, state["rows"]
    return state["start"] if state["start"] is not None else shipped


def editor_key(language: str) -> str:
    """The selection editor's widget key: a new one each time the page folded its edits (see _fold)."""
    folds = st.session_state.get("eval_set_state", {}).get("folds", 0)
    return f"eval_set_editor_{language}" + (f"_{folds}" if folds else "")


def _fold(language: str, shipped: list[dict]) -> None:
    """Before the editor is drawn: a paste of many rows (or an edit naming no row or column) is applied here, in
    linear time, and the editor starts afresh from the result (a new key, whose state is empty), so Streamlit
    never applies it row by row, again on every rerun (toolcall.selection.FOLD_ADDED_ROWS); rows past MAX_CASES
    are not added, and the table says so. An edit that would take the table past MAX_TABLE_CHARS characters is not
    kept: the editor starts afresh from the table as it was, and the page names the cells of that edit."""
    start = _editor_rows(language, shipped)
    key = editor_key(language)
    edits = st.session_state.get(key)
    if not edits:
        return
    state = st.session_state["eval_set_state"]
    rows, dropped = fold_edits(start, edits, tuple(EDITOR_ORDER))
    if (size := table_chars(rows)) > selection.MAX_TABLE_CHARS:
        last = state.get("last_edits")
        cells = new_cells(last[1] if last and last[0] == key else None, edits, len(start), tuple(EDITOR_ORDER))
        state["not_kept"] = (cells, size)
        state["start"] = state["rows"]  # the table of the last run: None while it is the shipped set
    elif edits_to_fold(edits, len(start), tuple(EDITOR_ORDER)):
        state["start"], state["rows"] = rows, (None if rows == shipped else rows)
        state["dropped"] = dropped
    else:
        state["last_edits"] = (key, edits)
        return
    state["folds"] = state.get("folds", 0) + 1
    state["last_edits"] = None


def _not_kept_message(cells: list[tuple[int, str, str]], size: int) -> str:
    """What the page says of an edit not kept (toolcall.selection.MAX_TABLE_CHARS): the first MAX_NAMED_CELLS cells
    it changed, each with its length and its text cut at FOLD_EDIT_CHARS (escaped: the student's text in Markdown),
    the rest counted."""
    def one(row: int, column: str, text: str) -> str:
        fold = selection.FOLD_EDIT_CHARS
        shown = text if len(text) <= fold else text[:fold] + "…"
        return tr("eval.set_edit_cell", row=f"{row:,}", column=tr(EDITOR_HEADERS[column]), chars=f"{len(text):,}",
                  text=plain(shown))

    named = [one(*cell) for cell in cells[:MAX_NAMED_CELLS]]
    if len(cells) > MAX_NAMED_CELLS:
        named.append(tr("eval.set_edits_more", count=f"{len(cells) - MAX_NAMED_CELLS:,}"))
    return tr("eval.set_chars_not_kept", edits=tr("eval.set_edits_sep").join(named) or tr("eval.set_edit_unnamed"),
              size=f"{size:,}", limit=f"{selection.MAX_TABLE_CHARS:,}")


def _keep_rows(rows: list[dict], shipped: list[dict]) -> None:
    """Remember the student's table (None while it is the shipped set of this language)."""
    state = st.session_state["eval_set_state"]
    state["rows"] = None if rows == shipped else rows


def _checked(rows: list[dict], schemas: dict, tools: tuple, language: str) -> tuple[list, list]:
    """``from_rows`` and ``check_set`` of the table, computed again only when the table (or the language's
    set) changes: a click anywhere else on the page (k, the drill-down, an upload) reuses them, where a large
    table cost up to MAX_CHECKED_VALUES validations on every rerun."""
    digest = hashlib.sha256(json.dumps([rows, language, schemas, tools], default=str).encode()).hexdigest()
    kept = st.session_state.get("eval_set_checked")
    if kept is None or kept[0] != digest:
        cases, problems = from_rows(rows)
        kept = (digest, cases, problems + check_set(cases, schemas, tools))
        st.session_state["eval_set_checked"] = kept
    return kept[1], kept[2]


def selection_editor():
    """The editable selection set and its checks; returns ``{case id: expected calls}``."""
    language = lang()
    try:
        sset, schemas = _selection(language, file_mtime(FIXTURES_DIR / "selection" / f"shop.{language}.yaml"))
    except FixtureError as exc:  # an instructor's typo in the set or a tool: say so in the page's language
        show_load_problems("page", exc.problems, stop=True)
    st.header(tr("eval.set_title"))
    st.markdown(tr("eval.set_intro"))
    shipped = to_rows(sset.cases)
    _fold(language, shipped)
    base = pd.DataFrame(_editor_rows(language, shipped), columns=EDITOR_ORDER)
    # each column holds more than the set reads of it (toolcall.selection.CELL_LIMITS): the browser cut a longer
    # paste at max_chars without a word; now it reaches from_rows, which says the cell is too long (brk12web)
    px = editor_widths(shipped, language)
    helps = {"expected_tool": tr("eval.col_tool_help", tools=name_list(sset.tools, language))}
    config = {c: st.column_config.TextColumn(tr(EDITOR_HEADERS[c]), width=px[c],
                                             help=helps.get(c) or tr("eval.col_field", field=c),
                                             max_chars=box_chars(CELL_LIMITS[c])) for c in EDITOR_ORDER}
    edited = st.data_editor(
        base,
        key=editor_key(language),
        num_rows="dynamic",
        hide_index=True,
        column_config=config,
        width="stretch",
    )
    not_kept = st.session_state["eval_set_state"].pop("not_kept", None)
    if not_kept:
        st.warning(_not_kept_message(*not_kept), icon="✂️")
    dropped = st.session_state["eval_set_state"].pop("dropped", 0)
    if dropped:
        st.warning(tr("eval.set_rows_not_added", count=f"{dropped:,}", limit=f"{MAX_CASES:,}"), icon="✂️")
    rows = edited.astype(object).where(edited.notna(), "").to_dict("records")
    _keep_rows(rows, shipped)
    cases, problems = _checked(rows, schemas, sset.tools, language)
    if problems:
        st.error(
            tr("eval.set_problems", count=len(problems))
            + "\n\n"
            + "\n".join(f"- {plain(p.message(language))}" for p in problems[:30])
        )
    else:
        st.success(tr("eval.set_ok", cases=len(cases), need=MIN_PER_TOOL))
    with st.expander(tr("eval.set_counts")):
        show_table([{tr("eval.counts_tool"): t, tr("eval.counts_call"): sum(c.expected_tool == t for c in cases),
                     tr("eval.counts_not"): sum(t in c.should_not_call for c in cases)} for t in sset.tools])
    return {c.id: c.expected_calls() for c in cases}


# --- 2. the recorded runs ------------------------------------------------------------------


def _right_runs(result: Analysis) -> tuple[int, int]:
    table = result.confusion
    if table.empty:
        return 0, 0
    right = sum(int(table.loc[name, name]) for name in table.index if name in table.columns)
    return right, int(table.values.sum())


def _case_rows(result: Analysis, k: int) -> list[dict]:
    """One row per case of the per-case table: id, expected tool, n, c, pass^k, naive, pass@k, note; the first
    SHOWN_CASES cases at most, and no more than fit in SHOWN_CASE_CHARS characters of text as shown (the first row
    always listed)."""
    rows = []
    chars = 0
    for c in result.cases[:SHOWN_CASES]:
        cell = (lambda x: percent(x, lang())) if c.refused is None else (lambda x: "—")
        rows.append(
            {
                tr("eval.col_case"): escape_lookalikes(c.case_id),  # "c1" and Cyrillic "с1" are two rows
                tr("eval.col_expected"): _tool_label(c.expected_tool),
                tr("eval.col_n"): c.n,
                tr("eval.col_c"): c.c,
                tr("eval.col_passk", k=k): cell(c.pass_hat_k),
                tr("eval.col_naive", k=k): cell(c.naive),
                tr("eval.col_passat", k=k): cell(c.pass_at_k),
                tr("eval.col_note"): (
                    escape_invisible(tr("eval.case_refused", reason=c.refused_text(lang()))) if c.refused else ""
                ),
            }
        )
        chars += sum(len(escape_invisible(v)) for v in rows[-1].values() if isinstance(v, str))
        if chars > SHOWN_CASE_CHARS and len(rows) > 1:
            rows.pop()
            break
    return rows


def _kept(result: Analysis) -> tuple[Analysis, int, dict, list, dict]:
    """What the page keeps of an upload's analysis in the session: ``(analysis without its per-run table and
    with the cases it lists, number of cases, means over every case, the counts of the cases it lists
    (evaluation.case_counts), {(n, c): number of cases})``. The whole analysis of a 20 MB upload held about 40 MB per
    session (a row per run, a CaseRow per case) for as long as the session lived. The last two are all another k
    needs (_for_k): k changes the estimates, never the grades."""
    counts = case_counts(result.graded) if result.graded is not None else result.counts
    shown = replace(result, graded=None, counts=None, cases=result.cases[:SHOWN_CASES])
    return shown, len(result.cases), summary_rates(result.cases), counts[:SHOWN_CASES], dict(
        Counter((n, c) for _, _, n, c in counts))


def _for_k(kept: tuple, k: int) -> tuple:
    """``kept`` (see _kept) for another ``k``: the listed cases estimated again and the means from the (n, c) counts,
    no run read or graded again. The page read and graded the whole upload again for every position of the k slider:
    grading stops at ANALYSIS_BUDGET (10 s), so a log made to be slow to grade cost 10 s of CPU per slider move."""
    shown, total, _, counts, pairs = kept
    return replace(shown, cases=case_rows(counts, k)), total, pair_rates(pairs, k), counts, pairs


def show_analysis(result: Analysis, k: int, key: str, total: int | None = None, means: dict | None = None) -> None:
    """Metrics, confusion heatmap, taxonomy bars and the per-case table of one analysis (``total`` cases, whose
    ``means`` are given when ``result.cases`` holds only the first of them: see _kept)."""
    right, runs = _right_runs(result)
    means = summary_rates(result.cases) if means is None else means
    total = len(result.cases) if total is None else total
    cols = st.columns(4)
    if runs:
        with cols[0].container(key=f"{key}_right"):
            st.metric(tr("eval.metric_right"), tr("eval.metric_right_value", right=right, runs=runs),
                      help=tr("eval.metric_right_help"))
    show = lambda x: "—" if x is None else percent(x, lang())  # noqa: E731
    cols[1].metric(tr("eval.metric_passk", k=k), show(means["pass^k"]))
    cols[2].metric(tr("eval.metric_naive", k=k), show(means["naive"]))
    cols[3].metric(tr("eval.metric_passat", k=k), show(means["pass@k"]))
    if runs:
        st.subheader(tr("eval.matrix_title"))
        show_chart(confusion_chart(result.confusion, lang()))
        if any(result.folded_tools):
            st.caption(tr("eval.matrix_folded", kept=MAX_MATRIX_TOOLS - 1, expected=result.folded_tools[0],
                          chosen=result.folded_tools[1]))
        st.subheader(tr("eval.taxonomy_title"))
        show_chart(taxonomy_chart(result.taxonomy, lang()))
        st.caption(tr("eval.taxonomy_fix"))
    st.subheader(tr("eval.cases_title"))
    rows = _case_rows(result, k)
    show_table(rows, key=f"{key}_cases")
    if total > len(rows):
        st.caption(tr("eval.cases_not_shown", shown=f"{len(rows):,}", total=f"{total:,}"))


def _descriptions(recorded: Recorded) -> None:
    with st.expander(tr("eval.descriptions")):
        for name, description in recorded.tools:
            st.markdown(tr("common.labelled", label=f"**{plain(name)}**", value=plain(description)))  # zh：


def recorded_runs(expectations: dict) -> int:
    """The two versions side by side (tabs); returns the chosen k."""
    st.header(tr("eval.runs_title"))
    st.info(tr("eval.simulated"))
    k = st.slider(tr("eval.k_label"), 1, K_MAX, 3, key="eval_k", help=tr("eval.k_help"), **PERSIST)
    language = lang()
    frozen = json.dumps({c: list(v) for c, v in expectations.items()}, sort_keys=True, ensure_ascii=False)
    tabs = st.tabs([tr(f"eval.version_{v}") for v in VERSIONS])
    for tab, version in zip(tabs, VERSIONS):
        with tab:
            recorded = _recorded_or_problems(version, language)
            if recorded is None:
                continue
            _descriptions(recorded)
            result = _analysed(version, language, k, frozen, file_mtime(_runs_path(version, language)))
            show_analysis(result, k, f"eval_{version}")
    drill_down(expectations)
    return k


def drill_down(expectations: dict) -> None:
    """Every run of one case: the chosen tool, the raw arguments, the grade and our validator's errors."""
    st.subheader(tr("eval.drill_title"))
    language = lang()
    c1, c2 = st.columns([1, 2])
    labels = {v: tr(f"eval.version_{v}") for v in VERSIONS}  # captured now: AppTest formats outside the run
    # translated(): a plain radio lost its choice on a language switch (the browser kept the old labels, showed
    # nothing picked, and the next run fell back to the first version; break-it pass brk13lab)
    version = translated("radio", tr("eval.drill_version"), VERSIONS, labels, key="eval_drill_version", where=c1,
                         horizontal=True)
    recorded = _recorded_or_problems(version, language)
    if recorded is None:
        return
    log = recorded.log
    ids = list(dict.fromkeys(r.case_id for r in log.runs))
    case = c2.selectbox(tr("eval.drill_case"), ids, key="eval_drill_case", format_func=escape_lookalikes,
                        **own_words("selectbox"), **PERSIST)
    runs = [r for r in log.runs if r.case_id == case]
    request = recorded.requests.get(runs[0].line, "") if runs else ""
    if request:
        st.markdown(tr("eval.drill_request", request=plain(request)))
    rows = []
    own = {reading_key(case_id, fold_case=False): calls for case_id, calls in expectations.items()}
    for run in runs:  # the set's expectation for the case id the run's reads as (as analyse() finds it)
        expected = own.get(reading_key(run.case_id, fold_case=False), run.expected)
        g = grade_run(expected, run.calls, log.tool_sets[run.tools], language)
        call = run.calls[0] if run.calls else None
        raw = (
            ""
            if call is None
            else (
                call.raw_arguments if call.raw_arguments is not None else json.dumps(call.arguments, ensure_ascii=False)
            )
        )
        rows.append(
            {
                tr("eval.col_run"): run.run,
                tr("eval.passed"): g.passed,
                tr("eval.col_chosen"): _tool_label(g.chosen_tool),
                tr("eval.col_raw"): raw,
                tr("eval.col_error"): g.error_type or "",
                tr("eval.col_taxonomy"): tr(f"eval.taxonomy.{g.taxonomy}") if g.taxonomy else "",
                tr("eval.col_detail"): g.text(language),
                tr("eval.col_validation"): "; ".join(g.validation),
            }
        )
    show_table(rows)


# --- 3. uploads --------------------------------------------------------------------------


def upload_section(k: int) -> None:
    """st.file_uploader for the student's own log, size-capped; the same report for it."""
    st.header(tr("eval.upload_title"))
    st.markdown(tr("eval.upload_intro", limit=UPLOAD_LIMIT_MB))
    # A student in a browser has no log of their own at hand, nor the repository's files (newcomer session 14):
    # the page's own recorded runs, to download and drop back here (read only when clicked).
    sample = _runs_path("vague", lang())
    if sample.is_file():
        st.download_button(tr("eval.upload_sample"), lambda: sample.read_bytes(), file_name=sample.name,
                           mime="application/x-ndjson", key="eval_sample_download", icon="⬇️",
                           help=tr("eval.upload_sample_help"))
    c1, c2 = st.columns([3, 1])
    labels = {f: tr(f"eval.format_{f}") for f in ("auto", "native", "tau", "inspect")}
    fmt = translated("selectbox", tr("eval.format_label"), tuple(labels), labels, key="eval_format", where=c2)
    # the server refuses a larger file before holding it (default: 200 MB per upload). The browser then
    # marks the file with Streamlit's own English "File must be 20.0MB or smaller" (a hover tooltip no
    # option or style reaches), so the label states the cap in the page's language; upload_too_large below
    # is the check for an upload that did not pass through the browser's.
    uploaded = file_uploader(tr("eval.upload_label", limit=UPLOAD_LIMIT_MB), key="eval_upload",
                             types=["jsonl", "json", "eval"], limit_mb=UPLOAD_LIMIT_MB, where=c1,
                             on_change=_forget_upload)
    if uploaded is None:
        _show_kept_upload()
        return
    if uploaded.size > UPLOAD_LIMIT_MB * 1_000_000:
        # in bytes: a size rounded to 0.1 MB read "20.0 MB; the limit is 20 MB" from 20 000 001 to 20 049 999
        # bytes, which Streamlit's browser check (MiB) lets through
        st.error(tr("eval.upload_too_large", size=f"{uploaded.size:,}", limit=UPLOAD_LIMIT_MB,
                    limit_bytes=f"{UPLOAD_LIMIT_MB * 1_000_000:,}"))
        return
    data = uploaded.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    cached = st.session_state.get("eval_upload_result")
    if cached and cached[0][:2] == (digest, fmt) and cached[0][2] != k:  # another k: estimated again, not graded
        cached = ((digest, fmt, k, cached[0][3]), *cached[1:-1], cached[-1] and _for_k(cached[-1], k))
        st.session_state["eval_upload_result"] = cached
    if not cached or cached[0][:3] != (digest, fmt, k):
        bar = st.progress(0.0, text=tr("eval.upload_reading"))
        try:
            log = read_log(data, fmt, uploaded.name, UPLOAD_LIMIT_MB * 1_000_000)
        except (LogError, ValueError) as exc:
            bar.empty()
            detail = exc.text(lang()) if isinstance(exc, LogError) else str(exc)
            # the format it was read as: with "detect" chosen, the detected one (it read "cannot be read as detect")
            read_as = detect_log_format(data, uploaded.name) if fmt == "auto" else fmt
            st.error(tr("eval.upload_unreadable", format=tr(f"eval.format_{read_as}"), detail=plain(detail)))
            return
        bar.progress(0.0, text=tr("eval.upload_progress"))
        result = (
            # release: each parsed run is dropped once graded, and no per-run table is built (the page draws the
            # aggregates): 6.3 times the upload at the peak before (bench/README.md section T)
            _kept(analyse(log, k, progress=lambda f: bar.progress(f, text=tr("eval.upload_progress")), release=True))
            if log.runs else None
        )
        bar.empty()
        cached = ((digest, fmt, k, uploaded.name), log.fmt, len(log.runs), log.problems[:20], len(log.problems),
                  log.notes, result)
        st.session_state["eval_upload_result"] = cached
    _show_upload(cached, k)


def _forget_upload() -> None:
    """The uploader's on_change: a file taken out of the box (or replaced) drops the analysis kept of it."""
    if st.session_state.get("eval_upload") is None:
        st.session_state.pop("eval_upload_result", None)


def _show_kept_upload() -> None:
    """With the box empty: the analysis of the file the student uploaded, when they did not take it out. Streamlit
    lets go of an uploaded file when a run does not draw its box (a visit to another page), and the analysis
    vanished with it while the session still held it (break-it pass brk12web); now it is shown, said to be of that
    file and that k."""
    cached = st.session_state.get("eval_upload_result")
    if not cached:
        return
    _, _, k, name = cached[0]
    st.info(tr("eval.upload_kept", name=shown_name(name), k=k), icon="📎")
    _show_upload(cached, k)


def _show_upload(cached: tuple, k: int) -> None:
    """What the page shows of an analysed upload (``cached``: see upload_section) with ``k``."""
    _, found_fmt, runs, problems, problem_count, notes, kept = cached
    result, total, means = kept[:3] if kept is not None else (None, 0, None)
    if problem_count and result is None:  # every record unusable: "the rest loaded" said so over "No usable runs"
        st.error(tr("eval.upload_none_usable", count=problem_count))
    elif problem_count:
        st.warning(tr("eval.upload_problems", count=problem_count))
    if problem_count:
        show_lines((p.describe(lang()) for p in problems), language=None)  # a member's name cannot start a line
    if result is None:
        if not problem_count:  # nothing unreadable either: the log holds no runs at all
            st.error(tr("eval.empty_log", format=tr(f"eval.format_{found_fmt}")))
        return
    st.success(tr("eval.upload_loaded", runs=runs, cases=total, fmt=tr(f"eval.format_{found_fmt}")))
    for note in notes:
        st.caption(tr("eval.note", note=plain(note.text(lang()))))
    if result.confusion.empty:
        st.info(tr("eval.upload_no_matrix"))
    if result.disagreements:
        st.caption(tr("eval.upload_disagree", count=result.disagreements))
    if result.not_graded:
        st.warning(tr("eval.upload_not_graded", count=result.not_graded, seconds=int(ANALYSIS_BUDGET)))
    show_analysis(result, k, "eval_upload", total, means)


def render() -> None:
    """The whole page."""
    st.title(tr("eval.title"))
    st.markdown(tr("eval.intro"))
    expectations = selection_editor()
    k = recorded_runs(expectations)
    upload_section(k)
    st.divider()
    st.header(tr("exercises.section_title"))
    show_page_exercises("eval_lab")
