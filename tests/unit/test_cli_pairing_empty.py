"""`python -m toolcall pairing` on a transcript with no message: nothing was checked, so it is not a pass (round 9
of issue 13: a success shown over something not checked)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("text, lang, line", [
    ("[]", "en", "FILE {path}: the transcript holds no messages, so nothing was checked; give a conversation with "
                 "at least one message (exit code 1)"),
    ('{"messages": []}', "zh", "FILE {path}：这段记录里一条消息也没有，所以什么都没检查；请给出至少含一条消息的对话（退出码 1）"),
])
def test_cli_pairing_on_a_transcript_with_no_message_is_not_a_pass(tmp_path, capsys, text, lang, line):
    """On main `python -m toolcall pairing` on `[]` exited 0 with no word, where the page says there is nothing to
    check rather than showing its green verdict: a script reading the exit code took an empty file for a clean one."""
    from toolcall.cli import main

    path = tmp_path / "empty.json"
    path.write_text(text, encoding="utf-8")
    assert main(["pairing", str(path), "--lang", lang]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["messages"] == 0
    assert captured.err == line.format(path=path) + "\n"
