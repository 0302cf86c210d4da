"""Content schemas (fixtures/schemas/*.schema.json of a content root) and tool input_schemas: a ``$ref`` is never
fetched, a fan-out of references is capped, and a loop is named, each with the file and the JSON path.

Before (issue 13, break-it pass brk12cli): `check` with ``"$ref": "http://…/remote.json"`` in orders.schema.json
made ten HTTP requests and passed; a loop ``a → b → allOf[0] → a`` ended `check` in a RecursionError traceback;
25 ``$defs`` each referring to the next twice ran past 10 minutes on one wrong value."""

import json
import urllib.request

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import Problem, schema_problems
from toolcall.validation import MAX_EXPANDED_SUBSCHEMAS, check_schema

NAME = "fixtures/orders/orders.yaml"


def _orders_schema(tmp_path, defs: dict, ref: str):
    schema = json.loads((FIXTURES_DIR / "schemas" / "orders.schema.json").read_text(encoding="utf-8"))
    schema.setdefault("$defs", {}).update(defs)
    schema["properties"]["current_customer"] = {"$ref": ref}
    (tmp_path / "orders.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return tmp_path


def _problems(tmp_path, monkeypatch, defs, ref, value="CUST-1"):
    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: pytest.fail("a $ref was fetched"))
    return schema_problems({"schema_version": 1, "current_customer": value, "orders": []}, "orders", NAME,
                           _orders_schema(tmp_path, defs, ref))


def _cannot(tmp_path, why: str) -> list[Problem]:
    return [Problem(NAME, "$", f"cannot be checked: {tmp_path / 'orders.schema.json'}: {why}")]


def test_a_remote_ref_is_never_fetched_and_named_with_its_path(tmp_path, monkeypatch):
    assert _problems(tmp_path, monkeypatch, {}, "http://127.0.0.1:9/remote.json") == _cannot(
        tmp_path, "$.properties.current_customer.$ref: $ref 'http://127.0.0.1:9/remote.json' is a document outside "
                  "this file; nothing is fetched, so it cannot be checked: put the definition under $defs")


def test_a_ref_loop_is_named_in_a_sentence(tmp_path, monkeypatch):
    defs = {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}
    assert _problems(tmp_path, monkeypatch, defs, "#/$defs/a") == _cannot(
        tmp_path, "$.$defs.a: the schema loops ($.$defs.a → $.$defs.b → $.$defs.b.allOf[0] → $.$defs.a): each "
                  "applies the next to the same value, so checking would never end")


def test_a_fan_out_of_refs_is_capped(tmp_path, monkeypatch):
    defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(25)}
    defs["d25"] = {"type": "string"}
    assert _problems(tmp_path, monkeypatch, defs, "#/$defs/d0", value=5) == _cannot(
        tmp_path, f"$.$defs.d13: more than {MAX_EXPANDED_SUBSCHEMAS} subschemas once its $refs are followed (a "
                  "definition referred to more than once at each step): refer to each definition once")


def test_a_recursive_schema_through_properties_is_no_loop(tmp_path, monkeypatch):
    defs = {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}
    assert _problems(tmp_path, monkeypatch, defs, "#/$defs/node", value={"next": {"next": {}}}) == []


def test_a_tool_input_schema_loop_is_refused_in_en_and_zh():
    schema = json.dumps({"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}},
                         "properties": {"x": {"$ref": "#/$defs/a"}}})
    en, zh = check_schema(schema, "en"), check_schema(schema, "zh")
    assert (en.ok, en.code, en.path) == (False, "SCHEMA_REF_LOOP", "/$defs/a")
    assert en.message == ("At /$defs/a the schema loops: in /$defs/a → /$defs/b → /$defs/b/not → /$defs/a, each one "
                          "applies the one after it to the same value (through \"$ref\", allOf, anyOf, oneOf, not, if/then/else), so "
                          "checking any value would never end. Break the loop: let one of them check something else.")
    assert zh.message == ("/$defs/a 处的 schema 形成了循环：/$defs/a → /$defs/b → /$defs/b/not → /$defs/a 依次把下一个"
                          "套用到同一个值上（经由 \"$ref\"、allOf、anyOf、oneOf、not、if/then/else），所以检查任何值都永远"
                          "结束不了。请打破这个循环：让其中一个去检查别的东西。")
