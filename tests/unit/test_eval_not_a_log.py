"""A file that is no run log at all is said to be so, once (a newcomer's pass): a PNG renamed .json read
"Records that could not be used: 316; the rest loaded" over twenty "not UTF-8 text" lines and then "No usable
runs", and {"hello": "world"} was "an Inspect AI log that holds no runs"."""

import json
import zlib

import pytest

from toolcall.eval_import import LogUnreadable, read_log
from toolcall.i18n import t
from tests.unit.test_eval_import import line

#: A PNG's signature and a compressed block: binary from the first byte (0x89 is no UTF-8 start).
PNG = b"\x89PNG\r\n\x1a\n" + zlib.compress(bytes(range(256)) * 40)


@pytest.mark.parametrize("name", ["picture.json", "picture.jsonl", "x"])
def test_a_binary_file_is_not_text(name):
    with pytest.raises(LogUnreadable) as info:
        read_log(PNG, "auto", name)
    assert info.value.code == "not_text"
    assert info.value.text("en") == ("this file is not text (its first bytes are not UTF-8): an image, an archive or "
                                     "another binary file? A run log is JSON or JSONL text, or an Inspect .eval file")
    assert "不是文本" in info.value.text("zh")


def test_text_of_which_no_line_is_json_is_not_json_at_its_first_line():
    with pytest.raises(LogUnreadable) as info:
        read_log(b"\n\nhello there\nsecond line\n", "native", "notes.jsonl")
    assert info.value.code == "not_json"
    assert info.value.text("en") == t("eval.error.not_json", "en", reason=(  # at the first line that is not blank
        t("json_error.explain.not_a_value", "en", line=3, column=1, excerpt="h")
        + t("json_error.explain_raw", "en", raw="Expecting value")))


def test_one_good_line_keeps_the_bad_ones_as_problems():
    data = json.dumps(line()).encode() + b"\n" + PNG[:40].replace(b"\n", b" ") + b"\nnope\n"
    log = read_log(data, "native", "runs.jsonl")
    assert len(log.runs) == 1 and [p.code for p in log.problems] == ["not_utf8", "not_json"]


def test_an_object_with_no_inspect_key_is_not_an_inspect_log_but_an_empty_one_is_empty():
    with pytest.raises(LogUnreadable) as info:
        read_log(b'{"hello": "world"}', "auto", "x.json")
    assert info.value.code == "inspect_shape"
    assert read_log(b"{}", "auto", "x.json").runs == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_upload_says_it_once(lang):
    from tests.app.conftest import fresh_app

    at = fresh_app(lang, page="pages/eval_lab.py")
    at.file_uploader(key="eval_upload").set_value(("picture.json", PNG, "application/json")).run()
    assert not at.exception
    assert [w.value for w in at.warning] == []
    from toolcall.markdown import plain

    assert [e.value for e in at.error] == [t("eval.upload_unreadable", lang, format=t("eval.format_native", lang),
                                             detail=plain(t("eval.error.not_text", lang)))]
