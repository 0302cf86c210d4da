"""A lesson's front-matter ``sources`` (the documentation its provider claims were checked against) is shown under
it, in both languages, on the lessons page and folded above its own page: they sat in the files only, so a student
reading "the documentation says…" could not find which documentation."""

import pytest

from tests.app.conftest import fresh_app
from toolcall.lessons import load_lessons
from toolcall.markdown import link

LABEL = {"en": "Sources: ", "zh": "资料来源："}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lessons_page_shows_each_lessons_sources(lang):
    at = fresh_app(lang, page="pages/lessons.py")
    captions = [c.value for c in at.caption]
    cited = [x for x in load_lessons(lang).lessons if x.sources]
    assert "06-structured-outputs.md" in [x.name for x in cited]
    for lesson in cited:
        assert LABEL[lang] + " · ".join(map(link, lesson.sources)) in captions, lesson.name
    assert sum(c.startswith(LABEL[lang]) for c in captions) == len(cited)


def test_the_structured_outputs_lesson_above_the_playground_names_its_sources():
    at = fresh_app("zh", page="pages/playground.py")
    lesson = next(x for x in load_lessons("zh").lessons if x.name == "06-structured-outputs.md")
    assert lesson.sources[0] == "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"
    assert ("资料来源：[platform\\.claude\\.com › structured\\-outputs]"
            "(https://platform.claude.com/docs/en/build-with-claude/structured-outputs) · ") in \
        [c.value[:len("资料来源：") + len(link(lesson.sources[0])) + 3] for c in at.caption]
