"""Every lesson exists in both languages, with valid front matter and correct figures."""

import json
import re

import pytest

from toolcall import FIXTURES_DIR, REPO_ROOT
from toolcall.i18n import LANGS
from toolcall.lesson_check import check_lessons
from toolcall.lessons import FILE_NAME, PAGE_IDS, lesson_files, load_lessons

NAMES = {lang: [p.name for p in lesson_files(lang)] for lang in LANGS}


def test_there_are_lessons_and_both_languages_have_the_same_files():
    assert NAMES["en"], "no lessons found"  # how many is the instructors' choice: a new pair needs no test change
    assert NAMES["en"] == NAMES["zh"]
    assert all(FILE_NAME.match(name) for name in NAMES["en"])


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_has_valid_front_matter(lang):
    lessons = load_lessons(lang)
    assert [str(p) for p in lessons.problems] == []
    assert sorted(lesson.name for lesson in lessons.lessons) == NAMES[lang]
    for lesson in lessons.lessons:
        assert lesson.title.strip() and lesson.summary.strip(), lesson.file


def test_the_repo_lessons_pass_the_content_check():
    """Same names, same page and order in both languages, every quoted figure right and present."""
    assert [str(p) for p in check_lessons(REPO_ROOT)] == []


def test_schema_page_ids_match_the_code():
    schema = json.loads((FIXTURES_DIR / "schemas" / "lesson.schema.json").read_text("utf-8"))
    assert tuple(schema["properties"]["page"]["enum"]) == PAGE_IDS


def test_english_lessons_are_300_to_700_words():
    for lesson in load_lessons("en").lessons:
        words = len(re.findall(r"[A-Za-z0-9']+", lesson.body))
        assert 300 <= words <= 700, (lesson.file, words)


def test_chinese_lessons_are_written_in_chinese():
    """At least 500 CJK characters each: not an English page with a translated title."""
    for lesson in load_lessons("zh").lessons:
        assert len(re.findall(r"[\u4e00-\u9fff]", lesson.body)) >= 500, lesson.file


def test_the_lessons_cover_the_issue_topics():
    """Each topic of the lesson brief is named somewhere in each language."""
    topics = ["tool_use", "tool_result", "input_schema", "tool_choice", "disable_parallel_tool_use",
              "parallel_tool_calls", '"required"', "tool_call_id", "strict", "max_tokens", "refusal",
              "eager_input_streaming", "is_error", "INVALID_JSON", "pass^k"]
    for lang in LANGS:
        text = "\n".join(lesson.body for lesson in load_lessons(lang).lessons)
        assert [t for t in topics if t not in text] == [], lang


def test_chinese_paragraphs_are_not_hard_wrapped():
    """Markdown turns a line break into a space, which shows as a stray gap between Chinese characters."""
    cjk = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
    for lesson in load_lessons("zh").lessons:
        fence, previous = False, ""
        for number, line in enumerate(lesson.body.splitlines(), 1):
            if line.startswith("```"):
                fence = not fence
            elif not fence and previous and line.strip() and cjk.match(line.strip()[0]) and cjk.match(previous[-1]):
                raise AssertionError(f"{lesson.file}: body line {number} continues a Chinese paragraph")
            previous = "" if fence else line.rstrip()
