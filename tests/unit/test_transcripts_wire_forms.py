"""Issue 21: the step-through in the OpenAI Responses and Gemini forms, checked against the SDKs' types
(openai's Responses types, google-genai) with no network, and paired by our own checker."""

import json

import pytest
from pydantic import TypeAdapter

from tests.unit.test_transcripts_sdk import drain
from toolcall.fixtures import load_orders
from toolcall.pairing import check_pairing
from toolcall.transcripts import REQUEST, RESPONSE, build_transcript, load_tools, load_walkthrough
from toolcall.wire import GEMINI, RESPONSES

FIXTURE = load_walkthrough()
TOOLS = load_tools(FIXTURE.tools)
BOOK = load_orders()
CASES = [(v.id, lang) for v in FIXTURE.variants for lang in ("en", "zh")]


@pytest.mark.parametrize("variant, lang", CASES)
def test_responses_and_gemini_follow_the_same_loop_as_anthropic(variant, lang):
    anthropic = build_transcript(FIXTURE, variant, "anthropic", TOOLS, BOOK, lang)
    for fmt in (RESPONSES, GEMINI):
        built = build_transcript(FIXTURE, variant, fmt, TOOLS, BOOK, lang)
        assert [s.code for s in built.steps] == [s.code for s in anthropic.steps]
        assert (built.outcome, built.retries) == (anthropic.outcome, anthropic.retries)
        for request in built.of_kind(REQUEST):
            report = check_pairing(json.dumps(request), fmt)
            assert (report.fmt, report.violations, report.error) == (fmt, [], None)


def test_responses_shapes_exact():
    built = build_transcript(FIXTURE, "basic", RESPONSES, TOOLS, BOOK, "en")
    call = built.of_kind(RESPONSE)[0]["output"][-1]
    assert (call["type"], call["name"], json.loads(call["arguments"])["order_id"]) == (
        "function_call", "refund_order", "ORD-20260917")
    last_input = built.of_kind(REQUEST)[-1]["input"][-1]
    assert last_input["type"] == "function_call_output" and last_input["call_id"] == call["call_id"]
    assert json.loads(last_input["output"])["status"] == "submitted"


@pytest.mark.parametrize("variant, lang", CASES)
def test_responses_requests_match_the_openai_sdk(variant, lang):
    pytest.importorskip("openai.types.responses")
    from openai.types.responses import Response
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    built = build_transcript(FIXTURE, variant, RESPONSES, TOOLS, BOOK, lang)
    adapter = TypeAdapter(ResponseCreateParamsNonStreaming)
    for request in built.of_kind(REQUEST):
        assert drain(adapter.validate_python(request))["input"] == request["input"]
    for response in built.of_kind(RESPONSE):
        parsed = Response.model_validate({**response, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []})
        assert [o.type for o in parsed.output] == [o["type"] for o in response["output"]]


@pytest.mark.parametrize("variant, lang", CASES)
def test_gemini_requests_match_the_google_genai_sdk(variant, lang):
    genai = pytest.importorskip("google.genai.types")
    built = build_transcript(FIXTURE, variant, GEMINI, TOOLS, BOOK, lang)
    for request in built.of_kind(REQUEST):
        for content in request["contents"]:
            genai.Content.model_validate(content)  # extra="forbid": no unknown field anywhere
        for tool in request["tools"]:
            genai.Tool.model_validate(tool)
    for response in built.of_kind(RESPONSE):
        parsed = genai.GenerateContentResponse.model_validate(response)
        assert parsed.candidates[0].finish_reason == "STOP"
