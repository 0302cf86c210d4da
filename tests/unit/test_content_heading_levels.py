"""A heading in instructor Markdown as large as the title it sits under is named by ``check``.

A lesson is shown under its title, a level-2 heading (``st.header`` on the lessons page); lessons/*/12-wire-forms.md
wrote its sections as ``##``, so "OpenAI Responses", "MCP" and "Gemini" were drawn as large as the lesson's title and
read as three more lessons on the lessons page (newcomer pass newc19). An exercise's prompt, explanation
and hints sit under its ``####`` title the same way.
"""

from pathlib import Path

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall import CONTENT_ROOT
from toolcall.fixtures import display_name
from toolcall.lessons import split_front_matter
from toolcall.markdown_hazards import _PARSER, markdown_hazards

LESSON = (2, "the lesson's title")


def _message(line: int, title: str, hashes: str, under: str, write: str) -> str:
    return (f"line {line}: the heading {title!r} ({hashes}) is drawn as large as {under} or larger, so the text "
            f"reads as several; write {write} (or more #) before it")


@pytest.mark.parametrize("path", sorted((CONTENT_ROOT / "lessons").glob("*/*.md")), ids=lambda p: p.name + p.parent.name)
def test_no_shipped_lesson_has_a_heading_as_large_as_its_title(path: Path):
    _, body = split_front_matter(path.read_text(encoding="utf-8"))
    levels = [t.tag for t in _PARSER.parse(body) if t.type == "heading_open"]
    assert [tag for tag in levels if tag in ("h1", "h2")] == []


def test_a_lesson_section_written_as_h2_is_named_at_its_line(tmp_path):
    file = "lessons/en/01-model-proposes.md"
    root = edited_copy(tmp_path, file, "\n### Why this split matters\n", "\n## Why this split matters\n")
    assert {p for p in problem_set(root) if p[0] == file} == {
        (file, "$.body", _message(33, "Why this split matters", "##", "the lesson's title", "###")),
    }


def test_an_exercise_prompt_heading_as_large_as_the_exercise_title_is_named(tmp_path):
    root = edited_copy(tmp_path, "fixtures/exercises/general.yaml", 'en: "Each failed evaluation run below',
                       'en: "#### Sort\\n\\nEach failed evaluation run below')
    file = display_name(root / "fixtures/exercises/general.yaml")
    assert {p for p in problem_set(root) if p[0] == file} == {
        (file, "$.exercises[0].prompt.en", _message(1, "Sort", "####", "the exercise's title", "#####")),
    }


@pytest.mark.parametrize("text, found", [
    ("# Title", [_message(1, "Title", "#", "the lesson's title", "###")]),
    ("Intro.\n\nTitle\n=====\n", [_message(3, "Title", "#", "the lesson's title", "###")]),  # setext: level 1
    ("Intro.\n\nPart\n----\n", [_message(3, "Part", "##", "the lesson's title", "###")]),  # setext: level 2
    ("### Part\n\n#### Detail", []),
    ("```\n## not a heading\n```\n", []),
    ("`## code`", []),
])
def test_heading_levels_against_the_title(text, found):
    assert markdown_hazards(text, outranks=LESSON) == found


def test_without_a_title_level_no_heading_is_named():
    """Texts whose surroundings set no level (a scenario's step) are not held to one."""
    assert markdown_hazards("# Big\n\n## Smaller") == []


def test_a_heading_in_a_scenario_step_or_a_walkthrough_note_is_named(tmp_path):
    """A step's texts sit between bold labels ("Your move:"), a variant's note is a caption: any heading in them is
    drawn larger than the step around it, and the fix is bold text, not more #."""
    scenario = "fixtures/scenarios/01-plain-call.yaml"
    root = edited_copy(tmp_path, scenario, 'en: "The response stops with a tool call.',
                       'en: "###### Next\\n\\nThe response stops with a tool call.')
    walkthrough = root / "fixtures/transcripts/refund_walkthrough.yaml"
    text = walkthrough.read_text(encoding="utf-8")
    old = "zh: \"顾客要退款：模型调一次 refund_order"
    assert old in text
    walkthrough.write_text(text.replace(old, "zh: \"## 说明\\n\\n顾客要退款：模型调一次 refund_order", 1), encoding="utf-8")
    fix = "write it as **bold** text instead"
    step = display_name(root / scenario)
    assert {p for p in problem_set(root) if "heading" in p[2]} == {
        (step, "$.steps[0].prompt.en", f"line 1: the heading 'Next' (######) is drawn as large as the labels of the "
                                       f"step around it or larger, so the text reads as several; {fix}"),
        (display_name(walkthrough), "$.variants[0].note.zh",
         f"line 1: the heading '说明' (##) is drawn as large as the labels of the step around it or larger, so the "
         f"text reads as several; {fix}"),
    }
