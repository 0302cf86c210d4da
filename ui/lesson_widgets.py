"""Lesson rendering shared by the pages: cached loading and the folded lesson above a page.

Lesson Markdown is instructor content from lessons/<lang>/ (trusted), so it is rendered
with st.markdown. Nothing a student types ever reaches these functions.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.common import lang, show_load_problems, tr
from toolcall import CONTENT_ROOT
from toolcall.pages_registry import PAGES
from toolcall.lessons import Lesson, LessonSet, lesson_files, load_lessons
from toolcall.markdown import link

#: The title (catalogue key) the lessons page shows for each page a lesson's front matter may name:
#: the page's nav title (toolcall/pages_registry.py), "this page only" for the reading page itself.
PAGE_TITLES = {p.id: "lessons.page_only" if p.id == "lessons" else p.title_key for p in PAGES if p.lessons}


@st.cache_data(show_spinner=False, max_entries=8)
def _load(language: str, root: str, mtimes: tuple[tuple[str, float], ...]) -> LessonSet:
    """``mtimes`` is only the cache key: any edited, added or removed file reloads."""
    return load_lessons(language, Path(root))


def _mtimes(language: str, root: Path) -> tuple[tuple[str, float], ...]:
    stamps = []
    for path in lesson_files(language, root):
        try:
            stamps.append((path.name, path.stat().st_mtime))
        except OSError:
            stamps.append((path.name, 0.0))
    return tuple(stamps)


def lesson_set(language: str | None = None, root: Path = CONTENT_ROOT) -> LessonSet:
    """Every lesson of ``language`` (default: the session's), cached until a file changes."""
    language = language or lang()
    return _load(language, str(root), _mtimes(language, root))


def show_problems(lessons: LessonSet) -> None:
    """List the files that failed to load, with their JSON paths, for the instructor."""
    show_load_problems("lessons", lessons.problems)


def show_lesson_body(lesson: Lesson) -> None:
    """The summary as a caption, then the lesson's Markdown, then the pages its provider claims come from
    (front matter ``sources``: they were in the file only, so a student could not check a claim)."""
    st.caption(lesson.summary)
    st.markdown(lesson.body)
    if lesson.sources:
        st.caption(tr("common.labelled", label=tr("lessons.sources"), value=" · ".join(map(link, lesson.sources))))


def show_page_lessons(page_id: str) -> None:
    """Render, folded, every lesson whose front matter names ``page_id``; call it above a
    page's interactive part. Shows nothing when no lesson belongs to the page."""
    lessons = lesson_set()
    for lesson in lessons.for_page(page_id):
        with st.expander(tr("lessons.expander", title=lesson.title), expanded=False):
            show_lesson_body(lesson)
