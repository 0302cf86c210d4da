"""Instructor sign-in for the class dashboard (the decisions are toolcall.instructor's).

Settings come from the environment first, then Streamlit secrets: TOOLCALL_INSTRUCTOR_EMAILS
(with an ``[auth]`` section for st.login) or TOOLCALL_INSTRUCTOR_PASSPHRASE. The passphrase is
typed into a password field inside a form (never a URL, never bound to query parameters) and
is never logged or shown.
"""

from __future__ import annotations

import importlib.util
import os

import streamlit as st

from ui.common import plain, tr
from ui.learner import secrets_problem
from toolcall.instructor import (MAX_PASSPHRASE_CHARS, MIN_PASSPHRASE_CHARS, THROTTLE_FILE_ENV, LoginThrottle,
                                 SharedLoginThrottle, auth_mode, email_allowed,
                                 parse_emails, passphrase_problem)

SIGNED_IN_KEY = "dashboard_instructor"


def _secret(name: str):
    try:
        return st.secrets.get(name)
    except Exception:  # no secrets file
        return None


def _settings() -> tuple[str, frozenset[str], str]:
    try:
        oidc = "auth" in st.secrets
    except Exception:  # no secrets file
        oidc = False
    emails = parse_emails(os.environ.get("TOOLCALL_INSTRUCTOR_EMAILS") or _secret("TOOLCALL_INSTRUCTOR_EMAILS"))
    passphrase = os.environ.get("TOOLCALL_INSTRUCTOR_PASSPHRASE") or str(
        _secret("TOOLCALL_INSTRUCTOR_PASSPHRASE") or ""
    )
    return auth_mode(oidc, emails, passphrase), emails, passphrase


def authlib_installed() -> bool:
    """Whether Authlib, which st.login needs (``pip install "streamlit[auth]"``, not in requirements.txt), can be
    imported: without it st.login raises StreamlitMissingAuthlibError, a traceback on the dashboard."""
    return importlib.util.find_spec("authlib") is not None


def _logged_in() -> bool:
    return bool(st.user.get("is_logged_in", False))  # absent where no login ever ran (AppTest)


def is_instructor() -> bool:
    """Whether this session belongs to a signed-in instructor."""
    mode, emails, _ = _settings()
    if mode == "oidc":
        return _logged_in() and email_allowed(st.user.get("email"), emails)
    return mode == "passphrase" and st.session_state.get(SIGNED_IN_KEY) is True


@st.cache_resource(show_spinner=False)
def _throttle() -> LoginThrottle:
    """One throttle per process; shared by the processes of a class (deploy/serve_class.py names the file)."""
    shared = os.environ.get(THROTTLE_FILE_ENV, "")
    return SharedLoginThrottle(shared) if shared else LoginThrottle()


def sign_in() -> bool:
    """Draw what an unsigned session may see (the sign-in, or how to configure one) and
    return whether this session is an instructor's; a signed-in instructor gets a sign-out."""
    mode, emails, passphrase = _settings()
    if mode == "none":
        if (why := secrets_problem()) is not None:  # its settings unknown, not "not set up" (brk20new)
            st.warning(plain(tr("dashboard.secrets_unreadable", reason=why)))
        if passphrase:  # set, but no one could sign in with it: say why, not "not set up"
            st.warning(tr(f"dashboard.passphrase_unusable.{passphrase_problem(passphrase)}",
                          min=MIN_PASSPHRASE_CHARS, max=MAX_PASSPHRASE_CHARS))
        st.info(tr("dashboard.not_configured"))
        return False
    if is_instructor():
        if st.sidebar.button(tr("dashboard.sign_out"), key="dashboard_sign_out"):
            st.session_state.pop(SIGNED_IN_KEY, None)
            if mode == "oidc":
                st.logout()
            st.rerun()
        return True
    if mode == "oidc":
        if _logged_in():
            st.error(tr("dashboard.not_an_instructor"))
            if st.button(tr("dashboard.sign_out"), key="dashboard_sign_out_other"):
                st.logout()
            return False
        if not authlib_installed():  # the button would only raise: say what the server lacks instead
            st.error(tr("dashboard.oidc_needs_authlib"))
            return False
        st.markdown(tr("dashboard.sign_in_intro_oidc"))
        if st.button(tr("dashboard.sign_in_oidc"), key="dashboard_sign_in_oidc", type="primary"):
            st.login()
        return False
    st.markdown(tr("dashboard.sign_in_intro"))
    with st.form("dashboard_sign_in", border=True):
        given = st.text_input(tr("dashboard.passphrase"), type="password", key="dashboard_passphrase",
                              max_chars=MAX_PASSPHRASE_CHARS)
        submitted = st.form_submit_button(tr("dashboard.sign_in"), type="primary")
    if submitted and not given:  # Enter on an empty box: not a wrong try, no back-off
        st.warning(tr("dashboard.empty_passphrase"))
    elif submitted:
        st.session_state.pop("dashboard_passphrase", None)  # not kept in the session
        outcome, seconds = _throttle().attempt(given, passphrase)
        if outcome == "ok":
            st.session_state[SIGNED_IN_KEY] = True
            st.rerun()
        key = "dashboard.wrong_passphrase" if outcome == "wrong" else "dashboard.passphrase_busy"
        st.error(tr(key, seconds=f"{seconds:g}"))
    return False
