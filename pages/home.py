"""Home: what the app teaches, with a link to each page."""

import streamlit as st

from pages.common import run_inside_app, tr

run_inside_app()

#: (page script, icon, nav-title key, one-line pitch key), in the order a student meets them.
TOUR = [
    ("pages/playground.py", "🧪", "app.nav_playground", "home.playground"),
    ("pages/walkthrough.py", "🔁", "walkthrough.nav", "home.walkthrough"),
    ("pages/pairing.py", "🔗", "pairing.nav", "home.pairing"),
    ("pages/passk_lab.py", "🎯", "passk.nav", "home.passk_lab"),
    ("pages/lessons.py", "📖", "lessons.nav", "home.lessons"),
    ("pages/exercises.py", "✏️", "exercises.nav", "home.exercises"),
]

st.title(tr("home.title"))
st.markdown(tr("home.intro"))
st.subheader(tr("home.what"))
for script, icon, nav, pitch in TOUR:
    with st.container(border=True):
        st.page_link(script, label=tr(nav), icon=icon)
        st.markdown(tr(pitch))
