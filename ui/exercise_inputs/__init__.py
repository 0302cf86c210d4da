"""The answer widgets of each exercise type: seed them from the saved answer, draw them, read
them back as answer text (the format toolcall.grading documents) and show the reference answer.

Every module here except ``base`` is one type's widgets and exports ``INPUT`` (an
:class:`~ui.exercise_inputs.base.ExerciseInput`), discovered into :data:`INPUTS`; the core half of
each type is toolcall/exercise_types/<same module>.py. Keys are ``exercises_<id>_answer``,
``exercises_<id>_opt_<option>`` and ``exercises_<id>_item_<item>``; translated choices are drawn with
ui.widgets.translated.
"""

from __future__ import annotations

import importlib
import pkgutil

from toolcall.exercises import Exercise
from toolcall.grading import answer_value
from ui.exercise_inputs.base import ExerciseInput, key

__all__ = ["INPUTS", "answer", "draw", "key", "prefill", "show_reference", "untouched"]


def _discover() -> dict[str, ExerciseInput]:
    found: dict[str, ExerciseInput] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if module != "base":
            widgets = importlib.import_module(f"{__name__}.{module}").INPUT
            found[widgets.name] = widgets
    return found


#: The widgets of every exercise type, by type name (the same names as toolcall.grading.EXERCISE_TYPES).
INPUTS: dict[str, ExerciseInput] = _discover()


def prefill(ex: Exercise, stored: str | None) -> None:
    """Put the stored (or starter) answer into the widgets' keys before they are drawn."""
    INPUTS[ex.type].seed(ex, answer_value(ex, stored) if stored else None)


def draw(ex: Exercise, in_form: bool) -> None:
    """Draw the exercise's answer widgets if they belong ``in_form`` (True: inside the exercise's form;
    False: above it, for widgets with buttons)."""
    if INPUTS[ex.type].in_form == in_form:
        INPUTS[ex.type].draw(ex)


def untouched(ex: Exercise) -> str | None:
    """An i18n key asking the student to answer first when the widgets still hold a starting value
    that is never an answer (the listed order of an ordering exercise), else None."""
    return INPUTS[ex.type].untouched(ex)


def answer(ex: Exercise) -> str:
    """The answer text (toolcall.grading's format) from the widgets' values."""
    return INPUTS[ex.type].answer(ex)


def show_reference(ex: Exercise) -> None:
    """The reference answer, in the widgets' terms (options, steps, a table, JSON)."""
    INPUTS[ex.type].reference(ex)
