"""A text students read that shows nothing (only white space or invisible characters) fails check at its file and
JSON path (issue 13, content-file kind: passes check, renders wrongly in class).

Before: the content schemas ask ``minLength: 1``, so ``label: {en: "   ", zh: "\\u200b"}`` passed and the card's
title was empty in class; so did an order's item, an exercise's prompt, a lesson's title. The sweep blanks every
``{en, zh}`` text of every content file check reads, and every lesson's title and summary, each with one of
several blank kinds, and asserts each is named."""

import itertools
import json

import yaml

from tests.content_copy import copy_content, problem_set
from toolcall.check import CONTENT_PATTERNS
from toolcall.fixtures import display_name, json_path
from toolcall.i18n import LANGS

BLANKS = ["   ", "\u200b", "\t\n", "\u3000", "\u00ad", "\u2060\ufeff", " \u200d "]
MESSAGE = "shows nothing: only white space or invisible characters (students would read an empty text)"




def test_a_blank_label_is_named(tmp_path):
    content = copy_content(tmp_path / "content")
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    data["outputs"][0]["label"] = {"en": "   ", "zh": "\u200b"}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    problems = problem_set(content)
    assert {(display_name(path), f"$.outputs[0].label.{lang}", MESSAGE) for lang in LANGS} <= problems


def _blank_all(value, parts: list, found: list, kinds) -> None:
    """Blank in place every non-empty string of every {en, zh} object under ``value``; their paths into ``found``."""
    stack = [(value, parts)]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, dict):
            if set(value) == set(LANGS) and all(isinstance(v, str) and v for v in value.values()):
                for lang in LANGS:
                    value[lang] = next(kinds)
                    found.append(json_path([*parts, lang]))
            stack.extend((v, [*parts, k]) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, [*parts, i]) for i, v in enumerate(value))


def test_every_text_students_read_is_named_when_blank(tmp_path):
    content = copy_content(tmp_path / "content")
    kinds = itertools.cycle(BLANKS)
    expected = set()
    for pattern in CONTENT_PATTERNS:
        for path in content.glob(pattern):
            if path.suffix == ".jsonl":
                continue  # recorded runs: no texts students read
            text = path.read_text("utf-8")
            found: list = []
            if path.suffix == ".md":
                _, front, body = text.split("---\n", 2)
                data = yaml.safe_load(front)
                for key in ("title", "summary"):
                    data[key] = next(kinds)
                    found.append(f"$.{key}")
                text = "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + "---\n" + body
            elif path.suffix == ".json":
                data = json.loads(text)
                _blank_all(data, [], found, kinds)
                text = json.dumps(data, ensure_ascii=False)
            else:
                data = yaml.safe_load(text)
                _blank_all(data, [], found, kinds)
                text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
            path.write_text(text, "utf-8")
            expected |= {(str(path.relative_to(content)), where) for where in found}
    assert len(expected) >= 100
    named = {(file.removeprefix(f"{content}/"), where) for file, where, message in problem_set(content)
             if message == MESSAGE}  # lessons are named from the content root, fixtures by their whole path
    assert sorted(expected - named) == []
