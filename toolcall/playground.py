"""The schema playground's logic: judge a raw model output and build its card.

A card is everything the page shows for one output: the verdict, every error per field,
notes, hints, and the exact tool_result to send back in the chosen wire format.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from toolcall.backend import BackendResult, RefundBackend
from toolcall.fixtures import CannedOutput, OrderBook
from toolcall.i18n import t
from toolcall.parsing import ParsedInput, localized_detail, parse_tool_input, render_hint
from toolcall.results import (ANTHROPIC, backend_error_content, call_id, parse_error_content, scrub,
                              success_content, tool_result_message, validation_error_content)
from toolcall.validation import FieldError, validate

ACCEPTED = "accepted"
REJECTED = "rejected"


@dataclass
class Card:
    """The judgement of one raw output.

    ``verdict`` is ACCEPTED or REJECTED by parsing + schema; ``errors`` lists every schema
    error; ``parse`` says why the text is not a JSON object (``parse.code``, e.g.
    INVALID_JSON), with ``parse_detail`` (in the card's language) and ``hints``; ``backend`` holds the backend's answer for an
    accepted input when a backend was given; ``tool_result`` is the wire message.
    """

    raw: str
    verdict: str
    call_id: str
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
class CannedCard:
    """A Card for a canned output, compared with the verdict the fixture expects."""

    output: CannedOutput
    card: Card

    @property
    def matches(self) -> bool:
        return self.card.verdict == self.output.expected

    @property
    def leaked(self) -> bool:
        """A bad output that the (edited) schema let through."""
        return self.output.expected == REJECTED and self.card.verdict == ACCEPTED


def evaluate(raw: str, schema: dict[str, Any], tool_name: str, lang: str = "en", fmt: str = ANTHROPIC,
             call: str | None = None, backend: RefundBackend | None = None, assert_format: bool = False) -> Card:
    """Judge ``raw`` (the model's argument text) against ``schema`` and build its tool_result.

    ``schema`` must have passed ``validation.check_schema``. When accepted and a
    ``backend`` is given, the refund runs (idempotency key = the call id) and its answer,
    success or structured error, becomes the content. ``assert_format`` checks ``format``
    (see ``validation.validate``). Never raises for any str ``raw``.
    """
    call = call or call_id(raw, fmt)
    parsed = parse_tool_input(raw)
    raw = scrub(raw)  # what is shown and quoted back must be encodable as UTF-8
    if not parsed.ok:
        hints = [render_hint(h, lang) for h in parsed.hints]
        detail = localized_detail(parsed, lang)
        content = parse_error_content(tool_name, parsed, detail, hints, lang)
        return Card(raw, REJECTED, call, hints=hints, parse=parsed, parse_detail=detail,
                    tool_result=tool_result_message(fmt, call, content, True))
    errors, notes = validate(parsed.value, schema, lang, assert_format)
    if errors:
        content = validation_error_content(tool_name, errors, lang)
        return Card(raw, REJECTED, call, errors=errors, notes=notes, parse=parsed,
                    tool_result=tool_result_message(fmt, call, content, True))
    card = Card(raw, ACCEPTED, call, notes=notes, parse=parsed)
    if backend is None:
        card.tool_result = tool_result_message(fmt, call, t("result.accepted_no_backend", lang), False)
        return card
    card.backend = backend.refund(parsed.value, idempotency_key=call, lang=lang)
    if card.backend.ok:
        content = success_content(card.backend.data or {})
    else:
        content = backend_error_content(card.backend.error or {})
    card.tool_result = tool_result_message(fmt, call, content, not card.backend.ok)
    return card


def evaluate_canned(outputs, schema: dict[str, Any], tool_name: str, book: OrderBook | None,
                    lang: str = "en", fmt: str = ANTHROPIC, assert_format: bool = False) -> list[CannedCard]:
    """Cards for every canned output. Each accepted output runs on its own fresh backend
    (when ``book`` is given), so the cards preview what one call would return."""
    cards = []
    for out in outputs:
        backend = RefundBackend(book) if book is not None else None
        cards.append(CannedCard(out, evaluate(out.raw, schema, tool_name, lang, fmt,
                                              call_id(out.id, fmt), backend, assert_format)))
    return cards


@dataclass(frozen=True)
class Summary:
    """How many canned outputs got their expected verdict, and which bad ones leaked."""

    matched: int
    total: int
    leaked: tuple[str, ...]
    unexpected_rejections: tuple[str, ...]


def summarize(cards: list[CannedCard]) -> Summary:
    """Count matches; list leaked ids and valid outputs wrongly rejected, in card order."""
    return Summary(sum(c.matches for c in cards), len(cards),
                   tuple(c.output.id for c in cards if c.leaked),
                   tuple(c.output.id for c in cards if not c.matches and not c.leaked))


# --- presets that loosen the reference schema ---------------------------------------

PRESETS: tuple[str, ...] = ("reference", "no_additional_properties", "nothing_required", "enum_removed",
                            "integer_loosened", "all_constraints_stripped")

_CONSTRAINTS = {"pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                "minLength", "maxLength", "enum", "const", "format", "type"}


def apply_preset(reference: dict[str, Any], preset: str) -> dict[str, Any]:
    """A loosened copy of ``reference`` (never mutated); each preset teaches one lesson.

    no_additional_properties: drop ``additionalProperties`` (extra fields pass);
    nothing_required: drop ``required`` (missing fields pass); enum_removed: drop every
    property's ``enum``; integer_loosened: ``integer`` becomes ``["number", "string"]``;
    all_constraints_stripped: keep only ``type: object`` and each property's description.
    Raises ValueError for an unknown preset.
    """
    schema = copy.deepcopy(reference)
    props = schema.get("properties", {})
    if preset == "reference":
        pass
    elif preset == "no_additional_properties":
        schema.pop("additionalProperties", None)
    elif preset == "nothing_required":
        schema.pop("required", None)
    elif preset == "enum_removed":
        for prop in props.values():
            prop.pop("enum", None)
    elif preset == "integer_loosened":
        for prop in props.values():
            if prop.get("type") == "integer":
                prop["type"] = ["number", "string"]
    elif preset == "all_constraints_stripped":
        for prop in props.values():
            for key in _CONSTRAINTS & set(prop):
                del prop[key]
        schema.pop("required", None)
        schema.pop("additionalProperties", None)
    else:
        raise ValueError(f"unknown preset {preset!r}; expected one of {PRESETS}")
    return schema


def schema_text(schema: dict[str, Any]) -> str:
    """Pretty JSON for the schema editor (2-space indent, non-ASCII kept)."""
    return json.dumps(schema, indent=2, ensure_ascii=False)


def verdict_holds(output: CannedOutput, card: Card) -> bool:
    """True when ``card`` got the output's expected verdict and, if rejected, was caught
    by the keyword the fixture names (INVALID_JSON for text that is not JSON)."""
    if card.verdict != output.expected:
        return False
    if output.expected == ACCEPTED or output.catches is None:
        return True
    if card.parse is not None and not card.parse.ok:
        return output.catches == card.parse.code
    return any(e.keyword == output.catches for e in card.errors)
