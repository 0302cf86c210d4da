"""Be the loop: the harness lab. The student makes the harness's next move at each step of a scenario."""

import streamlit as st

from ui.common import tr
from ui.harness_lab import show_lab
from ui.lesson_widgets import show_page_lessons
from ui.page import start

start("harness_lab")

st.title(tr("harness.title"))
st.markdown(tr("harness.intro"))
show_page_lessons("harness_lab")
show_lab()
