"""The selection lab's upload is analysed with ``release=True`` (issue 13, memory kind): the page draws from the
aggregates only, yet held the parsed log, the per-run table and full-size grading keys together, 6.3 times the
upload at the peak (bench/README.md section T). Each run is now dropped once graded; the results are the same.
Bytes are measured (tracemalloc), no clock read."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from toolcall import REPO_ROOT
from toolcall.eval_import import read_log
from toolcall.evaluation import analyse, case_counts


def _distinct(n: int) -> bytes:
    """``n`` runs (3 per case), each a distinct call against a distinct expectation: nothing shared."""
    tools = [{"name": "refund_order", "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}}}]
    return "\n".join(json.dumps({
        "case_id": f"case_{i // 3}", "run": i % 3, "model": "m", "tools": tools, "passed": i % 2 == 0,
        "expected_calls": [{"name": "refund_order", "arguments": {"order_id": [f"B{i}-" + "x" * 40]}}],
        "actual_calls": [{"name": "refund_order" if i % 5 else "get_order",
                          "arguments": {"order_id": f"A{i}-" + "y" * 40 if i % 7 else f"B{i}-" + "x" * 40}}],
    }) for i in range(n)).encode()


LOGS = {
    "distinct": lambda: _distinct(600),
    "recorded vague": lambda: (REPO_ROOT / "fixtures" / "eval_runs" / "shop_vague.en.jsonl").read_bytes(),
    "recorded good": lambda: (REPO_ROOT / "fixtures" / "eval_runs" / "shop_good.zh.jsonl").read_bytes(),
}


@pytest.mark.parametrize("name", sorted(LOGS))
@pytest.mark.parametrize("k", [1, 3])
def test_a_released_analysis_gives_the_same_results(name, k):
    data = LOGS[name]()
    whole = analyse(read_log(data, "native"), k)
    log = read_log(data, "native")
    runs = len(log.runs)
    released = analyse(log, k, release=True)
    assert released.graded is None and released.counts == case_counts(whole.graded)
    assert released.cases == whole.cases
    assert released.confusion.equals(whole.confusion)
    assert (released.taxonomy, released.disagreements, released.ungraded, released.not_graded,
            released.folded_tools) == (whole.taxonomy, whole.disagreements, whole.ungraded, whole.not_graded,
                                       whole.folded_tools)
    assert len(log.runs) == runs and set(log.runs) == {None}  # every run dropped once graded


def test_a_released_analysis_adds_little_to_the_parsed_log():
    """The kind: analysing an upload of runs that share nothing holds little more than the parsed log it starts
    from (main: the per-run table and two full keys per run on top, 0.93 times the log again)."""
    data = _distinct(6000)
    analyse(read_log(_distinct(30), "native"), 3, release=True)  # imports, validators
    tracemalloc.start()
    try:
        log = read_log(data, "native")
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        analyse(log, 3, release=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak - before <= 0.2 * before, (before, peak)
