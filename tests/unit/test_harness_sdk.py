"""Every request the harness lab's reference moves build, and every response of its fake model,
type-checks against the official SDKs (test-only packages, no network)."""


import pytest

pytest.importorskip("anthropic.types")
pytest.importorskip("openai.types.chat")
from anthropic.types import Message  # noqa: E402
from openai.types.chat import ChatCompletion  # noqa: E402

from tests.unit.test_transcripts_sdk import A_MESSAGE, A_REQUEST, O_MESSAGE, O_REQUEST, strict  # noqa: E402
from toolcall.harness import (build_request, first_request, load_scenarios, model_response, move_text,  # noqa: E402
                              reference_move)
from toolcall.harness_grading import grade_move  # noqa: E402
from toolcall.i18n import LANGS  # noqa: E402
from toolcall.wire import HARNESS_FORMATS as FORMATS  # noqa: E402

SCENARIOS = load_scenarios().scenarios
CASES = [(s, step, fmt, lang) for s in SCENARIOS for fmt in FORMATS for step in s.steps_for(fmt) for lang in LANGS]
IDS = [f"{s.id}-{step.id}-{fmt}-{lang}" for s, step, fmt, lang in CASES]


def check_request(fmt, request):
    strict(A_REQUEST if fmt == "anthropic" else O_REQUEST, request)
    for message in request["messages"]:
        strict(A_MESSAGE if fmt == "anthropic" else O_MESSAGE, message)


@pytest.mark.parametrize("scenario, step, fmt, lang", CASES, ids=IDS)
def test_fake_model_response_matches_sdk_types(scenario, step, fmt, lang):
    response = model_response(scenario, step, fmt, lang)
    if response is None:
        pytest.skip("no model turn at this step")
    if fmt == "anthropic":
        assert Message.model_validate(response).model_dump(exclude_none=True, mode="json")["content"] == response["content"]
    else:
        completion = ChatCompletion.model_validate(response)
        assert completion.choices[0].finish_reason == response["choices"][0]["finish_reason"]


@pytest.mark.parametrize("scenario, step, fmt, lang", [c for c in CASES if c[1].kind == "json"],
                         ids=[i for i, c in zip(IDS, CASES) if c[1].kind == "json"])
def test_reference_requests_match_sdk_types(scenario, step, fmt, lang):
    """The whole request a reference json move builds is a valid create() body for the SDK."""
    move = reference_move(scenario, step, fmt, lang)
    graded = grade_move(scenario, step, fmt, move_text(step, move), lang)
    assert graded.correct
    assert graded.request == build_request(scenario, fmt, move)
    check_request(fmt, graded.request)


@pytest.mark.parametrize("fmt", FORMATS)
def test_first_requests_match_sdk_types(fmt):
    for scenario in SCENARIOS:
        check_request(fmt, first_request(scenario, fmt, "zh"))
