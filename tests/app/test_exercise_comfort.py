"""The student's comfort in the exercise widgets (issue 14): the reveal note leaves once an
exercise is solved; the ordering control."""

import pytest
from streamlit.testing.v1 import AppTest

from toolcall.exercises import load_exercises
from toolcall.grading import answer_text, grade, grading_inputs
from toolcall.i18n import t
from toolcall.progress import REVEAL_AFTER, ProgressStore


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    return data_dir


def script_with_page_exercises(page: str) -> None:
    from ui.exercise_widgets import show_page_exercises  # noqa: PLC0415 (runs inside AppTest)
    show_page_exercises(page)


def run_page(page: str, learner: str, lang: str = "en") -> AppTest:
    at = AppTest.from_function(script_with_page_exercises, args=(page,), default_timeout=60)
    at.query_params["learner"] = learner
    at.session_state["app_lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def locked_notes(at: AppTest, lang: str = "en") -> list[str]:
    prefix = t("exercises.reveal_locked", lang, needed=REVEAL_AFTER, done=0).split("(")[0].split("（")[0]
    return [c.value for c in at.caption if c.value.startswith(prefix)]


PAGES = sorted({ex.page for ex in load_exercises().exercises})


@pytest.mark.parametrize("page", PAGES)
def test_no_reveal_note_on_an_exercise_solved_earlier(data_dir, page):
    """Every exercise of the page solved with its reference answer (saved progress, no failed try):
    nothing is left to unlock, so no 'reveal after 2 failed tries' note remains."""
    store = ProgressStore(data_dir)
    exercises = load_exercises().for_page(page)
    for ex in exercises:
        text = answer_text(ex, ex.answer)
        result = grade(ex, text, grading_inputs(ex))
        assert result.correct, ex.id
        store.record("solver", ex.id, text, result.score, result.max_score)
    for lang in ("en", "zh"):
        at = run_page(page, "solver", lang)
        assert locked_notes(at, lang) == []
    fresh = run_page(page, "newcomer")
    assert len(locked_notes(fresh)) == len(exercises)


def test_the_reveal_note_leaves_as_soon_as_the_exercise_is_solved():
    ex = next(e for e in load_exercises().for_page("passk_lab") if e.type == "number")
    at = run_page("passk_lab", "quick")
    before = len(locked_notes(at))
    at.text_input(key=f"exercises_{ex.id}_answer").input(answer_text(ex, ex.answer))
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert f"✅ **{t('exercises.result_correct', 'en', score=1, max=1)}**" in [m.value for m in at.markdown]
    assert len(locked_notes(at)) == before - 1
