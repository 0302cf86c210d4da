"""Each strict-mode rule: a schema that trips it (exact path and keyword) and a clean one that does not."""

import json

import pytest

from toolcall.fixtures import load_tool
from toolcall.i18n import t
from toolcall.strict import finding_message, report
from toolcall.strict.rules import RULES, findings, pattern_features


def obj(props, required=None, **extra):
    """An object schema with additionalProperties false and every property required, unless told."""
    return {"type": "object", "properties": props, "required": list(props) if required is None else required,
            "additionalProperties": False, **extra}


S = {"type": "string"}
#: rule id → (schema that trips it, the (path, keyword) it must report, a clean schema)
CASES = {
    "anthropic.numeric": (obj({"n": {"type": "integer", "maximum": 9}}), ("/properties/n/maximum", "maximum"),
                          obj({"n": {"type": "integer"}})),
    "anthropic.string_length": (obj({"s": {"type": "string", "minLength": 2}}), ("/properties/s/minLength", "minLength"),
                                obj({"s": S})),
    "anthropic.array": (obj({"a": {"type": "array", "items": S, "maxItems": 3}}), ("/properties/a/maxItems", "maxItems"),
                        obj({"a": {"type": "array", "items": S}})),
    "anthropic.min_items": (obj({"a": {"type": "array", "items": S, "minItems": 2}}),
                            ("/properties/a/minItems", "minItems"),
                            obj({"a": {"type": "array", "items": S, "minItems": 1}})),
    "anthropic.additional_properties": (obj({"o": {"type": "object", "properties": {}}}),
                                        ("/properties/o/additionalProperties", "additionalProperties"),
                                        obj({"o": obj({})})),
    "anthropic.recursive": (obj({"t": {"$ref": "#"}}), ("/properties/t/$ref", "$ref"),
                            obj({"t": {"$ref": "#/$defs/T"}}, **{"$defs": {"T": S}})),
    "anthropic.external_ref": (obj({"t": {"$ref": "other.json#/T"}}), ("/properties/t/$ref", "$ref"),
                               obj({"t": {"$ref": "#/$defs/T"}}, **{"$defs": {"T": S}})),
    "anthropic.complex_enum": (obj({"e": {"enum": [{"a": 1}, "b"]}}), ("/properties/e/enum", "enum"),
                               obj({"e": {"enum": ["a", 1, None, True]}})),
    "anthropic.pattern": (obj({"p": {"type": "string", "pattern": r"^(a)\1$"}}), ("/properties/p/pattern", "pattern"),
                          obj({"p": {"type": "string", "pattern": "^ORD-[0-9]{8}$"}})),
    "anthropic.format": (obj({"f": {"type": "string", "format": "regex"}}), ("/properties/f/format", "format"),
                         obj({"f": {"type": "string", "format": "date-time"}})),
    "anthropic.other": (obj({"o": obj({}, minProperties=1)}), ("/properties/o/minProperties", "minProperties"),
                        obj({"o": obj({})})),
    "anthropic.limits": (obj({f"p{i}": S for i in range(25)}, required=[]), ("", "required"),
                         obj({f"p{i}": S for i in range(24)}, required=[])),
    "openai.root": ({"anyOf": [obj({})]}, ("/anyOf", "anyOf"), obj({})),
    "openai.additional_properties": ({"type": "object", "properties": {"a": S}, "required": ["a"]},
                                     ("/additionalProperties", "additionalProperties"), obj({"a": S})),
    "openai.required": (obj({"a": S, "b": S}, required=["a"]), ("/properties/b", "required"),
                        obj({"a": S, "b": {"type": ["string", "null"]}})),
    "openai.composition": (obj({"a": {"allOf": [S, {"type": "string", "pattern": "x"}]}}), ("/properties/a/allOf", "allOf"),
                           obj({"a": {"anyOf": [S, {"type": "null"}]}})),
    "openai.other": (obj({"a": {"type": "string", "maxLength": 3}}), ("/properties/a/maxLength", "maxLength"),
                     obj({"a": {"type": "string", "pattern": "^x$", "format": "email"}})),
    "openai.limits": (obj({"e": {"enum": list(range(1001))}}), ("", "enum"), obj({"e": {"enum": list(range(1000))}})),
    "gemini.unknown_field": ({"type": "object", "properties": {"a": {"type": "integer", "exclusiveMinimum": 0}}},
                             ("/properties/a/exclusiveMinimum", "exclusiveMinimum"),
                             {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}}),
    "gemini.type_list": ({"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
                         ("/properties/a/type", "type"),
                         {"type": "object", "properties": {"a": {"type": "string", "nullable": True}}}),
    "gemini.enum": ({"type": "object", "properties": {"a": {"type": "integer", "enum": [1, 2]}}},
                    ("/properties/a/enum", "enum"),
                    {"type": "object", "properties": {"a": {"type": "string", "enum": ["1", "2"]}}}),
    "gemini.format": ({"type": "object", "properties": {"a": {"type": "string", "format": "email"}}},
                      ("/properties/a/format", "format"),
                      {"type": "object", "properties": {"a": {"type": "string", "format": "date-time"}}}),
}


def test_every_rule_has_a_case():
    assert sorted(CASES) == sorted(r.id for r in RULES)


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_triggers(rule_id):
    schema, where, _ = CASES[rule_id]
    provider = rule_id.split(".")[0]
    hits = [(f.path, f.keyword) for f in findings(schema, provider) if f.rule == rule_id]
    assert hits == [where]


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_clean(rule_id):
    _, _, clean = CASES[rule_id]
    provider = rule_id.split(".")[0]
    assert [f for f in findings(clean, provider) if f.rule == rule_id] == []


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_message_in_both_languages(rule_id):
    schema, _, _ = CASES[rule_id]
    finding = next(f for f in findings(schema, rule_id.split(".")[0]) if f.rule == rule_id)
    en, zh = finding_message(finding, "en"), finding_message(finding, "zh")
    assert en and zh and en != zh and finding.source.startswith("https://")


def test_every_rule_cites_a_documentation_page():
    assert {r.source.split("/")[2] for r in RULES} == {"platform.claude.com", "platform.openai.com", "ai.google.dev",
                                                       "firebase.google.com"}


def test_pattern_features():
    assert pattern_features(r"^(a)\1$") == ["backreference"]
    assert pattern_features(r"^(?=x)a(?<!b)$") == ["lookaround"]
    assert pattern_features(r"\bword\b") == ["word_boundary"]
    assert pattern_features(r"^ORD-[0-9]{8}$") == []
    assert pattern_features(r"\\b") == []  # an escaped backslash then b


def test_indirect_recursion_through_defs():
    schema = obj({"n": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": obj({"b": {"$ref": "#/$defs/B"}}),
                                                           "B": obj({"a": {"$ref": "#/$defs/A"}})}})
    assert [(f.path, f.keyword) for f in findings(schema, "anthropic") if f.rule == "anthropic.recursive"] == [
        ("/$defs/A", "$ref"), ("/$defs/B", "$ref")]


REFERENCE = load_tool().input_schema


def test_reference_refund_order_per_provider():
    """The done-when values: Anthropic lists minimum and maxLength (the pattern is accepted);
    OpenAI lists note not in required; Gemini refuses additionalProperties in `parameters`."""
    anthropic = report(REFERENCE, "anthropic")
    assert [(f.path, f.keyword, f.effect) for f in anthropic.findings] == [
        ("/properties/amount_cents/minimum", "minimum", "400"), ("/properties/note/maxLength", "maxLength", "400")]
    assert anthropic.refused
    assert [(d.path, d.note) for d in anthropic.disagreements] == [
        ("/properties/order_id/pattern", "anthropic_moves_supported")]
    openai = report(REFERENCE, "openai")
    assert [(f.path, f.keyword, f.effect) for f in openai.findings] == [
        ("/properties/note", "required", "400"), ("/properties/note/maxLength", "maxLength", "unsupported")]
    assert finding_message(openai.findings[0]).startswith("`note` is not in `required`")
    gemini = report(REFERENCE, "gemini", "refund_order")
    assert [(f.path, f.keyword) for f in gemini.findings] == [("/additionalProperties", "additionalProperties")]
    assert "parametersJsonSchema" in gemini.declaration and "parameters" not in gemini.declaration


def test_unknown_provider_is_refused():
    with pytest.raises(ValueError, match="unknown provider 'mistral'"):
        findings(REFERENCE, "mistral")


def test_sdk_notes_exist_for_every_rule_that_names_one():
    for rule in RULES:
        if rule.sdk:
            assert t(f"strict.sdk.{rule.sdk}", "zh") != t(f"strict.sdk.{rule.sdk}", "en")


def test_cli_strict_per_provider(capsys):
    """python -m toolcall strict prints findings and the transformed schema; exit 1 when refused."""
    from toolcall.cli import main
    from tests.unit.test_cli import TOOL
    assert main(["strict", TOOL, "--provider", "anthropic"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [f["keyword"] for f in out["findings"]] == ["minimum", "maxLength"]
    assert out["transformed"]["properties"]["order_id"]["description"].endswith("{pattern: ^ORD-[0-9]{8}$}")
    assert out["declaration"]["strict"] is True and out["sdk_disagreements"][0]["keyword"] == "pattern"
    assert main(["strict", TOOL, "--provider", "openai"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["findings"][0]["path"] == "/properties/note" and out["findings"][0]["sdk"].startswith("The SDK")
    assert out["transformed"]["required"] == ["order_id", "amount_cents", "reason", "note"]


def test_cli_strict_clean_schema_exits_0(tmp_path, capsys):
    from toolcall.cli import main
    tool = tmp_path / "t.json"
    tool.write_text(json.dumps({"name": "t", "description": "Echo the string a back unchanged.", "input_schema": obj({"a": S})}))
    assert main(["strict", str(tool), "--provider", "openai"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
    assert main(["strict", str(tool), "--provider", "gemini"]) == 1  # additionalProperties in `parameters`
    missing = tmp_path / "missing.json"
    assert main(["strict", str(missing), "--provider", "gemini"]) == 2


def test_the_per_provider_exercise_agrees_with_the_rules():
    """pg_strict_per_provider's reference answer is what our rules say for the schema in its prompt."""
    import re
    from toolcall.exercises import load_exercises
    exercise = load_exercises().by_id()["pg_strict_per_provider"]
    for lang in ("en", "zh"):
        schema = json.loads(re.search(r"```json\n(.*?)```", exercise.prompt[lang], re.S).group(1))
        refused = {p: {(f.path, f.keyword) for f in findings(schema, p) if f.effect == "400"} for p in ("anthropic", "openai")}
        where = {"qty_bounds": {("/properties/qty/minimum", "minimum"), ("/properties/qty/maximum", "maximum")},
                 "tags_min": {("/properties/tags/minItems", "minItems")},
                 "optional": {("/properties/tags", "required"), ("/properties/meta", "required")},
                 "meta_open": {("/properties/meta/additionalProperties", "additionalProperties")},
                 "sku_pattern": {("/properties/sku/pattern", "pattern")},
                 "ship_null": {("/properties/ship_by/anyOf", "anyOf"), ("/properties/ship_by/anyOf/0/format", "format")}}
        assert set(where) == set(exercise.labels("items"))
        for item, places in where.items():
            a, o = bool(places & refused["anthropic"]), bool(places & refused["openai"])
            expected = {(True, False): "anthropic", (False, True): "openai", (True, True): "both",
                        (False, False): "neither"}[(a, o)]
            assert exercise.answer[item] == expected, item
        # every refusal the rules find is one of the items: the exercise leaves nothing out
        assert refused["anthropic"] | refused["openai"] <= set().union(*where.values())


def test_described_refusals_on_the_reference_and_the_cases():
    """Issue 14: the panel explains a refusal that comes only from keywords transform_schema moves into the
    description. Derived from CASES: a rule's trip case qualifies exactly when each of its refusing findings
    is among the transform's moves into the description."""
    from toolcall.strict import described_refusals

    assert described_refusals(report(REFERENCE, "anthropic")) == ["maxLength", "minimum"]
    assert described_refusals(report(REFERENCE, "openai")) == []  # `note` not required: not a moved keyword
    assert described_refusals(report(REFERENCE, "gemini")) == []
    seen = set()
    for rule_id, (bad, _where, clean) in CASES.items():
        provider = rule_id.split(".")[0]
        rep = report(bad, provider)
        refusing = {(f.path, f.keyword) for f in rep.findings if f.effect == "400"}
        into = {(m.path, m.keyword) for m in rep.moved if m.into == "description"}
        expected = sorted({k for _, k in refusing}) if refusing and refusing <= into else []
        assert described_refusals(rep) == expected, rule_id
        assert described_refusals(report(clean, provider)) == [] or report(clean, provider).refused, rule_id
        seen.add(bool(expected))
    assert seen == {True, False}  # the cases hold both kinds
    # a refusal the SDK repairs otherwise (additionalProperties forced to false) is not described
    loose = {**REFERENCE, "additionalProperties": True}
    assert described_refusals(report(loose, "anthropic")) == []
