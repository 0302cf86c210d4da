"""The exercise-type registry: every module in this package except ``base`` is one exercise type
and exports ``TYPE`` (a :class:`~toolcall.exercise_types.base.ExerciseType`) that knows how to check
its fixture block, grade, write and read its answer text.

Adding a type: ``toolcall/exercise_types/<name>.py`` with ``TYPE``, its widgets in
``ui/exercise_inputs/<name>.py``, its branch of fixtures/schemas/exercise.schema.json (a test keeps the
schema's ``type`` enum equal to this registry), the locale keys ``exercises.type.<name>`` (and any
``exercises.fb.*`` it uses) and its tests.
"""

from __future__ import annotations

import importlib
import pkgutil

from toolcall.exercise_types.base import ExerciseType


def _discover() -> dict[str, ExerciseType]:
    found: dict[str, ExerciseType] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if module == "base":
            continue
        kind = importlib.import_module(f"{__name__}.{module}").TYPE
        if kind.name in found:
            raise RuntimeError(f"exercise type {kind.name!r} is defined twice (in {module})")
        found[kind.name] = kind
    return found


#: Every exercise type by name (the ``type`` of an exercise file's entry), in module-name order.
EXERCISE_TYPES: dict[str, ExerciseType] = _discover()
