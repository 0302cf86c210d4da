"""An uploaded run log cannot drive the server's memory: what its records keep is bounded in JSON values,
not only its bytes (issue 13, memory kind).

Before: each native line and each .eval member was bounded alone, but the calls' arguments, the expected
calls and the tool lists of every record were kept, so a 57 KB .eval (19 members of 950 000 ``[]`` each,
deflated) took the reader from 40 MB to 1.3 GB, 36 MB of native lines to 0.8 GB, and a 42 MB zip of 480 000
empty members built 258 MB of ZipInfo before its member count was refused. Each is run here in a
subprocess whose address space is capped by resource.setrlimit; each must end in the exact refusal and
peak RSS must stay within MAX_GROWTH_KB of the baseline. The last tests hold the kind: for any input
shape, what a RunLog keeps never exceeds MAX_KEPT_VALUES, and a MemoryError becomes a message.
"""

import io
import json
import subprocess
import sys
import textwrap
import zipfile

import pytest

from toolcall import REPO_ROOT
import toolcall.eval_import as eval_import
from toolcall.eval_import import LogError, read_log
from toolcall.i18n import t
from toolcall.validation import MAX_SCHEMA_CHARS

SCRIPT = textwrap.dedent("""
    import io, json, resource, sys, zipfile
    sys.path.insert(0, {root!r})
    from toolcall.eval_import import LogError, read_log
    read_log(b'{{"case_id": "a", "run": 0, "model": "m", "tools": [], "expected_calls": [], "actual_calls": []}}')

    def native_arguments():
        head = b'{{"case_id":"c%d","run":0,"model":"m","tools":[{{"name":"t","input_schema":{{}}}}],'
        return b"\\n".join(head % i + b'"expected_calls":[],"actual_calls":[{{"name":"t","arguments":{{"a":['
                           + b"[]," * 299_999 + b'[]],"i":%d}}}}]}}' % i for i in range(40))

    def native_tools():
        return b"\\n".join(b'{{"case_id":"c%d","run":0,"model":"m","expected_calls":[],"actual_calls":[],'
                           b'"tools":[{{"name":"t%d","input_schema":{{"enum":[' % (i, i) + b"[]," * 299_999
                           + b'[]]}}}}]}}' for i in range(19))

    def eval_arguments():
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("header.json", '{{"eval": {{"model": "m"}}}}')
            inner = "[" + ",".join(["[]"] * 240_000) + "]"  # each member under MAX_JSON_VALUES (500 000: 2 per [])
            for i in range(19):
                z.writestr(f"samples/{{i:02d}}_epoch_1.json", '{{"id": %d, "epoch": 1, "messages": [{{"role": '
                           '"assistant", "tool_calls": [{{"function": "t", "arguments": {{"a": %s}}}}]}}]}}' % (i, inner))
        return buf.getvalue()

    def eval_members():
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            for i in range(480_000):
                z.writestr(zipfile.ZipInfo(str(i)), b"")
        return buf.getvalue()

    cases = {{"native_arguments": native_arguments, "native_tools": native_tools, "eval_arguments": eval_arguments,
             "eval_members": eval_members}}
    out = {{}}
    for name, build in cases.items():
        data = build()
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        resource.setrlimit(resource.RLIMIT_AS, ({limit}, hard))
        try:
            log = read_log(data, "auto", name + (".eval" if name.startswith("eval") else ".jsonl"))
            out[name] = [len(log.runs), [[p.line, p.field, p.code, p.params] for p in log.problems]]
        except LogError as exc:
            out[name] = [exc.code, exc.params]
        out[name].append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        del data
    print(json.dumps(out))
""")

#: Address space the reading process may map (bytes), and how far its peak RSS may grow (KiB) per input: what
#: the records keep (MAX_KEPT_VALUES, ~110 MB of ``[]``) and one .eval member parsed whole before it is counted.
LIMIT = 3 * 1024 ** 3
MAX_GROWTH_KB = 200 * 1024


def test_hostile_logs_are_refused_in_bounded_memory():
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(REPO_ROOT), limit=LIMIT)],
                          capture_output=True, text=True, timeout=600, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    print("peak RSS growth KiB per input:", {name: case[-1] for name, case in report.items()})
    kept = {"limit": eval_import.MAX_KEPT_VALUES}
    assert report["native_arguments"][:2] == [3, [[4, "$", "too_many_values_kept", kept]]]  # 600 000 a line
    # each 900 000-character schema is counted, then refused as longer than a schema may be (tool_bad_schema: the
    # grader validates with it, break-it brk12web2); the counted values still stop the fourth line
    runs, problems = report["native_tools"][:2]
    assert runs == 0 and [p[:3] for p in problems] == [[n, "$.tools[0].input_schema", "tool_bad_schema"]
                                                       for n in (1, 2, 3)] + [[4, "$.tools", "too_many_values_kept"]]
    assert problems[0][3]["reason"]["en"] == t("schema.too_large", "en", size=len(json.dumps({"enum": [[]] * 300_000})), limit=MAX_SCHEMA_CHARS)
    assert problems[-1][3] == kept
    assert report["eval_arguments"][:2] == [8, [[9, "samples/08_epoch_1.json", "too_many_values_kept", kept]]]
    assert report["eval_members"][:2] == ["too_many_members", {"size": 480_000, "limit": eval_import.MAX_MEMBERS}]
    for name, case in report.items():
        assert case[-1] < MAX_GROWTH_KB, (name, case[-1])


def _native(i: int, arguments, tools=None, expected=None) -> dict:
    rec = {"case_id": f"c{i}", "run": 0, "model": "m", "expected_calls": expected or [],
           "actual_calls": [{"name": "t", "arguments": arguments}]}
    if tools is not None or i == 0:
        rec["tools"] = tools or [{"name": "t", "input_schema": {}}]
    return rec


def _jsonl(records) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def _eval(samples) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", '{"eval": {"model": "m"}}')
        for i, sample in enumerate(samples):
            z.writestr(f"samples/{i:03d}_epoch_1.json", json.dumps(sample))
    return buf.getvalue()


def _sample(i: int, arguments, tools=(), expected=None) -> dict:
    sample = {"id": i, "epoch": 1, "messages": [{"role": "assistant", "tool_calls": [{"function": "t",
                                                                                       "arguments": arguments}]}],
              "events": [{"event": "model", "tools": [{"name": "t", "parameters": p} for p in tools]}]}
    if expected is not None:
        sample["metadata"] = {"expected_calls": expected}
    return sample


def _deep(levels: int, leaf) -> list:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


BIG = [[] for _ in range(80)]
#: Every place a record keeps parsed JSON, in every reader: arguments, expected calls, tool lists; flat, and
#: nested past orjson.dumps' 255 levels (so a key-based count cannot see it).
SHAPES = {
    "native arguments": _jsonl(_native(i, {"a": BIG, "i": i}) for i in range(50)),
    "native deep arguments": _jsonl(_native(i, _deep(300, BIG + [i])) for i in range(50)),
    "native expected": _jsonl(_native(i, {}, expected=[{"name": "t", "arguments": {"a": [BIG, i]}}])
                              for i in range(50)),
    "native tools": _jsonl(_native(i, {}, tools=[{"name": "t", "input_schema": {"enum": [BIG, i]}}])
                           for i in range(19)),
    "inspect arguments": _eval(_sample(i, {"a": BIG, "i": i}) for i in range(50)),
    "inspect deep arguments": _eval(_sample(i, _deep(300, BIG + [i])) for i in range(50)),
    "inspect expected": _eval(_sample(i, {}, expected=[{"name": "t", "arguments": {"a": [BIG, i]}}])
                              for i in range(50)),
    "inspect tools": _eval(_sample(i, {}, tools=[{"enum": [BIG, i]}]) for i in range(19)),
}


def _kept_values(log) -> int:
    """Every JSON value a RunLog keeps (expected calls, call arguments, tool lists), each shared object once."""
    seen: set[int] = set()
    stack = [log.tool_sets] + [(run.expected, [c.arguments for c in run.calls]) for run in log.runs]
    count = 0
    while stack:
        value = stack.pop()
        if isinstance(value, (dict, list, tuple)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
        count += 1
    return count


@pytest.mark.parametrize("shape", SHAPES)
def test_what_a_log_keeps_never_exceeds_the_budget(shape, monkeypatch):
    """The kind: wherever a reader keeps parsed JSON, it is counted against MAX_KEPT_VALUES before it is kept."""
    monkeypatch.setattr(eval_import, "MAX_KEPT_VALUES", 1000)
    log = read_log(SHAPES[shape], "auto", "x.eval" if shape.startswith("inspect") else "x.jsonl")
    assert _kept_values(log) <= 1000 + 10 * len(log.runs)  # + the tuples and Call rows around each record
    assert log.problems[-1].code == "too_many_values_kept"
    assert log.problems[-1].params == {"limit": 1000}
    assert 1 <= len(log.runs) < 19


@pytest.mark.parametrize("reader", ["read_native", "read_tau", "read_inspect"])
def test_memory_error_in_a_reader_becomes_a_message(reader, monkeypatch):
    def boom(_data):
        raise MemoryError

    monkeypatch.setattr(eval_import, reader, boom)
    fmt = reader.removeprefix("read_")
    with pytest.raises(LogError) as caught:
        read_log(b"[]", fmt)
    assert caught.value.code == "out_of_memory"
    assert caught.value.text("en") == ("reading this log needs more memory than the server can give it; "
                                       "upload a smaller log")
    assert caught.value.text("zh") == "读这份日志需要的内存超出了服务器能给的，请上传小一些的日志"


def _long_names(body: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(5):
            z.writestr("samples/" + "a" * 30_000 + f"{i}.json", body)
    return buf.getvalue()


@pytest.mark.parametrize("body", [b"{}", b"{nope", b"[" + b"[]," * 1_100_000 + b"[]]"],
                         ids=["no_id", "not_json", "values"])
def test_a_problem_quotes_a_long_member_name_cut(body):
    """Before: each problem quoted the member's whole name (up to 65 535 characters), so 700 members of
    30 000-character names made a 21 MB problem list on the upload page."""
    log = read_log(_long_names(body), "auto", "x.eval")
    assert len(log.problems) == 5
    for i, problem in enumerate(log.problems):
        assert problem.field.startswith("samples/" + "a" * 92 + "…")
        assert problem.field.split("…")[1].startswith(f"aaaa{i}.json")  # the last 10 characters kept
        assert len(problem.describe("en")) < 300 and len(problem.describe("zh")) < 300
