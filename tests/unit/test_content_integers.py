"""A whole number written as a decimal (``2599.0``) where a content schema wants an integer fails check, with the
file, the JSON path and how to write it (issue 13, content-file kind: passes check, renders wrongly in class).

Before: JSON Schema counts ``2599.0`` as an integer, so ``paid_cents: 2599.0`` passed check and the fake backend
told the model "2599.0 cents of 2599.0 paid"; ``max_tokens: 64.0`` passed too. The sweep rewrites every integer
of every content file check reads, once as ``n.0`` and once as ``n + 0.5``: wherever check refuses the fraction
as no integer, it must refuse ``n.0`` as well (positions that take any number take both)."""

import json
from collections.abc import Callable
from pathlib import Path

import yaml

from tests.content_copy import copy_content, problem_set
from toolcall import CONTENT_ROOT
from toolcall.check import CONTENT_PATTERNS
from toolcall.fixtures import display_name, schema_problems




def test_paid_cents_written_as_a_decimal_names_the_file_and_the_path(tmp_path):
    content = copy_content(tmp_path / "content")
    path = content / "fixtures" / "orders" / "orders.yaml"
    text = path.read_text("utf-8")
    first = yaml.safe_load(text)["orders"][0]["paid_cents"]
    path.write_text(text.replace(f"paid_cents: {first}\n", f"paid_cents: {first}.0\n", 1), "utf-8")
    assert (display_name(path), "$.orders[0].paid_cents",
            f"{first}.0 is not of type 'integer' (write {first}: with a decimal point it is a decimal number)") \
        in problem_set(content)


def test_the_same_in_chinese():
    book = yaml.safe_load((CONTENT_ROOT / "fixtures" / "orders" / "orders.yaml").read_text("utf-8"))
    book["orders"][0]["paid_cents"] = float(book["orders"][0]["paid_cents"])
    assert [(p.path, p.message) for p in schema_problems(book, "orders", "x", lang="zh")] == [
        ("$.orders[0].paid_cents", f"期望：整数；实际：{book['orders'][0]['paid_cents']!r}")]


def _rewrite(value, change: Callable[[int], float], path: list, seen: list):
    """``value`` with every int (not bool) replaced by ``change(int)``; each replaced path appended to ``seen``."""
    if isinstance(value, dict):
        return {k: _rewrite(v, change, [*path, k], seen) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, change, [*path, i], seen) for i, v in enumerate(value)]
    if isinstance(value, int) and not isinstance(value, bool):
        seen.append(path)
        return change(value)
    return value


def _rewrite_tree(root: Path, change: Callable[[int], float]) -> int:
    """Rewrite every content file under ``root`` with _rewrite; the number of integers replaced."""
    count: list = []
    for pattern in CONTENT_PATTERNS:
        for path in root.glob(pattern):
            text = path.read_text("utf-8")
            if path.suffix == ".json":
                text = json.dumps(_rewrite(json.loads(text), change, [], count))
            elif path.suffix == ".jsonl":
                text = "".join(json.dumps(_rewrite(json.loads(line), change, [], count)) + "\n"
                               for line in text.splitlines() if line.strip())
            elif path.suffix == ".md":
                _, front, body = text.split("---\n", 2)
                text = "---\n" + yaml.safe_dump(_rewrite(yaml.safe_load(front), change, [], count),
                                                allow_unicode=True, sort_keys=False) + "---\n" + body
            else:
                text = yaml.safe_dump(_rewrite(yaml.safe_load(text), change, [], count), allow_unicode=True,
                                      sort_keys=False)
            path.write_text(text, "utf-8")
    return len(count)


def test_every_integer_check_refuses_as_a_fraction_it_refuses_as_a_decimal(tmp_path):
    content, fraction = copy_content(tmp_path / "content"), copy_content(tmp_path / "fraction")
    replaced = _rewrite_tree(content, float)
    assert replaced == _rewrite_tree(fraction, lambda n: n + 0.5) and replaced >= 50
    not_integer = {(file.replace(str(fraction), str(content)), where) for file, where, message in
                   problem_set(fraction) if message.endswith("is not of type 'integer'")}
    assert len(not_integer) >= 10
    decimal = {(file, where) for file, where, message in problem_set(content)
               if "with a decimal point it is a decimal number" in message}
    assert sorted(not_integer - decimal) == []
