"""Inspect ``.eval`` logs whose members are packed with Zstandard (zip method 93), as current Inspect writes them
(UKGovernmentBEIS/inspect_ai PR #3145, issue #4553), are read with the bounds of deflate members.

Before: Python 3.11's zipfile cannot unpack method 93, so every member of a real current upload was "this member of
the zip cannot be read". And zipfile's bzip2 and LZMA reads call ``decompress(data)`` without a bound, so a member
declaring 10 bytes unpacked to everything its compressed bytes held in one call before the read was cut (the same
kind: a member that allocates past MAX_JSON_BYTES). Cases: every fixture run log as an Inspect ``.eval`` in deflate
and in zstd; bombs in zstd, bzip2 and LZMA, declared and undeclared; a damaged stream, a bad CRC, a short stream, a
window too large; the command line."""

from __future__ import annotations

import bz2
import io
import json
import lzma
import struct
import subprocess
import sys
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest

from tests.eval_shapes import zstd_zipfile
from toolcall import FIXTURES_DIR, REPO_ROOT
from toolcall.cli import main
from toolcall.eval_import import MAX_JSON_BYTES, ZIP_ZSTANDARD, ZSTD_WINDOW_LOG_MAX, read_log, zstd


FIXTURE_LOGS = sorted((FIXTURES_DIR / "eval_runs").glob("*.jsonl"))
HEADER = json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}).encode()
SAMPLE = json.dumps({"id": "c1", "epoch": 1, "messages": [{"role": "assistant", "tool_calls": []}],
                     "scores": {"s": {"value": "C"}}}).encode()


def inspect_members(native: Path) -> list[tuple[str, bytes]]:
    """A native run log (fixtures/eval_runs) as the members of an Inspect .eval: one sample per line, its calls the
    first assistant message's tool_calls, its tools a model event's, its expected calls metadata.expected_calls."""
    members, tools = [("header.json", json.dumps({"version": 2, "eval": {"model": "recorded"}}).encode())], None
    for line in native.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        tools = rec.get("tools", tools)
        calls = [{"id": f"call_{i}", "function": c["name"], "arguments": c.get("arguments", {}), "type": "function"}
                 for i, c in enumerate(rec["actual_calls"])]
        sample = {"id": rec["case_id"], "epoch": rec["run"], "metadata": {"expected_calls": rec["expected_calls"]},
                  "messages": [{"role": "user", "content": rec.get("request", "")},
                               {"role": "assistant", "content": "", "tool_calls": calls}],
                  "events": [{"event": "model", "tools": [{"name": t["name"], "description": t.get("description", ""),
                                                          "parameters": t["input_schema"]} for t in tools]}]}
        members.append((f"samples/{rec['case_id']}_epoch_{rec['run']}.json", json.dumps(sample).encode()))
    return members


def written(members: list[tuple[str, bytes]], method: int, **options) -> bytes:
    """A zip of ``members`` as a zipfile that knows method 93 writes it (how Inspect writes a .eval)."""
    buf = io.BytesIO()
    with zstd_zipfile.ZipFile(buf, "w", compression=method, **options) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def hand_zip(members: list[tuple[str, int, bytes, int, int]]) -> bytes:
    """A zip written field by field (APPNOTE 4.3.7, 4.3.12, 4.3.16): each member is (name, method, packed bytes,
    declared CRC-32, declared unpacked size), so a test can declare what a hostile archive declares."""
    local, central = bytearray(), bytearray()
    for name, method, packed, crc, size in members:
        raw = name.encode()
        central += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 63, 63, 0, method, 0, 0x21, crc, len(packed), size,
                               len(raw), 0, 0, 0, 0, 0, len(local)) + raw
        local += struct.pack("<4s5H3I2H", b"PK\x03\x04", 63, 0, method, 0, 0x21, crc, len(packed), size,
                             len(raw), 0) + raw + packed
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(local), 0)
    return bytes(local + central + end)


def zeros_packed(method: int, size: int) -> bytes:
    """``size`` zero bytes packed with ``method``, compressed a MiB at a time (never held whole)."""
    if method == zipfile.ZIP_LZMA:  # zip LZMA: version, properties size, the LZMA1 properties, the raw stream
        lzma1 = {"id": lzma.FILTER_LZMA1, "lc": 3, "lp": 0, "pb": 2, "dict_size": 1 << 18}
        compressor = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[lzma1])
        head = struct.pack("<BBHBI", 9, 4, 5, (2 * 5 + 0) * 9 + 3, 1 << 18)  # properties: (pb * 5 + lp) * 9 + lc
    else:
        compressor = zstd.ZstdCompressor() if method == ZIP_ZSTANDARD else bz2.BZ2Compressor()
        head = b""
    mib = b"\0" * (1 << 20)
    return head + b"".join(compressor.compress(mib[:min(1 << 20, size - at)]) for at in range(0, size, 1 << 20)) \
        + compressor.flush()


def _cli_json(tmp_path: Path, name: str, data: bytes, capsys) -> tuple[int, str]:
    path = tmp_path / name
    path.write_bytes(data)
    code = main(["eval", str(path), "--k", "1", "--out", "json"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("native", FIXTURE_LOGS, ids=lambda p: p.name)
def test_the_same_log_in_deflate_and_zstd_gives_the_same_analysis(native, tmp_path, capsys):
    """Every recorded run log, written as an Inspect .eval once with deflate and once with Zstandard, reads to the
    same runs, problems and tools and the same `eval --out json` analysis; no member is a problem."""
    members = inspect_members(native)
    deflated, packed = written(members, zipfile.ZIP_DEFLATED), written(members, ZIP_ZSTANDARD)
    assert {i.compress_type for i in zipfile.ZipFile(io.BytesIO(packed)).infolist()} == {ZIP_ZSTANDARD}
    a, b = read_log(deflated, "auto", "log.eval"), read_log(packed, "auto", "log.eval")
    assert b.problems == [] and len(b.runs) == len(members) - 1
    assert (a.runs, a.problems, a.notes, a.tool_sets) == (b.runs, b.problems, b.notes, b.tool_sets)
    assert _cli_json(tmp_path, "d.eval", deflated, capsys) == _cli_json(tmp_path, "z.eval", packed, capsys)


def test_the_command_line_reads_a_zstd_eval(tmp_path):
    """`python -m toolcall eval` on a Zstandard .eval prints the analysis of its runs, exit 0."""
    native = FIXTURE_LOGS[0]
    path = tmp_path / "log.eval"
    path.write_bytes(written(inspect_members(native), ZIP_ZSTANDARD, compresslevel=19))
    out = subprocess.run([sys.executable, "-m", "toolcall", "eval", str(path), "--k", "1", "--out", "json"],
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    runs = len(native.read_text(encoding="utf-8").splitlines())
    assert sum(case["n"] for case in json.loads(out.stdout)["cases"]) == runs


def _peak(data: bytes) -> tuple[object, int]:
    tracemalloc.start()
    try:
        log = read_log(data, "inspect", "bomb.eval")
        return log, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("declared", ["declared", "undeclared"])
def test_a_zstd_bomb_is_refused_as_member_too_large_in_bounded_memory(declared):
    """1 GiB of zeros in 32 KB of zstd, declaring 300 MB (over the member cap, under the archive's) or 100 bytes:
    that member is member_too_large (the declared size), or unreadable (reading stopped one byte past the 100 it
    declared: it lies about its size), and reading it holds at most about twice the member cap (the bytes read and
    their copy); the other sample loads."""
    packed, claim = zeros_packed(ZIP_ZSTANDARD, 1 << 30), 300_000_000 if declared == "declared" else 100
    assert len(packed) < 100_000
    data = hand_zip([("header.json", zipfile.ZIP_STORED, HEADER, zlib.crc32(HEADER), len(HEADER)),
                     ("samples/a_epoch_1.json", ZIP_ZSTANDARD, packed, 0, claim),
                     ("samples/c1_epoch_1.json", ZIP_ZSTANDARD, zstd.compress(SAMPLE), zlib.crc32(SAMPLE),
                      len(SAMPLE))])
    log, peak = _peak(data)
    assert [(p.line, p.code, p.params) for p in log.problems] == [
        (1, "member_too_large", {"name": "samples/a_epoch_1.json", "size": claim, "limit": MAX_JSON_BYTES})
        if declared == "declared" else (1, "member_unreadable", {})]
    assert [r.case_id for r in log.runs] == ["c1"]
    assert peak < 2.5 * MAX_JSON_BYTES, peak


@pytest.mark.parametrize("method", [ZIP_ZSTANDARD, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["zstd", "bzip2", "lzma"])
def test_a_member_lying_about_its_size_never_unpacks_past_the_cap(method, monkeypatch):
    """Every method this reader unpacks itself: 40 MB of zeros declaring 100 bytes, under a 100 KB member cap, is
    unreadable (it lies about its size) and costs a few times the cap. Before, zipfile's bzip2 and LZMA reads unpacked
    the whole 40 MB in one decompress call (tracemalloc peak ≥ 40 MB)."""
    import toolcall.eval_import as imp

    monkeypatch.setattr(imp, "MAX_JSON_BYTES", 100_000)
    data = hand_zip([("samples/a_epoch_1.json", method, zeros_packed(method, 40_000_000), 0, 100)])
    log, peak = _peak(data)
    assert peak < 1_000_000, peak
    assert [(p.code, p.params) for p in log.problems] == [("member_unreadable", {})]


def _problems(member: bytes, crc: int | None = None, size: int | None = None, method: int = ZIP_ZSTANDARD):
    data = hand_zip([("samples/a_epoch_1.json", method, member, zlib.crc32(SAMPLE) if crc is None else crc,
                      len(SAMPLE) if size is None else size),
                     ("samples/c1_epoch_1.json", method, zstd.compress(SAMPLE), zlib.crc32(SAMPLE), len(SAMPLE))])
    log = read_log(data, "auto", "log.eval")
    for problem in log.problems:  # the message names what can be read, in each language
        assert problem.text("en") == ("this member of the zip cannot be read: it is damaged, encrypted, or packed with "
                                      "a method other than stored, deflate, bzip2, LZMA or Zstandard")
        assert problem.text("zh") == ("zip 里的这个文件读不出来：它已损坏、加了密，或者压缩方式不是 stored、deflate、"
                                      "bzip2、LZMA、Zstandard 中的一种")
    return [(p.line, p.field, p.code) for p in log.problems], [r.case_id for r in log.runs]


def _streamed(data: bytes, window_log: int) -> bytes:
    """``data`` in one zstd frame that does not declare its size, so the window is the one the frame asks for."""
    compressor = zstd.ZstdCompressor(options={zstd.CompressionParameter.window_log: window_log})
    packed = compressor.compress(data) + compressor.flush()
    assert zstd.get_frame_info(packed).decompressed_size is None
    return packed


def _packed_sample(method: int) -> bytes:
    return {zipfile.ZIP_STORED: lambda: SAMPLE, zipfile.ZIP_DEFLATED: lambda: zlib.compress(SAMPLE)[2:-4],
            zipfile.ZIP_BZIP2: lambda: bz2.compress(SAMPLE), zipfile.ZIP_LZMA: lambda: lzma_sample(1 << 16),
            ZIP_ZSTANDARD: lambda: zstd.compress(SAMPLE)}[method]()


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA,
                                    ZIP_ZSTANDARD], ids=["stored", "deflate", "bzip2", "lzma", "zstd"])
def test_a_member_placed_before_the_archive_is_that_members_problem(method, tmp_path, capsys):
    """An end record that puts the central directory further on than it is makes zipfile take the difference for
    prepended bytes and give each member a negative offset. Before: zipfile's read of a stored or deflate member
    raised ValueError (negative seek), which no reader caught: a 234-byte upload ended `eval` in a traceback. Now
    it is that member's problem in every method, and a read from the end of the bytes (where this archive's one
    local header is) is never taken for the member."""
    packed = _packed_sample(method)
    good = hand_zip([("samples/c1_epoch_1.json", method, packed, zlib.crc32(SAMPLE), len(SAMPLE))])
    end = good.rindex(b"PK\x05\x06")
    (offset,) = struct.unpack("<I", good[end + 16:end + 20])
    bad = good[:end + 16] + struct.pack("<I", offset + len(good)) + good[end + 20:]
    assert zipfile.ZipFile(io.BytesIO(bad)).infolist()[0].header_offset == -len(good)
    assert [p.code for p in read_log(bad, "inspect", "x.eval").problems] == ["member_unreadable"]
    assert [r.case_id for r in read_log(good, "inspect", "x.eval").runs] == ["c1"]
    path = tmp_path / "x.eval"
    path.write_bytes(bad)
    assert main(["eval", str(path), "--k", "1"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def _damaged(packed: bytes) -> bytes:
    middle = len(packed) // 2
    return packed[:middle] + b"\xff\x00" * 8 + packed[middle + 16:]


@pytest.mark.parametrize("how, member, crc", [
    ("damaged stream", _damaged(zstd.compress(SAMPLE)), None),
    ("not zstd at all", zlib.compress(SAMPLE), None),
    ("short stream", zstd.compress(SAMPLE)[:-8], None),
    ("bad CRC", zstd.compress(SAMPLE), zlib.crc32(SAMPLE) ^ 1),
    ("window over the limit", _streamed(SAMPLE, ZSTD_WINDOW_LOG_MAX + 1), None),
], ids=["damaged-stream", "not-zstd", "short-stream", "bad-crc", "window-over-limit"])
def test_a_broken_zstd_member_is_that_members_problem(how, member, crc):
    """A damaged or short Zstandard stream, a CRC-32 that does not match, a frame asking for a window over
    ZSTD_WINDOW_LOG_MAX: member_unreadable for that member, the other sample loads, no traceback."""
    assert _problems(member, crc) == (
        [(1, "samples/a_epoch_1.json", "member_unreadable")], ["c1"])


def test_a_window_within_the_limit_reads():
    """The largest window a member may ask for (zstd's levels up to 19 write at most this) reads."""
    member = _streamed(SAMPLE, ZSTD_WINDOW_LOG_MAX)
    assert _problems(member) == ([], ["c1", "c1"])


RSS_SCRIPT = """
import json, resource, sys, zlib
sys.path.insert(0, {root!r})
from tests.unit.test_eval_zstd import SAMPLE, hand_zip, zeros_packed, lzma_sample
from toolcall.eval_import import read_log

cases = {{"zstd bomb": hand_zip([("samples/a_epoch_1.json", 93, zeros_packed(93, 1 << 30), 0, 100)]),
         "lzma 4 GiB dictionary": hand_zip([("samples/c1_epoch_1.json", 14, lzma_sample(0xFFFF_FFFF),
                                            zlib.crc32(SAMPLE), len(SAMPLE))])}}
read_log(cases["lzma 4 GiB dictionary"], "inspect", "warm.eval")
with open("/proc/self/statm") as statm:
    mapped = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (mapped + {headroom}, resource.getrlimit(resource.RLIMIT_AS)[1]))
out = {{}}
for name, data in cases.items():
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    log = read_log(data, "inspect", "x.eval")
    out[name] = [[r.case_id for r in log.runs], [[p.code, p.params] for p in log.problems],
                 resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base]
print(json.dumps(out))
"""


def lzma_sample(dict_size: int) -> bytes:
    """SAMPLE as a zip LZMA member whose header declares a dictionary of ``dict_size`` bytes (packed with 64 KiB:
    a larger dictionary unpacks it the same)."""
    lzma1 = {"id": lzma.FILTER_LZMA1, "lc": 3, "lp": 0, "pb": 2, "dict_size": 1 << 16}
    compressor = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[lzma1])
    return struct.pack("<BBHBI", 9, 4, 5, (2 * 5 + 0) * 9 + 3, dict_size) + compressor.compress(SAMPLE) \
        + compressor.flush()


def test_native_buffers_of_a_member_are_bounded_too():
    """What tracemalloc cannot see, the decoder's own buffers, under an address-space limit of 512 MB over what the
    process maps: a 1 GiB zstd bomb declaring 100 bytes is unreadable with peak RSS growing under 40 MB, and an
    LZMA member whose header asks for a 4 GiB dictionary reads (before: liblzma's 4 GiB allocation failed under the
    limit, member_unreadable)."""
    script = RSS_SCRIPT.format(root=str(REPO_ROOT), headroom=512 * 1024 ** 2)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    bomb, dictionary = got["zstd bomb"], got["lzma 4 GiB dictionary"]
    assert bomb[:2] == [[], [["member_unreadable", {}]]]
    assert bomb[2] < 40 * 1024, bomb
    assert dictionary[:2] == [["c1"], []]
