"""A lesson or fixture line that names an order names its item as the order book does (issue 14: lesson 1
said "mug" for ORD-20260917, the order book and the harness say "cup"). Cases derive from
fixtures/orders/orders.yaml and every English lesson and fixture text."""

import re

from toolcall import FIXTURES_DIR, REPO_ROOT
from toolcall.fixtures import load_orders

BOOK = load_orders()
#: Each order's item noun (the last word of its English item name before any parenthesis: "cup").
NOUN = {o.order_id: re.sub(r"\s*\(.*", "", o.item["en"]).split()[-1].lower() for o in BOOK.orders}
#: Words a writer may use for one of those items instead of the order book's noun.
OTHER_WORDS = {"cup": ("mug", "glass", "teacup"), "lamp": ("light",), "notebook": ("notepad", "journal"),
               "headphones": ("earphones", "headset")}


def _files():
    yield from sorted((REPO_ROOT / "lessons" / "en").glob("*.md"))
    yield from sorted(FIXTURES_DIR.rglob("*.yaml"))


def test_every_item_noun_has_its_other_words_listed():
    assert set(NOUN.values()) <= set(OTHER_WORDS)


def test_lines_naming_an_order_call_its_item_by_the_order_books_noun():
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for order_id, noun in NOUN.items():
                if order_id in line:
                    found += [(f"{path.relative_to(REPO_ROOT)}:{number}", order_id, word)
                              for word in OTHER_WORDS[noun] if re.search(rf"\b{word}s?\b", line, re.I)]
    assert found == []
