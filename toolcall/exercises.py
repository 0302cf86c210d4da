"""Load the auto-graded exercises instructors write as YAML under fixtures/exercises/.

Every file is validated against fixtures/schemas/exercise.schema.json, then each
exercise is checked for consistency (its answer names real options, steps, items and
categories; a json exercise's schema is a usable schema: each type's ``check``). A problem in one exercise drops
that exercise only, a problem with the file as a whole drops the file; everything else
still loads, and each problem reads ``fixtures/exercises/x.yaml: $.exercises[2].answer: …``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from toolcall import FIXTURES_DIR
from toolcall.exercise_types import EXERCISE_TYPES
from toolcall.exercise_types.base import Fault
from toolcall.fixtures import (FixtureError, Problem, SchemaFileError, blank_text_problems, content_message,
                               content_schema, content_validator, display_name, first_introduced, json_path, read_data,
                               hidden_text_problems, oversized_lists, same_text_problems)

#: Exercise types (toolcall/exercise_types/; a test keeps exercise.schema.json's enum equal).
TYPES: tuple[str, ...] = tuple(EXERCISE_TYPES)
SCHEMA_PATH = FIXTURES_DIR / "schemas" / "exercise.schema.json"


@dataclass(frozen=True)
class Exercise:
    """One exercise. Texts (``title``, ``prompt``, ``explanation``, each hint) are ``{en, zh}``
    dicts; ``answer`` is the reference answer as written in the file; ``wrong_answers`` is a
    tuple of ``{answer, feedback}`` dicts; ``spec`` holds the type's own fields (options,
    tolerance, schema, tool, starter_preset, steps, categories, items, multiple, starter);
    ``file`` is where it was loaded from and ``index`` its position in that file's
    ``exercises`` list (for messages such as ``$.exercises[3].answer``)."""

    id: str
    page: str
    type: str
    title: dict[str, str]
    prompt: dict[str, str]
    answer: Any
    hints: tuple[dict[str, str], ...]
    explanation: dict[str, str]
    wrong_answers: tuple[dict[str, Any], ...] = ()
    spec: dict[str, Any] = field(default_factory=dict)
    file: str = ""
    index: int = 0

    def labels(self, kind: str) -> dict[str, dict[str, str]]:
        """``{id: {en, zh}}`` for ``kind`` in options / steps / categories / items."""
        return {entry["id"]: entry["text"] for entry in self.spec.get(kind, [])}


@dataclass(frozen=True)
class ExerciseSet:
    """Every exercise that loaded, in file order, and every problem found on the way."""

    exercises: tuple[Exercise, ...]
    problems: tuple[Problem, ...]

    def by_id(self) -> dict[str, Exercise]:
        return {ex.id: ex for ex in self.exercises}

    def for_page(self, page: str) -> list[Exercise]:
        return [ex for ex in self.exercises if ex.page == page]


#: The fields every exercise has, and the fields each type reads besides them. A field of another type (``schema``
#: on a schema_fix exercise, which starts from ``starter_preset``; ``tolerance`` on a choice) passes the schema,
#: which lists every type's fields, but the app never reads it: check reports it.
COMMON_FIELDS = frozenset({"id", "page", "type", "title", "prompt", "answer", "hints", "explanation", "wrong_answers"})
TYPE_FIELDS = {"choice": {"multiple", "options"}, "number": {"tolerance", "starter"}, "json": {"schema", "starter"},
               "schema_fix": {"tool", "starter_preset"}, "order": {"steps"}, "classify": {"categories", "items"}}


def _unread_fields(item: dict[str, Any]) -> list[Fault]:
    """``([field], message)`` for each field of ``item`` that its type never reads."""
    reads = TYPE_FIELDS[item["type"]]
    return [([k], f"a {item['type']} exercise never reads {k!r} (it reads {', '.join(sorted(reads))} besides the "
                  "common fields): remove it, or change the type") for k in item if k not in COMMON_FIELDS | reads]


def _consistency(item: dict[str, Any]) -> list[Fault]:
    """``(path inside the exercise, message)`` for an exercise that passed the schema but
    contradicts itself: its type's own check (toolcall/exercise_types/<type>.py)."""
    return EXERCISE_TYPES[item["type"]].check(item)


def load_exercise_file(path: Path, schema_path: Path = SCHEMA_PATH) -> tuple[list[Exercise], list[Problem]]:
    """Load one exercise file: the exercises that are sound, and a Problem for each fault.

    A file that cannot be read or parsed, or whose top level is wrong, yields no exercises;
    an exercise with a fault is dropped alone. Never raises for bad content.
    """
    name = display_name(path)
    try:
        data = read_data(path)
    except FixtureError as exc:
        return [], list(exc.problems)
    try:
        schema = content_schema(Path(schema_path))
    except SchemaFileError as exc:  # read as every content schema is (toolcall.fixtures.schema_problems)
        return [], [Problem(name, "$", f"cannot be checked: {display_name(Path(schema_path))}: {exc}")]
    if oversized := oversized_lists(data, schema, name):  # counted before its exercises, as schema_problems does
        return [], oversized
    errors = sorted(content_validator(schema).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    problems = [Problem(name, json_path(e.absolute_path), content_message(e)) for e in errors]
    problems += blank_text_problems(data, name) + same_text_problems(data, name) + hidden_text_problems(data, name)
    if any(len(e.absolute_path) < 2 or e.absolute_path[0] != "exercises" for e in errors):
        return [], problems  # the file as a whole is wrong, not one exercise
    bad_items = {e.absolute_path[1] for e in errors}
    exercises = []
    for i, item in enumerate(data["exercises"]):
        if i in bad_items:
            continue
        faults = _consistency(item)
        problems += [Problem(name, json_path(["exercises", i, *where]), msg) for where, msg in faults]
        if faults:
            continue
        problems += [Problem(name, json_path(["exercises", i, *where]), msg) for where, msg in _unread_fields(item)]
        exercises.append(Exercise(item["id"], item["page"], item["type"], item["title"], item["prompt"],
                                  item["answer"], tuple(item["hints"]), item["explanation"],
                                  tuple(item.get("wrong_answers", [])),
                                  {k: v for k, v in item.items() if k not in COMMON_FIELDS}, name, i))
    return exercises, problems


def load_exercises(folder: Path | None = None, schema_path: Path = SCHEMA_PATH) -> ExerciseSet:
    """Load every ``*.yaml`` / ``*.yml`` under ``folder`` (default fixtures/exercises/), in
    name order. A repeated id is a problem on the later exercise, which is dropped. A missing
    folder (or a file in its place) is one problem: "no such folder"."""
    exercises: list[Exercise] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    where = Path(folder or FIXTURES_DIR / "exercises")
    if not where.is_dir():  # why, as check_path says it: a link to itself was "no such folder" (brk19new)
        from toolcall.files import ReadError, check_path

        try:
            check_path(where, "folder")
            what = "not a folder"  # not one now, whatever it was a moment ago
        except ReadError as exc:
            what = {"no_such_folder": "no such folder", "not_folder": "not a folder"}.get(exc.code, str(exc))
        return ExerciseSet((), (Problem(display_name(where), "$", f"{what}: no exercises can be loaded from it"),))
    files = exercise_files(folder)
    per_file = {}
    for path in files:
        per_file[path], found = load_exercise_file(path, schema_path)
        problems += found
    kept: set[tuple[str, int]] = set()
    for path in first_introduced(files):  # the file that introduced a duplicate is blamed for it
        for ex in per_file[path]:
            if ex.id in seen:
                problems.append(Problem(ex.file, json_path(["exercises", ex.index, "id"]),
                                        f"duplicate exercise id {ex.id!r} (first in {seen[ex.id]})"))
                continue
            seen[ex.id] = ex.file
            kept.add((ex.file, ex.index))
    exercises = [ex for path in files for ex in per_file[path] if (ex.file, ex.index) in kept]
    return ExerciseSet(tuple(exercises), tuple(problems))


def exercise_files(folder: Path | None = None) -> list[Path]:
    """The exercise files under ``folder`` (for cache keys built from their mtimes)."""
    folder = Path(folder or FIXTURES_DIR / "exercises")
    return sorted(list(folder.glob("*.yaml")) + list(folder.glob("*.yml")))
