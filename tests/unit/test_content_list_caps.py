"""A content list over its cap is named by its count alone (as jsonschema's maxItems is worded), before its items
are validated (break-it pass
brk16content): the order book had no cap, and the playground drew all 12 000 orders of a 1.6 MB book as one table on
every run (1.5 M characters); check validated every item before the count, 72 s and 160 MB."""

import json
import shutil

import pytest

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.check import run_checks
from toolcall.exercises import load_exercise_file
from toolcall.fixtures import MAX_QUOTED, _quoted, read_data, schema_problems


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
    assert found >= 10  # orders, selection cases, lesson figures and sources, scenario steps and sources, exercises,
    # pairing examples, canned outputs and business cases, walkthrough variants


def test_a_list_one_over_a_cap_of_none_counts_one_item():
    """A list capped at 0 items holding one read "1 items" (test_plurals found the f-string)."""
    from toolcall.fixtures import oversized_lists

    assert [(p.path, p.message) for p in oversized_lists({"orders": [1]}, {"properties": {"orders": {"maxItems": 0}}},
                                                         "f.yaml")] == [("$.orders", "[1] is too long (1 item; at most 0)")]


# Every other content list a page draws one widget or block per entry of (pass fix19left): before, none had a cap,
# and fixtures/pairing/examples.yaml with 1 000 examples gave the pairing page 1 036 buttons, an ordering exercise
# 400 steps of Move up / Move down buttons. (kind, shipped file, path to a shipped list, its cap.)
NESTED_CAPS = [
    ("exercise", "fixtures/exercises/general.yaml", ["exercises", 0, "hints"], 10),
    ("exercise", "fixtures/exercises/walkthrough.yaml", ["exercises", 0, "steps"], 20),
    ("exercise", "fixtures/exercises/general.yaml", ["exercises", 1, "options"], 20),
    ("exercise", "fixtures/exercises/general.yaml", ["exercises", 0, "categories"], 20),
    ("exercise", "fixtures/exercises/general.yaml", ["exercises", 0, "items"], 20),
    ("walkthrough", "fixtures/transcripts/refund_walkthrough.yaml", ["variants", 0, "attempts"], 11),
    ("walkthrough", "fixtures/transcripts/refund_walkthrough.yaml", ["variants", 0, "attempts", 0, "calls"], 10),
    ("scenario", "fixtures/scenarios/02-parallel-partial.yaml", ["steps", 0, "model", "calls"], 10),
]


def _at(data, path):
    for part in path:
        data = data[part]
    return data


def _path_text(path):
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _another(entry, n):
    """``entry`` with every text of it told apart by `` n`` (two entries showing the same text are a problem of
    their own: fixtures.same_text_problems)."""
    if isinstance(entry, dict):
        return {k: _another(v, n) if k in ("en", "zh", "text", "explanation") or isinstance(v, (dict, list)) else v
                for k, v in entry.items()}
    if isinstance(entry, list):
        return [_another(v, n) for v in entry]
    return f"{entry} {n}" if isinstance(entry, str) else entry


@pytest.mark.parametrize(("kind", "file", "path", "cap"), NESTED_CAPS,
                         ids=[f"{c[0]}:{_path_text(c[2])}" for c in NESTED_CAPS])
def test_a_nested_list_over_its_cap_is_named_by_its_path(kind, file, path, cap):
    data = read_data(REPO_ROOT / file)
    listed = _at(data, path)
    assert 1 <= len(listed) <= cap  # what ships fits
    assert schema_problems(data, kind, "x") == []
    listed.extend(_another(listed[0], n) for n in range(len(listed), cap))
    assert schema_problems(data, kind, "x") == []  # the cap itself passes
    listed.append(_another(listed[0], cap))
    assert [(p.path, p.message) for p in schema_problems(data, kind, "x")] == [
        (_path_text(path), f"{_quoted(listed)} is too long ({cap + 1} items; at most {cap})")]


def test_a_lesson_cites_at_most_20_sources():
    front = {"title": "T", "summary": "S", "page": "lessons", "order": 1,
             "sources": [f"https://example.com/{i}" for i in range(20)]}
    assert schema_problems(front, "lesson", "x") == []
    front["sources"].append("https://example.com/20")
    assert [(p.path, p.message) for p in schema_problems(front, "lesson", "x")] == [
        ("$.sources", f"{_quoted(front['sources'])} is too long (21 items; at most 20)")]


def test_the_pairing_page_offers_at_most_100_examples(tmp_path):
    """Through `check`, as the instructor runs it: the file and the JSON path, and no problem per example."""
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    book = tmp_path / "fixtures" / "pairing" / "examples.yaml"
    data = read_data(book)
    shipped = len(data["examples"])
    first = data["examples"][0]  # copies told apart by id, label and the last question
    grown = [{**first, "id": f"copy_{i}", "label": {"en": f"Copy {i}", "zh": f"副本 {i}"},
              "text": {"en": first["text"]["en"].replace("did it work?", f"did it work? ({i})"),
                       "zh": first["text"]["zh"].replace("退成功了吗？", f"退成功了吗？（{i}）")}}
             for i in range(100 - shipped)]
    book.write_text(json.dumps({**data, "examples": data["examples"] + grown}, ensure_ascii=False), "utf-8")
    assert run_checks(tmp_path) == []
    examples = data["examples"] + grown + [{"id": "one_too_many"}]
    book.write_text(json.dumps({**data, "examples": examples}, ensure_ascii=False), "utf-8")
    assert [(p.file.endswith("fixtures/pairing/examples.yaml"), p.path, p.message) for p in run_checks(tmp_path)] == [
        (True, "$.examples", f"{_quoted(examples)} is too long (101 items; at most 100)")]


def test_an_exercise_file_over_50_exercises_is_counted_before_its_exercises(tmp_path):
    """The exercise loader (the pages' and check's) names the count alone, as schema_problems does."""
    path = tmp_path / "many.yaml"
    path.write_text(json.dumps({"schema_version": 1, "exercises": [{"not": "an exercise"}] * 51}), "utf-8")
    exercises, problems = load_exercise_file(path)
    assert exercises == []
    assert [(p.path, p.message) for p in problems] == [
        ("$.exercises", f"{_quoted([{'not': 'an exercise'}] * 51)} is too long (51 items; at most 50)")]
