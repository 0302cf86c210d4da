"""An Inspect ``.eval`` is unpacked at most once over: a directory whose entries share packed bytes is refused, and a
member unpacked by this reader (bzip2, LZMA, Zstandard) stops one byte past the size it declares.

Before (break-it pass brk19web): 1 000 directory entries naming one 1 MB bzip2 stream of 4 MB of text, a 1 MB upload
to the selection lab, took 105 s of the server's CPU, each entry unpacked to the 4 MB member limit; and 1 000 members
declaring 1 byte each, each 4 MB of zeros in 49 bytes of bzip2, took 8.6 s (unpacked to the limit, not to the size
they declared: the archive's MAX_UNCOMPRESSED counts declared sizes)."""

import bz2
import json
import struct
import subprocess
import sys
import zlib
import zipfile

import pytest

import toolcall.eval_import as imp
from tests.unit.test_eval_zstd import hand_zip
from toolcall import REPO_ROOT
from toolcall.eval_import import ZIP_ZSTANDARD, LogUnreadable, read_log, zstd

SAMPLE = json.dumps({"id": "c1", "epoch": 1, "messages": [{"role": "assistant", "tool_calls": []}],
                     "scores": {"s": {"value": 1}}}).encode()


def shared_member_zip(entries: int, method: int = zipfile.ZIP_STORED, packed: bytes = SAMPLE) -> bytes:
    """One member, ``packed`` with ``method`` (SAMPLE unpacked), named by ``entries`` directory entries."""
    head = b"samples/c1_epoch_1.json"
    local = struct.pack("<4s5H3I2H", b"PK\x03\x04", 63, 0, method, 0, 0x21, zlib.crc32(SAMPLE), len(packed),
                        len(SAMPLE), len(head), 0) + head + packed
    central = bytearray()
    for i in range(entries):
        name = f"samples/c{i}_epoch_1.json".encode()
        central += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 63, 63, 0, method, 0, 0x21, zlib.crc32(SAMPLE),
                               len(packed), len(SAMPLE), len(name), 0, 0, 0, 0, 0, 0) + name
    return local + central + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, entries, entries, len(central),
                                         len(local), 0)


PACKERS = {"stored": (zipfile.ZIP_STORED, lambda b: b), "bzip2": (zipfile.ZIP_BZIP2, bz2.compress),
           "zstd": (ZIP_ZSTANDARD, zstd.compress)}


@pytest.mark.parametrize("packer", PACKERS)
def test_entries_sharing_one_member_are_refused_in_both_languages(packer):
    method, pack = PACKERS[packer]
    data = shared_member_zip(3, method, pack(SAMPLE))
    with pytest.raises(LogUnreadable) as caught:
        read_log(data, "auto", "shared.eval")
    assert caught.value.code == "overlapping_members"
    assert caught.value.text("en") == ("not a readable .eval (zip) file: two of its files share the same packed "
                                       "bytes, which no zip tool writes")
    assert caught.value.text("zh") == "不是能读的 .eval（zip）文件：其中有两个文件共用同一段压缩数据，正常的 zip 工具不会这样写"


def test_a_member_whose_data_runs_into_the_next_header_is_refused():
    """The next member's header 29 bytes after this one's: no room for a 30-byte local header and its data."""
    data = bytearray(hand_zip([("samples/a_epoch_1.json", zipfile.ZIP_STORED, SAMPLE, zlib.crc32(SAMPLE), len(SAMPLE)),
                               ("samples/b_epoch_1.json", zipfile.ZIP_STORED, SAMPLE, zlib.crc32(SAMPLE),
                                len(SAMPLE))]))
    second = data.rfind(b"PK\x01\x02")
    data[second + 42:second + 46] = struct.pack("<I", 29 + len(SAMPLE))  # its header_offset, inside the first's data
    with pytest.raises(LogUnreadable) as caught:
        read_log(bytes(data), "inspect", "x.eval")
    assert caught.value.code == "overlapping_members"


def test_members_side_by_side_still_read():
    data = hand_zip([(f"samples/c{i}_epoch_1.json", m, pack(SAMPLE.replace(b'"c1"', f'"c{i}"'.encode())),
                      zlib.crc32(SAMPLE.replace(b'"c1"', f'"c{i}"'.encode())), len(SAMPLE))
                     for i, (m, pack) in enumerate(PACKERS.values())])
    log = read_log(data, "inspect", "x.eval")
    assert ([r.case_id for r in log.runs], log.problems) == (["c0", "c1", "c2"], [])


def test_the_command_line_names_the_shared_bytes(tmp_path):
    path = tmp_path / "shared.eval"
    path.write_bytes(shared_member_zip(3))
    out = subprocess.run([sys.executable, "-m", "toolcall", "eval", str(path), "--k", "1"], capture_output=True,
                         text=True, cwd=REPO_ROOT, timeout=120)
    assert (out.returncode, out.stdout) == (2, "")
    assert "two of its files share the same packed bytes" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("method", [ZIP_ZSTANDARD, zipfile.ZIP_BZIP2], ids=["zstd", "bzip2"])
def test_a_member_is_unpacked_one_byte_past_its_declared_size(method, monkeypatch):
    """20 members, each 4 MB of zeros declaring 1 byte: each unpack stops at 2 bytes (before: at the 4 MB limit,
    80 MB in all), and each is that member's problem."""
    zeros = (zstd.compress if method == ZIP_ZSTANDARD else bz2.compress)(b"\0" * imp.MAX_JSON_BYTES)
    data = hand_zip([(f"samples/c{i}_epoch_1.json", method, zeros, 0, 1) for i in range(20)])
    unpacked = []
    real = imp._unpack
    monkeypatch.setattr(imp, "_unpack", lambda info, archive, limit: unpacked.append(len(real(info, archive, limit)))
                        or b"\0" * unpacked[-1])
    log = read_log(data, "inspect", "x.eval")
    assert unpacked == [2] * 20
    assert [p.code for p in log.problems] == ["member_unreadable"] * 20 and log.runs == []
