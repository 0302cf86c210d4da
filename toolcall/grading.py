"""Grade an exercise answer: one pure grader per exercise type, none per exercise.

Each type lives in its own module under toolcall/exercise_types/ (discovered into
:data:`EXERCISE_TYPES`); this module is the entry point everyone calls. Every grader takes the
Exercise and the answer *text* (what the page stores and what ``python -m toolcall grade``
receives) and returns a Grade. Answer text per type:

- choice: a JSON list of option ids (``["a", "c"]``) or one id (``"b"`` or ``b``);
- number: a decimal (``0.7``), a fraction (``84/120``) or a percentage (``70%``);
- json: the JSON text itself (a JSON object), graded against the exercise's JSON Schema;
- schema_fix: the edited input_schema as JSON text, graded by running the tool's canned outputs;
- order: a JSON list of every step id, first step first;
- classify: a JSON object mapping each item id to a category id.

A malformed answer earns 0 with feedback saying why; no grader raises for any str.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolcall import CONTENT_ROOT
from toolcall.exercise_types import EXERCISE_TYPES
from toolcall.exercise_types.base import (MAX_ANSWER_CHARS, ExerciseType, FeedbackItem, Grade, GradingInputs,
                                          Loader)
from toolcall.exercise_types.choice import grade_choice
from toolcall.exercise_types.classify import grade_classify
from toolcall.exercise_types.json_object import grade_json
from toolcall.exercise_types.number import grade_number, parse_number
from toolcall.exercise_types.order import grade_order
from toolcall.exercise_types.schema_fix import grade_schema_fix
from toolcall.exercises import Exercise
from toolcall.fixtures import FixtureError, load_outputs, load_tool
from toolcall.pages_registry import PAGES

__all__ = ["EXERCISE_TYPES", "MAX_ANSWER_CHARS", "ExerciseType", "FeedbackItem", "Grade", "GradingInputs",
           "answer_text", "answer_value", "fixture_loader", "grade", "grade_choice", "grade_classify", "grade_json",
           "grade_number", "grade_order", "grade_schema_fix", "grading_inputs", "max_scores", "parse_number",
           "readable_answer", "totals"]


def answer_text(exercise: Exercise, value: Any) -> str:
    """The answer text for ``value`` written as data (a reference or wrong answer in a file):
    strings pass through for json/schema_fix/number, everything else becomes JSON."""
    return EXERCISE_TYPES[exercise.type].write(exercise, value)


def fixture_loader(root: Path = CONTENT_ROOT) -> Loader:
    """``load(kind, relative)`` reading ``root``/fixtures/``relative`` uncached (kind: tool, outputs).
    Raises FixtureError if the file is broken."""
    readers = {"tool": load_tool, "outputs": load_outputs}
    return lambda kind, relative: readers[kind](Path(root) / "fixtures" / relative)


def grading_inputs(exercise: Exercise, root: Path = CONTENT_ROOT) -> GradingInputs:
    """Read what grading ``exercise`` needs from ``root``/fixtures (tools/<tool>.json,
    outputs/<tool>.yaml for schema_fix; nothing for the other types). Raises FixtureError if
    those files are broken."""
    return EXERCISE_TYPES[exercise.type].inputs(exercise, fixture_loader(root))


def grade(exercise: Exercise, text: str, inputs: GradingInputs = GradingInputs()) -> Grade:
    """Grade ``text`` with the grader for the exercise's type. Pure: what the grader needs besides
    the answer comes in ``inputs`` (:func:`grading_inputs`); ValueError when a schema_fix exercise
    is graded without its tool and outputs."""
    return EXERCISE_TYPES[exercise.type].grade(exercise, text, inputs)


def answer_value(exercise: Exercise, text: str) -> Any:
    """Read stored answer text back into what the page's widgets hold, or None when it
    cannot be read: choice → list of option ids, order → list of step ids, classify →
    ``{item: category}``, number / json / schema_fix → the text itself. Never raises."""
    return EXERCISE_TYPES[exercise.type].read(exercise, text)


def readable_answer(exercise: Exercise, text: str, lang: str) -> str:
    """Stored answer text as the student saw it in ``lang``: the option texts of a choice, the step
    texts of an order (``a → b``), ``item → category`` pairs of a classify; number, json and
    schema_fix answers, and text that cannot be read (cut short, say), as they are. Never raises."""
    kind = EXERCISE_TYPES[exercise.type]
    value = kind.read(exercise, text)
    return text if value is None else kind.show(exercise, value, lang)


def max_scores(exercises, inputs: Callable[[Exercise], GradingInputs]) -> dict[str, float]:
    """Points each exercise is worth: the max_score its reference answer earns. ``inputs(exercise)``
    gives what grading needs; an exercise whose inputs raise FixtureError is left out (the page that
    uses the broken file reports it)."""
    table = {}
    for ex in exercises:
        try:
            table[ex.id] = grade(ex, answer_text(ex, ex.answer), inputs(ex)).max_score
        except FixtureError:
            continue
    return table


def in_course_order(entries: list) -> list:
    """``entries`` (exercises and harness progress entries, each with a ``page`` id) grouped by
    page in the order of :data:`toolcall.pages_registry.PAGES` (the sidebar's), keeping their order
    within a page. An entry whose page is not registered comes last."""
    rank = {p.id: i for i, p in enumerate(PAGES)}
    return sorted(entries, key=lambda e: rank.get(e.page, len(rank)))


#: Entry types whose progress record is written once, when a run ends (the harness lab's scenarios): a
#: record below full marks is a finished run, not work in progress.
FINISHED_WHEN_RECORDED = frozenset({"harness"})


def status(entry, record) -> tuple[str, dict[str, str]]:
    """The progress status of one entry (an exercise or a harness progress entry, with a ``type``) for one
    learner's ``record`` (a progress record or None): ``(key under exercises.status, params)``. ``todo``
    (no graded try), ``solved`` (full marks), ``finished`` with ``score`` and ``max`` (a scenario run to its
    end below full marks: "Finished, 2 of 3", never "In progress"), ``revealed`` or ``tried``. The exercises
    table and the dashboard's drill-down both say it with this. ``entry`` None (an id no longer listed) is
    taken for an exercise."""
    if record is None or not record.tries:
        return "todo", {}
    if record.solved:
        return "solved", {}
    if getattr(entry, "type", None) in FINISHED_WHEN_RECORDED:
        return "finished", {"score": f"{record.best_score:g}", "max": f"{record.max_score:g}"}
    return ("revealed" if record.revealed else "tried"), {}


def finished_short(entries, records: dict[str, Any]) -> int:
    """How many of ``entries`` have the status ``finished``: run to their end, below full marks."""
    return sum(1 for e in entries if status(e, records.get(e.id))[0] == "finished")


def totals(exercises, records: dict[str, Any]) -> tuple[int, float, float]:
    """``(solved, score, points)`` over ``exercises`` for one learner's ``records`` (progress
    records by exercise id): how many are solved, the sum of best scores, and the points of the
    exercises tried at least once."""
    tried = [records[ex.id] for ex in exercises if ex.id in records]
    return (sum(1 for r in tried if r.solved), sum(r.best_score for r in tried),
            sum(r.max_score for r in tried if r.tries))
