"""An uploaded log none of whose records can be used says so once, as an error: a newcomer's two bad lines read
"Records that could not be used: 2; the rest loaded." (有 2 条记录用不了，其余照常读入) above "No usable runs in
this file.": there was no rest."""

import pytest

from tests.app.test_eval_lab_page import lab

BAD = b'{"case": "x", "tool": 1}\nnot json\n'
SAID = {"en": "No record in this file could be used (2 could not), so nothing loaded. The first ones:",
        "zh": "这个文件里没有一条记录能用（2 条用不了），什么也没读入。前几条："}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_log_with_no_usable_record_says_nothing_loaded(lang):
    at = lab(lang)
    at.file_uploader(key="eval_upload").set_value(("bad.jsonl", BAD, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == [SAID[lang]]
    assert [w.value for w in at.warning] == []
    shown = next(c.value for c in at.code if c.value.startswith(("line 1", "第 1 行"))).splitlines()
    assert [s.split(":" if lang == "en" else "：")[0] for s in shown] == (["line 1", "line 2"] if lang == "en"
                                                                          else ["第 1 行", "第 2 行"])
