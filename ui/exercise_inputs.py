"""The answer widgets of each exercise type: seed them from the saved answer, draw them, read
them back as answer text (the format toolcall.grading documents) and show the reference answer.

One :class:`ExerciseInput` per type in :data:`INPUTS` (the core half of each type is
toolcall.grading.EXERCISE_TYPES). Keys are ``exercises_<id>_answer``, ``exercises_<id>_opt_<option>``
and ``exercises_<id>_item_<item>``; translated choices are drawn with ui.widgets.translated.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from toolcall.exercises import Exercise
from toolcall.grading import answer_value
from toolcall.presets import apply_preset, schema_text
from ui.common import lang, load, show_json, tr
from ui.widgets import translated


def key(ex: Exercise, part: str) -> str:
    return f"exercises_{ex.id}_{part}"


@dataclass(frozen=True)
class ExerciseInput:
    """The widgets of one exercise type. ``seed(ex, value)`` puts a value (from
    toolcall.grading.answer_value, or None) into the widgets' keys before they are drawn;
    ``draw(ex)`` draws them (inside the exercise's form); ``answer(ex)`` reads them back as answer
    text; ``reference(ex)`` shows the reference answer once revealed."""

    seed: Callable[[Exercise, Any], None]
    draw: Callable[[Exercise], None]
    answer: Callable[[Exercise], str]
    reference: Callable[[Exercise], None]


def _setdefault(ex: Exercise, part: str, value: Any) -> None:
    st.session_state.setdefault(key(ex, part), value)


def _shown(labels: dict[str, dict[str, str]]) -> dict[str, str]:
    """{id: text in the session's language} for an exercise's labelled entries."""
    return {i: text[lang()] for i, text in labels.items()}


# --- choice: checkboxes when several options are right, else a radio --------------------------

def _seed_choice(ex: Exercise, value: Any) -> None:
    if ex.spec["multiple"]:
        for opt in ex.spec["options"]:
            _setdefault(ex, "opt_" + opt["id"], bool(value and opt["id"] in value))
    else:
        _setdefault(ex, "answer", value[0] if value else None)


def _draw_choice(ex: Exercise) -> None:
    options = _shown(ex.labels("options"))
    if ex.spec["multiple"]:
        st.caption(tr("exercises.choose_many"))
        for oid, text in options.items():
            st.checkbox(text, key=key(ex, "opt_" + oid))
    else:
        translated("radio", tr("exercises.choose_one"), options, options, key=key(ex, "answer"))


def _answer_choice(ex: Exercise) -> str:
    s = st.session_state
    if ex.spec["multiple"]:
        return json.dumps([o["id"] for o in ex.spec["options"] if s.get(key(ex, "opt_" + o["id"]))])
    return json.dumps([s[key(ex, "answer")]] if s.get(key(ex, "answer")) else [])


def _numbered(kind: str) -> Callable[[Exercise], None]:
    def show(ex: Exercise) -> None:
        labels = _shown(ex.labels(kind))
        st.markdown("\n".join(f"{n + 1}. {labels[a]}" for n, a in enumerate(ex.answer)))
    return show


# --- number, json, schema_fix: a text box --------------------------------------------------------

def _seed_text(ex: Exercise, value: Any) -> None:
    if value is None and ex.type == "schema_fix":
        tool = load("tool", f"tools/{ex.spec['tool']}.json")
        value = schema_text(apply_preset(tool.input_schema, ex.spec["starter_preset"]))
    _setdefault(ex, "answer", value if value is not None else ex.spec.get("starter", ""))


def _draw_number(ex: Exercise) -> None:
    st.text_input(tr("exercises.number_label"), key=key(ex, "answer"))


def _text_area(label_key: str, height: int) -> Callable[[Exercise], None]:
    return lambda ex: st.text_area(tr(label_key), key=key(ex, "answer"), height=height)


def _answer_text(ex: Exercise) -> str:
    return st.session_state.get(key(ex, "answer")) or ""


# --- order: a multiselect, in the order picked; classify: one selectbox per item ---------------

def _draw_order(ex: Exercise) -> None:
    steps = _shown(ex.labels("steps"))
    translated("multiselect", tr("exercises.order_label"), steps, steps, key=key(ex, "answer"))


def _seed_classify(ex: Exercise, value: Any) -> None:
    for item in ex.spec["items"]:
        _setdefault(ex, "item_" + item["id"], (value or {}).get(item["id"]))


def _draw_classify(ex: Exercise) -> None:
    cats = _shown(ex.labels("categories"))
    for iid, text in _shown(ex.labels("items")).items():
        translated("selectbox", text, cats, cats, key=key(ex, "item_" + iid),
                   placeholder=tr("exercises.classify_label"))


def _answer_classify(ex: Exercise) -> str:
    chosen = {i["id"]: st.session_state.get(key(ex, "item_" + i["id"])) for i in ex.spec["items"]}
    return json.dumps({k: v for k, v in chosen.items() if v})


def _reference_classify(ex: Exercise) -> None:
    items, cats = _shown(ex.labels("items")), _shown(ex.labels("categories"))
    st.dataframe([{"": items[i], tr("exercises.classify_label"): cats[c]} for i, c in ex.answer.items()],
                 hide_index=True, width="stretch")


#: The widgets of every exercise type, by type name (the same names as toolcall.grading.EXERCISE_TYPES).
INPUTS: dict[str, ExerciseInput] = {
    "choice": ExerciseInput(_seed_choice, _draw_choice, _answer_choice, _numbered("options")),
    "number": ExerciseInput(_seed_text, _draw_number, _answer_text,
                            lambda ex: st.code(f"{ex.answer:g}", language=None)),
    "json": ExerciseInput(_seed_text, _text_area("exercises.json_label", 220), _answer_text,
                          lambda ex: show_json(ex.answer)),
    "schema_fix": ExerciseInput(_seed_text, _text_area("exercises.schema_label", 360), _answer_text,
                                lambda ex: show_json(ex.answer)),
    "order": ExerciseInput(lambda ex, value: _setdefault(ex, "answer", value or []), _draw_order,
                           lambda ex: json.dumps(st.session_state.get(key(ex, "answer")) or []), _numbered("steps")),
    "classify": ExerciseInput(_seed_classify, _draw_classify, _answer_classify, _reference_classify),
}


def prefill(ex: Exercise, stored: str | None) -> None:
    """Put the stored (or starter) answer into the widgets' keys before they are drawn."""
    INPUTS[ex.type].seed(ex, answer_value(ex, stored) if stored else None)


def draw(ex: Exercise) -> None:
    """Draw the exercise's answer widgets."""
    INPUTS[ex.type].draw(ex)


def answer(ex: Exercise) -> str:
    """The answer text (toolcall.grading's format) from the widgets' values."""
    return INPUTS[ex.type].answer(ex)


def show_reference(ex: Exercise) -> None:
    """The reference answer, in the widgets' terms (options, steps, a table, JSON)."""
    INPUTS[ex.type].reference(ex)
