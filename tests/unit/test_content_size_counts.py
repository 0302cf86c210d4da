"""A content problem about a size rule says its count with the noun that agrees with it: "1 character", "2
characters". Before (break-it pass brk16cli): ``strict`` and ``check`` on a tool whose description is "d" said
"'d' is too short (1 characters; at least 20)"."""

import json

import jsonschema
import pytest

from toolcall import REPO_ROOT
from toolcall.cli import main
from toolcall.fixtures import SIZE_RULES, content_message


def test_a_one_character_description_is_one_character(tmp_path, capsys):
    tool = json.loads((REPO_ROOT / "fixtures" / "tools" / "get_order.json").read_text(encoding="utf-8"))
    path = tmp_path / "get_order.json"
    path.write_text(json.dumps({**tool, "description": "d"}), encoding="utf-8")
    assert main(["strict", str(path), "--provider", "openai"]) == 2
    assert capsys.readouterr().err == f"{path}: $.description: 'd' is too short (1 character; at least 20)\n"


#: Per size rule, a schema and an instance of one unit and of two that break it.
BROKEN = {"minLength": ({"minLength": 5}, "a", "ab"), "maxLength": ({"maxLength": 0}, "a", "ab"),
          "minItems": ({"minItems": 5}, [1], [1, 2]), "maxItems": ({"maxItems": 0}, [1], [1, 2]),
          "minProperties": ({"minProperties": 5}, {"a": 1}, {"a": 1, "b": 2}),
          "maxProperties": ({"maxProperties": 0}, {"a": 1}, {"a": 1, "b": 2})}


def test_every_size_rule_is_here():
    assert set(BROKEN) == set(SIZE_RULES)


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_each_size_rule_agrees_with_its_count(rule):
    """The next member: any size rule, with a count of one and of two."""
    schema, one, two = BROKEN[rule]
    (singular, plural), bound = SIZE_RULES[rule]
    limit = schema[rule]
    for instance, count, noun in ((one, 1, singular), (two, 2, plural)):
        error = next(jsonschema.Draft202012Validator(schema).iter_errors(instance))
        assert content_message(error).endswith(f" ({count} {noun}; {bound} {limit})")
