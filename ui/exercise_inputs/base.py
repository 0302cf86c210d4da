"""What the answer widgets of every exercise type share: the widget keys, the ExerciseInput record a
type's module exports as ``INPUT``, and small drawing helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from toolcall.exercise_types.base import MAX_ANSWER_CHARS
from toolcall.exercises import Exercise
from toolcall.i18n import LANGS
from ui.common import PERSIST, box_chars, lang, tr
from ui.mono import monospace


def key(ex: Exercise, part: str) -> str:
    """The session-state key of one part of an exercise: ``exercises_<id>_<part>``."""
    return f"exercises_{ex.id}_{part}"


@dataclass(frozen=True)
class ExerciseInput:
    """The widgets of one exercise type (``ui/exercise_inputs/<module>.py``, the same module name as
    its core half in toolcall/exercise_types/). ``name`` is the type's name; ``seed(ex, value)`` puts
    a value (from toolcall.grading.answer_value, or None) into the widgets' keys before they are
    drawn; ``draw(ex)`` draws them (inside the exercise's form); ``answer(ex)`` reads them back as
    answer text; ``reference(ex)`` shows the reference answer once revealed. ``in_form``: False for
    widgets that need buttons (drawn above the form, which then holds Submit only); ``untouched(ex)``
    is an i18n key telling the student to answer first when the widgets still hold their starting
    value and that value is never a real answer (not graded, not a try), else None."""

    name: str
    seed: Callable[[Exercise, Any], None]
    draw: Callable[[Exercise], None]
    answer: Callable[[Exercise], str]
    reference: Callable[[Exercise], None]
    in_form: bool = True
    untouched: Callable[[Exercise], str | None] = lambda ex: None


def setdefault(ex: Exercise, part: str, value: Any) -> None:
    """Seed one widget key unless the widget already holds a value."""
    st.session_state.setdefault(key(ex, part), value)


def shown(labels: dict[str, dict[str, str]]) -> dict[str, str]:
    """{id: text in the session's language} for an exercise's labelled entries."""
    return {i: text[lang()] for i, text in labels.items()}


def numbered(kind: str) -> Callable[[Exercise], None]:
    """``reference`` as a numbered list of the ``kind`` entries (options, steps) of the answer."""
    def show(ex: Exercise) -> None:
        labels = shown(ex.labels(kind))
        st.markdown("\n".join(f"{n + 1}. {labels[a]}" for n, a in enumerate(ex.answer)))
    return show


def seed_text(ex: Exercise, value: Any) -> None:
    """``seed`` for a text box: the stored text, else the exercise's ``starter`` (or empty)."""
    setdefault(ex, "answer", value if value is not None else ex.spec.get("starter", ""))


def starter_untouched(starter: Callable[[Exercise, str], str]) -> Callable[[Exercise], str | None]:
    """``untouched`` for a text box seeded with a starting text (``starter(ex, language)``): that text, unchanged,
    is the question, not an answer, so submitting it is neither graded nor a try (issue 14). Every language's
    starting text counts: the box keeps the one it was seeded with after the student switches language
    (newcomer pass: the English schema, submitted unchanged on the Chinese page, counted as a try)."""

    def untouched(ex: Exercise) -> str | None:
        given = answer_text(ex).strip()
        starts = {starter(ex, language).strip() for language in LANGS} - {""}
        return "exercises.starter_untouched" if given in starts else None

    return untouched


def answer_text(ex: Exercise) -> str:
    """``answer`` for a text box: its text."""
    return st.session_state.get(key(ex, "answer")) or ""


def text_area(label_key: str, height: int) -> Callable[[Exercise], None]:
    """``draw`` as one text area labelled ``label_key``, in the monospace font of the JSON editors (every
    text answer is JSON: the json and schema_fix kinds)."""

    def draw(ex: Exercise) -> None:
        monospace((key(ex, "answer"),))
        st.text_area(tr(label_key), key=key(ex, "answer"), height=height, max_chars=box_chars(MAX_ANSWER_CHARS),
                     **PERSIST)

    return draw
