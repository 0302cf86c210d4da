"""A JSON key kept in a cache holds its own bytes, not orjson's output buffer (issue 13, memory kind): the bytes
orjson.dumps returns keep a 4 KB buffer however short the JSON, so the selection lab's analysis of an 18.6 MB upload
(92 000 runs of distinct calls) peaked at 424 MB, two 4 KB keys per run (bench/README.md section T). Bytes are
measured (tracemalloc), no clock read."""

from __future__ import annotations

import ast
import sys
import tracemalloc

import pytest

from toolcall import REPO_ROOT
from toolcall.eval_import import _key
from toolcall.evaluation import Call, Run, RunLog, _freeze, analyse


def _retained(make) -> tuple[list, int]:
    tracemalloc.start()
    try:
        kept = make()
        return kept, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("key", [_freeze, _key], ids=["evaluation._freeze", "eval_import._key"])
def test_a_kept_key_holds_its_own_length(key):
    keys, held = _retained(lambda: [key({"name": "refund_order", "arguments": {"order_id": f"A{i}"}})
                                    for i in range(2000)])
    assert all(isinstance(k, bytes) and k.startswith(b"{") for k in keys)
    assert held <= 2 * sum(sys.getsizeof(k) for k in keys) + sys.getsizeof(keys), held  # main: 4 KB a key


def test_every_orjson_dumps_result_is_copied_out_of_its_buffer():
    """The kind: wherever the code calls orjson.dumps, the result is copied (bytes(memoryview(...))) or the
    call is listed here as one whose result is not kept."""
    not_kept: set[str] = set()
    found = []
    for folder in ("toolcall", "ui", "pages"):
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            copied = {id(node.args[0]) for node in ast.walk(tree) if isinstance(node, ast.Call)
                      and getattr(node.func, "id", "") == "memoryview" and node.args}
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and ast.unparse(node.func) == "orjson.dumps":
                    where = f"{path.relative_to(REPO_ROOT)}:{node.lineno}"
                    found.append(where)
                    assert id(node) in copied or where in not_kept, where
    assert len(found) >= 2


def _log(n: int) -> RunLog:
    tools = [{"refund_order": {"type": "object", "properties": {"order_id": {"type": "string"}}}}]
    runs = [Run(f"case_{i}", 0, "m", ({"name": "refund_order", "arguments": {"order_id": [f"B{i}"]}},),
                (Call("refund_order", {"order_id": f"A{i}"}),), 0) for i in range(n)]
    return RunLog(runs=runs, tool_sets=tools)


def test_analysing_runs_of_distinct_calls_holds_little_per_run():
    """The example: every run a distinct call and expectation, so each is keyed and graded. Peak per run, with
    the log already in memory (main: over 8 KB a run, two orjson buffers)."""
    analyse(_log(10), 3)  # imports, validators
    log = _log(4000)
    tracemalloc.start()
    try:
        analyse(log, 3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / 4000 <= 4096, peak / 4000
