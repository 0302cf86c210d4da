"""A run log saved as text in another encoding than UTF-8 says so (break-it pass brk13text). Before, a JSONL log
Windows PowerShell wrote (UTF-16 with a byte-order mark: its > and Out-File) or Chinese Windows saved (GBK) read
"this file is not text (its first bytes are not UTF-8): an image, an archive or another binary file?"."""

import json
import pytest

from tests.unit.test_eval_import import line
from toolcall.eval_import import LogUnreadable, read_log

LOG = "".join(json.dumps(line(request="我的台灯订单在哪里？"), ensure_ascii=False) + "\n" for _ in range(2))
#: Where the first byte that is not UTF-8 is in the GBK bytes of LOG: its first Chinese character
FIRST_CJK = LOG.encode().index("我".encode())  # every character before it is ASCII: one byte in both

TEXT = {
    "utf16": {"en": "this file is UTF-16 text (it starts with a UTF-16 byte-order mark: Windows PowerShell's > and "
                    "Out-File write it): save it as UTF-8 (Out-File -Encoding utf8) and upload it again",
              "zh": "这个文件是 UTF-16 文本（开头是 UTF-16 的字节顺序标记，Windows PowerShell 的 > 和 Out-File 会这样写）："
                    "请另存为 UTF-8（Out-File -Encoding utf8）后重新上传"},
    "text_not_utf8": {"en": "this file is JSON text, but not saved as UTF-8 (byte offset {byte} is not UTF-8; Chinese "
                            "Windows saves text as GBK): save it as UTF-8 and upload it again",
                      "zh": "这个文件是 JSON 文本，但不是以 UTF-8 保存的（从 0 数起第 {byte} 个字节不是 UTF-8；中文版 Windows "
                            "默认用 GBK 保存文本）：请另存为 UTF-8 后重新上传"},
}


@pytest.mark.parametrize("encoding, code", [("utf-16", "utf16"), ("utf-16-be", None), ("gbk", "text_not_utf8"),
                                            ("gb18030", "text_not_utf8")])
@pytest.mark.parametrize("name, fmt", [("runs.jsonl", "auto"), ("runs.jsonl", "native"), ("x", "auto")])
def test_a_log_in_another_encoding_names_it(encoding, code, name, fmt):
    data = LOG.encode(encoding)
    if code is None:  # big-endian with its mark
        data, code = b"\xfe\xff" + data, "utf16"
    with pytest.raises(LogUnreadable) as info:
        read_log(data, fmt, name)
    assert info.value.code == code
    for lang in ("en", "zh"):
        assert info.value.text(lang) == TEXT[code][lang].format(byte=FIRST_CJK)


@pytest.mark.parametrize("fmt", ["tau", "inspect", "auto"])
def test_a_json_document_with_a_utf16_mark_names_it(fmt):
    """A τ-bench or Inspect .json with the mark was "not UTF-8 text (byte offset 0)"."""
    with pytest.raises(LogUnreadable) as info:
        read_log("[]".encode("utf-16"), fmt, "results.json")
    assert (info.value.code, info.value.text("en")) == ("utf16", TEXT["utf16"]["en"])
