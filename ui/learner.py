"""The learner id (kept in the URL as ?learner=…) and the progress store, for every page.

The id lives in ``st.query_params['learner']`` so a refresh keeps it, and in session
state so a page switch that drops query parameters keeps it too.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import streamlit as st

from ui.common import tr
from toolcall.progress import ProgressStore, data_dir, new_learner_id, valid_learner

LEARNER_KEY = "exercises_learner"


def current_learner() -> str:
    """The learner id: the URL's when valid, else this session's, else a new random one;
    written back into the URL either way."""
    from_url = st.query_params.get("learner")
    if valid_learner(from_url):
        learner = from_url
    else:
        learner = st.session_state.get(LEARNER_KEY) or new_learner_id()
        if from_url is not None:
            st.session_state["exercises_learner_replaced"] = True
    st.session_state[LEARNER_KEY] = learner
    if st.query_params.get("learner") != learner:
        st.query_params["learner"] = learner
    return learner


def learner_sidebar() -> str:
    """Show the learner id in the sidebar (read-only text) and return it."""
    learner = current_learner()
    with st.sidebar:
        st.caption(tr("exercises.learner_label"), help=tr("exercises.learner_help"))
        st.code(learner, language=None)
        if st.session_state.pop("exercises_learner_replaced", False):
            st.warning(tr("exercises.learner_replaced"))
        if getattr(progress_store(), "read_only", False):
            st.warning(tr("progress.read_only"))
    return learner


@st.cache_resource(show_spinner=False)
def _store(folder: str) -> ProgressStore:
    return ProgressStore(Path(folder))


class _UnavailableStore:
    """Stands in for a store that could not be opened: every call raises the original
    error, which ui.exercise_widgets.safe_store turns into a warning (grading goes on)."""

    def __init__(self, error: Exception):
        self.error = error

    def __getattr__(self, name: str):
        def fail(*args, **kwargs):
            raise self.error
        return fail


def progress_store() -> ProgressStore | _UnavailableStore:
    """The shared progress store in the data directory (TOOLCALL_DATA_DIR or <repo>/data).
    When the directory or database cannot be used, a stand-in whose calls raise OSError /
    sqlite3.Error, so each page warns instead of crashing."""
    try:
        return _store(str(data_dir()))
    except (sqlite3.Error, OSError) as exc:
        return _UnavailableStore(exc)
