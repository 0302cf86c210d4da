"""A schema may hold at most MAX_SCHEMA_PATTERNS distinct regular expressions (issue 13 follow-up).

~9,500 tiny patterns fit in MAX_SCHEMA_CHARS and cost seconds of CPU per playground edit, each one
compiled by the meta-schema's ``format: regex``. Every place a pattern can sit (derived from the
walker's keyword lists, so a new schema position is covered) counts; the refusal names the first
pattern over the cap, compiles nothing, and reaches every surface that checks a schema.
"""

import json
from pathlib import Path

import pytest

from toolcall import safe_validator
from toolcall.cli import main
from toolcall.i18n import t
from toolcall.tooldef import from_fields
from toolcall.validation import _ARRAYS, _IN_PLACE, _MAPS, MAX_SCHEMA_CHARS, MAX_SCHEMA_PATTERNS, check_schema

CAP = MAX_SCHEMA_PATTERNS


def _holder(keyword: str, i: int) -> tuple[dict, str]:
    """A schema with the subschema ``{"pattern": "^p<i>$"}`` under ``keyword``, and that pattern's pointer."""
    sub = {"pattern": f"^p{i}$"}
    if keyword in _IN_PLACE:
        return {keyword: sub}, f"/{keyword}/pattern"
    if keyword in _ARRAYS:
        return {keyword: [sub]}, f"/{keyword}/0/pattern"
    key = "^p0$" if keyword == "patternProperties" else "k"  # a key that is a pattern already counted
    return {keyword: {key: sub}}, f"/{keyword}/{key}/pattern"


def _properties(n: int, start: int = 0) -> dict:
    return {f"f{i}": {"type": "string", "pattern": f"^p{i}$"} for i in range(start, start + n)}


@pytest.mark.parametrize("keyword", _IN_PLACE + _ARRAYS + _MAPS)
def test_a_pattern_in_any_schema_position_counts(keyword):
    """CAP patterns under properties plus one more under ``keyword``: refused, that one named."""
    extra, where = _holder(keyword, CAP)
    schema = {"type": "object", "allOf": [{"properties": _properties(CAP)}, extra]}
    prefix = "/allOf/1"
    checked = check_schema(json.dumps(schema), "en")
    assert (checked.ok, checked.code, checked.keyword, checked.path) == (
        False, "SCHEMA_TOO_MANY_PATTERNS", "pattern", prefix + where)


def test_pattern_properties_keys_count_and_the_message_names_the_first_over_the_cap():
    schema = {"type": "object", "patternProperties": {f"^k{i}$": {} for i in range(CAP + 5)}}
    checked = check_schema(json.dumps(schema), "en")
    assert (checked.code, checked.keyword, checked.path) == (
        "SCHEMA_TOO_MANY_PATTERNS", "patternProperties", f"/patternProperties/^k{CAP}$")
    assert checked.message == (
        f'The schema has {CAP + 5} different regular expressions ("pattern" values and "patternProperties" keys); '
        f"the limit is {CAP}, and /patternProperties/^k{CAP}$ is the first one over it. Each one has to be "
        "compiled to check the schema: keep the few the tool needs.")


def test_the_refusal_is_in_chinese_on_the_chinese_page():
    schema = {"type": "object", "properties": _properties(CAP + 1)}
    checked = check_schema(json.dumps(schema), "zh")
    assert checked.path == f"/properties/f{CAP}/pattern"
    assert checked.message == t("schema.too_many_patterns", "zh", count=CAP + 1, limit=CAP, path=checked.path)
    assert checked.message.startswith(f"这个 schema 里有 {CAP + 1} 个不同的正则表达式")


def test_a_schema_with_exactly_the_cap_is_accepted_and_repeats_count_once():
    """CAP distinct patterns, each written three times (pattern, patternProperties key, and the pattern of that
    key's subschema; 401 parts, under toolcall.validation.MAX_SCHEMA_PARTS): accepted."""
    props = _properties(CAP)
    schema = {"type": "object", "properties": props,
              "patternProperties": {f"^p{i}$": {"pattern": f"^p{i}$"} for i in range(CAP)}}
    checked = check_schema(json.dumps(schema), "en")
    assert (checked.ok, checked.code) == (True, None)


@pytest.fixture
def compiles(monkeypatch):
    """Every pattern the schema check asks to compile (cached or not), in order."""
    seen = []
    original = safe_validator.compile_pattern

    def counting(pattern):
        seen.append(pattern)
        return original(pattern)

    monkeypatch.setattr(safe_validator, "compile_pattern", counting)
    return seen


def test_a_just_over_cap_schema_compiles_nothing(compiles):
    """The cap is checked before the meta-schema, so refusing ~9,500 patterns costs no compile."""
    schema = {"patternProperties": {f"{i:x}": {} for i in range(4000)},
              "properties": {f"{i:x}": {"pattern": f".{i:x}"} for i in range(5500)}}
    text = json.dumps(schema, separators=(",", ":"))
    assert len(text) <= MAX_SCHEMA_CHARS
    assert check_schema(text, "en").code == "SCHEMA_TOO_MANY_PATTERNS"
    assert check_schema(json.dumps({"properties": _properties(CAP + 1, start=50_000)}), "zh").code \
        == "SCHEMA_TOO_MANY_PATTERNS"
    assert compiles == []


def test_a_schema_at_the_cap_compiles_each_pattern_once(compiles):
    """The counter sees the meta-schema's compiles (so the test above can fail): one per distinct pattern."""
    assert check_schema(json.dumps({"properties": _properties(CAP, start=70_000)}), "en").ok
    assert sorted(compiles) == sorted(f"^p{i}$" for i in range(70_000, 70_000 + CAP))


def test_the_playground_definition_and_result_schema_get_the_refusal(tmp_path, capsys):
    text = json.dumps({"type": "object", "properties": _properties(CAP + 1)})
    checked = from_fields("refund_order", "Refund an order.", text, "zh")
    assert (checked.ok, checked.code, checked.path) == (
        False, "SCHEMA_TOO_MANY_PATTERNS", f"$.input_schema.properties.f{CAP}.pattern")
    path = tmp_path / "many.json"
    path.write_text(text)
    tool = str(Path(__file__).resolve().parents[2] / "fixtures" / "tools" / "refund_order.json")
    assert main(["result", "--tool", tool, "--schema", str(path), "--input", "{}"]) == 2
    assert f"the limit is {CAP}" in capsys.readouterr().err
