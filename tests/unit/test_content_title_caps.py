"""Titles and labels an instructor writes are capped, and `check` says where one is too long (file and JSON path):
walkthrough, exercise and scenario titles were uncapped (a 50 000-character title went into headings, pickers and
tables of every student's page; issue 13). The sweep holds every content schema to it, so a title or label added to
a new kind of content is capped too. Cases come from the shipped content."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from toolcall import REPO_ROOT
from toolcall.check import run_checks

SCHEMAS = sorted((REPO_ROOT / "fixtures" / "schemas").glob("*.schema.json"))
#: Longest title, in characters of each language (as lesson titles and canned-output labels).
TITLE_CHARS = 120


def _resolve(node: dict, root: dict) -> dict:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _named(node, root, names=("title", "label"), at=()):
    """(path, resolved schema) of every property named in ``names`` anywhere in the schema ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    if name in names and isinstance(sub, dict):
                        yield (*at, name), _resolve(sub, root)
            yield from _named(value, root, names, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _named(value, root, names, (*at, i))


def _strings(schema: dict) -> list[dict]:
    """The string schemas of a text field: itself, or each language's."""
    if schema.get("type") == "string":
        return [schema]
    return list(schema.get("properties", {}).values())


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_every_title_and_label_of_every_content_schema_is_capped(path):
    root = json.loads(path.read_text("utf-8"))
    for at, schema in _named(root, root):
        strings = _strings(schema)
        assert strings, (path.name, at)
        for string in strings:
            assert "maxLength" in string, (path.name, at)
            if at[-1] == "title":
                assert string["maxLength"] <= TITLE_CHARS, (path.name, at)


def test_the_sweep_covers_the_titles_that_were_uncapped():
    named = {(path.name, at[-1]) for path in SCHEMAS
             for at, _ in _named(json.loads(path.read_text("utf-8")), json.loads(path.read_text("utf-8")))}
    assert {("exercise.schema.json", "title"), ("scenario.schema.json", "title"),
            ("walkthrough.schema.json", "label"), ("selection.schema.json", "title")} <= named


def _first_title(data) -> tuple[str, ...]:
    """The path of the first title of a content file (a walkthrough's titles are its variants' labels)."""
    if "exercises" in data:
        return ("exercises", 0, "title", "en")
    if "variants" in data:
        return ("variants", 0, "label", "en")
    if isinstance(data.get("title"), dict):
        return ("title", "en")
    return ("title",)


CASES = [next(iter(sorted((REPO_ROOT / "fixtures" / folder).glob("*.yaml")))).relative_to(REPO_ROOT).as_posix()
         for folder in ("exercises", "scenarios", "transcripts", "selection")]


@pytest.mark.parametrize("file", CASES)
def test_an_over_long_title_is_reported_with_its_file_and_path(tmp_path, file):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    data = yaml.safe_load((tmp_path / file).read_text("utf-8"))
    at = _first_title(data)
    holder = data
    for part in at[:-1]:
        holder = holder[part]
    holder[at[-1]] = "T" * TITLE_CHARS  # at the cap: still fine
    (tmp_path / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert [p for p in run_checks(tmp_path) if p.file.endswith(file)] == []
    holder[at[-1]] = "T" * (TITLE_CHARS + 1)
    (tmp_path / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at)
    assert [(p.path, p.message) for p in run_checks(tmp_path) if p.file.endswith(file)] == [
        (where, f"'{'T' * (TITLE_CHARS - 1)}… is too long ({TITLE_CHARS + 1} characters; at most {TITLE_CHARS})")]


def test_a_list_over_its_size_rule_says_how_long_it_is_and_the_limit(tmp_path):
    """1 240 selection cases made `check` print "$.cases: [{'expected_arguments': … (287,970 more characters)": the
    list quoted whole, cut before the words "is too long", and no limit (issue 13, round 6). The quoted value is
    cut after MAX_QUOTED characters, and a size rule says the count and the limit."""
    from toolcall.fixtures import MAX_QUOTED, content_schema

    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    file = tmp_path / "fixtures" / "selection" / "shop.en.yaml"
    data = yaml.safe_load(file.read_text("utf-8"))
    limit = content_schema(tmp_path / "fixtures" / "schemas" / "selection.schema.json")["properties"]["cases"]["maxItems"]
    shipped = data["cases"]
    data["cases"] = [{**case, "id": f"{case['id']}_{i}", "request": f"{case['request']} ({i})"}
                     for i in range(limit // len(shipped) + 1) for case in shipped]
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    sized = [(p.path, p.message) for p in run_checks(tmp_path) if p.file.endswith("shop.en.yaml") and p.path == "$.cases"]
    assert sized == [("$.cases", f"{repr(data['cases'])[:MAX_QUOTED]}… is too long ({len(data['cases']):,} items; at "
                                 f"most {limit:,})")]
    assert MAX_QUOTED == 120 and limit == 500 and len(data["cases"]) == 527
