"""A lesson's translation keeps every code block, heading and table of the other language; check names the one
that does not. A Chinese lesson that lost a code block passed check, and half the class read less."""

import re

from tests.content_copy import copy_content
from toolcall.lesson_check import check_lessons

FENCE = re.compile(r"(?ms)^ {0,3}```.*?^ {0,3}```[ \t]*\n")
HEADING = re.compile(r"(?m)^#{1,6} .*\n")
TABLE = re.compile(r"(?m)(?:^\|.*\|[ \t]*\n){2,}")


def test_a_translation_that_drops_a_code_block_is_named(tmp_path):
    """The example."""
    root = copy_content(tmp_path)
    path = root / "lessons" / "zh" / "02-five-steps.md"
    text = path.read_text(encoding="utf-8")
    last = list(FENCE.finditer(text))[-1]
    kept = len(FENCE.findall(text)) - 1
    path.write_text(text[:last.start()] + text[last.end():], encoding="utf-8")
    assert [(p.file, p.path, p.message) for p in check_lessons(root)] == [
        ("lessons/zh/02-five-steps.md", "$.body", f"its code blocks {['json'] * kept} differ from "
         f"{['json'] * (kept + 1)} in lessons/en/02-five-steps.md: a translation keeps every code block, heading "
         "and table")]


def test_every_code_block_heading_and_table_a_translation_drops_is_named(tmp_path):
    """The sweep: every Chinese lesson loses its first code block, heading and table (those it has), all at once;
    each lesson is named once per kind it lost, and for nothing else."""
    root = copy_content(tmp_path)
    expected = set()
    for path in sorted((root / "lessons" / "zh").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        head, body = text.split("\n---\n", 1)
        for part, pattern in (("code blocks", FENCE), ("headings", HEADING), ("tables", TABLE)):
            found = pattern.search(body)
            if found:
                body = body[:found.start()] + body[found.end():]
                expected.add((f"lessons/zh/{path.name}", part))
        path.write_text(head + "\n---\n" + body, encoding="utf-8")
    assert {part for _, part in expected} == {"code blocks", "headings", "tables"}
    found = {(p.file, p.message.split(" [")[0].removeprefix("its ")) for p in check_lessons(root)
             if p.path == "$.body" and "a translation keeps" in p.message}
    assert found == expected
