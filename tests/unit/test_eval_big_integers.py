"""Integers a 64-bit reader cannot hold (orjson turns them into floats) are read exactly from uploads, so two
different numbers past 2^64 are never graded as equal."""

import json

import pytest

from tests.unit.test_eval_import import line
from toolcall.eval_import import read_log, read_native
from toolcall.evaluation import analyse

TOOL = {"name": "pick", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}},
                                         "required": ["n"]}}


def _graded(expected, actual_call):
    rec = line(tools=[TOOL], expected_calls=[{"name": "pick", "arguments": {"n": [expected]}}],
               actual_calls=[actual_call])
    log = read_native(json.dumps(rec).encode())
    assert log.problems == []
    return bool(analyse(log, k=1).graded["passed"].iloc[0])


@pytest.mark.parametrize("expected, actual", [
    (18446744073709551617, 18446744073709551616),   # 2^64 + 1 and 2^64: one float apart from nothing
    (-9223372036854775809, -9223372036854775810),   # below the int64 range
    (10 ** 30 + 1, 10 ** 30),
])
def test_distinct_integers_past_64_bits_are_not_equal(expected, actual):
    """Each pair is the same float, so a reader that keeps floats grades the call as right."""
    assert _graded(expected, {"name": "pick", "raw_arguments": json.dumps({"n": actual})}) is False
    assert _graded(expected, {"name": "pick", "arguments": {"n": actual}}) is False
    assert _graded(expected, {"name": "pick", "arguments": {"n": expected}}) is True


def test_ids_past_64_bits_in_a_whole_json_document_stay_refused_by_name():
    """τ-bench's list form is read as one document, exactly too: a task_id of 2^64 + 1 is still refused as a
    number too large (as it was when it came back a float), and 2^64 − 1 still loads."""
    doc = [{"task_id": 18446744073709551617, "trial": 0, "reward": 1.0, "info": {}, "traj": []},
           {"task_id": 18446744073709551615, "trial": 0, "reward": 0.0, "info": {}, "traj": []}]
    log = read_log(json.dumps(doc).encode(), "tau")
    assert [run.case_id for run in log.runs] == ["18446744073709551615"]
    assert [(p.line, p.field, p.code) for p in log.problems] == [(1, "$[0].task_id", "number_too_large")]


def test_long_digit_runs_inside_strings_change_nothing():
    """A long digit run inside a string takes the exact path too; the values are the same."""
    rec = line(case_id="c-123456789012345678901234")
    log = read_native(json.dumps(rec).encode())
    assert [run.case_id for run in log.runs] == ["c-123456789012345678901234"]


def test_non_finite_numbers_are_still_refused_on_the_exact_path():
    """The exact reader is only used after orjson accepted the text, so 1e400 beside a long integer is still
    not JSON (orjson refuses infinity)."""
    text = json.dumps(line(run=1)).replace('"run": 1', '"run": 1, "x": [1e400, 123456789012345678901]')
    log = read_native(text.encode())
    assert log.runs == [] and len(log.problems) == 1
