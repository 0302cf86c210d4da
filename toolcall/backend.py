"""The fake backends of the course's tools: the business rules that no JSON Schema can state.

:data:`BACKENDS` maps a tool name to its backend's constructor (``search_orders`` → OrderSearch,
``get_order`` → OrderLookup, ``cancel_order`` → OrderCancellation, ``refund_order`` → RefundBackend,
``update_shipping`` → ShippingUpdate), each over the fake order book. Every backend has
``run(args, tool_use_id, lang)`` → BackendResult, which toolcall.judge.evaluate calls for an accepted
input; :func:`backend_for` picks the one registered for a tool's name (None for any other name: that
tool gets a schema verdict only, never another tool's answer).

Each service runs only on arguments that already passed validation, checks again what it reads
(a loosened schema lets anything through), and refuses with a structured error (code, message,
retryable) when the order does not exist, belongs to another customer, or is in the wrong state.

Idempotency (the refund): the course's failure is the model re-sending the same refund after a
network hiccup. That re-sent call is a NEW tool_use with a NEW id, so a key by tool_use id pays twice.
The refund service keys each refund by the business parameters, ``refund:<order_id>:<amount_cents>``
(the course derives it so), or by an explicit ``idempotency_key`` argument when the tool defines one;
the first refund under a key is returned again (``replayed: true``) instead of paying twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from toolcall.fixtures import Order, OrderBook
from toolcall.i18n import t

AMOUNT_EXCEEDS_PAID = "AMOUNT_EXCEEDS_PAID"
ORDER_NOT_FOUND = "ORDER_NOT_FOUND"
ORDER_NOT_DELIVERED = "ORDER_NOT_DELIVERED"
ORDER_NOT_OWNED = "ORDER_NOT_OWNED"
ORDER_ALREADY_SHIPPED = "ORDER_ALREADY_SHIPPED"
NOTHING_TO_CHANGE = "NOTHING_TO_CHANGE"
IDEMPOTENCY_CONFLICT = "IDEMPOTENCY_CONFLICT"
BAD_ARGUMENTS = "BAD_ARGUMENTS"

#: Keying a refund: by the business parameters (the course's way) or by the tool_use id (the
#: mistake the playground's replay section shows: a model's re-sent call has a new id).
KEY_BY_BUSINESS = "business"
KEY_BY_CALL_ID = "call_id"


@dataclass(frozen=True)
class BackendResult:
    """What the backend answered: ``ok`` with ``data``, or ``error`` = {code, message, retryable}."""

    ok: bool
    data: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Backend(Protocol):
    """What toolcall.judge.evaluate needs of a tool's backend."""

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult: ...


def _error(code: str, lang: str, retryable: bool = False, **params: Any) -> BackendResult:
    return BackendResult(False, error={"code": code, "message": t(f"backend.{code}", lang, **params),
                                       "retryable": retryable})


def _bad_arguments(tool: str, lang: str) -> BackendResult:
    """The service's own type check failed: a loosened schema let unreadable arguments through."""
    key = "backend.BAD_ARGUMENTS" if tool == "refund_order" else f"backend_bad_arguments.{tool}"
    return BackendResult(False, error={"code": BAD_ARGUMENTS, "message": t(key, lang), "retryable": False})


def _own_order(book: OrderBook, order_id: str, lang: str) -> Order | BackendResult:
    """The signed-in customer's order ``order_id``, or the ORDER_NOT_FOUND / ORDER_NOT_OWNED refusal
    (another customer's order is named as such, and nothing of it leaks)."""
    order = next((o for o in book.orders if o.order_id == order_id), None)
    if order is None:
        return _error(ORDER_NOT_FOUND, lang, order_id=order_id)
    if order.customer_id != book.current_customer:
        return _error(ORDER_NOT_OWNED, lang, order_id=order_id)
    return order


def refund_key(args: dict[str, Any]) -> str:
    """The refund's idempotency key: ``idem:<idempotency_key>`` when the call carries an explicit
    ``idempotency_key`` string, else ``refund:<order_id>:<amount_cents>`` from the business parameters
    (the course: ``key = f"refund:{order_id}:{amount_cents}"``, seeds/002). ``args`` is a readable
    refund input (order_id a str, amount_cents an int)."""
    explicit = args.get("idempotency_key")
    if isinstance(explicit, str) and explicit:
        return f"idem:{explicit}"
    return f"refund:{args['order_id']}:{args['amount_cents']}"


@dataclass
class RefundBackend:
    """In-memory refund service over an OrderBook; one instance per student session.

    ``refunded`` maps order_id → cents refunded so far; ``by_key`` maps an idempotency key →
    (arguments, first successful result); ``key_by`` is KEY_BY_BUSINESS (default, see
    :func:`refund_key`) or KEY_BY_CALL_ID (the tool_use id: the mistake, kept to show it).
    """

    book: OrderBook
    refunded: dict[str, int] = field(default_factory=dict)
    by_key: dict[str, tuple[dict[str, Any], BackendResult]] = field(default_factory=dict)
    issued: int = 0
    key_by: str = KEY_BY_BUSINESS

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """The backend protocol toolcall.judge.evaluate calls: the refund below."""
        return self.refund(args, tool_use_id, lang)

    def refund(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """Refund ``args['amount_cents']`` (int, cents) on ``args['order_id']`` for the current customer.

        ``args`` is the parsed tool input (a dict); ``tool_use_id`` is the id of the call (Anthropic
        ``tool_use.id``, OpenAI ``tool_call_id``), used as the key only with KEY_BY_CALL_ID. Arguments
        the service cannot read (an order_id that is not a string, an amount that is not a positive
        integer: a loosened schema lets them through) get BAD_ARGUMENTS. Same key + same arguments →
        the first refund again with ``replayed: true``, nothing paid; same explicit key + different
        arguments → IDEMPOTENCY_CONFLICT. Only a refund that was paid is remembered: a refused one
        can be sent again once its cause is fixed. Returns a BackendResult; never raises.
        """
        order_id, amount = args.get("order_id"), args.get("amount_cents")
        # The service checks types again at execution time: it cannot trust the caller's schema.
        if not isinstance(order_id, str) or isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            return _bad_arguments("refund_order", lang)
        key = tool_use_id if self.key_by == KEY_BY_CALL_ID else refund_key(args)
        if key is not None and key in self.by_key:
            first_args, first = self.by_key[key]
            if (first_args.get("order_id"), first_args.get("amount_cents")) != (order_id, amount):
                return _error(IDEMPOTENCY_CONFLICT, lang, idem_key=key)
            return BackendResult(True, data={**(first.data or {}), "replayed": True})
        result = self._decide(order_id, amount, lang)
        if key is not None and result.ok:
            self.by_key[key] = (dict(args), result)
        return result

    def _decide(self, order_id: str, amount: int, lang: str) -> BackendResult:
        order = _own_order(self.book, order_id, lang)
        if isinstance(order, BackendResult):
            return order
        if order.status != "delivered":
            return _error(ORDER_NOT_DELIVERED, lang, order_id=order_id, status=order.status)
        left = order.paid_cents - self.refunded.get(order_id, 0)
        if amount > left:
            return _error(AMOUNT_EXCEEDS_PAID, lang, order_id=order_id, amount=amount, paid=order.paid_cents, left=left)
        self.refunded[order_id] = self.refunded.get(order_id, 0) + amount
        self.issued += 1
        return BackendResult(True, data={"refund_id": f"RF-{order_id[4:]}-{self.issued:03d}", "status": "submitted",
                                         "order_id": order_id, "amount_cents": amount})


def lookup_order(book: OrderBook, args: dict[str, Any], lang: str = "en") -> BackendResult:
    """The read-only get_order tool: ``args['order_id']`` → ``{order_id, status, item, paid_cents}``.

    Refuses ORDER_NOT_FOUND, and ORDER_NOT_OWNED for another customer's order (no data
    leaks); BAD_ARGUMENTS when order_id is not a string.
    """
    order_id = args.get("order_id")
    if not isinstance(order_id, str):
        return _bad_arguments("get_order", lang)
    order = _own_order(book, order_id, lang)
    if isinstance(order, BackendResult):
        return order
    return BackendResult(True, data={"order_id": order.order_id, "status": order.status,
                                     "item": order.item_for(lang), "paid_cents": order.paid_cents})


@dataclass
class OrderLookup:
    """The read-only get_order service over an OrderBook (no state: reading twice is harmless)."""

    book: OrderBook

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """lookup_order on this book; a read needs no idempotency key."""
        return lookup_order(self.book, args, lang)


#: search_orders' default and largest page (fixtures/tools/search_orders.json: "1 to 20, default 5").
SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT = 5, 20


@dataclass
class OrderSearch:
    """The read-only search_orders service: the signed-in customer's orders, newest first (by the date
    in the order number), optionally filtered by ``status`` and by ``query`` words in the item name."""

    book: OrderBook

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """``{orders: [{order_id, status, item}], total, next_cursor: null}``; the words of ``query`` must
        all occur (case-insensitive) in the item's name in ``lang`` or in English. BAD_ARGUMENTS for a
        status or query that is not a string, or a limit that is not an integer from 1 to 20."""
        status, query = args.get("status"), args.get("query", "")
        limit = args.get("limit", SEARCH_DEFAULT_LIMIT)
        if (status is not None and not isinstance(status, str)) or not isinstance(query, str) \
                or isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= SEARCH_MAX_LIMIT:
            return _bad_arguments("search_orders", lang)
        words = query.casefold().split()
        found = [o for o in sorted(self.book.orders, key=lambda o: o.order_id, reverse=True)
                 if o.customer_id == self.book.current_customer and (status is None or o.status == status)
                 and all(w in (o.item_for(lang) + " " + o.item_for("en")).casefold() for w in words)]
        return BackendResult(True, data={
            "orders": [{"order_id": o.order_id, "status": o.status, "item": o.item_for(lang)} for o in found[:limit]],
            "total": len(found), "next_cursor": None})


@dataclass
class OrderCancellation:
    """The cancel_order service: cancels an unshipped order of the signed-in customer (charged nothing).

    ``cancelled`` holds the order ids cancelled in this session; cancelling one again returns the
    first answer with ``replayed: true`` (a cancellation is idempotent by the order id itself).
    """

    book: OrderBook
    cancelled: set[str] = field(default_factory=set)

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """``{order_id, status: "cancelled", charged_cents: 0}``; ORDER_ALREADY_SHIPPED for a shipped or
        delivered order (refund_order is the tool for money back), ORDER_NOT_FOUND / ORDER_NOT_OWNED,
        BAD_ARGUMENTS when order_id is not a string."""
        order_id = args.get("order_id")
        if not isinstance(order_id, str):
            return _bad_arguments("cancel_order", lang)
        order = _own_order(self.book, order_id, lang)
        if isinstance(order, BackendResult):
            return order
        data = {"order_id": order_id, "status": "cancelled", "charged_cents": 0}
        if order_id in self.cancelled:
            return BackendResult(True, data={**data, "replayed": True})
        if order.status != "unshipped":
            return _error(ORDER_ALREADY_SHIPPED, lang, order_id=order_id, status=order.status)
        self.cancelled.add(order_id)
        return BackendResult(True, data=data)


@dataclass
class ShippingUpdate:
    """The update_shipping service: changes the address and/or speed of an unshipped order."""

    book: OrderBook

    def run(self, args: dict[str, Any], tool_use_id: str | None = None, lang: str = "en") -> BackendResult:
        """``{order_id, status: "updated", address?, speed?}`` (the fields changed); NOTHING_TO_CHANGE
        when neither address nor speed is given; ORDER_ALREADY_SHIPPED for a shipped or delivered
        order; ORDER_NOT_FOUND / ORDER_NOT_OWNED; BAD_ARGUMENTS for fields that are not strings."""
        order_id, address, speed = args.get("order_id"), args.get("address"), args.get("speed")
        if not isinstance(order_id, str) or not all(v is None or isinstance(v, str) for v in (address, speed)):
            return _bad_arguments("update_shipping", lang)
        order = _own_order(self.book, order_id, lang)
        if isinstance(order, BackendResult):
            return order
        if address is None and speed is None:
            return _error(NOTHING_TO_CHANGE, lang, order_id=order_id)
        if order.status != "unshipped":
            return _error(ORDER_ALREADY_SHIPPED, lang, order_id=order_id, status=order.status)
        changed = {k: v for k, v in (("address", address), ("speed", speed)) if v is not None}
        return BackendResult(True, data={"order_id": order_id, "status": "updated", **changed})


#: The fake backend of each runnable tool, by tool name: constructor(OrderBook) → backend with run().
BACKENDS: dict[str, Any] = {"search_orders": OrderSearch, "get_order": OrderLookup, "cancel_order": OrderCancellation,
                            "refund_order": RefundBackend, "update_shipping": ShippingUpdate}


def backend_for(tool_name: str, book: OrderBook) -> Backend | None:
    """A fresh backend of the tool called ``tool_name`` over ``book``, or None when no backend is
    registered for that name (the tool then gets a schema verdict only: never another tool's answer)."""
    make = BACKENDS.get(tool_name)
    return make(book) if make is not None else None
