"""A content list over its cap is named by its count alone (as jsonschema's maxItems is worded), before its items
are validated (break-it pass
brk16content): the order book had no cap, and the playground drew all 12 000 orders of a 1.6 MB book as one table on
every run (1.5 M characters); check validated every item before the count, 72 s and 160 MB."""

import json
import shutil

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.check import run_checks
from toolcall.fixtures import MAX_QUOTED, schema_problems


def test_the_order_book_holds_at_most_200_orders(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    book = tmp_path / "fixtures" / "orders" / "orders.yaml"
    shipped = book.read_text("utf-8")
    rows = "".join(f"  - {{order_id: ORD-{30000000 + i}, customer_id: CUST-1001, paid_cents: 100, status: delivered}}\n"
                   for i in range(196))
    book.write_text(shipped + rows, "utf-8")  # 4 shipped + 196 = 200
    assert run_checks(tmp_path) == []
    book.write_text(shipped + rows + "  - {order_id: ORD-39999999, customer_id: CUST-1001, paid_cents: 1, status: x}\n",
                    "utf-8")
    assert [(p.file.endswith("fixtures/orders/orders.yaml"), p.path, p.message) for p in run_checks(tmp_path)] == [
        (True, "$.orders", "[{'order_id': 'ORD-20260917', 'customer_id': 'CUST-1001', 'paid_cents': 2599, 'status': "
                           "'delivered', 'item': {'en': 'Cer… is too long (201 items; at most 200)")]


def test_every_top_level_list_with_a_cap_is_counted_before_its_items():
    """The next capped list: for each content schema's top-level list with maxItems, one item too many (of items no
    schema allows) gives the one count problem, and no problem of an item."""
    found = 0
    for path in sorted((CONTENT_ROOT / "fixtures" / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        for key, sub in (schema.get("properties") or {}).items():
            if isinstance(sub, dict) and isinstance(sub.get("maxItems"), int):
                found += 1
                data = {key: [{"not": "an item"}] * (sub["maxItems"] + 1)}
                kind = path.name.removesuffix(".schema.json")
                quoted = repr(data[key]) if len(repr(data[key])) <= MAX_QUOTED else repr(data[key])[:MAX_QUOTED] + "…"
                assert [(p.path, p.message) for p in schema_problems(data, kind, "x")] == [
                    (f"$.{key}", f"{quoted} is too long ({sub['maxItems'] + 1:,} items; at most "
                                 f"{sub['maxItems']:,})")], kind
    assert found >= 4  # orders, selection cases, lesson figures, scenario steps


def test_a_list_one_over_a_cap_of_none_counts_one_item():
    """A list capped at 0 items holding one read "1 items" (test_plurals found the f-string)."""
    from toolcall.fixtures import oversized_lists

    assert [(p.path, p.message) for p in oversized_lists({"orders": [1]}, {"properties": {"orders": {"maxItems": 0}}},
                                                         "f.yaml")] == [("$.orders", "[1] is too long (1 item; at most 0)")]
