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
