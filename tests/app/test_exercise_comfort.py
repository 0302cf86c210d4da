"""The student's comfort in the exercise widgets (issue 14): the reveal note leaves once an
exercise is solved; the ordering control."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from toolcall.exercises import load_exercises
from toolcall.grading import EXERCISE_TYPES, answer_text, grade, grading_inputs
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
    assert any(s.value.startswith(f"**{t('exercises.result_correct', 'en', score=1, max=1)}**") for s in at.success)
    assert len(locked_notes(at)) == before - 1


ORDER = [ex for ex in load_exercises().exercises if ex.type == "order"]


def shown_order(at: AppTest, ex) -> list[str]:
    """The step ids in the order the page shows them (the rows' keys, top to bottom)."""
    prefix = f"exercises_{ex.id}_move_up_"
    return [b.key.removeprefix(prefix) for b in at.button if b.key and b.key.startswith(prefix)]


def sort_by_buttons(at: AppTest, ex, target: list[str]) -> int:
    """Press Move up until the page shows ``target``; the number of presses."""
    presses = 0
    for position, step in enumerate(target):
        while shown_order(at, ex).index(step) > position:
            at.button(key=f"exercises_{ex.id}_move_up_{step}").click().run()
            presses += 1
    return presses


@pytest.mark.parametrize("ex", ORDER, ids=lambda ex: ex.id)
def test_an_unchanged_listed_order_is_not_a_try(data_dir, ex):
    at = run_page(ex.page, "lazy")
    assert shown_order(at, ex) == list(ex.labels("steps"))
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert t("exercises.order.untouched", "en") in [i.value for i in at.info]
    assert not [m for m in at.markdown if m.value.startswith(("✅", "✍️"))]
    assert ProgressStore(data_dir).get("lazy", ex.id) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ex", ORDER, ids=lambda ex: ex.id)
def test_up_and_down_buttons_reorder_full_texts_and_grade(data_dir, ex, lang):
    at = run_page(ex.page, "mover", lang)
    texts = {step: text[lang] for step, text in ex.labels("steps").items()}
    first, last = shown_order(at, ex)[0], shown_order(at, ex)[-1]
    assert at.button(key=f"exercises_{ex.id}_move_up_{first}").disabled
    assert at.button(key=f"exercises_{ex.id}_move_down_{last}").disabled
    for step, text in texts.items():  # the whole text, the step named in each button's label
        assert any(m.value.endswith(f"** {text}") for m in at.markdown), text
        assert at.button(key=f"exercises_{ex.id}_move_up_{step}").label == t("exercises.order.move_up", lang, step=text)
        assert at.button(key=f"exercises_{ex.id}_move_down_{step}").label == t("exercises.order.move_down", lang,
                                                                                step=text)
    at.button(key=f"exercises_{ex.id}_move_down_{first}").click().run()
    assert shown_order(at, ex)[1] == first
    assert sort_by_buttons(at, ex, list(ex.answer)) > 0
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    n = len(ex.answer)
    assert any(s.value.startswith(f"**{t('exercises.result_correct', lang, score=n, max=n)}**") for s in at.success)
    record = ProgressStore(data_dir).get("mover", ex.id)
    assert (record.tries, record.best_score) == (1, n)


#: One exercise of every type in the registry (toolcall/exercise_types), the first shipped one.
ONE_PER_TYPE = [next(ex for ex in load_exercises().exercises if ex.type == kind) for kind in sorted(EXERCISE_TYPES)]


@pytest.mark.parametrize("ex", ONE_PER_TYPE, ids=lambda ex: ex.type)
def test_an_empty_submit_is_neither_graded_nor_counted(data_dir, ex):
    """Issue 14: an empty number answer showed "0 of 1. Try again: tries are unlimited." beside
    "Nothing to grade yet". For every exercise type: no score line, no try saved."""
    at = run_page(ex.page, "blank")
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert not at.exception
    partial = t("exercises.result_partial", "en", score=0, max=1).split(".")[0]
    assert [m.value for m in at.markdown if partial in m.value] == []
    assert ProgressStore(data_dir).get("blank", ex.id) is None or ProgressStore(data_dir).get("blank", ex.id).tries == 0


def test_the_same_answer_twice_in_a_row_counts_one_try(data_dir):
    """Issue 14: Submit twice with one answer counted two tries (Enter no longer submits: test_form_submit.py)."""
    ex = next(e for e in load_exercises().exercises if e.type == "number")
    at = run_page(ex.page, "twice")
    at.text_input(key=f"exercises_{ex.id}_answer").input("12345")
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert ProgressStore(data_dir).get("twice", ex.id).tries == 1
    assert t("exercises.same_answer", "en") in [c.value for c in at.caption]
    at.text_input(key=f"exercises_{ex.id}_answer").input("54321")
    at.button(key=f"exercises_{ex.id}_submit").click().run()
    assert ProgressStore(data_dir).get("twice", ex.id).tries == 2
    assert t("exercises.same_answer", "en") not in [c.value for c in at.caption]


def script_grading_every_reference_answer() -> None:
    from toolcall.exercises import load_exercises  # noqa: PLC0415 (runs inside AppTest)
    from toolcall.grading import answer_text, grade, grading_inputs  # noqa: PLC0415
    from ui.exercise_widgets import _show_grade  # noqa: PLC0415

    for ex in load_exercises().exercises:
        _show_grade(grade(ex, answer_text(ex, ex.answer), grading_inputs(ex)))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_right_answer_is_one_message_not_two(lang):
    """Newcomer session 7: "✅ Correct: 1 of 1." then a green box saying only "Correct.". Every shipped
    exercise's reference answer, whatever its type, is said in exactly one green box that starts with the
    score line, and nothing else is drawn for it; no feedback line merely repeats the verdict."""
    at = AppTest.from_function(script_grading_every_reference_answer, default_timeout=60)
    at.session_state["app_lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    exercises = load_exercises().exercises
    assert len(at.success) == len(exercises)
    assert (len(at.markdown), len(at.info), len(at.error), len(at.warning)) == (0, 0, 0, 0)
    for ex, box in zip(exercises, at.success):
        g = grade(ex, answer_text(ex, ex.answer), grading_inputs(ex))
        verdict = t("exercises.result_correct", lang, score=f"{g.score:g}", max=f"{g.max_score:g}")
        head, *details = box.value.split("\n")
        assert head == f"**{verdict}**", ex.id
        word = re.split("[:：]", verdict)[0]  # "Correct" / the Chinese verdict word: a line of just that repeats it
        assert [line for line in details if line.lstrip("- ").rstrip(".。") == word] == [], ex.id
