"""Home: what the app teaches, with a link to each page."""

import streamlit as st

from toolcall.pages_registry import tour
from ui.common import tr
from ui.page import start

start("home")

st.title(tr("home.title"))
st.markdown(tr("home.intro"))
st.subheader(tr("home.what"))
for card in tour():  # toolcall/pages_registry.py: every page with a card, in the order a student meets them
    with st.container(border=True):
        st.page_link(card.script, label=tr(card.title_key), icon=card.icon)
        st.markdown(tr(card.pitch_key))
