"""One complete tool call, step by step, in the Anthropic and OpenAI wire formats.

The model's side (the user's sentence, each turn's argument text, the final answer) is
data in fixtures/transcripts/refund_walkthrough.yaml; everything the application does
is computed here by the existing core: ``playground.evaluate`` parses and validates each
argument text, runs the fake refund backend and builds the tool_result. The result is a
list of Steps, each holding plain dicts shaped exactly like the provider's JSON:

* Anthropic Messages API: request ``{model, max_tokens, tools, messages}``; response
  ``{id, type: "message", role: "assistant", model, content: [...], stop_reason, stop_sequence, usage}``;
  a call is a ``tool_use`` block whose ``input`` is an object; results go back as
  ``tool_result`` blocks, all in ONE user message.
* OpenAI Chat Completions: request ``{model, tools, messages}``; response
  ``{id, object: "chat.completion", created, model, choices: [{index, message, finish_reason}], usage}``;
  a call is ``message.tool_calls[i]`` whose ``function.arguments`` is a JSON *string*;
  each result goes back as its own ``{"role": "tool", "tool_call_id": …}`` message.

Retries follow the course: at most ``max_retries`` retries after an is_error result,
then the task stops and is recorded as failed (``retry_loop``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from collections.abc import Callable, Sequence

from toolcall import FIXTURES_DIR
from toolcall.backend import BACKENDS, RefundBackend
from toolcall.i18n import fill
from toolcall.fixtures import (OrderBook, Tool, load_checked,
                               load_tool, require_unique_ids)
from toolcall.parsing import parse_tool_input
from toolcall.judge import Judgement, judge_call
from toolcall.forms import tool_definition
from toolcall.wire import ANTHROPIC, GEMINI, OPENAI, RESPONSES
from toolcall.wire import STEP_FORMATS as FORMATS
from toolcall.results import call_id, tool_call_entry
from toolcall.text import quoted_head

SUCCEEDED = "succeeded"
FAILED = "failed"
#: Step kinds, in the order they can occur within one model turn.
REQUEST, RESPONSE, VALIDATION, STOPPED = "request", "response", "validation", "stopped"
DEFAULT_PATH = FIXTURES_DIR / "transcripts" / "refund_walkthrough.yaml"


# --- the fixture ------------------------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """One tool call the model writes: the tool's name and the raw arguments text."""

    tool: str
    raw: str


@dataclass(frozen=True)
class Attempt:
    """One model turn that calls tools: optional text ``{en, zh}`` before the calls, then the calls."""

    calls: tuple[Call, ...]
    text: dict[str, str] | None = None


@dataclass(frozen=True)
class Variant:
    """One conversation: its button ``label`` and ``note`` ({en, zh}), the user's sentence,
    the model's attempts, its final answer, the expected outcome."""

    id: str
    label: dict[str, str]
    note: dict[str, str]
    user: dict[str, str]
    attempts: tuple[Attempt, ...]
    outcome: str
    final: dict[str, str] | None = None


@dataclass(frozen=True)
class WalkthroughFixture:
    """The whole walkthrough file; ``models`` maps format → model name, ``created`` is Unix seconds."""

    models: dict[str, str]
    max_tokens: int
    created: int
    max_retries: int
    tools: tuple[str, ...]
    variants: tuple[Variant, ...]

    def variant(self, variant_id: str) -> Variant:
        """The variant called ``variant_id``; raises KeyError if there is none."""
        for v in self.variants:
            if v.id == variant_id:
                return v
        raise KeyError(variant_id)


def load_walkthrough(path: Path | None = None) -> WalkthroughFixture:
    """Load and schema-check a walkthrough file (default DEFAULT_PATH). Raises FixtureError,
    including for duplicate variant ids (path ``$.variants[i].id``)."""
    path = path or DEFAULT_PATH
    data = load_checked(path, "walkthrough")
    require_unique_ids(path, data, "variants")
    variants = tuple(
        Variant(v["id"], v["label"], v["note"], v["user"],
                tuple(Attempt(tuple(Call(c["tool"], c["raw"]) for c in a["calls"]), a.get("text"))
                      for a in v["attempts"]),
                v["outcome"], v.get("final"))
        for v in data["variants"])
    return WalkthroughFixture(data["models"], data["max_tokens"], data["created"], data["max_retries"],
                              tuple(data["tools"]), variants)


def load_tools(names: Sequence[str], tools_dir: Path | None = None) -> dict[str, Tool]:
    """``{name: Tool}`` for each name, from ``<tools_dir>/<name>.json``. Raises FixtureError."""
    tools_dir = tools_dir or FIXTURES_DIR / "tools"
    return {name: load_tool(tools_dir / f"{name}.json") for name in names}


# --- the retry loop ----------------------------------------------------------------------

A = TypeVar("A")


@dataclass(frozen=True)
class LoopResult:
    """What ``retry_loop`` did: ``rounds`` pairs each attempt used with its judged results
    (objects with ``is_error``); ``outcome`` is SUCCEEDED or FAILED; ``retries`` = rounds − 1."""

    rounds: tuple[tuple[Any, tuple[Any, ...]], ...]
    outcome: str

    @property
    def retries(self) -> int:
        return len(self.rounds) - 1


def retry_loop(attempts: Sequence[A], judge: Callable[[A, int], Sequence[Any]], max_retries: int = 2) -> LoopResult:
    """Judge the model's attempts in order until one round has no error, at most
    ``1 + max_retries`` rounds (the course: "retry the same call at most 2 times, then stop
    the task and record the case as failed").

    ``judge(attempt, round_index)`` returns the results of that turn's calls, each with an
    ``is_error`` attribute; a round succeeds when none is an error. Attempts beyond the cap
    are never judged. Raises ValueError when ``max_retries`` < 0, or when the attempts run
    out before a success or the cap (the transcript would be incomplete).
    """
    if max_retries < 0:
        raise ValueError(f"max_retries must be ≥ 0, got {max_retries}")
    rounds: list[tuple[Any, tuple[Any, ...]]] = []
    for index, attempt in enumerate(attempts[: max_retries + 1]):
        results = tuple(judge(attempt, index))
        rounds.append((attempt, results))
        if not any(r.is_error for r in results):
            return LoopResult(tuple(rounds), SUCCEEDED)
    if len(rounds) < max_retries + 1:
        raise ValueError(fill("attempts: only {got}, all with errors: need a success or {need} "
                              "{need:plural:attempt|attempts} to reach the cap", got=len(rounds), need=max_retries + 1))
    return LoopResult(tuple(rounds), FAILED)


# --- running one call ---------------------------------------------------------------------

#: Tools the walkthrough can run (each has a fake backend in toolcall.backend.BACKENDS).
RUNNABLE: tuple[str, ...] = tuple(BACKENDS)


def run_call(call: Call, tools: dict[str, Tool], fmt: str, cid: str, backend: RefundBackend,
             lang: str = "en") -> Judgement:
    """Judge ``call`` by its tool's name (toolcall.judge.judge_call): validated against that tool's own
    schema and run on the backend registered for that name (the refunds on ``backend``, so they add up
    across the conversation). A name not in ``tools`` gets an UNKNOWN_TOOL is_error result, never another
    tool's answer; a defined tool with no backend raises ValueError (the walkthrough must run every call)."""
    if call.tool in tools and call.tool not in BACKENDS:
        raise ValueError(f"the walkthrough cannot run tool {call.tool!r}; runnable: {RUNNABLE}")
    return judge_call(call.tool, call.raw, tools, backend.book, lang, fmt, cid, {"refund_order": backend})


# --- building the transcript ----------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One thing that happens: ``kind`` (REQUEST, RESPONSE, VALIDATION, STOPPED), the model
    turn it belongs to (1-based), a ``code`` naming its explanation (e.g. ``response_tool_use``)
    and ``payload``, the JSON shown for it."""

    kind: str
    turn: int
    code: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class Transcript:
    """A variant built in one wire format: its steps, the loop's outcome, and the last
    messages list (the trace: every message of the conversation, final answer included)."""

    variant: str
    fmt: str
    steps: tuple[Step, ...]
    outcome: str
    retries: int
    messages: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        """The payloads of every step of ``kind``, in order."""
        return [s.payload for s in self.steps if s.kind == kind]


def estimate_tokens(value: Any) -> int:
    """A rough token count for made-up ``usage`` fields: characters of compact JSON ÷ 4,
    rounded up (a common rule of thumb for English; real counts come from the API)."""
    return max(1, -(-len(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) // 4))


def _response_id(seed: str, fmt: str) -> str:
    body = call_id(seed, ANTHROPIC)[len("toolu_01"):]
    return {ANTHROPIC: f"msg_01{body}", RESPONSES: f"resp_{body}", GEMINI: body}.get(fmt, f"chatcmpl-{body}")


#: Model names for the forms the walkthrough fixture names none for (it names anthropic and openai).
DEFAULT_MODELS = {RESPONSES: OPENAI, GEMINI: "gemini-2.5-flash"}


def _model(fx: WalkthroughFixture, fmt: str) -> str:
    if fmt in fx.models:
        return fx.models[fmt]
    fallback = DEFAULT_MODELS[fmt]
    return fx.models.get(fallback, fallback)


def _request(fx: WalkthroughFixture, fmt: str, tools: dict[str, Tool],
             messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The request body as sent: the tool definitions are the fixtures' English wire text in every
    language (README: ``x-i18n.zh`` is shown, never sent; the walkthrough page shows the Chinese
    beside the JSON). ``messages`` comes before ``tools`` only so a reader sees it first."""
    if fmt == ANTHROPIC:
        return {"model": fx.models[ANTHROPIC], "max_tokens": fx.max_tokens, "messages": copy.deepcopy(messages),
                "tools": [tools[n].as_anthropic() for n in fx.tools]}
    if fmt == RESPONSES:  # the conversation is "input": items, not messages only
        return {"model": _model(fx, fmt), "input": copy.deepcopy(messages),
                "tools": [tool_definition(fmt, tools[n]) for n in fx.tools]}
    if fmt == GEMINI:  # one Tool holding every functionDeclaration
        return {"contents": copy.deepcopy(messages), "tools": [{"functionDeclarations": [
            tool_definition(fmt, tools[n])["functionDeclarations"][0] for n in fx.tools]}]}
    return {"model": fx.models[OPENAI], "messages": copy.deepcopy(messages),
            "tools": [tools[n].as_openai() for n in fx.tools]}


def _response(fx: WalkthroughFixture, fmt: str, seed: str, request: dict[str, Any], text: str | None,
              calls: list[tuple[str, Call]]) -> dict[str, Any]:
    """The provider's response to ``request``: optional text, then the calls (id, Call); no calls = end of turn."""
    if fmt == ANTHROPIC:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [tool_call_entry(fmt, cid, c.tool, c.raw) for cid, c in calls]
        return {"id": _response_id(seed, fmt), "type": "message", "role": "assistant", "model": fx.models[ANTHROPIC],
                "content": content, "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": estimate_tokens(request), "output_tokens": estimate_tokens(content)}}
    if fmt == RESPONSES:
        return _responses_response(fx, seed, request, text, calls)
    if fmt == GEMINI:
        parts: list[dict[str, Any]] = [{"text": text}] if text else []
        parts += [tool_call_entry(fmt, cid, c.tool, c.raw) for cid, c in calls]
        prompt, completion = estimate_tokens(request), estimate_tokens(parts)
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": completion,
                                  "totalTokenCount": prompt + completion},
                "modelVersion": _model(fx, fmt), "responseId": _response_id(seed, fmt)}
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    if calls:
        message["tool_calls"] = [tool_call_entry(fmt, cid, c.tool, c.raw) for cid, c in calls]
    prompt, completion = estimate_tokens(request), estimate_tokens(message)
    return {"id": _response_id(seed, fmt), "object": "chat.completion", "created": fx.created,
            "model": fx.models[OPENAI],
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop",
                         "logprobs": None}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}


def _responses_response(fx: WalkthroughFixture, seed: str, request: dict[str, Any], text: str | None,
                        calls: list[tuple[str, Call]]) -> dict[str, Any]:
    """A Responses API response: ``output`` items, a message (``output_text``) and ``function_call`` items
    whose ``arguments`` is the raw text (https://platform.openai.com/docs/api-reference/responses/object)."""
    body = _response_id(seed, RESPONSES)[len("resp_"):]
    output: list[dict[str, Any]] = []
    if text:
        output.append({"type": "message", "id": f"msg_{body}", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": text, "annotations": []}]})
    output += [{"type": "function_call", "id": f"fc_{body}_{k}", "call_id": cid, "name": c.tool, "arguments": c.raw,
                "status": "completed"} for k, (cid, c) in enumerate(calls)]
    prompt, completion = estimate_tokens(request), estimate_tokens(output)
    return {"id": f"resp_{body}", "object": "response", "created_at": fx.created, "status": "completed",
            "model": _model(fx, RESPONSES), "output": output,
            "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                      "output_tokens": completion, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": prompt + completion}}


def _echo(fmt: str, response: dict[str, Any]) -> dict[str, Any] | list[dict[str, Any]]:
    """What carries ``response`` back in the next request, unchanged: the assistant message (Anthropic,
    Chat Completions), the candidate's content (Gemini), or every output item (Responses: a list)."""
    if fmt == ANTHROPIC:
        return {"role": "assistant", "content": copy.deepcopy(response["content"])}
    if fmt == RESPONSES:
        return copy.deepcopy(response["output"])
    if fmt == GEMINI:
        return copy.deepcopy(response["candidates"][0]["content"])
    message = response["choices"][0]["message"]
    echoed = {"role": "assistant", "content": message["content"]}
    if "tool_calls" in message:
        echoed["tool_calls"] = copy.deepcopy(message["tool_calls"])
    return echoed


def _judgement(fmt: str, call: Call, card: Judgement) -> dict[str, Any]:
    """What the application concluded about one call, as shown on the validation step."""
    if fmt == ANTHROPIC:  # the SDK hands you input already parsed; OpenAI hands you the string
        out: dict[str, Any] = {"tool_use_id": card.tool_use_id, "tool": call.tool,
                               "input": parse_tool_input(call.raw).value}
    else:
        out = {"tool_call_id": card.tool_use_id, "tool": call.tool, "arguments": call.raw}
    out["verdict"] = card.verdict
    out["errors"] = [{"pointer": e.pointer or "/", "keyword": e.keyword, "expected": e.expected,
                      "received": e.received} for e in card.errors]
    if card.backend is not None:
        out["backend"] = ({"ok": True, "data": card.backend.data} if card.backend.ok
                          else {"ok": False, "error": card.backend.error})
    out["tool_result"] = card.tool_result
    return out


def result_messages(fmt: str, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages (input items for OpenAI Responses) that carry one turn's tool ``results`` in the next
    request of format ``fmt``: Anthropic, every tool_result block in ONE user message; Gemini, every
    functionResponse part in ONE user turn; OpenAI Chat Completions and Responses, one item per call,
    right after the assistant turn. Sources: toolcall/wire.py."""
    if fmt == ANTHROPIC:
        return [{"role": "user", "content": list(results)}]
    if fmt == GEMINI:
        return [{"role": "user", "parts": list(results)}]
    return list(results)


def build_transcript(fx: WalkthroughFixture, variant_id: str, fmt: str, tools: dict[str, Tool], book: OrderBook,
                     lang: str = "en") -> Transcript:
    """Build variant ``variant_id`` of ``fx`` in wire format ``fmt`` (ANTHROPIC or OPENAI), in ``lang``.

    Each round (a model turn that calls tools) gives REQUEST, RESPONSE and VALIDATION steps;
    a successful round is followed by the request carrying the results and the final
    response (stop_reason "end_turn" / finish_reason "stop"); a failed loop ends with a
    STOPPED step recording the failure and the trace. A fresh RefundBackend over ``book``
    runs the refunds, so the same inputs always give the same transcript.
    Raises KeyError for an unknown variant or tool, ValueError for an unknown format, an
    attempt whose raw text is not a JSON object, or attempts that end before the loop does.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {FORMATS}")
    variant = fx.variant(variant_id)
    for attempt in variant.attempts:
        for c in attempt.calls:
            if not parse_tool_input(c.raw).ok:
                raise ValueError(f"{variant_id}: raw {quoted_head(c.raw, 60)} is not a JSON object; "
                                 "Anthropic's input must be one")
    backend = RefundBackend(book)

    def judge(attempt: Attempt, index: int) -> list[Judgement]:
        return [run_call(c, tools, fmt, call_id(f"{variant_id}:{index + 1}:{j + 1}", fmt), backend, lang)
                for j, c in enumerate(attempt.calls)]

    loop = retry_loop(variant.attempts, judge, fx.max_retries)
    messages: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": variant.user[lang]}]} if fmt == GEMINI
                                      else {"role": "user", "content": variant.user[lang]}]

    def echo(response: dict[str, Any]) -> None:
        back = _echo(fmt, response)
        messages.extend(back) if isinstance(back, list) else messages.append(back)

    steps: list[Step] = []
    for index, (attempt, cards) in enumerate(loop.rounds):
        turn = index + 1
        request = _request(fx, fmt, tools, messages)
        steps.append(Step(REQUEST, turn, "request_first" if index == 0 else "request_retry", request))
        ids = [(card.tool_use_id, c) for card, c in zip(cards, attempt.calls)]
        text = attempt.text[lang] if attempt.text else None
        response = _response(fx, fmt, f"{variant_id}:{fmt}:{turn}", request, text, ids)
        steps.append(Step(RESPONSE, turn, "response_parallel" if len(ids) > 1 else "response_tool_use", response))
        errors = any(card.is_error for card in cards)
        steps.append(Step(VALIDATION, turn, "validation_rejected" if errors else "validation_accepted",
                          {"calls": [_judgement(fmt, c, card) for card, c in zip(cards, attempt.calls)]}))
        echo(response)
        if loop.outcome == FAILED and turn == len(loop.rounds):  # the cap: nothing more is sent
            steps.append(Step(STOPPED, turn, "stopped", {
                "outcome": FAILED, "reason": "retry_cap_reached", "attempts": len(loop.rounds),
                "max_retries": fx.max_retries, "trace": copy.deepcopy(messages)}))
            break
        messages.extend(result_messages(fmt, [card.tool_result for card in cards]))
    if loop.outcome == SUCCEEDED:
        turn = len(loop.rounds) + 1
        request = _request(fx, fmt, tools, messages)
        steps.append(Step(REQUEST, turn, "request_results_parallel" if len(loop.rounds[-1][1]) > 1
                          else "request_results", request))
        response = _response(fx, fmt, f"{variant_id}:{fmt}:{turn}", request, (variant.final or {}).get(lang), [])
        steps.append(Step(RESPONSE, turn, "response_end_turn", response))
        echo(response)
    return Transcript(variant_id, fmt, tuple(steps), loop.outcome, loop.retries, tuple(messages))


@dataclass(frozen=True)
class SideBySide:
    """One variant in both formats; ``anthropic.steps[i]`` and ``openai.steps[i]`` are the same moment."""

    anthropic: Transcript
    openai: Transcript

    @property
    def steps(self) -> list[tuple[Step, Step]]:
        return list(zip(self.anthropic.steps, self.openai.steps))


def build_side_by_side(fx: WalkthroughFixture, variant_id: str, tools: dict[str, Tool], book: OrderBook,
                       lang: str = "en") -> SideBySide:
    """Both formats of one variant (see ``build_transcript``; same errors raised)."""
    return SideBySide(build_transcript(fx, variant_id, ANTHROPIC, tools, book, lang),
                      build_transcript(fx, variant_id, OPENAI, tools, book, lang))
