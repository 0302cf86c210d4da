"""Lessons: every lesson in the chosen language, a table of contents, then each lesson in full."""

import streamlit as st

from toolcall.markdown import link_text
from ui.common import tr
from ui.lesson_widgets import PAGE_TITLES, lesson_set, show_lesson_body, show_problems
from ui.page import start

start("lessons")

st.title(tr("lessons.title"))
st.markdown(tr("lessons.intro"))
lessons = lesson_set()
show_problems(lessons)
if not lessons.lessons:
    st.info(tr("lessons.empty"))
    st.stop()

with st.container(border=True, key="lessons_toc"):
    st.markdown("**" + tr("lessons.toc") + "**")
    st.markdown("\n".join(f"{i}. [{link_text(lesson.title)}](#{lesson.slug})"
                           for i, lesson in enumerate(lessons.lessons, 1)))

for lesson in lessons.lessons:
    st.divider()
    st.header(lesson.title, anchor=lesson.slug)
    st.caption(tr("lessons.shown_on", page=tr(PAGE_TITLES[lesson.page])))
    show_lesson_body(lesson)
