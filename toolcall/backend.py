"""The fake backends of the course's tools: the business rules that no JSON Schema can state.

:data:`BACKENDS` maps a tool name to its backend's constructor (``refund_order`` → RefundBackend,
``get_order`` → OrderLookup); every backend has ``run(args, idempotency_key, lang)`` → BackendResult,
which toolcall.judge.evaluate calls for an accepted input.

The refund service:

It runs only on arguments that already passed validation, and refuses with a structured
error (code, message, retryable) when the order does not exist, belongs to another
customer, has not shipped (cancel_order is the right tool), or the amount exceeds what
is left to refund. An idempotency key (the tool_use_id, in practice) makes a replayed
identical refund return the first refund instead of paying twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from toolcall.fixtures import OrderBook
from toolcall.i18n import t

AMOUNT_EXCEEDS_PAID = "AMOUNT_EXCEEDS_PAID"
ORDER_NOT_FOUND = "ORDER_NOT_FOUND"
ORDER_NOT_DELIVERED = "ORDER_NOT_DELIVERED"
ORDER_NOT_OWNED = "ORDER_NOT_OWNED"
IDEMPOTENCY_CONFLICT = "IDEMPOTENCY_CONFLICT"
BAD_ARGUMENTS = "BAD_ARGUMENTS"


@dataclass(frozen=True)
class BackendResult:
    """What the backend answered: ``ok`` with ``data``, or ``error`` = {code, message, retryable}."""

    ok: bool
    data: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Backend(Protocol):
    """What toolcall.judge.evaluate needs of a tool's backend."""

    def run(self, args: dict[str, Any], idempotency_key: str | None = None, lang: str = "en") -> BackendResult: ...


@dataclass
class RefundBackend:
    """In-memory refund service over an OrderBook; one instance per student session.

    ``refunded`` maps order_id → cents refunded so far; ``by_key`` maps an idempotency
    key → (arguments, first result).
    """

    book: OrderBook
    refunded: dict[str, int] = field(default_factory=dict)
    by_key: dict[str, tuple[dict[str, Any], BackendResult]] = field(default_factory=dict)
    issued: int = 0

    def _error(self, code: str, lang: str, retryable: bool = False, **params: Any) -> BackendResult:
        return BackendResult(False, error={"code": code, "message": t(f"backend.{code}", lang, **params),
                                           "retryable": retryable})

    def run(self, args: dict[str, Any], idempotency_key: str | None = None, lang: str = "en") -> BackendResult:
        """The backend protocol toolcall.judge.evaluate calls: the refund below."""
        return self.refund(args, idempotency_key, lang)

    def refund(self, args: dict[str, Any], idempotency_key: str | None = None, lang: str = "en") -> BackendResult:
        """Refund ``args['amount_cents']`` (int, cents) on ``args['order_id']`` for the current customer.

        ``args`` is the parsed tool input (a dict). Arguments the service cannot read (an
        order_id that is not a string, an amount that is not a positive integer: a loosened
        schema lets them through) get BAD_ARGUMENTS. Returns a BackendResult;
        never raises. Same key + same arguments → the first result again
        (``replayed: true``); same key + different arguments → IDEMPOTENCY_CONFLICT.
        """
        if idempotency_key is not None and idempotency_key in self.by_key:
            first_args, first = self.by_key[idempotency_key]
            if first_args != args:
                return self._error(IDEMPOTENCY_CONFLICT, lang, idem_key=idempotency_key)
            if first.ok:
                return BackendResult(True, data={**(first.data or {}), "replayed": True})
            return first
        result = self._decide(args, lang)
        if idempotency_key is not None:
            self.by_key[idempotency_key] = (dict(args), result)
        return result

    def _decide(self, args: dict[str, Any], lang: str) -> BackendResult:
        order_id, amount = args.get("order_id"), args.get("amount_cents")
        # The service checks types again at execution time: it cannot trust the caller's schema.
        if not isinstance(order_id, str) or isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            return self._error(BAD_ARGUMENTS, lang)
        order = next((o for o in self.book.orders if o.order_id == order_id), None)
        if order is None:
            return self._error(ORDER_NOT_FOUND, lang, order_id=order_id)
        if order.customer_id != self.book.current_customer:
            return self._error(ORDER_NOT_OWNED, lang, order_id=order_id)
        if order.status != "delivered":
            return self._error(ORDER_NOT_DELIVERED, lang, order_id=order_id, status=order.status)
        left = order.paid_cents - self.refunded.get(order_id, 0)
        if amount > left:
            return self._error(AMOUNT_EXCEEDS_PAID, lang, order_id=order_id, amount=amount,
                               paid=order.paid_cents, left=left)
        self.refunded[order_id] = self.refunded.get(order_id, 0) + amount
        self.issued += 1
        return BackendResult(True, data={"refund_id": f"RF-{order_id[4:]}-{self.issued:03d}", "status": "submitted",
                                         "order_id": order_id, "amount_cents": amount})


def lookup_order(book: OrderBook, args: dict[str, Any], lang: str = "en") -> BackendResult:
    """The read-only get_order tool: ``args['order_id']`` → ``{order_id, status, item, paid_cents}``.

    Refuses ORDER_NOT_FOUND, and ORDER_NOT_OWNED for another customer's order (no data
    leaks). ``args`` must be schema-valid get_order input.
    """
    order_id = args["order_id"]
    order = next((o for o in book.orders if o.order_id == order_id), None)
    if order is None or order.customer_id != book.current_customer:
        code = ORDER_NOT_FOUND if order is None else ORDER_NOT_OWNED
        return BackendResult(False, error={"code": code, "message": t(f"backend.{code}", lang, order_id=order_id),
                                           "retryable": False})
    return BackendResult(True, data={"order_id": order.order_id, "status": order.status,
                                     "item": order.item_for(lang), "paid_cents": order.paid_cents})


@dataclass
class OrderLookup:
    """The read-only get_order service over an OrderBook (no state: reading twice is harmless)."""

    book: OrderBook

    def run(self, args: dict[str, Any], idempotency_key: str | None = None, lang: str = "en") -> BackendResult:
        """lookup_order on this book; the idempotency key is not needed by a read."""
        return lookup_order(self.book, args, lang)


#: The fake backend of each runnable tool, by tool name: constructor(OrderBook) → backend with run().
BACKENDS: dict[str, Any] = {"refund_order": RefundBackend, "get_order": OrderLookup}
