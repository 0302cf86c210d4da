"""JSON the app writes out indented is bounded by the place's limit, however deep the value nests. Indenting
multiplies the size of a nested value (64 levels: about 64 times its compact text): a 99 000-character model
output nested 60 deep was a 6.3 MB code block on its playground card, a 199 000-character schema a 12.6 MB
block in the strict panel and twice that in the definition panel, and a 416-character share link filled the
schema editor with text check_schema refused as too large. Cases are derived from the nesting limits."""

import ast
import json
from pathlib import Path

import pytest

from toolcall.fixtures import Tool
from toolcall.parsing import MAX_DEPTH, MAX_INPUT_CHARS
from toolcall.presets import schema_text
from toolcall.strict.transforms import MAX_DIFF_LINES, schema_diff
from toolcall.text import COMPACT, CUT, PRETTY, bounded_json, editable_json
from toolcall.tooldef import MAX_DEFINITION_CHARS, parse_definition, read_share_token, render, share_token
from toolcall.validation import MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH, check_schema

REPO = Path(__file__).resolve().parents[2]


def nested(chars: int, depth: int) -> str:
    """A JSON object of about ``chars`` characters: an array nested ``depth`` deep holding zeros."""
    head, tail = '{"a":' + "[" * depth, "]" * depth + "}"
    return head + ",".join(["0"] * ((chars - len(head) - len(tail)) // 2)) + tail


def nested_schema(chars: int, depth: int) -> str:
    head = '{"type":"object","properties":{"a":{"enum":[' + "[" * depth
    tail = "]" * depth + "]}}}"
    return head + ",".join(["0"] * ((chars - len(head) - len(tail)) // 2)) + tail


@pytest.mark.parametrize("depth", [1, 8, MAX_DEPTH - 2])
@pytest.mark.parametrize("limit", [1_000, 50_000])
def test_bounded_json_never_passes_its_limit_and_indents_whatever_fits(depth, limit):
    value = json.loads(nested(MAX_INPUT_CHARS - 1_000, depth))
    text, how = bounded_json(value, limit)
    assert len(text) <= limit and how in (COMPACT, CUT)
    small = json.loads(nested(200, depth))
    indented = json.dumps(small, ensure_ascii=False, indent=2)
    if len(indented) <= limit:
        assert bounded_json(small, limit) == (indented, PRETTY)
    else:
        assert bounded_json(small, limit) == (json.dumps(small, separators=(",", ":")), COMPACT)


def test_bounded_json_falls_back_to_the_whole_compact_text_when_it_fits():
    value = json.loads(nested(20_000, MAX_DEPTH - 2))
    text, how = bounded_json(value, 30_000)
    assert how == COMPACT and json.loads(text) == value


def test_bounded_json_escapes_invisible_characters_within_the_limit():
    text, how = bounded_json({"a": "\u200b" * 100}, 700)
    assert how == PRETTY and "\\u200b" in text and "\u200b" not in text and len(text) <= 700
    text, how = bounded_json({"a": "\u200b" * 100}, 300)
    assert how == CUT and len(text) == 300


@pytest.mark.parametrize("depth", [1, 20, MAX_SCHEMA_DEPTH - 6])
def test_editable_json_is_the_whole_value_and_no_longer_than_the_limit_or_its_compact_form(depth):
    value = json.loads(nested(MAX_SCHEMA_CHARS - 1_000, depth))
    text = editable_json(value, MAX_SCHEMA_CHARS)
    assert json.loads(text) == value
    assert len(text) <= max(MAX_SCHEMA_CHARS, len(json.dumps(value, separators=(",", ":"))))


def test_a_deep_schema_shared_or_applied_stays_within_its_own_limits():
    """A valid 199 000-character schema nested 58 deep: the editor's text, the definition and a share link
    of it are all accepted again (the definition is applied, the editor's schema checks)."""
    text = nested_schema(MAX_SCHEMA_CHARS - 1_000, MAX_SCHEMA_DEPTH - 6)
    checked = check_schema(text)
    assert checked.ok
    tool = Tool("refund_order", "Refund.", checked.schema)
    assert check_schema(schema_text(tool.input_schema)).ok
    assert len(render(tool)) <= MAX_DEFINITION_CHARS
    applied = parse_definition(render(tool))
    assert applied.ok and applied.tool.input_schema == checked.schema
    shared = read_share_token(share_token(tool))
    assert shared.ok and check_schema(schema_text(shared.tool.input_schema)).ok


def test_schema_diff_of_a_deep_schema_is_refused_without_writing_it_whole():
    """Equal schemas past the line cap are still "=" (compared compactly), different ones None."""
    schema = json.loads(nested_schema(MAX_SCHEMA_CHARS - 1_000, MAX_SCHEMA_DEPTH - 6))
    assert schema_diff(schema, json.loads(json.dumps(schema))) == ""
    assert schema_diff(schema, {**schema, "additionalProperties": False}) is None
    small = {"type": "object"}
    assert schema_diff(small, {**small, "title": "x"}, max_lines=MAX_DIFF_LINES).startswith("--- original")


def _indented_dumps(path: Path):
    """Calls of json.dumps / visible_json with an ``indent`` keyword in one source file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and any(k.arg == "indent" for k in node.keywords):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("dumps", "visible_json"):
                yield f"{path.relative_to(REPO)}:{node.lineno}"


#: Indented writes of JSON that only ever hold course files (fixtures), never what a student typed or uploaded.
FIXTURE_ONLY = {
    "pages/pairing.py",         # _valid_request: the walkthrough fixture's request
    "ui/harness_lab.py",        # the scripted model's response of a scenario fixture
}


def test_pages_write_indented_json_only_through_bounded_json():
    """The next member: a page or ui module that indents JSON itself (not through ui.common.show_json,
    toolcall.text.bounded_json or editable_json) fails here unless it only ever shows course files."""
    found = [site for path in sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")])
             for site in _indented_dumps(path) if site.split(":")[0] not in FIXTURE_ONLY]
    assert found == []
