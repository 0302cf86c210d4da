"""Judge one tool call: parse the model's argument text, validate it against the tool's
input_schema, run it on the tool's backend when accepted, and build the tool_result to send back.

A :class:`Judgement` is everything the playground's card and the step-through show for one call:
the verdict, every error per field, notes, hints, and the exact tool_result in the chosen wire format.
The schema presets the playground loosens live in toolcall/presets.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolcall.backend import (BACKENDS, KEY_BY_BUSINESS, KEY_BY_CALL_ID, Backend, BackendResult, RefundBackend,
                              backend_for)
from toolcall.fixtures import CannedOutput, OrderBook
from toolcall.i18n import name_list, t
from toolcall.parsing import ParsedInput, localized_detail, parse_tool_input, render_hint
from toolcall.wire import ANTHROPIC, GEMINI, MCP, OPENAI, RESPONSES
from toolcall.results import (backend_error_content, call_id, jsonrpc_error, landing, parse_error_content, scrub,
                              success_content, tool_result_message, validation_error_content)
from toolcall.safe_validator import (VALIDATION_BUDGET, SharedBudgetSpent, SizedCache, shared_budget,
                                     shared_budget_spent)
from toolcall.validation import FieldError, validate

ACCEPTED = "accepted"
REJECTED = "rejected"
#: The verdict of an output left unjudged because its rerun's shared time budget (CANNED_BUDGET) was spent: not a
#: verdict on the output, never counted as matching, leaking or over-rejected.
NOT_CHECKED = "not_checked"
#: CPU seconds that judging ALL the canned outputs of one schema may take together (evaluate_canned): the most one
#: validation may take (its VALIDATION_BUDGET and the one retry of safe_validator.within_budget). Each output had
#: its own budget, so a schema just under it cost one edit 8 x 0.45 s (a 1 KB chain of 14 $defs each referring to
#: the next twice: 3.6 s); outputs left when it is spent are NOT_CHECKED.
CANNED_BUDGET = 2 * VALIDATION_BUDGET

#: The stop reasons the judge tells apart (Anthropic's names; OpenAI's finish_reason is in FINISH_REASON).
STOP_TOOL_USE = "tool_use"
STOP_MAX_TOKENS = "max_tokens"
STOP_REASONS: tuple[str, ...] = (STOP_TOOL_USE, STOP_MAX_TOKENS)
#: OpenAI Chat Completions' names: finish_reason "length" for a max_tokens stop, and the request field
#: max_completion_tokens (https://platform.openai.com/docs/api-reference/chat/create).
FINISH_REASON = {STOP_TOOL_USE: "tool_calls", STOP_MAX_TOKENS: "length"}
#: How each model API names the stop (field, value) and the request's output limit. Responses:
#: ``status``/``incomplete_details.reason`` and ``max_output_tokens``
#: (https://platform.openai.com/docs/api-reference/responses/create); Gemini: ``finishReason`` and
#: ``generationConfig.maxOutputTokens`` (https://ai.google.dev/api/generate-content). MCP is the leg
#: between the app and a tool server, not a model API: its cards use the Anthropic names.
STOP_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    ANTHROPIC: {STOP_TOOL_USE: ("stop_reason", "tool_use"), STOP_MAX_TOKENS: ("stop_reason", "max_tokens")},
    OPENAI: {STOP_TOOL_USE: ("finish_reason", "tool_calls"), STOP_MAX_TOKENS: ("finish_reason", "length")},
    RESPONSES: {STOP_TOOL_USE: ("status", "completed"),
                STOP_MAX_TOKENS: ("incomplete_details.reason", "max_output_tokens")},
    GEMINI: {STOP_TOOL_USE: ("finishReason", "STOP"), STOP_MAX_TOKENS: ("finishReason", "MAX_TOKENS")},
}
MAX_TOKENS_FIELD = {ANTHROPIC: "max_tokens", OPENAI: "max_completion_tokens", RESPONSES: "max_output_tokens",
                    GEMINI: "maxOutputTokens"}
#: How much room a re-sent request gets after a max_tokens stop: twice the old max_tokens (our choice:
#: the course and Anthropic's docs say "larger" / "raise max_tokens" without a figure; doubling
#: reaches any needed size in a few rounds, up to the model's own output limit).
RE_REQUEST_FACTOR = 2
#: The largest max_tokens the course takes, in content (outputs, scenarios, walkthrough: their schemas' maximum)
#: and on the command line (``result --max-tokens``): more than any model's output limit, and far from 2⁶⁴ − 1.
MAX_TOKENS_LIMIT = 1_000_000
#: The harness's move after a max_tokens stop: the same request again, with more room.
RE_REQUEST = "re_request"
#: The tool_result code for a call to a tool the request did not define.
UNKNOWN_TOOL = "UNKNOWN_TOOL"


@dataclass(frozen=True)
class HarnessAction:
    """What the harness does INSTEAD of sending a tool_result.

    After ``stop_reason == "max_tokens"`` (OpenAI: ``finish_reason == "length"``) the arguments were
    cut by the limit, not written wrong: no tool runs, no tool_result is sent, and the model is not
    asked to retry (the same limit would cut it again). The harness drops the cut-off turn and sends
    the same request again with ``next_max_tokens`` (= ``max_tokens`` × RE_REQUEST_FACTOR).
    Sources: the course (seeds/000, "如果是 stop_reason == \"max_tokens\" 造成的截断，应该调大 max_tokens
    重新请求，而不是让模型重试"); https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons
    ("max_tokens … Raise max_tokens or continue the response").
    """

    kind: str
    stop_reason: str
    max_tokens: int
    next_max_tokens: int

    def request_fields(self, fmt: str) -> dict[str, Any]:
        """The field that changes in the re-sent request, in ``fmt``'s name: ``{"max_tokens": 128}``
        (Anthropic), ``{"max_completion_tokens": 128}`` (OpenAI), ``{"max_output_tokens": 128}``
        (Responses), ``{"generationConfig": {"maxOutputTokens": 128}}`` (Gemini); MCP uses Anthropic's."""
        if fmt == GEMINI:
            return {"generationConfig": {MAX_TOKENS_FIELD[GEMINI]: self.next_max_tokens}}
        return {MAX_TOKENS_FIELD.get(fmt, MAX_TOKENS_FIELD[ANTHROPIC]): self.next_max_tokens}


def harness_action_for(stop_reason: str, max_tokens: int) -> HarnessAction | None:
    """The HarnessAction for ``stop_reason`` (None for "tool_use": the tool_result is sent).
    ``max_tokens`` (int ≥ 1) is the request's limit. ValueError for another stop reason or limit."""
    if stop_reason not in STOP_REASONS:
        raise ValueError(f"unknown stop_reason {stop_reason!r}; expected one of {STOP_REASONS}")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"max_tokens must be a positive integer, not {max_tokens!r}")
    if stop_reason == STOP_TOOL_USE:
        return None
    return HarnessAction(RE_REQUEST, stop_reason, max_tokens, max_tokens * RE_REQUEST_FACTOR)


@dataclass
class Judgement:
    """The judgement of one raw output.

    ``verdict`` is ACCEPTED or REJECTED by parsing + schema; ``errors`` lists every schema
    error; ``parse`` says why the text is not a JSON object (``parse.code``, e.g.
    INVALID_JSON), with ``parse_detail`` (in the judgement's language) and ``hints``; ``backend`` holds
    the backend's answer for an accepted input when a backend was given; ``tool_use_id`` is the id the
    tool_result answers (Anthropic's ``tool_use_id``, OpenAI's ``tool_call_id``); ``tool_result`` is
    the wire message ({} when there is nothing honest to send: an accepted input with ``no_backend``);
    ``fmt`` its wire format; ``output_errors`` the mismatches of an MCP result's ``structuredContent``
    against the tool's ``outputSchema`` (none when it declares none).
    ``harness_action`` is set after a max_tokens stop: then NO tool_result is sent, and ``tool_result``
    is only what would be sent had the response stopped with "tool_use" (the JSON broken, or not, for
    another reason); ``sends_tool_result`` says which.
    """

    raw: str
    verdict: str
    tool_use_id: str
    errors: list[FieldError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    parse: ParsedInput | None = None
    parse_detail: str = ""
    backend: BackendResult | None = None
    tool_result: dict[str, Any] = field(default_factory=dict)
    harness_action: HarnessAction | None = None
    no_backend: bool = False
    fmt: str = ANTHROPIC
    output_errors: list[FieldError] = field(default_factory=list)

    @property
    def sends_tool_result(self) -> bool:
        """True when the harness sends ``tool_result`` (not after a max_tokens stop, not without a backend)."""
        return self.harness_action is None and bool(self.tool_result)

    @property
    def is_error(self) -> bool:
        """True when the tool_result carries an error (rejected, or refused by the backend)."""
        return self.verdict == REJECTED or (self.backend is not None and not self.backend.ok)

    @property
    def lands(self) -> str:
        """Where the result lands in its wire form (``results.landing``), e.g. ``mcp_jsonrpc_error``."""
        return landing(self.fmt, self.tool_result, self.is_error)


@dataclass
class CannedJudgement:
    """A Judgement for a canned output, compared with the verdict the fixture expects."""

    output: CannedOutput
    card: Judgement

    @property
    def matches(self) -> bool:
        return self.card.verdict == self.output.expected

    @property
    def leaked(self) -> bool:
        """A bad output that the (edited) schema let through."""
        return self.output.expected == REJECTED and self.card.verdict == ACCEPTED

    @property
    def not_checked(self) -> bool:
        """Left unjudged: the rerun's time budget was spent before this output (NOT_CHECKED)."""
        return self.card.verdict == NOT_CHECKED


def evaluate(raw: str, schema: dict[str, Any], tool_name: str, lang: str = "en", fmt: str = ANTHROPIC,
             tool_use_id: str | None = None, backend: Backend | None = None,
             assert_format: bool = False, stop_reason: str = STOP_TOOL_USE, max_tokens: int = 1024,
             output_schema: dict[str, Any] | None = None) -> Judgement:
    """Judge ``raw`` (the model's argument text) against ``schema`` and build its tool_result in ``fmt``.

    MCP: text that is not a JSON object cannot be sent as ``params.arguments`` (an object), so it
    lands as a JSON-RPC ``-32602`` error; schema rejections and backend refusals land in a
    CallToolResult with ``isError: true`` (spec 2025-11-25, SEP-1303). When ``output_schema`` (the
    tool's MCP ``outputSchema``) is given, a successful result carries ``structuredContent``, checked
    against it with our validator (mismatches in ``output_errors``).

    ``schema`` must have passed ``validation.check_schema``. When accepted and the tool's
    ``backend`` is given (toolcall.backend.backend_for), it runs with the tool_use_id (OpenAI:
    tool_call_id) and its answer, success or structured error, becomes the content; with no backend
    the Judgement says ``no_backend`` and its tool_result is {} (no fake result).
    ``stop_reason`` is the response's (STOP_REASONS); after "max_tokens" nothing runs and
    ``harness_action`` holds the re-request with more room than ``max_tokens`` (the request's limit).
    ``assert_format`` checks ``format`` (see ``validation.validate``). Never raises for any str ``raw``;
    ValueError for an unknown stop_reason or a max_tokens below 1. Inside a ``safe_validator.shared_budget`` that
    is spent while validating, the verdict is NOT_CHECKED (no errors, no tool_result).
    """
    action = harness_action_for(stop_reason, max_tokens)
    call = tool_use_id or call_id(raw, fmt)
    parsed = parse_tool_input(raw)
    raw = scrub(raw)  # what is shown and quoted back must be encodable as UTF-8
    if not parsed.ok:
        hints = [render_hint(h, lang) for h in parsed.hints]
        detail = localized_detail(parsed, lang)
        to_model = [render_hint(h, lang, for_model=True) for h in parsed.hints]
        content = parse_error_content(tool_name, parsed, detail, to_model, lang)
        message = (jsonrpc_error(call, t("wire.mcp_not_object", lang, tool=tool_name), _json(content)) if fmt == MCP
                   else tool_result_message(fmt, call, content, True, tool_name))
        return Judgement(raw, REJECTED, call, hints=hints, parse=parsed, parse_detail=detail,
                         tool_result=message, harness_action=action, fmt=fmt)
    try:
        errors, notes = validate(parsed.value, schema, lang, assert_format)
    except SharedBudgetSpent:
        return Judgement(raw, NOT_CHECKED, call, parse=parsed, harness_action=action, fmt=fmt)
    if errors:
        content = validation_error_content(tool_name, errors, lang)
        return Judgement(raw, REJECTED, call, errors=errors, notes=notes, parse=parsed,
                         tool_result=tool_result_message(fmt, call, content, True, tool_name), harness_action=action,
                         fmt=fmt)
    card = Judgement(raw, ACCEPTED, call, notes=notes, parse=parsed, harness_action=action, fmt=fmt)
    if backend is None:
        card.no_backend = True
        return card
    if action is not None:  # cut off by the limit: a call that parses is still never run
        return card
    card.backend = backend.run(parsed.value, tool_use_id=call, lang=lang)
    structured = None
    if card.backend.ok:
        content = success_content(card.backend.data or {})
        if fmt == MCP and output_schema is not None:
            structured = card.backend.data or {}
            try:
                card.output_errors, _ = validate(structured, output_schema, lang)
            except SharedBudgetSpent:
                return Judgement(raw, NOT_CHECKED, call, parse=parsed, harness_action=action, fmt=fmt)
    else:
        content = backend_error_content(card.backend.error or {})
    card.tool_result = tool_result_message(fmt, call, content, not card.backend.ok, tool_name, structured)
    return card


def _json(text: str) -> Any:
    return json.loads(text)


def unknown_tool_message(name: str, call: str, fmt: str, known: list[str], lang: str = "en") -> dict[str, Any]:
    """The answer to a call of tool ``name`` that does not exist (``known``: the tools that do).

    MCP: a JSON-RPC ``-32602`` error ("Unknown tool", the spec's own example): the request could not
    be dispatched. Every other form: an error result the model reads, naming the tools it can call.
    """
    text = t("wire.unknown_tool", lang, tool=name, known=name_list(known, lang))
    if fmt == MCP:
        return jsonrpc_error(call, text)
    return tool_result_message(fmt, call, text, True, name)


def no_backend_message(tool_name: str, lang: str = "en") -> str:
    """The plain statement shown for a tool without a fake backend (schema verdict only, no fake result)."""
    return t("backend.no_backend", lang, name=tool_name, known=name_list(BACKENDS, lang))


def unknown_tool(tool_name: str, known: list[str] | tuple[str, ...], lang: str = "en", fmt: str = ANTHROPIC,
                 tool_use_id: str | None = None, raw: str = "") -> Judgement:
    """The Judgement of a call to ``tool_name``, which is none of the ``known`` tools the request
    defined: rejected, nothing runs, and the is_error tool_result says so and lists the known tools
    (``{"error": {"code": "UNKNOWN_TOOL", "message": …, "retryable": false}}``; MCP: the JSON-RPC
    error of :func:`unknown_tool_message`). Never another tool's answer."""
    call = tool_use_id or call_id(f"{tool_name}:{raw}", fmt)
    error = {"code": UNKNOWN_TOOL,
             "message": t("backend.UNKNOWN_TOOL", lang, name=tool_name, known=name_list(known, lang)),
             "retryable": False}
    message = (unknown_tool_message(tool_name, call, fmt, list(known), lang) if fmt == MCP
               else tool_result_message(fmt, call, backend_error_content(error), True, tool_name))
    return Judgement(scrub(raw), REJECTED, call, backend=BackendResult(False, error=error), tool_result=message,
                     fmt=fmt)


def judge_call(tool_name: str, raw: str, tools: dict[str, Any], book: OrderBook, lang: str = "en",
               fmt: str = ANTHROPIC, tool_use_id: str | None = None, backends: dict[str, Backend] | None = None,
               stop_reason: str = STOP_TOOL_USE, max_tokens: int = 1024) -> Judgement:
    """Judge one call by its tool's name, as a harness dispatches it: ``tools`` maps each name the
    request defined to its Tool; an unknown name gets :func:`unknown_tool`; a known one is validated
    against its own input_schema and run on the backend registered for its name (``backends[name]``
    when given, to keep state across calls, else a fresh :func:`toolcall.backend.backend_for`)."""
    tool = tools.get(tool_name)
    if tool is None:
        return unknown_tool(tool_name, sorted(tools), lang, fmt, tool_use_id, raw)
    backend = (backends or {}).get(tool_name) or backend_for(tool_name, book)
    return evaluate(raw, tool.input_schema, tool_name, lang, fmt, tool_use_id, backend,
                    stop_reason=stop_reason, max_tokens=max_tokens)


def evaluate_canned(outputs, schema: dict[str, Any], tool_name: str, book: OrderBook | None,
                    lang: str = "en", fmt: str = ANTHROPIC, assert_format: bool = False,
                    max_tokens: int = 1024) -> list[CannedJudgement]:
    """Cards for every canned output, each judged with its own stop_reason (``max_tokens`` is the
    request's limit). Each accepted output runs on its own fresh backend for ``tool_name``
    (when ``book`` is given), so the cards preview what one call would return. All of them together take at
    most CANNED_BUDGET seconds of CPU (one validation's worst case): the outputs left when it is spent get the
    verdict NOT_CHECKED, without being parsed or validated."""
    cards = []
    with shared_budget(CANNED_BUDGET):
        for out in outputs:
            if shared_budget_spent():
                cards.append(CannedJudgement(out, Judgement(scrub(out.raw), NOT_CHECKED, call_id(out.id, fmt),
                                                            fmt=fmt)))
                continue
            backend = backend_for(tool_name, book) if book is not None else None
            cards.append(CannedJudgement(out, evaluate(out.raw, schema, tool_name, lang, fmt, call_id(out.id, fmt),
                                                       backend, assert_format, out.stop_reason, max_tokens)))
    return cards


#: Canned judgements kept per (outputs, schema, tool, order book, language, format, format assertion):
#: at most 128 entries holding at most CANNED_CACHE_BYTES (key and judgements, measured by toolcall.memsize).
CANNED_CACHE_BYTES = 16 * 1024 ** 2
_canned = SizedCache(128, CANNED_CACHE_BYTES)


def evaluate_canned_cached(outputs, schema: dict[str, Any], tool_name: str, book: OrderBook | None,
                           lang: str = "en", fmt: str = ANTHROPIC, assert_format: bool = False,
                           max_tokens: int = 1024) -> list[CannedJudgement]:
    """:func:`evaluate_canned`, remembered by content in a bounded cache shared by every session of
    the process: a rerun that changes none of the inputs (a keystroke that leaves the schema as it
    was, a reset, thirty students on the same preset) judges nothing. The key holds every output's
    repr (id, text, expected verdict, stop_reason …), the schema as canonical JSON, the tool name, the
    order book's repr, ``lang``, ``fmt``, ``assert_format`` and ``max_tokens``.
    The judgements are shared: read them, never change them.
    Each judgement ran under the same limits as :func:`evaluate` (regex time bound, validation budget, the shared
    CANNED_BUDGET); a result with outputs NOT_CHECKED is judged once more before it is kept (at most two budgets,
    once per schema)."""
    outputs = tuple(outputs)
    key = (tuple(repr(o) for o in outputs), json.dumps(schema, sort_keys=True, ensure_ascii=False), tool_name,
           repr(book), lang, fmt, assert_format, max_tokens)
    hit = _canned.get(key)
    if hit is None:
        hit = evaluate_canned(outputs, schema, tool_name, book, lang, fmt, assert_format, max_tokens)
        if any(c.not_checked for c in hit):
            # once more under a fresh budget before it is kept for every session: a pause that is not the schema's
            # doing (a full garbage collection runs in whichever thread allocates) must not leave the shipped schema
            # "not checked" for the whole class (as safe_validator.within_budget does for one validation)
            hit = evaluate_canned(outputs, schema, tool_name, book, lang, fmt, assert_format, max_tokens)
        _canned.put(key, hit)
    return hit


#: Judgements of the free box by every input of :func:`evaluate`: a rerun that changes none of them (a click on a
#: picker, a language switch back, an edit that leaves the schema as it was) judges nothing again. A 98 000-character
#: output with 4 900 errors cost about 1 s of CPU per rerun. Bounded by entries and by bytes.
FREE_CACHE_BYTES = 8 * 1024 ** 2
_free = SizedCache(64, FREE_CACHE_BYTES)


def evaluate_cached(raw: str, schema: dict[str, Any], tool_name: str, book: OrderBook | None, lang: str = "en",
                    fmt: str = ANTHROPIC, tool_use_id: str | None = None, assert_format: bool = False,
                    stop_reason: str = STOP_TOOL_USE, max_tokens: int = 1024) -> Judgement:
    """:func:`evaluate` with ``backend_for(tool_name, book)`` (none without a book), remembered by content like
    :func:`evaluate_canned_cached`. The judgement is shared: read it, never change it."""
    key = (raw, json.dumps(schema, sort_keys=True, ensure_ascii=False), tool_name, repr(book), lang, fmt, tool_use_id,
           assert_format, stop_reason, max_tokens)
    hit = _free.get(key)
    if hit is None:
        backend = backend_for(tool_name, book) if book is not None else None
        hit = evaluate(raw, schema, tool_name, lang, fmt, tool_use_id, backend, assert_format, stop_reason, max_tokens)
        _free.put(key, hit)
    return hit


@dataclass(frozen=True)
class Summary:
    """How many canned outputs got their expected verdict, and which bad ones leaked."""

    matched: int
    total: int
    leaked: tuple[str, ...]
    unexpected_rejections: tuple[str, ...]
    not_checked: tuple[str, ...] = ()


def summarize(cards: list[CannedJudgement]) -> Summary:
    """Count matches; list leaked ids, valid outputs wrongly rejected and outputs not checked, in card order."""
    return Summary(sum(c.matches for c in cards), len(cards),
                   tuple(c.output.id for c in cards if c.leaked),
                   tuple(c.output.id for c in cards if not c.matches and not c.leaked and not c.not_checked),
                   tuple(c.output.id for c in cards if c.not_checked))


def verdict_holds(output: CannedOutput, card: Judgement) -> bool:
    """True when ``card`` got the output's expected verdict and, if rejected, was caught
    by the keyword the fixture names (INVALID_JSON for text that is not JSON)."""
    if card.verdict != output.expected:
        return False
    if output.expected == ACCEPTED or output.catches is None:
        return True
    if card.parse is not None and not card.parse.ok:
        return output.catches == card.parse.code
    return any(e.keyword == output.catches for e in card.errors)


# --- the replay demo: keying a refund by the tool_use id vs by the business parameters -----------

#: The three calls of the replay demo: the first refund, the same request re-sent by the network
#: layer (same tool_use id), and the model writing the refund again after a hiccup (a NEW id).
REPLAY_FIRST, REPLAY_SAME_ID, REPLAY_NEW_ID = "first", "same_id_replay", "model_reissue"
REPLAY_KINDS: tuple[str, ...] = (REPLAY_FIRST, REPLAY_SAME_ID, REPLAY_NEW_ID)


@dataclass(frozen=True)
class ReplayRun:
    """The three replay calls on one refund service keyed ``key_by`` (KEY_BY_CALL_ID or KEY_BY_BUSINESS):
    ``calls`` pairs each kind (REPLAY_KINDS) with its Judgement; ``paid`` is how many refunds were paid
    and ``refunded_cents`` the cents refunded in total."""

    key_by: str
    calls: tuple[tuple[str, Judgement], ...]
    paid: int
    refunded_cents: int


def replay_demo(raw: str, schema: dict[str, Any], tool_name: str, book: OrderBook, lang: str = "en",
                fmt: str = ANTHROPIC, seed: str = "replay") -> tuple[ReplayRun, ReplayRun]:
    """Send the refund ``raw`` three times (REPLAY_KINDS; ids from ``seed``: the first two share one) to a
    refund service keyed by the tool_use id, then to one keyed by the business parameters
    (``refund:<order_id>:<amount_cents>``, the course's key, seeds/002). With a valid refund the first
    pays twice (the model's re-issue has a new id), the second once. Returns (by call id, by business)."""
    first_id, new_id = call_id(f"{seed}:1", fmt), call_id(f"{seed}:2", fmt)
    ids = {REPLAY_FIRST: first_id, REPLAY_SAME_ID: first_id, REPLAY_NEW_ID: new_id}
    runs = []
    for key_by in (KEY_BY_CALL_ID, KEY_BY_BUSINESS):
        backend = RefundBackend(book, key_by=key_by)
        calls = tuple((kind, evaluate(raw, schema, tool_name, lang, fmt, ids[kind], backend)) for kind in REPLAY_KINDS)
        runs.append(ReplayRun(key_by, calls, backend.issued, sum(backend.refunded.values())))
    return runs[0], runs[1]
