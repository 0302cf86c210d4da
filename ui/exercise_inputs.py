"""The answer widgets of one exercise: seed them from the saved answer, draw them, and
read them back as answer text (the format toolcall.grading documents).

Keys are ``exercises_<id>_answer``, ``exercises_<id>_opt_<option>`` and
``exercises_<id>_item_<item>``; translated choices are drawn with ui.widgets.translated.
"""

from __future__ import annotations

import json

import streamlit as st

from ui.common import lang, load, tr
from ui.widgets import translated
from toolcall.exercises import Exercise
from toolcall.grading import answer_value
from toolcall.presets import apply_preset, schema_text


def key(ex: Exercise, part: str) -> str:
    return f"exercises_{ex.id}_{part}"


def _starter(ex: Exercise) -> str:
    if ex.type == "schema_fix":
        tool = load("tool", f"tools/{ex.spec['tool']}.json")
        return schema_text(apply_preset(tool.input_schema, ex.spec["starter_preset"]))
    return ex.spec.get("starter", "")


def prefill(ex: Exercise, stored: str | None) -> None:
    """Put the stored (or starter) answer into the widgets' keys before they are drawn."""
    value = answer_value(ex, stored) if stored else None
    if ex.type == "choice" and ex.spec["multiple"]:
        for opt in ex.spec["options"]:
            st.session_state.setdefault(key(ex, "opt_" + opt["id"]), bool(value and opt["id"] in value))
    elif ex.type == "choice":
        st.session_state.setdefault(key(ex, "answer"), value[0] if value else None)
    elif ex.type == "classify":
        for item in ex.spec["items"]:
            st.session_state.setdefault(key(ex, "item_" + item["id"]), (value or {}).get(item["id"]))
    elif ex.type == "order":
        st.session_state.setdefault(key(ex, "answer"), value or [])
    else:
        st.session_state.setdefault(key(ex, "answer"), value if value is not None else _starter(ex))


def draw(ex: Exercise) -> None:
    L = lang()
    labels = {k: ex.labels(k) for k in ("options", "steps", "categories", "items")}
    if ex.type == "choice" and ex.spec["multiple"]:
        st.caption(tr("exercises.choose_many"))
        for oid, text in labels["options"].items():
            st.checkbox(text[L], key=key(ex, "opt_" + oid))
    elif ex.type == "choice":
        translated("radio", tr("exercises.choose_one"), labels["options"],
                   {o: text[L] for o, text in labels["options"].items()}, key=key(ex, "answer"))
    elif ex.type == "number":
        st.text_input(tr("exercises.number_label"), key=key(ex, "answer"))
    elif ex.type in ("json", "schema_fix"):
        label = tr("exercises.json_label" if ex.type == "json" else "exercises.schema_label")
        st.text_area(label, key=key(ex, "answer"), height=360 if ex.type == "schema_fix" else 220)
    elif ex.type == "order":
        translated("multiselect", tr("exercises.order_label"), labels["steps"],
                   {s: text[L] for s, text in labels["steps"].items()}, key=key(ex, "answer"))
    else:
        cats = {c: text[L] for c, text in labels["categories"].items()}
        for iid, text in labels["items"].items():
            translated("selectbox", text[L], cats, cats, key=key(ex, "item_" + iid),
                       placeholder=tr("exercises.classify_label"))


def answer(ex: Exercise) -> str:
    """The answer text (toolcall.grading's format) from the widgets' values."""
    s = st.session_state
    if ex.type == "choice" and ex.spec["multiple"]:
        return json.dumps([o["id"] for o in ex.spec["options"] if s.get(key(ex, "opt_" + o["id"]))])
    if ex.type == "choice":
        return json.dumps([s[key(ex, "answer")]] if s.get(key(ex, "answer")) else [])
    if ex.type == "order":
        return json.dumps(s.get(key(ex, "answer")) or [])
    if ex.type == "classify":
        chosen = {i["id"]: s.get(key(ex, "item_" + i["id"])) for i in ex.spec["items"]}
        return json.dumps({k: v for k, v in chosen.items() if v})
    return s.get(key(ex, "answer")) or ""
