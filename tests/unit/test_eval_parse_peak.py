"""One whole-document parse of an uploaded log (a τ-bench results file, an Inspect ``.json`` log, one ``.eval``
member) holds a bounded amount of memory at its peak, measured in bytes by tracemalloc (no clock): at the old
caps (20 MB, 2 000 000 values) a realistic Inspect log took 376 MB and one ``.eval`` member 397 MB, because orjson
sets aside ~10 bytes per byte of text before it builds the objects (issue 13, memory kind;
bench/eval_parse_peak.py). Each shape is the largest under today's caps (tests/eval_shapes.py), so the test
follows them."""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile

import pytest

from tests.eval_shapes import SHAPES, json_log, sample
from toolcall import eval_import
from toolcall.eval_import import LogError, read_log

#: The most one parse may hold at its peak, in bytes (parsed objects, the unpacked member, orjson's buffers).
PEAK_BYTES = 100 * 1024 ** 2


@pytest.mark.parametrize("shape", SHAPES)
def test_one_parse_at_the_caps_holds_a_bounded_peak(shape):
    data, fmt, name = SHAPES[shape]()
    tracemalloc.start()
    try:
        log = read_log(data, fmt, name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert log.runs, [p.code for p in log.problems]
    assert peak <= PEAK_BYTES, (shape, peak // 1024 ** 2)


@pytest.mark.parametrize("lang, text", [
    ("en", "the Inspect .json log is {size:,} bytes; a .json log is read whole, so the limit is {limit:,}: convert it "
           "to a .eval log (`inspect log convert` with `--to eval`), whose samples are read one at a time"),
    ("zh", "这份 Inspect .json 日志有 {size:,} 字节；.json 日志要整份读入，所以上限是 {limit:,}：请把它转换成 .eval 日志"
           "（`inspect log convert` 加上 `--to eval`），.eval 里的样本是一个一个读的")])
def test_an_inspect_json_log_over_the_cap_is_told_to_use_eval(lang, text, monkeypatch):
    monkeypatch.setattr(eval_import, "MAX_JSON_BYTES", 10_000)
    data = json_log(20, 5)
    with pytest.raises(LogError) as caught:
        read_log(data, "inspect", "log.json")
    assert (caught.value.code, caught.value.params) == ("inspect_json_too_large", {"size": len(data), "limit": 10_000})
    assert caught.value.text(lang) == text.format(size=len(data), limit=10_000)
    # the same samples as a .eval, one member each, are read
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i in range(20):
            z.writestr(f"samples/c{i}_epoch_1.json", json.dumps(sample(i, 5)))
    assert len(read_log(buf.getvalue(), "inspect", "log.eval").runs) == 20
