"""Streamlit's floor for bench/cold_start.py: the least page that passes its "usable" check (an editor keyed
``schema_editor`` with text, a card keyed ``playground_card_…`` saying "Schema verdict: accepted") at url path
``playground``. What a cold start costs on this machine before the app draws anything of its own."""

import streamlit as st


def playground() -> None:
    st.text_area("Schema", value='{"type": "object"}', key="schema_editor")
    with st.container(key="playground_card_minimal"):
        st.markdown("Schema verdict: accepted")


st.navigation([st.Page(playground, title="Playground", url_path="playground", default=True)]).run()
