"""The class launcher writes no control character to the operator's terminal (issue 13, kinds: control,
bidirectional and invisible characters shown as \\uXXXX; a name quoted in a message cannot print a line of its own;
break-it pass brk17fresh).

Before: deploy/serve_class.py's say() printed its text as it was. Run as root with TMPDIR a folder closed to others
whose name held ESC and U+202E, the launcher printed "the temp folder /tmp/…x<ESC>[31mred<U+202E>q is closed to other
users" raw, colouring and reversing the operator's terminal; the lines it relays from its processes were copied raw
too. Now say() writes every control character (ESC, BEL, C1, CR), bidirectional control, invisible character and
lone surrogate as \\uXXXX (toolcall.text.escape_terminal), and the paths quoted in its lines (the temp folder, the
kept nginx error log, a removed stale run folder) go through escape_line, so a line end in them is \\u000a."""

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy"))
import serve_class  # noqa: E402
from serve_class import OutputRelay, run_parent, say  # noqa: E402

from toolcall.text import HIDDEN, SURROGATES, TERMINAL_CONTROLS  # noqa: E402


def test_say_writes_control_bidi_and_invisible_characters_escaped(capsys):
    assert say("a\x1b[31mb\x07c\x9bd\re\u202ef\u200bg\ud800h\tkept\nnext")
    assert capsys.readouterr().err == ("a\\u001b[31mb\\u0007c\\u009bd\\u000de\\u202ef\\u200bg\\ud800h\tkept\nnext\n")


@pytest.mark.parametrize("stream", ["stderr", "stdout"])
def test_no_character_a_terminal_acts_on_or_hides_reaches_it(stream, capsys):
    """The next member: whatever a line holds (a path, a URL's host, a process's output), say() writes none of
    them: each of HIDDEN, TERMINAL_CONTROLS and the lone surrogates comes out as its escape."""
    chars = sorted(HIDDEN | TERMINAL_CONTROLS | SURROGATES)
    assert say("".join(chars), stream)
    written = getattr(capsys.readouterr(), "err" if stream == "stderr" else "out")
    assert not set(written[:-1]) & set(chars)
    assert written.count("\\u") == len(chars) + sum(ord(c) > 0xFFFF for c in chars)  # a surrogate pair: two


def test_a_closed_temp_folder_is_named_escaped_on_one_line(tmp_path, capsys):
    closed = tmp_path / "x\x1b[31mred\nq\u202e"
    closed.mkdir(mode=0o700)
    os.chmod(closed, 0o700)
    assert run_parent(True, str(closed)) == Path("/tmp")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.endswith(f"] the temp folder {tmp_path}/x\\u001b[31mred\\u000aq\\u202e is closed to other users, and "
                        "nginx's workers run as nobody: the run folder is made in /tmp instead\n")


def test_a_kept_error_log_and_a_removed_run_folder_are_quoted_escaped():
    assert serve_class._quoted(Path("/tmp/a\x1b]0;t\x07\nb\u2066")) == "/tmp/a\\u001b]0;t\\u0007\\u000ab\\u2066"


def test_a_process_output_line_is_relayed_escaped(capsys):
    OutputRelay("p").line("\x1b[2J\x1b[Hfake prompt\u202e\n")
    assert capsys.readouterr().err == "\\u001b[2J\\u001b[Hfake prompt\\u202e\n"
