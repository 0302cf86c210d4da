"""The built transcripts type-check against the official SDKs' own message types (no network).

The SDKs' request types are TypedDicts whose ``Iterable`` fields pydantic validates lazily,
so every validated value is drained before the test passes.
"""

import json

import pytest
from pydantic import TypeAdapter
from pydantic_core import ValidationError

anthropic_types = pytest.importorskip("anthropic.types")
openai_chat = pytest.importorskip("openai.types.chat")
from anthropic.types import Message, MessageParam, ToolParam  # noqa: E402
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming  # noqa: E402
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolParam  # noqa: E402
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming  # noqa: E402

from toolcall.fixtures import load_orders  # noqa: E402
from toolcall.transcripts import RESPONSE, REQUEST, build_transcript, load_tools, load_walkthrough  # noqa: E402

FIXTURE = load_walkthrough()
TOOLS = load_tools(FIXTURE.tools)
BOOK = load_orders()
CASES = [(v.id, lang) for v in FIXTURE.variants for lang in ("en", "zh")]


def drain(value):
    """Force pydantic's lazy Iterable validators so a bad nested item raises now."""
    if isinstance(value, dict):
        return {k: drain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [drain(v) for v in value]
    if type(value).__name__ == "ValidatorIterator":
        return [drain(v) for v in value]
    return value


def strict(adapter: TypeAdapter, value):
    return drain(adapter.validate_python(value))


A_REQUEST = TypeAdapter(MessageCreateParamsNonStreaming)
A_MESSAGE = TypeAdapter(MessageParam)
A_TOOL = TypeAdapter(ToolParam)
O_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)
O_MESSAGE = TypeAdapter(ChatCompletionMessageParam)
O_TOOL = TypeAdapter(ChatCompletionToolParam)


@pytest.mark.parametrize("variant, lang", CASES)
def test_anthropic_transcript_matches_sdk_types(variant, lang):
    """Every request is a MessageCreateParams, every message a MessageParam, every tool a
    ToolParam, every response a Message, and the assistant turn echoed back is a valid MessageParam."""
    built = build_transcript(FIXTURE, variant, "anthropic", TOOLS, BOOK, lang)
    for request in built.of_kind(REQUEST):
        strict(A_REQUEST, request)
        for tool in request["tools"]:
            strict(A_TOOL, tool)
        for message in request["messages"]:
            strict(A_MESSAGE, message)
    for response in built.of_kind(RESPONSE):
        message = Message.model_validate(response)
        assert message.model_dump(exclude_none=True, mode="json")["content"] == response["content"]
        strict(A_MESSAGE, {"role": "assistant", "content": response["content"]})


@pytest.mark.parametrize("variant, lang", CASES)
def test_openai_transcript_matches_sdk_types(variant, lang):
    """Every request is a CompletionCreateParams with ChatCompletionMessageParam messages and
    ChatCompletionToolParam tools; every response a ChatCompletion whose arguments are strings."""
    built = build_transcript(FIXTURE, variant, "openai", TOOLS, BOOK, lang)
    for request in built.of_kind(REQUEST):
        strict(O_REQUEST, request)
        for tool in request["tools"]:
            strict(O_TOOL, tool)
        for message in request["messages"]:
            strict(O_MESSAGE, message)
    for response in built.of_kind(RESPONSE):
        completion = ChatCompletion.model_validate(response)
        for call in completion.choices[0].message.tool_calls or []:
            assert isinstance(call.function.arguments, str)
            json.loads(call.function.arguments)


def test_the_sdk_check_catches_a_broken_tool_result():
    """The drain really validates nested blocks: a tool_result without tool_use_id fails."""
    bad = {"role": "user", "content": [{"type": "tool_result", "content": "x"}]}
    with pytest.raises(ValidationError):
        strict(A_MESSAGE, bad)


def test_the_sdk_check_catches_a_tool_message_without_id():
    with pytest.raises(ValidationError):
        strict(O_MESSAGE, {"role": "tool", "content": "x"})


def test_the_sdk_check_catches_a_bad_stop_reason():
    built = build_transcript(FIXTURE, "basic", "anthropic", TOOLS, BOOK)
    response = dict(built.of_kind(RESPONSE)[0], stop_reason="tool_calls")
    with pytest.raises(ValidationError):
        Message.model_validate(response)
