"""escape_terminal: what a terminal obeys is shown, tab and newline kept; the page's case table."""


from toolcall.text import HIDDEN, TERMINAL_CONTROLS, escape_terminal


def test_every_control_and_hidden_character_is_escaped():
    for ch in sorted(TERMINAL_CONTROLS | HIDDEN):
        units = ch.encode("utf-16-be")  # one UTF-16 unit, or a surrogate pair above U+FFFF, as JSON escapes it
        escaped = "".join(f"\\u{int.from_bytes(units[i:i + 2]):04x}" for i in range(0, len(units), 2))
        assert escape_terminal(f"a{ch}b") == f"a{escaped}b"
    assert {"\x1b", "\x07", "\r", "\x7f", "\x9b", "\x85"} <= TERMINAL_CONTROLS
    assert escape_terminal("a\tb\nc 中文") == "a\tb\nc 中文"


def test_pairing_text_output_is_escaped(tmp_path, capsys):
    """pairing's detail and advice quote ids from the transcript: escaped on the terminal."""
    from toolcall.cli import main

    path = tmp_path / "t.json"
    path.write_text('[{"role": "assistant", "content": [{"type": "tool_use", "id": "x\\u001b[2J\\u202e", '
                    '"name": "get_order", "input": {}}]}]')
    main(["pairing", str(path)])
    out = capsys.readouterr()
    text = out.out + out.err
    # The detail quotes the id through escape_identifier (\u001b as six characters), which the JSON output
    # writes with its backslash escaped.
    assert "\x1b" not in text and "\u202e" not in text and "x\\\\u001b[2J\\\\u202e" in text


def test_the_pages_case_table_escapes_bidi_in_ids():
    from toolcall.evaluation import Analysis, CaseRow
    from ui.eval_lab import _case_rows

    result = Analysis(None, [CaseRow("x\u202eevil", "get\u200border", 1, 1, 1, 1.0, 1.0, 1.0)], None, {}, 0, 0)
    assert list(_case_rows(result, 1)[0].values())[:2] == ["x\\u202eevil", "get\\u200border"]


def test_a_file_name_that_is_not_utf8_prints_escaped_on_a_surrogateescape_stream(tmp_path, monkeypatch):
    """A lesson named with byte 0xff (read by Python as U+DCFF) on stdout with surrogateescape (the C locale,
    PYTHONIOENCODING=utf-8:surrogateescape): `check` wrote "lessons/en/11-bad\\xff.md has no zh version" with the
    raw byte, output that is not UTF-8; every message now shows it as \\udcff."""
    import io
    import os
    import shutil
    import sys

    from toolcall import CONTENT_ROOT
    from toolcall.cli import main

    root = tmp_path / "content"
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    first = sorted((root / "lessons" / "en").glob("*.md"))[0]
    shutil.copy(first, os.path.join(os.fsencode(root / "lessons" / "en"), b"11-bad\xff.md"))
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape") for _ in "12")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", str(root), "--all"]) == 1
    out.flush()
    text = out.buffer.getvalue().decode("utf-8")  # strict: no raw byte
    assert "lessons/zh/11-bad\\udcff.md: $: missing: lessons/en/11-bad\\udcff.md has no zh version\n" in text
    assert all(escape_terminal(chr(c)) == f"\\u{c:04x}" for c in range(0xD800, 0xE000))
