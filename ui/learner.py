"""The learner id (kept in the URL as ?learner=…) and the progress store, for every page.

The id lives in ``st.query_params['learner']`` so a refresh keeps it, and in session
state so a page switch that drops query parameters keeps it too.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui.common import plain, show_code, tr
from toolcall.text import escaped_head
from toolcall.progress import (PendingAnswers, Record, SqlProgressStore, StorageError, data_dir, new_learner_id,
                               open_store, read_only_problem, valid_learner)

LEARNER_KEY = "exercises_learner"
#: Session key of this run's place for the not-saved warning in the sidebar (an st.empty).
NOT_SAVED_SLOT = "_progress_not_saved_slot"
#: The sidebar box that shows the id. Streamlit's copy button sits over the right end of a code block, and on
#: hover it covered the id's last characters at 1366 px (newcomer session 7): the box keeps the button's width
#: free on the right, a smaller monospace font fits the longest generated id (25 characters) on one line, and a longer
#: id typed into the address wraps instead of running under the button.
LEARNER_BOX_KEY = "sidebar_learner_id"
LEARNER_BOX_CSS = (f"<style>.st-key-{LEARNER_BOX_KEY} pre {{ padding-left: 0.75rem; padding-right: 2.5rem; }} "
                   f".st-key-{LEARNER_BOX_KEY} pre code {{ font-size: 0.75rem; white-space: pre-wrap; "
                   "overflow-wrap: anywhere; }</style>")


#: Characters of a refused learner id the sidebar quotes back.
MAX_SHOWN_ID = 80


def current_learner() -> str:
    """The learner id: the URL's when valid, else this session's, else a new random one;
    written back into the URL either way."""
    from_url = st.query_params.get("learner")
    if valid_learner(from_url):
        learner = from_url
    else:
        learner = st.session_state.get(LEARNER_KEY) or new_learner_id()
        if from_url is not None:  # said in the sidebar with the id and the rule it broke (escaped, cut)
            shown = escaped_head(str(from_url), MAX_SHOWN_ID)
            st.session_state["exercises_learner_replaced"] = shown
    st.session_state[LEARNER_KEY] = learner
    if st.query_params.get("learner") != learner:
        st.query_params["learner"] = learner
    return learner


def learner_sidebar() -> str:
    """Show the learner id in the sidebar (read-only text) and return it; save any answers
    this session kept while the database was unreachable."""
    learner = current_learner()
    with st.sidebar:
        st.caption(tr("exercises.learner_label"), help=tr("exercises.learner_help"))
        with st.container(key=LEARNER_BOX_KEY):
            show_code(learner, language=None, wrap_lines=True)
        st.html(LEARNER_BOX_CSS)
        if (replaced := st.session_state.pop("exercises_learner_replaced", None)) is not None:
            st.warning(plain(tr("exercises.learner_replaced", given=replaced or '""')))
        if getattr(progress_store(), "read_only", False):
            st.warning(tr("progress.read_only"))
        # the not-saved warning's place, filled again when an exercise below keeps one more answer in this run
        st.session_state[NOT_SAVED_SLOT] = st.empty()
        flush_pending()
    return learner


@st.cache_resource(show_spinner=False)
def _store(folder: str, database_url: str) -> SqlProgressStore:
    return open_store(database_url, Path(folder))


def database_url() -> str:
    """TOOLCALL_DATABASE_URL from the environment, else from Streamlit secrets, else "" (SQLite). Raises ValueError
    (progress_store: a setup problem) when a secrets file exists but cannot be read: a file that is not TOML (or
    nested past what tomllib reads) was taken for no secrets at all, and the class's progress went to SQLite in the
    data folder without a word while its URL waited in the broken file (break-it pass brk20new)."""
    url = os.environ.get("TOOLCALL_DATABASE_URL", "").strip()  # white space only is unset, as open_store reads it
    if not url:
        try:
            url = str(st.secrets.get("TOOLCALL_DATABASE_URL", "") or "")
        except Exception:  # no secrets file: nothing configured; one that is there and broken is named
            if (why := secrets_problem()) is None:
                return ""
            raise ValueError(f"the secrets file cannot be read, so TOOLCALL_DATABASE_URL is not known ({why}): "
                             "correct the file, or remove it to keep progress in SQLite") from None
    return url


#: Characters of Streamlit's reason a secrets file cannot be read that a message quotes (as drawn).
MAX_SECRETS_REASON = 300


def secrets_problem() -> str | None:
    """Why the secrets files Streamlit reads cannot be read (its reason, at most MAX_SECRETS_REASON characters as
    drawn), or None when they can or there is none (st.secrets raises on no file too: that is nothing configured).
    Streamlit says where and the TOML error's line and column, never a line of the file."""
    try:
        st.secrets.get("TOOLCALL_DATABASE_URL")
        return None
    except Exception as exc:
        if not any(os.path.lexists(os.path.expanduser(path)) for path in _secrets_paths()):
            return None
        return escaped_head(str(exc) or type(exc).__name__, MAX_SECRETS_REASON)


def _secrets_paths() -> list[str]:
    """The secrets files (or folders) Streamlit reads (its ``secrets.files`` option); [] when it cannot say."""
    try:
        from streamlit import config

        return [str(path) for path in config.get_option("secrets.files") or ()]
    except Exception:  # an option this Streamlit does not have: nothing known to be there
        return []


class _UnavailableStore:
    """Stands in for a store that could not be opened: every call raises the original
    error, which ui.exercise_widgets.safe_store turns into a warning (grading goes on)."""

    #: Nothing can be read either: the sidebar must not say "read-only: your earlier answers are shown"
    #: (``__getattr__`` would answer this with a function, which is true).
    read_only = False

    def __init__(self, error: Exception):
        self.error = error

    def __getattr__(self, name: str):
        def fail(*args, **kwargs):
            raise self.error
        return fail


def progress_store() -> SqlProgressStore | _UnavailableStore:
    """The shared progress store: PostgreSQL when TOOLCALL_DATABASE_URL (environment or
    secrets) is set, else SQLite in the data directory (TOOLCALL_DATA_DIR or <repo>/data).
    When it cannot be opened, a stand-in whose calls raise StorageError, so each page warns
    instead of crashing (and the next run tries again)."""
    try:
        return _store(str(data_dir()), database_url())
    except StorageError as exc:
        return _UnavailableStore(exc)
    except ValueError as exc:  # a TOOLCALL_DATABASE_URL that is not a postgresql:// one: set up wrongly
        return _UnavailableStore(StorageError(str(exc), setup=True))
    except OSError as exc:
        return _UnavailableStore(StorageError(str(exc)))


def setup_problem() -> StorageError | None:
    """The store's own error when it could not be opened because it is set up wrongly (StorageError.setup:
    waiting will not help), or the read-only problem of a SQLite store opened read-only, else None."""
    store = progress_store()
    if getattr(store, "read_only", False):  # opened, but nothing can be saved: waiting will not help either
        return StorageError(getattr(store, "read_only_problem", "") or read_only_problem(store.path), setup=True)
    error = getattr(store, "error", None) if isinstance(store, _UnavailableStore) else None
    return error if getattr(error, "setup", False) else None


def storage_detail(exc: StorageError | None = None) -> str:
    """Why progress is not saved, for ``exercises.store_error``: the database cannot be reached, or (``exc`` or
    the store set up wrongly) the server's storage is set up wrongly, which only the instructor can fix."""
    setup = getattr(exc, "setup", False) if exc is not None else setup_problem() is not None
    if setup:
        return tr("storage.setup_detail")
    if getattr(exc, "busy", False):  # the server answers, but has no connection slot left: named, as a full disk
        return tr("storage.busy_detail")
    return tr("storage.full_detail") if getattr(exc, "full", False) else tr("progress.unreachable")


def pending_answers() -> PendingAnswers:
    """This session's answers not saved yet (the database was unreachable)."""
    return st.session_state.setdefault("exercises_pending", PendingAnswers())


def save_answer(learner: str, exercise_id: str, answer: str, score: float, max_score: float) -> Record | None:
    """Save a graded try after any queued ones; None (and a warning, here and in the sidebar) when it is kept in
    the session because the database is unreachable."""
    rec = pending_answers().save(progress_store(), learner, exercise_id, answer, score, max_score)
    if rec is None:
        _warn_not_saved()
        _warn_not_saved(in_sidebar=True)
    return rec


def _warn_not_saved(in_sidebar: bool = False) -> None:
    """Progress is not being saved: "cannot be reached, keep this tab open", or, when the storage is set up
    wrongly (waiting will not help), that the instructor must fix it. ``in_sidebar``: in the sidebar's place for
    it (learner_sidebar), replacing what it held, so that the sidebar counts an answer kept after it was drawn
    (it said 1 while the exercise below said 2; break-it pass brk19ops); a run with no such place (a fragment's
    own rerun may not write outside it) leaves the sidebar as it was."""
    if in_sidebar:
        slot = st.session_state.get(NOT_SAVED_SLOT)
        if slot is None:
            return
        try:
            with slot.container():
                _warn_not_saved()
        except StreamlitAPIException:  # a fragment rerun: the place belongs to the full run that drew it
            pass
        return
    pending = pending_answers()
    if setup_problem() is not None:
        key = "storage.not_saved_setup"
    elif getattr(pending.last_error, "busy", False):  # no connection slot left on the server: named too
        key = "storage.not_saved_busy"
    else:  # waiting helps; a full disk is named, so that a student tells the instructor instead of only waiting
        key = "storage.not_saved_full" if getattr(pending.last_error, "full", False) else "progress.not_saved"
    st.warning(tr(key, n=len(pending)))
    if pending.dropped:  # the tab keeps no more: say that these were lost, not that they are kept
        st.warning(tr("storage.pending_full", n=pending.limit, dropped=pending.dropped))


def flush_pending() -> None:
    """Save this session's queued answers if the database is back; warn while some remain."""
    pending = pending_answers()
    if len(pending):
        pending.flush(progress_store())
        if len(pending):
            _warn_not_saved(in_sidebar=True)
