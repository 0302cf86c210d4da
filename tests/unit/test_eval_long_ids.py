"""Case ids and tool names an uploaded log gives are at most eval_import.MAX_ID_CHARS characters, in every format
(issue 13, break-it pass brk12web2). A native case_id was already capped at 200, but a τ-bench task id, an Inspect
sample id and every tool name (native, Inspect) were not: an .eval of 100 samples whose ids are 100 000 Cyrillic
letters each packs into about 64 KB, and the selection lab kept 10 million characters of ids and drew a per-case
table of 60 million (each look-alike letter escaped to six characters), sent on every rerun. Now each such record is
one problem, with its size and the limit, and is not read."""

import io
import json
import zipfile

import pytest
from jsonschema import Draft202012Validator

from tests.unit.test_eval_import import TOOL, call, inspect_sample, line, tau_v1
from toolcall import FIXTURES_DIR, eval_import
from toolcall.eval_import import read_log
from toolcall.evaluation import analyse
from toolcall.text import escape_lookalikes

NATIVE_SCHEMA = Draft202012Validator(json.loads((FIXTURES_DIR / "schemas" / "eval_runs.schema.json").read_text()))


def eval_bytes(samples):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("header.json", json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}))
        for i, s in enumerate(samples):
            zf.writestr(f"samples/{i}_epoch_{s['epoch']}.json", json.dumps(s, ensure_ascii=False))
    return buffer.getvalue()


def messages(problem):
    return problem.text("en"), problem.text("zh")


def expected_texts(size):
    limit = eval_import.MAX_ID_CHARS
    return (f"{size:,} characters: an id or a tool name may have at most {limit}; this record is not read",
            f"共 {size:,} 个字符：id 或工具名最多 {limit} 个字符；这条记录不读")


def test_the_limit_is_the_native_case_id_limit():
    assert eval_import.MAX_ID_CHARS == 200
    assert NATIVE_SCHEMA.schema["properties"]["case_id"]["maxLength"] == eval_import.MAX_ID_CHARS


def test_inspect_sample_ids_past_the_limit_are_problems_not_a_table_of_millions():
    """The measured upload: 100 samples, ids of 100 000 Cyrillic а. Before: 100 runs, 10 000 190 characters of
    case ids, 60 000 190 in the per-case table. Now: no run, one problem per sample."""
    samples = [inspect_sample(f"{i}" + "а" * 100_000, 1, [call({"order_id": "ORD-1"})], "C") for i in range(100)]
    data = eval_bytes(samples)
    assert len(data) < 100_000
    log = read_log(data, "auto", "x.eval", 20_000_000)
    assert log.runs == [] and len(log.problems) == 100
    first = log.problems[0]
    assert (first.line, first.field, first.code) == (1, "samples/0_epoch_1.json.id", "too_long")
    assert messages(first) == expected_texts(100_001)
    assert sum(len(escape_lookalikes(c.case_id)) for c in analyse(log, 3).cases) == 0


@pytest.mark.parametrize("size, read", [(200, True), (201, False)])
def test_inspect_sample_id_at_and_past_the_limit(size, read):
    log = read_log(eval_bytes([inspect_sample("s" * size, 1, [call({"order_id": "ORD-1"})], "C")]), name="x.eval")
    assert [r.case_id for r in log.runs] == (["s" * size] if read else [])
    assert [messages(p) for p in log.problems] == ([] if read else [expected_texts(size)])


def test_inspect_tool_and_call_names_past_the_limit():
    long_call = inspect_sample("s1", 1, [dict(call({"order_id": "ORD-1"}), function="g" * 201)], "C")
    long_tool = inspect_sample("s2", 1, [call({"order_id": "ORD-1"})], "C")
    long_tool["events"][0]["tools"][0]["name"] = "h" * 300
    log = read_log(eval_bytes([long_call, long_tool]), name="x.eval")
    assert log.runs == []
    assert [(p.line, p.field, messages(p)) for p in log.problems] == [
        (1, "samples/0_epoch_1.json.messages", expected_texts(201)),
        (2, "samples/1_epoch_1.json.events", expected_texts(300))]


@pytest.mark.parametrize("size, read", [(200, True), (201, False)])
def test_tau_task_ids(size, read):
    records = tau_v1()[:1]
    records[0]["task_id"] = "t" * size
    log = read_log(json.dumps(records).encode())
    assert [r.case_id for r in log.runs] == (["t" * size] if read else [])
    assert [(p.field, messages(p)) for p in log.problems] == ([] if read else [("$[0].task_id", expected_texts(size))])


@pytest.mark.parametrize("over, field", [
    ({"actual_calls": [{"name": "a" * 201, "raw_arguments": "{}"}]}, "$.actual_calls[0].name"),
    ({"expected_calls": [{"name": "b" * 201, "arguments": {}}]}, "$.expected_calls[0].name"),
    ({"tools": [dict(TOOL, name="c" * 201)]}, "$.tools[0].name"),
])
def test_native_tool_names(over, field):
    """The reader and the documented schema refuse the same names."""
    record = line(**over)
    log = read_log(json.dumps(record).encode(), name="x.jsonl")
    assert log.runs == []
    assert [(p.line, p.field, messages(p)) for p in log.problems] == [(1, field, expected_texts(201))]
    assert list(NATIVE_SCHEMA.iter_errors(record))
    at_limit = {k: json.loads(json.dumps(v).replace("a" * 201, "a" * 200).replace("b" * 201, "b" * 200)
                              .replace("c" * 201, "c" * 200)) for k, v in over.items()}
    assert not list(NATIVE_SCHEMA.iter_errors(line(**at_limit)))
    assert len(read_log(json.dumps(line(**at_limit)).encode(), name="x.jsonl").runs) == 1


def test_a_long_scorer_name_is_quoted_short():
    """The note naming the scorer that decided pass quotes it as a member name is quoted (first 100 characters, …,
    last 10): a 3.5 KB .eval with a scorer of a million characters made a note of 6 000 093 characters, drawn as a
    caption on every rerun."""
    sample = inspect_sample("s1", 1, [call({"order_id": "ORD-1"})], "C")
    scorer = "s" * 1_000_000 + "0123456789"
    sample["scores"] = {scorer: {"value": "C"}}
    log = read_log(eval_bytes([sample]), name="x.eval")
    assert len(log.runs) == 1
    shown = "s" * 100 + "…0123456789"
    assert [(n.text("en"), n.text("zh")) for n in log.notes] == [
        (f"pass from score {shown!r} (≥ 1.0 after value_to_float) when a sample has no metadata.expected_calls",
         f"sample 没有 metadata.expected_calls 时，是否通过看评分 {shown!r}（value_to_float 之后 ≥ 1.0 算通过）")]
