"""Property tests: any text as a model output, any JSON value as a schema, never raise and always
yield a tool_result of the right shape that is itself valid JSON."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcall.judge import evaluate
from toolcall.results import tool_result_message
from toolcall.fixtures import load_tool
from toolcall.validation import check_schema

REFUND = load_tool().input_schema

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
SCHEMA_WORDS = st.sampled_from(["type", "properties", "required", "enum", "const", "pattern", "minimum", "maxLength",
                                "anyOf", "oneOf", "not", "items", "additionalProperties", "$ref", "$defs", "format"])
SCHEMAISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["object", "string", "integer", "#", "^a+$", "x"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(SCHEMA_WORDS, children, max_size=4),
    max_leaves=15,
)


def _assert_shape(result, fmt, call):
    assert json.loads(json.dumps(result)) == result
    if fmt == "anthropic":
        assert result["type"] == "tool_result" and result["tool_use_id"] == call
        assert set(result) <= {"type", "tool_use_id", "is_error", "content"}
    else:
        assert result["role"] == "tool" and result["tool_call_id"] == call and set(result) == {"role", "tool_call_id",
                                                                                              "content"}
    assert isinstance(result["content"], str) and result["content"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.text(max_size=300) | JSON.map(json.dumps), fmt=st.sampled_from(["anthropic", "openai"]))
def test_any_text_as_model_output(raw, fmt):
    card = evaluate(raw, REFUND, "refund_order", "en", fmt, "call_1")
    if card.no_backend:  # accepted with no backend given: a schema verdict only, nothing made up to send
        assert card.verdict == "accepted" and card.tool_result == {}
        return
    _assert_shape(card.tool_result, fmt, "call_1")
    if card.verdict == "rejected" and fmt == "anthropic":
        assert card.tool_result["is_error"] is True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=SCHEMAISH | JSON, instance=JSON, fmt=st.sampled_from(["anthropic", "openai"]), lang=st.sampled_from(["en", "zh"]))
def test_any_json_value_as_schema(schema, instance, fmt, lang):
    checked = check_schema(json.dumps(schema), lang)
    if not checked.ok:
        assert checked.message
        return
    card = evaluate(json.dumps(instance), checked.schema, "refund_order", lang, fmt, "toolu_01")
    if card.no_backend:
        assert card.verdict == "accepted" and card.tool_result == {}
        return
    _assert_shape(card.tool_result, fmt, "toolu_01")


@given(content=st.text(), is_error=st.booleans())
def test_content_is_never_concatenated_into_json(content, is_error):
    result = tool_result_message("anthropic", "toolu_01", content, is_error)
    assert json.loads(json.dumps(result))["content"] == content
