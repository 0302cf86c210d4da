"""The Exercises page and the per-page exercise widgets, through AppTest."""

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import fresh_app
from tests.zh_prose import english_runs
from toolcall.exercises import load_exercises
from toolcall.harness import load_scenarios
from toolcall.pages_registry import PAGES
from toolcall.fixtures import load_outputs
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.progress import ProgressStore


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    """Every test here keeps progress in its own folder (the data_dir fixture of conftest)."""
    return data_dir


def open_exercises(learner: str | None = "alice", lang: str = "en") -> AppTest:
    return fresh_app(lang, {"learner": learner} if learner is not None else None, page="pages/exercises.py")


def answer_wrong_once(lang: str, at: AppTest | None = None) -> tuple[AppTest, list[str]]:
    """Answer ex_truncated wrongly once on ``at`` (default: alice's exercises page in ``lang``), with no exception;
    the app and the warnings it then shows."""
    at = at if at is not None else open_exercises("alice", lang)
    at.radio(key="exercises_ex_truncated_answer").set_value("ask_retry")
    at.button(key="exercises_ex_truncated_submit").click().run()
    assert not at.exception
    return at, [w.value for w in at.warning]


def test_progress_survives_a_fresh_session_with_the_same_learner(data_dir):
    """Answer, then open a brand-new AppTest (a refresh) with the same ?learner=: the tries,
    the best score and the answer itself are still there."""
    at = open_exercises("alice")
    at.radio(key="exercises_ex_truncated_answer").set_value("ask_retry")
    at.button(key="exercises_ex_truncated_submit").click().run()
    assert not at.exception
    assert any(e.value.startswith("Not this one") for e in at.error)
    assert "Best score 0 of 1 · tries 1" in [c.value for c in at.caption]

    fresh = open_exercises("alice")
    assert "Best score 0 of 1 · tries 1" in [c.value for c in fresh.caption]
    assert fresh.radio(key="exercises_ex_truncated_answer").value == "ask_retry"
    assert fresh.query_params["learner"] == ["alice"] or fresh.query_params["learner"] == "alice"
    assert ProgressStore(data_dir).get("alice", "ex_truncated").tries == 1

    other = open_exercises("bob")
    assert "Best score 0 of 1 · tries 1" not in [c.value for c in other.caption]
    assert other.radio(key="exercises_ex_truncated_answer").value is None


def test_reveal_unlocks_after_two_failed_tries():
    at = open_exercises("carol")
    assert at.button(key="exercises_ex_truncated_reveal").disabled
    for wrong in ("repair", "ask_retry"):  # two different answers: the same one twice counts once
        at.radio(key="exercises_ex_truncated_answer").set_value(wrong)
        at.button(key="exercises_ex_truncated_submit").click().run()
    assert not at.button(key="exercises_ex_truncated_reveal").disabled
    at.button(key="exercises_ex_truncated_reveal").click().run()
    assert f"**{t('exercises.reference', 'en')}**" in [m.value for m in at.markdown]
    assert "1. Raise max_tokens and send the request again" in [m.value for m in at.markdown]


def test_hint_on_demand_and_correct_answer():
    at = open_exercises("dave")
    at.button(key="exercises_ex_misconceptions_hint").click().run()
    assert any("Three statements are true." in i.value for i in at.info)
    for opt in ("strict_validate", "cap_retries", "downstream"):
        at.checkbox(key=f"exercises_ex_misconceptions_opt_{opt}").check()
    at.button(key="exercises_ex_misconceptions_submit").click().run()
    assert not at.exception
    assert any(s.value.startswith(f"**{t('exercises.result_correct', 'en', score=1, max=1)}**") for s in at.success)
    total = len(load_exercises().exercises) + len(load_scenarios().scenarios)
    assert at.get("progress")[0].proto.text == f"Solved 1 of {total} exercises · 1 of 1 point on the ones tried"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_header_counts_every_row_of_the_table_grouped_in_course_order(lang):
    """Issue 14: "Solved 0 of 21 exercises · 0 of 0 points" over a table of 28 rows (the harness
    scenarios listed, not counted), pages out of the sidebar's order, and "Harness 场景" in Chinese."""
    at = open_exercises("erin", lang)
    rows = at.dataframe[0].value
    assert at.get("progress")[0].proto.text == t("exercises.total_untried", lang, solved=0, total=len(rows))
    page_names = [t(f"exercises.page.{p.id}", lang) for p in PAGES if p.exercises or p.id == "harness_lab"]
    shown = list(dict.fromkeys(rows[t("exercises.col_page", lang)]))  # each page once, in order of appearance
    assert shown == [name for name in page_names if name in shown]
    assert len(shown) == len(set(rows[t("exercises.col_page", lang)]))
    types = set(rows[t("exercises.col_type", lang)])
    assert t("exercises.type.harness", lang) in types
    if lang == "zh":
        assert [ty for ty in types if english_runs(ty) or re.search(r"[A-Za-z]*[a-z][A-Za-z]* ?[\u4e00-\u9fff]", ty)] == []


def test_missing_or_invalid_learner_gets_a_new_id_in_the_url():
    at = open_exercises(None)
    learner = at.query_params["learner"]
    learner = learner[0] if isinstance(learner, list) else learner
    assert learner.count("-") == 2
    bad = open_exercises("../../etc/passwd")
    assert bad.query_params["learner"] != "../../etc/passwd"
    assert not bad.exception


def test_the_progress_files_are_built_only_when_downloaded(monkeypatch, data_dir):
    """Both exports (CSV and JSON of every exercise's last answers) were built on every rerun of the page."""
    import toolcall.progress

    built = []
    monkeypatch.setattr(toolcall.progress, "to_csv_bytes", lambda *a: built.append("csv") or b"")
    monkeypatch.setattr(toolcall.progress, "to_json", lambda *a: built.append("json") or "")
    at = open_exercises("erin")
    at.run()
    assert not at.exception and len(at.get("download_button")) == 2 and built == []


def test_downloads_hold_this_learners_progress_only(data_dir):
    ProgressStore(data_dir).record("mallory", "pk_pass3", "0.7", 1, 1)
    at = open_exercises("erin")
    assert [b.key for b in at.get("download_button")] == ["exercises_download_csv", "exercises_download_json"]
    rows = ProgressStore(data_dir).all("erin")
    assert rows == {}


def script_with_page_exercises(page: str) -> None:
    from ui.exercise_widgets import show_page_exercises  # noqa: PLC0415 (runs inside AppTest)
    show_page_exercises(page)


def run_page(page: str) -> AppTest:
    at = AppTest.from_function(script_with_page_exercises, args=(page,), default_timeout=60)
    at.query_params["learner"] = "frank"
    at.run()
    assert not at.exception
    return at


def test_non_json_where_json_is_expected_gets_feedback_not_an_exception():
    at = run_page("playground")
    at.text_area(key="exercises_pg_error_result_answer").input("{'type': 'tool_result', is_error: True}")
    at.button(key="exercises_pg_error_result_submit").click().run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    # where to fix in plain words (json_explain), not the parser's code
    assert any(w.startswith(plain("Your answer is not a JSON object yet. Single quotes at line 1, column 2"))
               for w in warnings), warnings


def test_schema_fix_starts_from_the_stripped_schema_and_grades():
    at = run_page("playground")
    starter = json.loads(at.text_area(key="exercises_pg_fix_schema_answer").value)
    assert "required" not in starter
    at.button(key="exercises_pg_fix_schema_submit").click().run()  # the starter unchanged: the question, not a try
    assert t("exercises.starter_untouched", "en") in [i.value for i in at.info]
    assert not [m for m in at.markdown if m.value.startswith(("✅", "✍️"))]
    at.text_area(key="exercises_pg_fix_schema_answer").input(json.dumps(starter, indent=1))
    at.button(key="exercises_pg_fix_schema_submit").click().run()
    outputs = load_outputs().outputs
    leaked = [o for o in outputs if o.expected == "rejected" and o.catches != "INVALID_JSON"]
    assert f"✍️ **{len(outputs) - len(leaked)} of {len(outputs)}. Try again: tries are unlimited.**" in [
        m.value for m in at.markdown]


def test_order_and_classify_widgets_grade():
    at = run_page("walkthrough")
    target = ["send", "tool_use", "run", "result", "final"]
    for position, step in enumerate(target):  # the Move up buttons, as a student would press them
        while at.session_state["exercises_wt_order_answer"].index(step) > position:
            at.button(key=f"exercises_wt_order_move_up_{step}").click().run()
    assert at.session_state["exercises_wt_order_answer"] == ["send", "tool_use", "run", "result", "final"]
    at.button(key="exercises_wt_order_submit").click().run()
    assert any(s.value.startswith(f"**{t('exercises.result_correct', 'en', score=5, max=5)}**") for s in at.success)
    at.selectbox(key="exercises_wt_tool_choice_item_chat").set_value("auto")
    at.button(key="exercises_wt_tool_choice_submit").click().run()
    assert not at.exception
    assert any(w.value.startswith("Not sorted yet") for w in at.warning)


def test_chinese_page_renders():
    at = open_exercises("gina", "zh")
    assert at.title[0].value == "练习"
    total = len(load_exercises().exercises) + len(load_scenarios().scenarios)
    assert at.get("progress")[0].proto.text == f"已做对 0/{total} 题"  # nothing tried: no "0/0" points


def test_a_language_switch_keeps_an_unsaved_choice():
    """A selectbox drawn with ui.widgets.translated keeps its choice across a language switch."""
    at = run_page("walkthrough")
    at.selectbox(key="exercises_wt_tool_choice_item_chat").set_value("auto")
    at.button(key="exercises_wt_tool_choice_submit").click().run()
    at.session_state["app_lang"] = "zh"
    at.run()
    assert not at.exception
    assert at.selectbox(key="exercises_wt_tool_choice_item_chat").value == "auto"


def test_every_exercise_type_has_its_widgets_in_a_module_of_the_same_name():
    """ui/exercise_inputs/<m>.py pairs with toolcall/exercise_types/<m>.py, and both registries agree."""
    import pkgutil

    import toolcall.exercise_types as core
    import ui.exercise_inputs as widgets
    from toolcall.grading import EXERCISE_TYPES

    def modules(package):
        return sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name != "base")

    assert modules(widgets) == modules(core)
    assert set(widgets.INPUTS) == set(EXERCISE_TYPES)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_past_the_attempt_cap_is_told_in_their_language(data_dir, lang):
    """Issue 13: tries past MAX_STORED_ATTEMPTS still count (the caption's tries), and the page says
    only the newest answers are kept, in the page's language."""
    from toolcall.progress import MAX_STORED_ATTEMPTS

    store = ProgressStore(data_dir)
    for _ in range(MAX_STORED_ATTEMPTS):
        store.record("grace", "ex_truncated", "repair", 0, 1)
    at = open_exercises("grace", lang)
    at.radio(key="exercises_ex_truncated_answer").set_value("repair")
    at.button(key="exercises_ex_truncated_submit").click().run()
    assert not at.exception
    told = t("progress.caps.attempts_kept", lang, limit=MAX_STORED_ATTEMPTS, tries=MAX_STORED_ATTEMPTS + 1)
    assert told in [i.value for i in at.info]
    assert len(store.attempts("grace")) == MAX_STORED_ATTEMPTS
    assert store.get("grace", "ex_truncated").tries == MAX_STORED_ATTEMPTS + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_scenario_finished_below_full_marks_reads_finished_in_the_table_and_the_header(lang, data_dir):
    """Newcomer session 7: after "Scenario finished: 2 of 3" the table said "In progress" and the header
    "Solved 0 of 28 · 2 of 3 points". The row says finished with its score; the header counts it apart."""
    from toolcall.progress import ProgressStore

    ProgressStore(data_dir).record("fay", "harness:plain_call", '{"format": "anthropic"}', 2, 3)
    at = open_exercises("fay", lang)
    rows = at.dataframe[0].value
    title = next(s for s in load_scenarios().scenarios if s.id == "plain_call").title[lang]
    row = rows[rows[t("exercises.col_title", lang)] == title].iloc[0]
    assert row[t("exercises.col_status", lang)] == t("exercises.status.finished", lang, score="2", max="3")
    assert t("exercises.status.tried", lang) not in set(rows[t("exercises.col_status", lang)])
    assert at.get("progress")[0].proto.text == t("exercises.total_finished", lang, solved=0, total=len(rows),
                                                 finished=1, score="2", max="3")


SCHEMA_FIX = [ex for ex in load_exercises().exercises if ex.type == "schema_fix"]


@pytest.mark.parametrize(("first", "then"), [("en", "zh"), ("zh", "en")])
@pytest.mark.parametrize("ex", SCHEMA_FIX, ids=lambda ex: ex.id)
def test_a_starter_from_before_a_language_switch_is_not_a_try(ex, first, then, data_dir):
    """Newcomer pass: after a switch, submitting the starter unchanged was graded and counted as a try. It is the
    question in either language: not graded, not a try, and the page says so (every schema_fix exercise of the
    fixtures, both directions). Newcomer session 14: left as it was, the starter follows the switch (its
    descriptions in the page's language, as in the playground's editor); an edited box stays."""
    at = fresh_app(first, {"learner": "newfix"}, page=f"pages/{ex.page}.py")
    box = f"exercises_{ex.id}_answer"
    seeded = at.text_area(key=box).value
    assert seeded
    at.selectbox(key="app_lang").set_value(then).run()
    assert not at.exception
    from ui.exercise_inputs.schema_fix import _starter

    assert (seeded, at.text_area(key=box).value) == (_starter(ex, first), _starter(ex, then))
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert not at.exception
    assert t("exercises.starter_untouched", then) in [i.value for i in at.info]
    assert not [m for m in at.markdown if m.value.startswith(("✅", "✍️"))]  # not graded
    assert ProgressStore(data_dir).get("newfix", ex.id) is None  # not a try


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_progress_download_lists_the_exercises_in_the_tables_order(monkeypatch, lang):
    """Newcomer session 12: the CSV and JSON downloads listed the exercises in file order (eval_lab.yaml first,
    then general.yaml, …, wire_forms.yaml's two general exercises after the walkthrough's, the harness scenarios
    last), so an instructor's spreadsheet read the "General" exercises in two places and in another order than the
    page's table (the course order: the sidebar's pages in turn)."""
    import itertools

    import toolcall.progress
    from toolcall.grading import in_course_order
    from toolcall.harness_grading import progress_entries

    exported = []
    real = toolcall.progress.export_rows
    monkeypatch.setattr(toolcall.progress, "export_rows",
                        lambda *a, **k: exported.append(real(*a, **k)) or exported[-1])
    at = open_exercises("erin", lang)
    assert not at.exception and len(exported) == 1
    rows = exported[0]
    course = in_course_order([*load_exercises().exercises, *progress_entries(load_scenarios().scenarios)])
    assert [r["exercise_id"] for r in rows] == [e.id for e in course]
    pages = [page for page, _ in itertools.groupby(r["page"] for r in rows)]
    assert pages == ["playground", "walkthrough", "passk_lab", "harness_lab", "eval_lab", "exercises"]
    assert [r["title"] for r in rows][:1] == [course[0].title[lang]]


@pytest.mark.parametrize(("first", "then"), [("en", "zh"), ("zh", "en")])
def test_an_edited_schema_fix_box_stays_through_a_language_switch(first, then):
    at = fresh_app(first, {"learner": "newfix"}, page="pages/playground.py")
    box = "exercises_pg_fix_schema_answer"
    edited = at.text_area(key=box).value.replace('"type": "object"', '"type": "object", "required": ["order_id"]', 1)
    at.text_area(key=box).input(edited)
    at.button(key="exercises_pg_fix_schema_submit").click().run()  # a box in a form commits so
    at.selectbox(key="app_lang").set_value(then).run()
    assert not at.exception
    assert at.text_area(key=box).value == edited

