"""A call or an expectation naming one of the confusion matrix's own rows ("(no tool)", "(other tools)") is a record
that cannot be used (break-it pass brk14lab; issue 13's known clash). Before: a should-not-call run whose model called a
tool named "(no tool)" failed (called_anyway), yet was counted on the matrix's diagonal, and the selection lab's "Right
tool, runs" read 2 / 2 for one pass and one failure."""

import json

import pytest
from jsonschema import Draft202012Validator

from toolcall import FIXTURES_DIR
from toolcall.eval_import import RESERVED_TOOL_NAMES, read_log
from toolcall.evaluation import OTHER_TOOLS, analyse
from toolcall.selection import NO_TOOL

NATIVE_SCHEMA = Draft202012Validator(json.loads((FIXTURES_DIR / "schemas" / "eval_runs.schema.json").read_text()))
TOOLS = [{"name": "t", "input_schema": {"type": "object"}}]


def _native(expected_name=None, called=None) -> dict:
    return {"case_id": "c1", "run": 0, "model": "m", "tools": TOOLS,
            "expected_calls": [] if expected_name is None else [{"name": expected_name, "arguments": {}}],
            "actual_calls": [] if called is None else [{"name": called, "arguments": {}}]}


def test_the_reserved_names_are_the_matrixs_own_rows():
    assert RESERVED_TOOL_NAMES == {NO_TOOL, OTHER_TOOLS}


@pytest.mark.parametrize("name", sorted(RESERVED_TOOL_NAMES))
@pytest.mark.parametrize("where", ["expected_calls", "actual_calls"])
def test_a_native_line_naming_a_reserved_tool_is_not_read(name, where):
    bad = _native(**({"expected_name": name} if where == "expected_calls" else {"called": name}))
    good = _native(called=None)
    good["run"] = 1
    log = read_log("\n".join(json.dumps(x) for x in (bad, good)).encode(), "native", "runs.jsonl")
    assert [(r.case_id, r.run) for r in log.runs] == [("c1", 1)]
    assert [p.describe("en") for p in log.problems] == [
        f"line 1: $.{where}[0].name: a call may not name the tool {name}: the confusion matrix uses that name for a "
        f"row of its own; this record is not read"]
    assert [p.describe("zh") for p in log.problems] == [
        f"第 1 行：$.{where}[0].name：调用的工具不能叫 {name}：混淆矩阵自己有一行用这个名字；这条记录不读"]
    assert list(NATIVE_SCHEMA.iter_errors(bad))  # the documented format says so too


def test_the_diagonal_counts_only_right_runs():
    lines = [_native(called=NO_TOOL), {**_native(), "run": 1}]
    result = analyse(read_log("\n".join(json.dumps(x) for x in lines).encode(), "native", "r.jsonl"), 1)
    assert int(result.confusion.values.sum()) == 1 and bool(result.graded["passed"].all())


def test_an_inspect_sample_calling_a_reserved_tool_is_not_read():
    sample = {"id": "s1", "epoch": 1, "scores": {"match": {"value": "C"}},
              "messages": [{"role": "assistant", "tool_calls": [{"function": NO_TOOL, "arguments": {}}]}]}
    log = read_log(json.dumps({"version": 2, "samples": [sample]}).encode(), "inspect", "log.json")
    assert log.runs == []
    assert [p.describe("en") for p in log.problems] == [
        f"line 1: $.samples[0].messages: a call may not name the tool {NO_TOOL}: the confusion matrix uses that name "
        f"for a row of its own; this record is not read"]
