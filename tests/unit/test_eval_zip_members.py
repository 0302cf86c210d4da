"""An Inspect ``.eval`` (a zip) whose member is encrypted, packed with a method this reader cannot unpack (deflate64,
AES), or damaged in any compression method zipfile writes (Zstandard too), is read as that member's problem: never a
traceback.

Before: the readers caught BadZipFile, OSError and EOFError only, so an encrypted member (RuntimeError), an
unsupported method (NotImplementedError) or a damaged deflate or LZMA stream (zlib.error, LZMAError) ended
`python -m toolcall eval` and the selection lab's upload in a traceback. Cases: every compression method of
zipfile × every way a member can break, placed in the header and in a sample."""

import io
import json
import sys
import zipfile

import pytest

from toolcall.cli import main
from tests.eval_shapes import zstd_zipfile
from toolcall.eval_import import ZIP_ZSTANDARD, read_log

METHODS = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2,
           "lzma": zipfile.ZIP_LZMA, "zstd": ZIP_ZSTANDARD}
SAMPLE = json.dumps({"id": 1, "epoch": 1, "messages": [{"role": "assistant", "tool_calls": []}],
                     "scores": {"s": {"value": 1}}, "padding": "x" * 2000})


def _flag(data: bytearray, name: bytes, local_offset: int, central_offset: int, value: int, bits: bool) -> None:
    """Set a field of the named member in its local and its central header (``bits``: OR into the flag)."""
    for signature, offset in ((b"PK\x03\x04", local_offset), (b"PK\x01\x02", central_offset)):
        at = 0
        while (at := data.find(signature, at)) >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at:name_at + len(name)] == name:
                data[at + offset] = data[at + offset] | value if bits else value
            at += 4


def _broken(member: str, method: int, how: str) -> bytes:
    buf = io.BytesIO()
    with zstd_zipfile.ZipFile(buf, "w", compression=method) as z:  # a zipfile that writes Zstandard too
        z.writestr("header.json", json.dumps({"eval": {"task": "t", "model": "m"}}) if member != "header.json"
                   else json.dumps({"eval": {"task": "t", "model": "m"}, "padding": "y" * 2000}))
        z.writestr("samples/1_epoch_1.json", SAMPLE)
        z.writestr("samples/2_epoch_1.json", SAMPLE.replace('"id": 1', '"id": 2'))
    data = bytearray(buf.getvalue())
    name = member.encode()
    if how == "encrypted":
        _flag(data, name, 6, 8, 1, bits=True)
    elif how == "unsupported_method":
        _flag(data, name, 8, 10, 9, bits=False)  # deflate64: zipfile cannot unpack it
    else:  # damaged: bytes in the middle of the member's packed data overwritten
        info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo(member)
        start = info.header_offset + 30 + len(name) + len(info.extra)
        middle = start + info.compress_size // 2
        data[middle:middle + 16] = b"\xff\x00" * 8
    return bytes(data)


CASES = [pytest.param(member, method, how, id=f"{member}-{name}-{how}")
         for member in ("header.json", "samples/1_epoch_1.json")
         for name, method in METHODS.items()
         for how in ("encrypted", "unsupported_method", "damaged")]


@pytest.mark.parametrize("member, method, how", CASES)
def test_a_broken_member_is_a_problem_not_a_traceback(tmp_path, capsys, monkeypatch, member, method, how):
    data = _broken(member, method, how)
    log = read_log(data, "auto", "log.eval")
    assert log.fmt == "inspect"
    if member.startswith("samples/"):
        assert [p.code for p in log.problems] in ([], ["member_unreadable"]), log.problems
        assert len(log.runs) + len(log.problems) == 2
    path = tmp_path / "log.eval"
    path.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code = main(["eval", str(path), "--k", "1"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in err
