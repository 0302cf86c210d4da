"""Be the loop: the harness lab. The student makes the harness's next move at each step of a scenario."""

import streamlit as st

from pages.common import run_inside_app, tr
from pages.lesson_widgets import show_page_lessons
from ui.harness_lab import show_lab

run_inside_app()

st.title(tr("harness.title"))
st.markdown(tr("harness.intro"))
show_page_lessons("harness_lab")
show_lab()
