"""Every lesson that makes a claim about a provider's API says where it comes from: front-matter ``sources`` (shown
under the lesson) or a link in its text. Lesson 06 (strict mode per provider, enum case, stop reasons, streamed input)
cited nothing, and said only "The documentation says" for the enum-case claim. Both languages cite the same pages."""

import re

import pytest

from toolcall.lessons import load_lessons

PROVIDERS = re.compile(r"\b(Anthropic|OpenAI|Gemini|Claude)\b")
LESSONS = {lang: {x.name: x for x in load_lessons(lang).lessons} for lang in ("en", "zh")}


@pytest.mark.parametrize("name", sorted(LESSONS["en"]))
def test_a_lesson_naming_a_provider_cites_its_sources(name):
    for lang in ("en", "zh"):
        lesson = LESSONS[lang][name]
        if PROVIDERS.search(lesson.body):
            assert lesson.sources or "](https://" in lesson.body, f"{lesson.file} names a provider and cites nothing"


@pytest.mark.parametrize("name", sorted(LESSONS["en"]))
def test_both_languages_cite_the_same_pages(name):
    assert LESSONS["en"][name].sources == LESSONS["zh"][name].sources


def test_the_enum_case_claim_says_whose_it_is():
    """The claim comes from the course, not from a provider page we could find: the lesson says so
    instead of attributing it to documentation it does not cite."""
    en, zh = LESSONS["en"]["06-structured-outputs.md"].body, LESSONS["zh"]["06-structured-outputs.md"].body
    assert "The course reports that" in en and "Treat it as a\nfield report" in en
    assert "本课程的原始讲义提到" in zh and "而不是文档写明的行为" in zh
    for claim in ("documentation says", "结构化输出文档写明", "官方文档写明"):
        assert claim not in en and claim not in zh
