"""Instructor Markdown that Streamlit renders otherwise than written is named by ``check`` at its file and path.

Raw HTML is shown as its tags, a pair of ``$`` becomes a LaTeX formula and a code fence left open turns the rest
into code: all passed ``check`` (tests/content_copy.py breaks a copy of the shipped content).
"""

from pathlib import Path

import pytest
import yaml

from tests.content_copy import copy_content, problem_set
from toolcall.check import check_markdown_texts
from toolcall.exercises import load_exercises
from toolcall.fixtures import display_name, json_path
from toolcall.harness import load_scenarios
from toolcall.i18n import LANGS
from toolcall.lesson_check import check_lessons
from toolcall.lessons import split_front_matter
from toolcall.markdown_hazards import markdown_hazards

HTML = "raw HTML '<br>' is shown as text (the app renders no HTML, and a comment is not hidden); write it in Markdown"
LATEX = ("'A refund of $12 and a fee of $3.' has two $ signs, and the text between them is shown as a LaTeX "
         "formula; write \\$ for a dollar sign")
OPEN = "the code block opened with ``` is never closed, so the rest of the text shows as code"


def test_lesson_body_hazards_are_named_at_their_file_lines(tmp_path):
    """The example: a lesson gaining a dollar pair, raw HTML and an open fence passed check."""
    root = copy_content(tmp_path)
    lesson = root / "lessons" / "en" / "01-model-proposes.md"
    before = lesson.read_text(encoding="utf-8")
    first = before.count("\n") + 2  # the appended text starts after one blank line
    lesson.write_text(before + "\nA refund of $12 and a fee of $3.\n\n<details>x</details>\n\nA <br> break.\n\n"
                      "```json\n{}\n", encoding="utf-8")
    file = "lessons/en/01-model-proposes.md"
    assert {p for p in problem_set(root) if p[0] == file} == {
        (file, "$.body", f"line {first}: {LATEX}"),
        (file, "$.body", f"line {first + 2}: raw HTML '<details>x</details>' is shown as text (the app renders no "
                         "HTML, and a comment is not hidden); write it in Markdown"),
        (file, "$.body", f"line {first + 4}: {HTML}"),
        (file, "$.body", f"line {first + 6}: {OPEN}"),
    }


@pytest.mark.parametrize("text", [
    "A refund of \\$12 and a fee of \\$3.", "`$a` and `$b`", "one $ sign", "```\ncode $x$\n```\n",
    "~~~~\n<br>\n~~~~~\n", "    $indented$ code", "`<br>` and <https://example.com>", "refund:<order_id>:<amount>",
])
def test_what_renders_as_written_is_not_reported(text):
    """Escaped dollars, code spans and blocks, autolinks and non-tags (``<order_id>``) show as written."""
    assert markdown_hazards(text) == []


@pytest.mark.parametrize("text, found", [
    ("A refund of $12 and a fee of $3.", [f"line 1: {LATEX}"]),
    ("x\n\n~~~\ncode\n```\n", ["line 3: the code block opened with ~~~ is never closed, so the rest of the text "
                               "shows as code"]),
    ("A <br> break.", [f"line 1: {HTML}"]),
    ("Intro.\n\n<!-- the answer is 42 -->\n", ["line 3: raw HTML '<!-- the answer is 42 -->' is shown as text (the "
                                                "app renders no HTML, and a comment is not hidden); write it in "
                                                "Markdown"]),
])
def test_each_hazard_is_reported(text, found):
    assert markdown_hazards(text) == found


def _fields(root: Path):
    """(file, JSON path parts) of every fixture text ({en, zh}) the pages render as Markdown."""
    for ex in load_exercises(root / "fixtures" / "exercises").exercises:
        for key in ("title", "prompt", "explanation"):
            yield ex.file, ["exercises", ex.index, key]
        for i in range(len(ex.hints)):
            yield ex.file, ["exercises", ex.index, "hints", i]
    for s in load_scenarios(root / "fixtures" / "scenarios").scenarios:
        yield s.file, ["summary"]
        for i, step in enumerate(s.steps):
            for key in ("prompt", "world", "explain"):
                if getattr(step, key) is not None:
                    yield s.file, ["steps", i, key]
    for path in sorted((root / "fixtures" / "transcripts").glob("*.yaml")):
        for v in range(len(yaml.safe_load(path.read_text(encoding="utf-8"))["variants"])):
                yield f"fixtures/transcripts/{path.name}", ["variants", v, "note"]


def test_every_markdown_text_of_the_content_is_checked(tmp_path):
    """The sweep: ' <br>' appended to each language of every fixture text rendered as Markdown (and to every
    lesson's title, summary and body) is named at exactly that place, and at no other."""
    root = copy_content(tmp_path)
    fields = list(_fields(root))
    assert fields, "the shipped content has Markdown texts"
    files: dict[str, object] = {}
    expected = set()
    for file, parts in fields:
        data = files.setdefault(file, yaml.safe_load((root / file).read_text(encoding="utf-8")))
        node = data
        for part in parts:
            node = node[part]
        for lang in LANGS:
            node[lang] += "\n\n<br>"  # a paragraph of its own: a hazard is named at its paragraph's first line
            expected.add((display_name(root / file), json_path([*parts, lang]),
                          f"line {1 + node[lang].count(chr(10))}: {HTML}"))
    for file, data in files.items():
        (root / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    lessons = sorted((root / "lessons").glob("*/*.md"))
    for lesson in lessons:
        text = lesson.read_text(encoding="utf-8")
        head, body = split_front_matter(text)
        front = yaml.safe_load(head)
        front["title"], front["summary"] = "<br> " + front["title"], "<br> " + front["summary"]
        lesson.write_text(f"---\n{yaml.safe_dump(front, allow_unicode=True, sort_keys=False)}---\n{body.rstrip()}"
                          "\n\n<br>\n", encoding="utf-8")
        written = lesson.read_text(encoding="utf-8")
        name = lesson.relative_to(root).as_posix()
        expected |= {(name, "$.title", HTML), (name, "$.summary", HTML),
                     (name, "$.body", f"line {written.count(chr(10))}: {HTML}")}
    found = {(p.file, p.path, p.message) for p in check_markdown_texts(root) + check_lessons(root)}
    assert found == expected


@pytest.mark.parametrize("tail", [
    "See [tool choice][tc].\n\n[tc]: 05-tool-choice.md\n",
    "![a diagram][img]\n\n[img]: <img/loop.png> \"The loop\"\n",
    "See [tc].\n\n[TC]: 05-tool-choice.md\n",  # a shortcut reference, matched without case
])
def test_a_link_by_reference_to_no_web_address_is_named(tmp_path, tail):
    """Reference-style links and images escaped the link check (it read only ``](target)``)."""
    root = copy_content(tmp_path)
    lesson = root / "lessons" / "en" / "02-five-steps.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\n" + tail, encoding="utf-8")
    target = "img/loop.png" if "img" in tail else "05-tool-choice.md"
    assert {p for p in problem_set(root) if p[0] == "lessons/en/02-five-steps.md"} == {
        ("lessons/en/02-five-steps.md", "$.body", f"link to {target!r}: the app serves no files beside the "
                                                   "lessons; link an https:// address (a page of the app: name it "
                                                   "in the text)")}


def test_a_dead_link_in_any_markdown_text_of_the_fixtures_is_named(tmp_path):
    """The sweep for links: every fixture text rendered as Markdown, inline and by reference."""
    root = copy_content(tmp_path)
    files: dict[str, object] = {}
    expected = set()
    for n, (file, parts) in enumerate(_fields(root)):
        data = files.setdefault(file, yaml.safe_load((root / file).read_text(encoding="utf-8")))
        node = data
        for part in parts:
            node = node[part]
        for lang in LANGS:
            inline = n % 2 == 0
            node[lang] += "\n\nSee [that](x.md)." if inline else "\n\nSee [that][x].\n\n[x]: x.md"
            expected.add((display_name(root / file), json_path([*parts, lang]), "link to 'x.md': the app serves no "
                          "files beside the lessons; link an https:// address (a page of the app: name it in the "
                          "text)"))
    for file, data in files.items():
        (root / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert {(p.file, p.path, p.message) for p in check_markdown_texts(root)} == expected


def test_a_text_past_the_markdown_limit_is_named_and_not_parsed(monkeypatch):
    """The kind: check parses instructor Markdown at about 40 µs a character on hostile text ("[\\n" repeated), and a
    fixture file may hold 2 MB, so one prompt held check for over a minute. Past the limit the text is named as too
    long, and neither the hazard scan, the link scan nor the structure scan parses it."""
    from toolcall import markdown_hazards as module

    limit = module.MAX_MARKDOWN_CHARS
    parsed: list[int] = []
    parse = module._PARSER.parse
    monkeypatch.setattr(module._PARSER, "parse", lambda text, env=None: parsed.append(len(text)) or parse(text, env))
    text = "[\n" * (limit // 2) + "x"
    assert markdown_hazards(text) == [f"the text is {limit + 1:,} characters; a text shown as Markdown may have at "
                                      f"most {limit:,} (it was not checked further)"]
    assert module.dead_links(text) == []
    assert module.structure(text) == {"code blocks": [], "headings": [], "tables": []}
    assert parsed == []
    assert markdown_hazards(text[:-1]) == [] and parsed == [limit]


def test_a_lesson_past_its_limit_is_not_read(tmp_path):
    """A lesson file is read only up to MAX_LESSON_CHARS (the longest shipped one is ~6 300 characters): past it
    check names the file instead of parsing it three times."""
    from toolcall.lessons import MAX_LESSON_CHARS

    root = copy_content(tmp_path)
    lesson = root / "lessons" / "zh" / "02-five-steps.md"
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(text + "[\n" * (MAX_LESSON_CHARS // 2), encoding="utf-8")
    file = "lessons/zh/02-five-steps.md"
    assert [p for p in problem_set(root) if p[0] == file] == [
        (file, "$", f"cannot read file: too large: more than {MAX_LESSON_CHARS:,} characters")]
