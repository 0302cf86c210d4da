"""Importers on small real-shaped files written from each format's documented schema:
native JSONL, τ-bench / τ²-bench results, Inspect AI .json and .eval logs; malformed input."""

import io
import json
import math
import zipfile
from pathlib import Path

import pytest
import orjson
from jsonschema import Draft202012Validator

from toolcall import FIXTURES_DIR
from toolcall.eval_import import (LogError, LogTooLarge, LogUnreadable, detect_log_format, read_log, read_native, read_tau,
                                  tau_success, value_to_float)
from toolcall.evaluation import analyse
from toolcall.i18n import t

NATIVE_SCHEMA = Draft202012Validator(json.loads((FIXTURES_DIR / "schemas" / "eval_runs.schema.json").read_text()))
RUN_FILES = sorted((FIXTURES_DIR / "eval_runs").glob("*.jsonl"))
TOOL = {"name": "get_order", "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}},
                                              "required": ["order_id"]}}


def line(**over):
    rec = {"case_id": "c1", "run": 1, "model": "m", "tools": [TOOL],
           "expected_calls": [{"name": "get_order", "arguments": {"order_id": ["ORD-1"]}}],
           "actual_calls": [{"name": "get_order", "raw_arguments": '{"order_id": "ORD-1"}'}]}
    rec.update(over)
    return {k: v for k, v in rec.items() if v is not ...}


@pytest.mark.parametrize("path", RUN_FILES, ids=lambda p: p.name)
def test_shipped_runs_load_and_match_the_schema(path):
    """Every recorded log loads with no problem, and each of its lines is valid against the
    documented JSON Schema."""
    log = read_native(path.read_bytes())
    assert log.problems == [] and len(log.runs) == len(path.read_text().splitlines())
    for text in path.read_text().splitlines()[:40]:
        assert not list(NATIVE_SCHEMA.iter_errors(json.loads(text)))


BAD = [
    ("not json {", "$", "not JSON"),
    (line(case_id=...), "$.case_id", "required field missing"),
    (line(run="one"), "$.run", "whole number"),
    (line(run=-1), "$.run", "whole number"),
    (line(expected_calls=[{"name": "a"}, {"name": "b"}]), "$.expected_calls", "at most one"),
    (line(expected_calls=[{"name": "a", "arguments": {"x": "ORD-1"}}]), "$.expected_calls[0].arguments", "list"),
    (line(actual_calls=[{"arguments": {}}]), "$.actual_calls[0].name", "string"),
    (line(actual_calls=[{"name": "a", "raw_arguments": {"x": 1}}]), "$.actual_calls[0].raw_arguments", "string"),
    (line(actual_calls=[{"name": "a"}]), "$.actual_calls[0]", "arguments or raw_arguments"),
    (line(tools=[{"name": "a"}]), "$.tools[0].input_schema", "input_schema"),
    (line(passed="yes"), "$.passed", "true or false"),
]


def test_malformed_lines_get_line_and_field_and_the_rest_loads():
    """A bad line is reported with its line number and field; every other line still loads."""
    texts = [json.dumps(line())] + [b if isinstance(b, str) else json.dumps(b) for b, _, _ in BAD]
    texts.insert(3, "")  # a blank line is skipped, yet numbering follows the file
    texts.append(json.dumps(line(run=2, tools=...)))
    log = read_native("\n".join(texts).encode())
    assert [r.run for r in log.runs] == [1, 2] and log.runs[1].line == len(texts)
    numbers = [i + 1 for i, t in enumerate(texts) if t and t != texts[0] and t != texts[-1]]
    assert [p.line for p in log.problems] == numbers
    for problem, (_, field, words) in zip(log.problems, BAD):
        assert problem.field == field and words in problem.message


@pytest.mark.parametrize("bad, field, words", [b for b in BAD if not isinstance(b[0], str)])
def test_the_schema_refuses_what_the_reader_refuses(bad, field, words):
    """fixtures/schemas/eval_runs.schema.json and the reader's own checks agree."""
    assert list(NATIVE_SCHEMA.iter_errors(bad))


def test_first_line_must_list_tools():
    log = read_native(json.dumps(line(tools=...)).encode())
    assert log.runs == [] and (log.problems[0].line, log.problems[0].field) == (1, "$.tools")


def test_size_cap():
    with pytest.raises(LogTooLarge) as err:
        read_log(b"x" * 101, limit=100)
    assert (err.value.size, err.value.limit) == (101, 100)


# --- τ-bench ---------------------------------------------------------------------------

def tau_v1():
    """τ-bench's results file: a list of EnvRunResult dumps (task_id, reward, info, traj, trial)."""
    rewards = {0: [1.0, 1.0, 0.0, 1.0], 1: [0.0, 0.0, 0.0, 0.9999995], 2: [1.0, 1.0, 1.0, 1.0]}
    return [{"task_id": task, "reward": r, "info": {"task": {"user_id": "u"}}, "traj": [], "trial": trial}
            for trial in range(4) for task, rs in rewards.items() for r in [rs[trial]]]


def test_tau_bench_pass_hat_k_as_they_compute_it():
    """pass^k per task C(c,k)/C(n,k); averaged over tasks it equals τ-bench's display_metrics
    (c per task over C(num_trials, k)) on this complete file: k = 2 gives (3/6 + 0 + 1)/3."""
    log = read_log(json.dumps(tau_v1()).encode())
    assert log.fmt == "tau" and len(log.runs) == 12 and log.problems == []
    result = analyse(log, 2)
    assert [(c.case_id, c.n, c.c) for c in result.cases] == [("0", 4, 3), ("1", 4, 1), ("2", 4, 4)]
    assert [c.pass_hat_k for c in result.cases] == [0.5, 0.0, 1.0]
    theirs = sum(math.comb(c, 2) / math.comb(4, 2) for c in (3, 1, 4)) / 3
    assert sum(c.pass_hat_k for c in result.cases) / 3 == pytest.approx(theirs)
    assert result.confusion.empty and result.ungraded == 0


def test_tau2_results_object():
    """τ²-bench Results: reward under reward_info; infrastructure_error runs are left out."""
    sims = [{"id": f"s{i}", "task_id": "t1", "trial": i, "termination_reason": "user_stop",
             "reward_info": {"reward": 1.0 if i != 1 else 0.0}} for i in range(3)]
    sims.append({"id": "s9", "task_id": "t1", "trial": 3, "termination_reason": "infrastructure_error",
                 "reward_info": None})
    sims.append({"id": "bad", "task_id": "t2", "trial": 0, "termination_reason": "user_stop",
                 "reward_info": {"reward": "high"}})
    doc = {"info": {"num_trials": 4, "agent_info": {"implementation": "llm_agent", "llm": "gpt-x"}}, "tasks": [],
           "simulations": sims}
    log = read_log(json.dumps(doc).encode())
    assert [(r.case_id, r.logged_passed, r.model) for r in log.runs] == [("t1", True, "gpt-x"), ("t1", False, "gpt-x"),
                                                                       ("t1", True, "gpt-x")]
    assert (log.problems[0].line, log.problems[0].field) == (5, "$.simulations[4].reward_info.reward")
    case = analyse(log, 2).cases[0]
    assert (case.n, case.c, case.pass_hat_k) == (3, 2, pytest.approx(1 / 3))


def test_tau_success_threshold_and_unreadable():
    assert tau_success(0.9999991) and not tau_success(0.99) and not tau_success(1.1)
    with pytest.raises(LogUnreadable):
        read_tau(b"{not json")
    with pytest.raises(LogUnreadable):
        read_tau(b'{"neither": 1}')


# --- Inspect AI ---------------------------------------------------------------------------

def inspect_sample(sid, epoch, calls, score, expected=None):
    sample = {"id": sid, "epoch": epoch, "input": "Where is ORD-1?", "target": "get_order",
              "messages": [{"role": "user", "content": "Where is ORD-1?"},
                           {"role": "assistant", "content": "", "tool_calls": calls}],
              "scores": {"tool_choice": {"value": score}},
              "events": [{"event": "model", "tools": [{"name": "get_order", "description": "d",
                                                       "parameters": TOOL["input_schema"]}]}]}
    if expected is not None:
        sample["metadata"] = {"expected_calls": expected}
    return sample


def call(args, parse_error=None):
    return {"id": "call_1", "function": "get_order", "arguments": args, "parse_error": parse_error, "type": "function"}


def inspect_log():
    samples = [inspect_sample("s1", e, [call({"order_id": "ORD-1"})], v) for e, v in ((1, "C"), (2, "C"), (3, "I"))]
    want = [{"name": "get_order", "arguments": {"order_id": ["ORD-1"]}}]
    samples += [inspect_sample("s2", 1, [call({}, "Expecting value: line 1 column 1")], "C", want),
                inspect_sample("s2", 2, [call({"order_id": "ORD-1"})], "I", want)]
    return {"version": 2, "status": "success", "eval": {"task": "selection", "model": "openai/gpt-x", "task_id": "x"},
            "results": {}, "samples": samples}


def test_inspect_json_log():
    """Epochs become runs; without metadata.expected_calls the score decides (C passes, I does
    not, Inspect's value_to_float ≥ 1.0, its pass_k reducer's threshold); with it, our grade
    decides (a parse_error is unparsable, whatever the score says)."""
    log = read_log(json.dumps(inspect_log()).encode(), name="log.json")
    assert log.fmt == "inspect" and log.problems == []
    assert [(r.case_id, r.run, r.model) for r in log.runs][:2] == [("s1", 1, "openai/gpt-x"), ("s1", 2, "openai/gpt-x")]
    result = analyse(log, 2)
    s1, s2 = result.cases
    assert (s1.n, s1.c) == (3, 2) and s1.pass_hat_k == pytest.approx(math.comb(2, 2) / math.comb(3, 2))
    assert (s2.n, s2.c, s2.expected_tool) == (2, 1, "get_order")
    assert list(result.graded["error_type"])[3] == "unparsable_arguments"
    assert result.disagreements == 2 and result.confusion.loc["get_order", "get_order"] == 2


def eval_zip(samples, header=True, extra=(), method=zipfile.ZIP_DEFLATED):
    """An Inspect .eval of ``samples``, its members packed with ``method`` (Zstandard, 93, too)."""
    from tests.eval_shapes import zstd_zipfile

    buffer = io.BytesIO()
    with zstd_zipfile.ZipFile(buffer, "w", method) as zf:
        head = {"version": 2, "status": "success", "eval": {"task": "selection", "model": "anthropic/claude-x"}}
        zf.writestr("header.json" if header else "start.json", json.dumps(head))
        for s in samples:
            zf.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
        for name, text in extra:
            zf.writestr(name, text)
    return buffer.getvalue()


def test_inspect_eval_zip():
    """The .eval zip: header.json (or the older start.json) plus samples/<id>_epoch_<n>.json;
    a member that is not JSON is one problem, the others load."""
    data = eval_zip(inspect_log()["samples"], extra=[("samples/zz_epoch_1.json", "{broken")])
    assert detect_log_format(data, "x.eval") == "inspect"
    log = read_log(data, name="x.eval")
    assert len(log.runs) == 5 and log.runs[0].model == "anthropic/claude-x"
    assert log.problems[0].field == "samples/zz_epoch_1.json" and "not JSON" in log.problems[0].message
    assert read_log(eval_zip(inspect_log()["samples"], header=False)).runs[0].model == "anthropic/claude-x"


def test_inspect_caps(monkeypatch):
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_UNCOMPRESSED", 100)
    with pytest.raises(LogTooLarge):
        read_log(eval_zip(inspect_log()["samples"]))
    with pytest.raises(LogUnreadable):
        read_log(b"PK\x03\x04 not a zip")


def test_inspect_sample_problems():
    doc = inspect_log()
    doc["samples"][1].pop("epoch")
    doc["samples"][2]["metadata"] = {"expected_calls": [{"name": 3}]}
    log = read_log(json.dumps(doc).encode())
    assert [(p.line, p.field) for p in log.problems] == [(2, "$.samples[1].epoch"),
                                                         (3, "$.samples[2].metadata.expected_calls")]
    assert len(log.runs) == 3


def test_value_to_float_like_inspect():
    assert [value_to_float(v) for v in ("C", "P", "I", "N", True, False, 0.5, "yes", "2", "what")] == \
        [1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.5, 1.0, 2.0, 0.0]


def test_detect_format():
    assert detect_log_format(Path(RUN_FILES[0]).read_bytes()) == "native"
    assert detect_log_format(json.dumps(tau_v1()).encode()) == "tau"
    assert detect_log_format(json.dumps({"simulations": []}).encode()) == "tau"
    assert detect_log_format(json.dumps(inspect_log()).encode()) == "inspect"


# --- bounds: one member, one document, the problems list ------------------------------------


def _eval_zip(member: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("header.json", b'{"eval": {"model": "m"}}')
        zf.writestr("samples/a_epoch_1.json", member)
    return out.getvalue()


def test_an_eval_member_over_the_member_limit_is_refused_not_unpacked(monkeypatch):
    """A small zip whose one member unpacks far beyond MAX_JSON_BYTES is one problem naming
    the member, though the total unpacked size is within MAX_UNCOMPRESSED."""
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_JSON_BYTES", 1_000)
    data = _eval_zip(b"[" + b"0," * 5_000 + b"0]")
    log = read_log(data, "inspect", "x.eval")
    assert log.runs == [] and [p.line for p in log.problems] == [1]
    assert log.problems[0].message == "samples/a_epoch_1.json is 10,003 bytes; the limit is 1,000"


def test_an_eval_member_lying_about_its_size_is_cut_while_unpacking(monkeypatch):
    """A header declaring a size within the limit does not let more through: the read stops at
    the declared size (zipfile then fails the CRC), never past the limit."""
    import toolcall.eval_import as imp

    data = _eval_zip(b"[" + b"0," * 5_000 + b"0]")
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo("samples/a_epoch_1.json")
    info.file_size = 1_000  # a lying header, exactly at the limit
    monkeypatch.setattr(imp, "MAX_JSON_BYTES", 1_000)
    with pytest.raises(zipfile.BadZipFile, match="Bad CRC-32"):
        imp._member(data, zf, info)
    log = read_log(data, "inspect", "x.eval")
    assert log.runs == [] and "Bad CRC-32" not in log.problems[0].message  # the real size is refused


@pytest.mark.parametrize("fmt, doc", [("inspect", b'{"samples": [' + b"0," * 3_000 + b"0]}"),
                                      ("tau", b"[" + b"{}," * 3_000 + b"{}]")])
def test_whole_json_documents_are_bounded_by_values_before_parsing(monkeypatch, fmt, doc):
    """τ-bench and Inspect .json are parsed whole: too many values is refused from the bytes."""
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_JSON_VALUES", 2_000)
    with pytest.raises(LogTooLarge) as caught:
        read_log(doc, fmt)
    assert caught.value.limit == 2_000 and caught.value.size > 3_000


@pytest.mark.parametrize("fmt, doc", [("native", b"x\n" * 50),
                                      ("tau", b"[" + b"0," * 49 + b"0]"),
                                      ("inspect", b'{"samples": [' + b"0," * 49 + b"0]}")])
def test_reading_stops_after_max_problems_and_says_so(monkeypatch, fmt, doc):
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_PROBLEMS", 10)
    log = read_log(doc, fmt)
    assert len(log.problems) == 11 and log.problems[-1].line == 11
    assert log.problems[-1].message == "more than 10 problems; the rest is not read"


def test_records_are_capped_good_or_bad(monkeypatch):
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_RUNS", 6)
    good = json.dumps(line()).encode()
    log = read_native(b"\n".join([good, b"x", good, b"x", good, b"x", good, good]))
    assert (len(log.runs), len(log.problems)) == (3, 4)
    assert log.problems[-1].message == "more than 6 records; the rest is not read" and log.problems[-1].line == 7


def test_distinct_tool_lists_are_capped_per_log(monkeypatch):
    """Each new tool list costs schema work: past MAX_TOOL_SETS the line is a problem."""
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_TOOL_SETS", 2)
    lines = [json.dumps(line(run=i, tools=[{**TOOL, "description": str(i % 3)}])) for i in range(6)]
    log = read_native("\n".join(lines).encode())
    assert [r.run for r in log.runs] == [0, 1, 3, 4] and len(log.tool_sets) == 2
    assert [(p.line, p.field, p.code, p.params) for p in log.problems] == [
        (3, "$.tools", "too_many_tool_sets", {"limit": 2}), (6, "$.tools", "too_many_tool_sets", {"limit": 2})]
    assert log.problems[0].message == "more than 2 distinct tool lists in one log; this record is not read"


def test_tau_records_without_trial_are_numbered_per_task():
    """Without ``trial`` the trial is the task's own count, not the position in the file: two
    tasks of two results each is 2 trials seen, so no "fewer than" note."""
    doc = [{"task_id": t, "reward": 1.0} for t in (1, 2, 1, 2)]
    log = read_tau(json.dumps(doc).encode())
    assert [(r.case_id, r.run) for r in log.runs] == [("1", 0), ("2", 0), ("1", 1), ("2", 1)]
    assert not any(n.code == "tau_fewer_trials" for n in log.notes)
    log = read_tau(json.dumps(doc + [{"task_id": 1, "reward": 0.0}]).encode())
    assert any("fewer than the 3 trials seen" in str(n) for n in log.notes)


# --- issue 14: a parser's or zipfile's English text never reaches a message ------------------------

_LIBRARY_WORDS = ("unexpected", "expected", "surrogates", "char", "File is not", "zip file", "Expecting")


def _no_library_text(text: str) -> None:
    assert not any(word in text for word in _LIBRARY_WORDS), text


def _key_expected(lang: str, line: int = 1) -> str:
    """Why ``{a`` (on ``line``) is not JSON, in the words every "not JSON" message of the app uses."""
    return (t("json_error.explain.expecting_property_name", lang, line=line, column=2, excerpt="{a")
            + t("json_error.explain_raw", lang, raw="Expecting property name enclosed in double quotes"))


def _no_orjson_text(text: str) -> None:
    """orjson's own English message is never shown (the reason is json_explain's, in the page's language)."""
    try:
        orjson.loads(b"{a")
    except orjson.JSONDecodeError as exc:
        assert str(exc).split(":")[0] not in text, text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_whole_document_that_is_not_json_gives_line_and_column_in_our_words(lang):
    """And why (newcomer pass: "不是 JSON：第 1 行第 1 列出错" said where, not what)."""
    with pytest.raises(LogError) as caught:
        read_log(b"{a", "tau")
    assert caught.value.code == "not_json"
    assert caught.value.text(lang) == t("eval.error.not_json", lang, reason=_key_expected(lang))
    _no_orjson_text(caught.value.text(lang))


# (b"\xff\xfe" is UTF-16's byte-order mark, named as such: tests/unit/test_eval_log_encodings.py)
@pytest.mark.parametrize("data, byte", [(b"\xfe[]", 0), (b'[{"task_id": "\xe4\xb8"}]', 14)])
def test_bytes_that_are_not_utf8_say_so_with_the_offset(data, byte):
    with pytest.raises(LogError) as caught:
        read_log(data, "tau")
    assert (caught.value.code, caught.value.params) == ("not_utf8", {"byte": byte})
    assert caught.value.text("zh") == t("eval.error.not_utf8", "zh", byte=byte)


def test_a_native_line_that_is_not_json_or_not_utf8():
    log = read_native(b'\n{a\n\xff\xfe\n')  # a blank line first: the bad one is line 2
    assert [(p.line, p.code) for p in log.problems] == [(2, "not_json"), (3, "not_utf8")]
    assert log.problems[1].params == {"byte": 0}
    for lang in ("en", "zh"):  # the place named is the line of the file, as the line number before it says
        assert log.problems[0].text(lang) == t("eval.problem.not_json", lang, reason=_key_expected(lang, line=2))
    for p in log.problems:
        _no_orjson_text(p.describe("zh"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_not_a_zip_has_no_zipfile_text(lang):
    with pytest.raises(LogError) as caught:
        read_log(b"PK\x03\x04 not a zip", "inspect")
    assert caught.value.code == "not_zip" and caught.value.params == {}
    _no_library_text(caught.value.text(lang))


def test_a_bad_member_of_an_eval_zip_is_named_by_its_member_not_a_line():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("samples/s1_epoch_1.json", b"{a")
        zf.writestr("samples/s2_epoch_1.json", b"\xff\xfe")
    log = read_log(buf.getvalue(), "inspect")
    assert [(p.field, p.code) for p in log.problems] == [
        ("samples/s1_epoch_1.json", "member_not_json"), ("samples/s2_epoch_1.json", "member_not_utf8")]
    assert log.problems[1].params == {"byte": 0}
    assert log.problems[0].describe("zh") == "samples/s1_epoch_1.json：" + t(
        "eval.problem.member_not_json", "zh", reason=_key_expected("zh"))
