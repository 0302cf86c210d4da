"""classify: one selectbox per item."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from toolcall.exercises import Exercise
from ui.common import show_table, tr
from ui.exercise_inputs.base import ExerciseInput, key, setdefault, shown
from ui.widgets import translated


def _seed(ex: Exercise, value: Any) -> None:
    for item in ex.spec["items"]:
        setdefault(ex, "item_" + item["id"], (value or {}).get(item["id"]))


def _draw(ex: Exercise) -> None:
    cats = shown(ex.labels("categories"))
    for iid, text in shown(ex.labels("items")).items():
        translated("selectbox", text, cats, cats, key=key(ex, "item_" + iid),
                   placeholder=tr("exercises.classify_label"))


def _answer(ex: Exercise) -> str:
    chosen = {i["id"]: st.session_state.get(key(ex, "item_" + i["id"])) for i in ex.spec["items"]}
    return json.dumps({k: v for k, v in chosen.items() if v})


def _reference(ex: Exercise) -> None:
    items, cats = shown(ex.labels("items")), shown(ex.labels("categories"))
    show_table([{"": items[i], tr("exercises.classify_label"): cats[c]} for i, c in ex.answer.items()])


INPUT = ExerciseInput("classify", _seed, _draw, _answer, _reference)
