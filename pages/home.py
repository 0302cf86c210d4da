"""Home: what the app teaches, with a link to each page."""

import streamlit as st

from pages.common import run_inside_app, tr

run_inside_app()

st.title(tr("home.title"))
st.markdown(tr("home.intro"))
st.markdown(tr("home.what"))
st.markdown(tr("home.playground"))
st.page_link("pages/playground.py", label=tr("app.nav_playground"), icon="🧪")
