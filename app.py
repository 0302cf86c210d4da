"""Entry point: page config, sidebar (language, learner id), navigation. Run with ``streamlit run app.py``."""

import streamlit as st

from pages.common import LANG_KEY, LANG_LABELS, relabel_after_language_switch, tr
from pages.instructor import is_instructor
from pages.learner import learner_sidebar
from toolcall.i18n import LANGS, normalize_lang

st.set_page_config(page_title="Tool calling, hands on", page_icon="🛠️", layout="wide")

# The browser's language is the default; a choice made here is kept in the URL (?app_lang=中文),
# so a reload or a shared link keeps it, and across pages.
st.sidebar.selectbox(tr("app.language"), LANGS, index=LANGS.index(normalize_lang(st.context.locale)), key=LANG_KEY,
                     bind="query-params", format_func=LANG_LABELS.__getitem__, on_change=relabel_after_language_switch)
learner_sidebar()

pages = [
    st.Page("pages/home.py", title=tr("app.nav_home"), icon="🏠", url_path="home", default=True),
    st.Page("pages/playground.py", title=tr("app.nav_playground"), icon="🧪", url_path="playground"),
    st.Page("pages/passk_lab.py", title=tr("passk.nav"), icon="🎯", url_path="passk_lab"),
    st.Page("pages/walkthrough.py", title=tr("walkthrough.nav"), icon="🔁", url_path="walkthrough"),
    st.Page("pages/pairing.py", title=tr("pairing.nav"), icon="🔗", url_path="pairing"),
    st.Page("pages/lessons.py", title=tr("lessons.nav"), icon="📖", url_path="lessons"),
    st.Page("pages/exercises.py", title=tr("exercises.nav"), icon="✏️", url_path="exercises"),
    # Instructors only: listed once signed in; its URL alone shows the sign-in and no data.
    st.Page("pages/dashboard.py", title=tr("dashboard.nav"), icon="📊", url_path="dashboard",
            visibility="visible" if is_instructor() else "hidden"),
]
st.navigation(pages).run()
