"""Schemas and inputs a hostile student can type: each ends quickly with a clear message, never a hang or crash.

Each case comes from a break-it session against the playground.
"""

import json
import time

import pytest

from tests.workcount import growth, lines_run
from toolcall import safe_validator
from toolcall.judge import evaluate
from toolcall.validation import check_schema, display_pointer, validate

REFUND = json.load(open("fixtures/tools/refund_order.json"))["input_schema"]


def test_ref_fan_out_stops_at_the_budget_and_is_remembered():
    """allOf of two $refs, 18 levels deep: 2^18 paths, seconds to minutes without a budget. The schema check
    refuses it before anything is validated (tests/unit/test_ref_expansion.py); the budget stays the backstop for
    a schema validated directly."""
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(18)}
    defs["d18"] = {"type": "string"}
    schema = {"type": "object", "$defs": defs, "properties": {"reason": {"$ref": "#/$defs/d0"}}}
    assert check_schema(json.dumps(schema)).code == "SCHEMA_TOO_EXPANDED"
    errors, _ = validate({"reason": "damaged"}, schema)
    assert [(e.pointer, e.keyword) for e in errors] == [("", "$budget")]
    assert errors[0].received == "a validation still running after 500 ms"
    # remembered: the second input is refused without validating (lines run, not seconds: tests/workcount.py);
    # validating even {"type": "object"} runs about 160 lines, the first call here over a million
    (errors, _), lines = lines_run(validate, {"reason": "x"}, schema)
    assert errors[0].keyword == "$budget" and lines < 100, lines


def test_unevaluated_properties_with_hostile_pattern_property_is_bounded():
    schema = {"type": "object", "patternProperties": {"^(a|a)*\\1$": {}}, "unevaluatedProperties": False}
    errors, _ = validate({"a" * 40 + "!": 1}, schema)
    # each search stops at 50 ms; how many run before the 500 ms budget depends on the machine
    assert errors and {e.keyword for e in errors} <= {"patternProperties", "pattern", "$budget"}


def test_regex_module_syntax_cannot_crash_unevaluated_properties():
    """\\p{L} is valid for the regex engine that checks the schema; the stdlib re used to choke on it."""
    schema = dict(REFUND, patternProperties={"\\p{L}": {}}, unevaluatedProperties=False)
    del schema["additionalProperties"]
    assert check_schema(json.dumps(schema)).ok
    errors, _ = validate({"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "é": 1}, schema)
    assert errors == []


@pytest.mark.parametrize("pattern", ["(?x)(?:x{65 535}){1 00}", "(?P<n>x)", "x" * 1001])
def test_patterns_not_ecma_or_too_long_are_refused_and_never_kept(pattern):
    checked = check_schema(json.dumps({"properties": {"a": {"type": "string", "pattern": pattern}}}))
    assert (checked.ok, checked.keyword, checked.path) == (False, "pattern", "/properties/a/pattern")
    assert pattern not in safe_validator._patterns


@pytest.mark.parametrize("pattern", ["(?:x{65535}){200}", "(?:x{65535}){65535}", "a{100001}"])
def test_huge_counted_repeats_compile_cheaply_and_match_in_time(pattern):
    """The ECMA-262 engine does not unroll counted repeats: valid ECMA patterns are accepted,
    and matching them is bounded (memory: tests/unit/test_memory_bounds.py)."""
    schema = {"properties": {"a": {"type": "string", "pattern": pattern}}}
    assert check_schema(json.dumps(schema)).ok
    errors, _ = validate({"a": "x" * 100_000}, schema)
    assert [e.keyword for e in errors] == ["pattern"]


def test_timeout_in_pattern_properties_is_explained_as_a_timeout():
    schema = {"patternProperties": {"^(a|a)*\\1$": {"type": "integer"}}, "additionalProperties": False}
    errors, _ = validate({"a" * 40 + "!": 1}, schema)
    assert {e.keyword for e in errors} == {"patternProperties", "additionalProperties"}
    assert all(e.expected == "a pattern match decided within 50 ms" for e in errors)
    assert all(e.pointer == "/" + "a" * 40 + "!" for e in errors)


def test_unique_items_is_linear():
    """4x the items must cost about 4x the lines (tests/workcount.py), not the 16x of jsonschema's own
    pairwise comparison, which objects (unsortable) fall back to."""
    schema = {"properties": {"x": {"uniqueItems": True}}}
    items = {n: {"x": [{"a": i} for i in range(n)]} for n in (1000, 4000)}
    assert validate(items[1000], schema)[0] == [] and validate(items[4000], schema)[0] == []
    ratio = growth(lambda n: validate(items[n], schema), 1000)
    assert 3.5 < ratio < 4.5, ratio
    errors, _ = validate({"x": [1, 1.0]}, {"properties": {"x": {"uniqueItems": True}}})
    assert [e.keyword for e in errors] == ["uniqueItems"]
    errors, _ = validate({"x": [1, True, {"a": [1]}, {"a": [True]}]}, {"properties": {"x": {"uniqueItems": True}}})
    assert errors == []


@pytest.mark.parametrize("instance, divisor, ok", [
    (int("9" * 999), 0.5, True), (1.5, int("1" + "0" * 400), False), (0.3, 0.1, True), (7, 2, False),
    (19.99, 0.01, True)])
def test_multiple_of_is_exact_and_never_overflows(instance, divisor, ok):
    errors, _ = validate({"z": instance}, {"properties": {"z": {"multipleOf": divisor}}})
    assert (errors == []) is ok


@pytest.mark.parametrize("raw", ['{"order_id": "\\ud800", "amount_cents": 1, "reason": "damaged"}',
                                 '{"order_id": "\ud800"}', '\udcff{'])
def test_lone_surrogates_are_refused_and_quoted_back_safely(raw):
    card = evaluate(raw, REFUND, "refund_order", "en", "openai", "call_1")
    assert card.parse.code == "INVALID_JSON" and card.parse.detail.startswith("lone surrogate U+D")
    json.dumps(card.tool_result, ensure_ascii=False).encode("utf-8")  # must be encodable
    card.raw.encode("utf-8")


def test_surrogate_in_schema_is_refused():
    checked = check_schema('{"type": "object", "required": ["\\ud800"]}')
    assert (checked.ok, checked.code) == (False, "SCHEMA_NOT_JSON")
    assert checked.message == "Not JSON: lone surrogate U+D800."


def test_duplicate_keys_in_schema_are_refused_like_in_tool_input():
    checked = check_schema('{"type": "object", "type": "string"}', "zh")
    assert checked.message == "不是合法的 JSON：键重复：type。"


def test_huge_integer_in_schema_says_why_without_python_internals():
    checked = check_schema('{"maximum": ' + "9" * 5000 + "}")
    assert checked.message == "Not JSON: integer with 5000 digits exceeds the 1000-digit limit."


def test_huge_enum_is_listed_briefly():
    schema = {"properties": {"r": {"enum": [f"v{i}" for i in range(20000)]}}}
    errors, _ = validate({"r": "nope"}, schema)
    assert errors[0].expected.endswith('"v11" … (+19988 more)')


def test_root_and_empty_key_are_told_apart():
    errors, _ = validate({"": "x"}, {"properties": {"": {"type": "integer"}}})
    assert errors[0].pointer == "/" and display_pointer(errors[0].pointer) == "/"
    assert display_pointer("") == "(root)" and display_pointer("", "zh") == "（根）"


def test_unevaluated_properties_names_each_field():
    schema = {"properties": {"a": {}}, "unevaluatedProperties": False}
    errors, _ = validate({"a": 1, "b": 2, "c": 3}, schema)
    assert [(e.pointer, e.keyword) for e in errors] == [("/b", "unevaluatedProperties"),
                                                       ("/c", "unevaluatedProperties")]


def test_chinese_parse_details_are_translated():
    card = evaluate('{"a": }', REFUND, "refund_order", "zh", "anthropic", "t")
    want = ("第 1 行第 7 列这里应该是一个值：{\"a\": } —— 值只能是双引号字符串、数字、true、false、null、对象或数组"
            "（Python 的 True、False、None 不是 JSON）。（解析器原文：“Expecting value”）")
    assert card.parse_detail == want
    assert json.loads(card.tool_result["content"])["detail"] == want
    card = evaluate('"x"', REFUND, "refund_order", "zh", "anthropic", "t")
    assert card.hints == ["工具参数必须是 JSON 对象，这里收到的是字符串。"]
    assert check_schema('"x"', "zh").message == "input_schema 必须是 JSON 对象，这里收到的是字符串。"


def test_nested_budgets_keep_the_outer_deadline(monkeypatch):
    from toolcall import safe_validator
    from toolcall.safe_validator import BudgetExceeded, _tick, budget

    cpu = [100.0]  # a fake CPU clock: the test does not depend on how busy the machine is
    monkeypatch.setattr(safe_validator, "_clock", lambda: cpu[0])
    with budget(0.01):
        with budget(5):
            pass
        _tick()
        cpu[0] += 0.02
        with pytest.raises(BudgetExceeded):
            _tick()


def test_the_budget_counts_the_validating_threads_cpu_not_waiting():
    """A validation that waits (for a core, for the GIL) is not charged for it: sleeping 0.05 s inside a
    0.01 s budget is no reason to refuse, and so no reason to remember a schema as too expensive."""
    from toolcall.safe_validator import _tick, budget

    with budget(0.01):
        time.sleep(0.05)
        _tick()  # raises BudgetExceeded with a wall clock


def test_a_one_off_pause_is_not_a_schema_too_expensive(monkeypatch):
    """The newcomer saw the valid refund call refused with "$budget" during a busy test run: a pause charged to
    the thread once (a full garbage collection) must neither refuse the call nor get the schema remembered."""
    from toolcall import safe_validator, validation

    cpu, paused = [100.0], []

    def clock():
        if not paused and cpu[0] > 100.0:  # the first tick inside the first budget: a one-off 1 s pause
            paused.append(True)
            cpu[0] += 1.0
        cpu[0] += 1e-6
        return cpu[0]
    monkeypatch.setattr(safe_validator, "_clock", clock)
    schema = dict(REFUND, description="pause test")  # a schema no other test has remembered
    errors, _ = validate({"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}, schema)
    assert paused and errors == []
    assert json.dumps(schema) not in validation._too_expensive


def test_within_budget_tries_twice_then_refuses(monkeypatch):
    from toolcall import safe_validator
    from toolcall.safe_validator import BudgetExceeded, _tick, within_budget

    cpu, runs = [0.0], []
    monkeypatch.setattr(safe_validator, "_clock", lambda: cpu[0])

    def costly():
        runs.append(1)
        cpu[0] += 1.0
        _tick()
    with pytest.raises(BudgetExceeded):
        within_budget(costly, 0.5)
    assert len(runs) == 2
