"""order: the steps as a list, full texts wrapping, each with Move up / Move down buttons.

Streamlit has no native drag-and-drop; buttons work with the keyboard and a screen reader (each
one's name is "Move up: <step>", the text hidden visually behind an arrow). The list starts in the
order the exercise file lists the steps (never the answer: toolcall.exercise_types.order.check);
submitting that order unchanged is not graded and is not a try. Buttons cannot sit inside a form, so
the list is drawn above the exercise's form (``in_form=False``)."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from toolcall.exercise_types.order import listed_order
from toolcall.exercises import Exercise
from ui.common import tr
from ui.exercise_inputs.base import ExerciseInput, key, numbered, setdefault, shown

#: Hides a move button's text visually but keeps it as the button's accessible name.
_HIDDEN_TEXT = ("<style>[class*='st-key-exercises_'][class*='_move_'] button [data-testid='stMarkdownContainer']"
                "{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
                "clip-path:inset(50%);white-space:nowrap;border:0}</style>")


def order(ex: Exercise) -> list[str]:
    """The step ids in the order shown now (the answer key holds them)."""
    held = st.session_state.get(key(ex, "answer"))
    steps = listed_order(ex)
    return list(held) if isinstance(held, list) and sorted(held) == sorted(steps) else steps


def _seed(ex: Exercise, value: Any) -> None:
    setdefault(ex, "answer", list(value) if value else listed_order(ex))


def _move(ex: Exercise, step: str, offset: int) -> None:
    """Move ``step`` (an id, not a position) by ``offset`` places. A button carries what it was drawn with: with
    a position, a second click sent before the page was drawn again (a double click on a busy server) swapped
    the same two places back, and the student's move was undone."""
    steps = order(ex)
    if step not in steps:
        return
    position = steps.index(step)
    target = position + offset
    if 0 <= target < len(steps):
        steps[position], steps[target] = steps[target], steps[position]
    st.session_state[key(ex, "answer")] = steps


def _draw(ex: Exercise) -> None:
    texts = shown(ex.labels("steps"))
    steps = order(ex)
    st.html(_HIDDEN_TEXT)
    st.caption(tr("exercises.order_label"))
    with st.container(border=True, key=key(ex, "steps")):
        for n, step in enumerate(steps):
            row = st.container(horizontal=True, wrap=False, vertical_alignment="center", key=key(ex, f"row_{step}"))
            row.markdown(f"**{n + 1}.** {texts[step]}", width="stretch")
            arrows = row.container(width="content", gap="xsmall")
            arrows.button(tr("exercises.order.move_up", step=texts[step]), key=key(ex, f"move_up_{step}"),
                       icon=":material/arrow_upward:", disabled=n == 0, on_click=_move, args=(ex, step, -1))
            arrows.button(tr("exercises.order.move_down", step=texts[step]), key=key(ex, f"move_down_{step}"),
                       icon=":material/arrow_downward:", disabled=n == len(steps) - 1, on_click=_move,
                       args=(ex, step, 1))


def _answer(ex: Exercise) -> str:
    return json.dumps(order(ex))


def _untouched(ex: Exercise) -> str | None:
    return "exercises.order.untouched" if order(ex) == listed_order(ex) else None


INPUT = ExerciseInput("order", _seed, _draw, _answer, numbered("steps"), in_form=False, untouched=_untouched)
