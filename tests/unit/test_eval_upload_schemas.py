"""An uploaded log's tool schemas are checked as the playground checks a schema (validation.check_schema) before the
grader validates calls with them (issue 13, break-it pass brk12web2). The grader assumes a checked schema:
``{"type": {"x": 1}}`` raised jsonschema's UnknownType and ``"required": [["a"]]`` a TypeError out of the selection
lab's analysis of the upload. Now the record with such a tool list is one problem, naming the tool and the refusal
in the page's language, and is not read; a list refused once is not checked again for every line that repeats it."""

import io
import json
import zipfile

import pytest

from tests.unit.test_eval_import import call, inspect_sample, line
from toolcall import validation
from toolcall.eval_import import read_log
from toolcall.evaluation import analyse

BAD = [
    ({"type": {"x": 1}},
     'Not a valid Draft 2020-12 schema: at /type, keyword "type": expected one of "array", "boolean", "integer", '
     '"null", "number", "object", "string"; received object {"x": 1}',
     '不是合法的 Draft 2020-12 schema：位置 /type，关键字 "type"：期望：以下取值之一："array", "boolean", "integer", '
     '"null", "number", "object", "string"；实际：对象 {"x": 1}'),
    ({"type": "object", "required": [["a"]]},
     'Not a valid Draft 2020-12 schema: at /required/0, keyword "required": expected type string; received array ["a"]',
     '不是合法的 Draft 2020-12 schema：位置 /required/0，关键字 "required"：期望：类型为字符串；实际：数组 ["a"]'),
]


def texts(problem):
    return problem.text("en"), problem.text("zh")


def expected(tool, en, zh):
    return (f"the input schema of tool {tool!r} cannot be used to grade calls: {en}",
            f"工具 {tool!r} 的 input schema 不能用来评判调用：{zh}")


@pytest.mark.parametrize("schema, en, zh", BAD)
def test_native_tool_list_with_a_schema_the_grader_cannot_use(schema, en, zh):
    good = {"name": "get_order", "input_schema": {"type": "object"}}
    data = "\n".join(json.dumps(line(run=n, tools=[good, {"name": "bad", "input_schema": schema}]))
                     for n in range(3)).encode()
    log = read_log(data, name="x.jsonl")
    assert log.runs == []
    assert [(p.line, p.field, texts(p)) for p in log.problems] == [
        (n, "$.tools[1].input_schema", expected("bad", en, zh)) for n in (1, 2, 3)]
    assert analyse(log, 1).cases == []


def test_a_refused_list_is_checked_once(monkeypatch):
    calls = []
    real = validation.check_schema
    monkeypatch.setattr("toolcall.eval_import.check_schema", lambda text, lang: calls.append(lang) or real(text, lang))
    data = "\n".join(json.dumps(line(run=n, tools=[{"name": "t", "input_schema": BAD[0][0]}]))
                     for n in range(50)).encode()
    log = read_log(data, name="x.jsonl")
    assert (len(log.runs), len(log.problems), calls) == (0, 50, ["en", "zh"])


@pytest.mark.parametrize("schema, en, zh", BAD)
def test_inspect_tools_with_a_schema_the_grader_cannot_use(schema, en, zh):
    bad = inspect_sample("s1", 1, [call({"order_id": "ORD-1"})], "C")
    bad["events"][0]["tools"][0]["parameters"] = schema
    good = inspect_sample("s2", 1, [call({"order_id": "ORD-1"})], "C")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("header.json", json.dumps({"version": 2, "status": "success", "eval": {"model": "m"}}))
        for i, sample in enumerate((bad, good, bad)):
            zf.writestr(f"samples/{i}_epoch_1.json", json.dumps(sample))
    log = read_log(buffer.getvalue(), name="x.eval")
    assert [r.case_id for r in log.runs] == ["s2"]
    assert [(p.line, p.field, texts(p)) for p in log.problems] == [
        (1, "samples/0_epoch_1.json.events", expected("get_order", en, zh)),
        (3, "samples/2_epoch_1.json.events", expected("get_order", en, zh))]
    assert [c.case_id for c in analyse(log, 1).cases] == ["s2"]


def test_a_good_schema_is_read_as_before():
    log = read_log(json.dumps(line()).encode(), name="x.jsonl")
    assert (len(log.runs), log.problems) == (1, [])


@pytest.mark.parametrize("field, value", [("events", 5), ("messages", 5), ("messages", "abc"), ("tool_calls", 5),
                                          ("tool_calls", {"a": 1})])
def test_inspect_lists_of_another_type_are_read_as_empty(field, value):
    """A sample's events, messages or an assistant's tool_calls that is not a list is read as none (the sample's
    tools or calls are then empty): a number raised TypeError out of the reader (break-it pass brk12web2)."""
    sample = inspect_sample("s1", 1, [call({"order_id": "ORD-1"})], "C")
    if field == "tool_calls":
        sample["messages"][1]["tool_calls"] = value
    else:
        sample[field] = value
    log = read_log(json.dumps({"version": 2, "status": "success", "eval": {"model": "m"}, "samples": [sample]})
                   .encode(), name="x.json")
    assert log.problems == [] and [r.case_id for r in log.runs] == ["s1"]
    run = log.runs[0]
    assert (len(run.calls), log.tool_sets[run.tools]) == ((1, {}) if field == "events" else (0, {
        "get_order": sample["events"][0]["tools"][0]["parameters"]}))
