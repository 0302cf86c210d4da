"""A lesson or fixture line that names an order names its item as the order book does (issue 14: lesson 1
said "mug" for ORD-20260917, the order book and the harness say "cup"). Cases derive from
fixtures/orders/orders.yaml and every English lesson and fixture text of the content root. An order an instructor adds
needs no change here (its noun simply has no other words listed): the test once required every noun to be listed,
so a correct new order (a teapot) failed it."""

import re

from toolcall import CONTENT_ROOT, FIXTURES_DIR, LESSONS_DIR
from toolcall.fixtures import load_orders

BOOK = load_orders()
#: Each order's item noun (the last word of its English item name before any parenthesis: "cup").
NOUN = {o.order_id: re.sub(r"\s*\(.*", "", o.item["en"]).split()[-1].lower() for o in BOOK.orders}
#: The shipped orders' nouns, pinned by order id.
SHIPPED = {"ORD-20260917": "cup", "ORD-20260705": "notebook", "ORD-20261102": "lamp", "ORD-20260811": "headphones"}
#: Words a writer may use for one of the shipped items instead of the order book's noun.
OTHER_WORDS = {"cup": ("mug", "glass", "teacup"), "lamp": ("light",), "notebook": ("notepad", "journal"),
               "headphones": ("earphones", "headset")}


def _files():
    yield from sorted((LESSONS_DIR / "en").glob("*.md"))
    yield from sorted(FIXTURES_DIR.rglob("*.yaml"))


def test_the_shipped_orders_nouns_are_read_from_the_book():
    assert {order_id: NOUN.get(order_id) for order_id in SHIPPED} == SHIPPED
    assert set(SHIPPED.values()) == set(OTHER_WORDS)


def test_lines_naming_an_order_call_its_item_by_the_order_books_noun():
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for order_id, noun in NOUN.items():
                if order_id in line:
                    found += [(f"{path.relative_to(CONTENT_ROOT)}:{number}", order_id, word)
                              for word in OTHER_WORDS.get(noun, ()) if re.search(rf"\b{word}s?\b", line, re.I)]
    assert found == []
