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

from toolcall.backend import Backend, BackendResult, RefundBackend
from toolcall.fixtures import CannedOutput, OrderBook
from toolcall.i18n import t
from toolcall.parsing import ParsedInput, localized_detail, parse_tool_input, render_hint
from toolcall.wire import ANTHROPIC
from toolcall.results import (backend_error_content, call_id, parse_error_content, scrub,
                              success_content, tool_result_message, validation_error_content)
from toolcall.safe_validator import SizedCache
from toolcall.validation import FieldError, validate

ACCEPTED = "accepted"
REJECTED = "rejected"


@dataclass
class Judgement:
    """The judgement of one raw output.

    ``verdict`` is ACCEPTED or REJECTED by parsing + schema; ``errors`` lists every schema
    error; ``parse`` says why the text is not a JSON object (``parse.code``, e.g.
    INVALID_JSON), with ``parse_detail`` (in the judgement's language) and ``hints``; ``backend`` holds
    the backend's answer for an accepted input when a backend was given; ``tool_use_id`` is the id the
    tool_result answers (Anthropic's ``tool_use_id``, OpenAI's ``tool_call_id``); ``tool_result`` is
    the wire message.
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

    @property
    def is_error(self) -> bool:
        """True when the tool_result carries an error (rejected, or refused by the backend)."""
        return self.verdict == REJECTED or (self.backend is not None and not self.backend.ok)


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


def evaluate(raw: str, schema: dict[str, Any], tool_name: str, lang: str = "en", fmt: str = ANTHROPIC,
             tool_use_id: str | None = None, backend: Backend | None = None,
             assert_format: bool = False) -> Judgement:
    """Judge ``raw`` (the model's argument text) against ``schema`` and build its tool_result.

    ``schema`` must have passed ``validation.check_schema``. When accepted and the tool's
    ``backend`` is given (toolcall.backend.BACKENDS), it runs with the tool_use_id (OpenAI: tool_call_id)
    as idempotency key, and its answer, success or structured error, becomes the content.
    ``assert_format`` checks ``format`` (see ``validation.validate``). Never raises for any str ``raw``.
    """
    call = tool_use_id or call_id(raw, fmt)
    parsed = parse_tool_input(raw)
    raw = scrub(raw)  # what is shown and quoted back must be encodable as UTF-8
    if not parsed.ok:
        hints = [render_hint(h, lang) for h in parsed.hints]
        detail = localized_detail(parsed, lang)
        content = parse_error_content(tool_name, parsed, detail, hints, lang)
        return Judgement(raw, REJECTED, call, hints=hints, parse=parsed, parse_detail=detail,
                    tool_result=tool_result_message(fmt, call, content, True))
    errors, notes = validate(parsed.value, schema, lang, assert_format)
    if errors:
        content = validation_error_content(tool_name, errors, lang)
        return Judgement(raw, REJECTED, call, errors=errors, notes=notes, parse=parsed,
                    tool_result=tool_result_message(fmt, call, content, True))
    card = Judgement(raw, ACCEPTED, call, notes=notes, parse=parsed)
    if backend is None:
        card.tool_result = tool_result_message(fmt, call, t("result.accepted_no_backend", lang), False)
        return card
    card.backend = backend.run(parsed.value, idempotency_key=call, lang=lang)
    if card.backend.ok:
        content = success_content(card.backend.data or {})
    else:
        content = backend_error_content(card.backend.error or {})
    card.tool_result = tool_result_message(fmt, call, content, not card.backend.ok)
    return card


def evaluate_canned(outputs, schema: dict[str, Any], tool_name: str, book: OrderBook | None,
                    lang: str = "en", fmt: str = ANTHROPIC, assert_format: bool = False) -> list[CannedJudgement]:
    """Cards for every canned output. Each accepted output runs on its own fresh backend
    (when ``book`` is given), so the cards preview what one call would return."""
    cards = []
    for out in outputs:
        backend = RefundBackend(book) if book is not None else None
        cards.append(CannedJudgement(out, evaluate(out.raw, schema, tool_name, lang, fmt,
                                                   call_id(out.id, fmt), backend, assert_format)))
    return cards


#: Canned judgements kept per (outputs, schema, tool, order book, language, format, format assertion):
#: at most 128 entries, costed by the characters of the schema key and of the cards' tool_results.
CANNED_CACHE_CHARS = 4_000_000
_canned = SizedCache(128, CANNED_CACHE_CHARS)


def evaluate_canned_cached(outputs, schema: dict[str, Any], tool_name: str, book: OrderBook | None,
                           lang: str = "en", fmt: str = ANTHROPIC,
                           assert_format: bool = False) -> list[CannedJudgement]:
    """:func:`evaluate_canned`, remembered by content in a bounded cache shared by every session of
    the process: a rerun that changes none of the inputs (a keystroke that leaves the schema as it
    was, a reset, thirty students on the same preset) judges nothing. The key holds the outputs'
    ids, texts and expected verdicts, the schema as canonical JSON, the order book's repr, ``lang``,
    ``fmt`` and ``assert_format``. The judgements are shared: read them, never change them.
    Each judgement ran under the same limits as :func:`evaluate` (regex time bound, validation budget)."""
    outputs = tuple(outputs)
    key = (tuple((o.id, o.raw, o.expected, o.catches) for o in outputs),
           json.dumps(schema, sort_keys=True, ensure_ascii=False), tool_name, repr(book), lang, fmt, assert_format)
    hit = _canned.get(key)
    if hit is None:
        hit = evaluate_canned(outputs, schema, tool_name, book, lang, fmt, assert_format)
        cost = len(key[1]) + sum(len(o.raw) + len(str(c.card.tool_result)) for o, c in zip(outputs, hit))
        _canned.put(key, hit, cost)
    return hit


@dataclass(frozen=True)
class Summary:
    """How many canned outputs got their expected verdict, and which bad ones leaked."""

    matched: int
    total: int
    leaked: tuple[str, ...]
    unexpected_rejections: tuple[str, ...]


def summarize(cards: list[CannedJudgement]) -> Summary:
    """Count matches; list leaked ids and valid outputs wrongly rejected, in card order."""
    return Summary(sum(c.matches for c in cards), len(cards),
                   tuple(c.output.id for c in cards if c.leaked),
                   tuple(c.output.id for c in cards if not c.matches and not c.leaked))


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
