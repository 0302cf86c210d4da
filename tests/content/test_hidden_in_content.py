"""check names a character the page draws as nothing or that reorders the text, in every instructor text rendered
as Markdown (issue 13: invisible characters shown raw). The app renders lessons and fixture texts as written, so a
lesson pasted from a document with a direction override read reversed in class ("A cust\u202eomer writes"), and tag
characters could carry a sentence no one saw; check said nothing. Emoji joiners and variation selectors are part of
the emoji they draw and are not named."""

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall.markdown_hazards import hidden_hazards

LESSON = "lessons/en/01-model-proposes.md"
SAID = "a character the page shows as nothing or that reorders the text around it (pasted from a document?); delete it"


def test_a_lesson_body_with_a_direction_override_is_named_at_its_line(tmp_path):
    root = edited_copy(tmp_path, LESSON, "A customer writes:", "A cust\u202eomer writes:")
    line = (root / LESSON).read_text(encoding="utf-8").split("A cust")[0].count("\n") + 1
    assert {(where, message) for file, where, message in problem_set(root) if file == LESSON} == {
        ("$.body", f"line {line}: \\u202e: {SAID}")}


@pytest.mark.parametrize("text, found", [
    ("Re\u200btries and a soft\u00adhyphen", ["line 1: \\u200b, \\u00ad: " + SAID]),
    ("one\ntwo \U000e0041\U000e0042\U000e0043\U000e0044 three", ["line 2: \\udb40\\udc41, \\udb40\\udc42, \\udb40\\udc43"
                                                                 " and 1 more: " + SAID]),
    ("\ufeffTitle", ["line 1: \\ufeff: " + SAID]),
    ("👩\u200d💻 codes, ❤\ufe0f, 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f flies", []),
    ("plain text\r\nwith CRLF line ends\r\n", [])])
def test_hidden_hazards(text, found):
    assert hidden_hazards(text) == found
