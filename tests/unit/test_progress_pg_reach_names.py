"""The launcher's "cannot connect" line names the server as the URL spells it, escaped and cut (issue 13, kinds: a
name quoted whole floods the output; control, bidirectional and invisible characters shown as \\uXXXX; break-it pass
brk17fresh).

Before: toolcall.progress_pg.reach quoted the URL's host and port raw and whole (only libpq's reason was escaped and
cut). ``deploy/serve_class.py --database-url 'postgresql://x@/y?host=/tmp/<ESC>[31mq<LF>FAKE'`` wrote ESC to the
operator's terminal and printed "FAKE: connection is bad: …" as a line of its own; a 5 000-character host made a
5 326-character line, a 3 000-digit port a 3 343-character one. Now each is escaped (toolcall.text.escape_line) and
cut at 120 characters as drawn."""

import subprocess
import sys
from pathlib import Path

import pytest

from toolcall.progress_pg import reach
from toolcall.text import HIDDEN

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "/tmp/toolcall-no-such-socket-folder"
TAIL = ". Start the server, or fix the host and port in TOOLCALL_DATABASE_URL"


def test_a_host_holding_esc_and_a_line_break_is_named_escaped_on_one_line():
    problem, room = reach("postgresql://x@/y?host=/tmp/\x1b[31mq\nFAKE")
    assert room is None
    assert problem == ('cannot connect to the progress database server at /tmp/\\u001b[31mq\\u000aFAKE: connection is '
                       'bad: connection to server on socket "/tmp/\\u001b[31mq' + TAIL)


def test_a_long_host_is_cut_at_120_characters():
    problem, _ = reach("postgresql://x@/y?host=/tmp/" + "a" * 5000)
    assert problem.startswith("cannot connect to the progress database server at /tmp/" + "a" * 115 + "…: ")
    assert len(problem) == 442  # was 5 326


PORT = "the progress database URL's port must be a number from 1 to 65535"


def test_a_port_holding_a_direction_override_and_a_long_port_are_refused_without_quoting_them():
    """They were quoted escaped and cut ("… port 5\\u202e432: connection is bad: invalid integer value"); reach
    now refuses what url_problem refuses first, as the launcher did before asking it (break-it pass brk18new)."""
    assert reach(f"postgresql://x@/y?host={NOWHERE}&port=5\u202e432") == (PORT, None)
    assert reach(f"postgresql://x@/y?host={NOWHERE}&port=" + "9" * 3000) == (PORT, None)


VALUES = ["\x1b]0;owned\x07", "a\nb\r\tc", "\u202eevil", "zero\u200bwidth\ufeff", "\u2028line", "\x85next",
          "x" * 4000, "\u200b" * 300, "😀" * 300]


@pytest.mark.parametrize("part", ["host", "port"])
@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_whatever_the_url_holds_the_message_is_one_bounded_line_with_nothing_hidden(part, value):
    """The next member: any part of the URL a message quotes, with any character, stays one visible line."""
    query = f"host=/tmp/{value}" if part == "host" else f"host={NOWHERE}&port={value}"
    problem, _ = reach(f"postgresql://x@/y?{query}")
    assert problem is not None and (problem.endswith(TAIL) if part == "host" else problem == PORT)
    assert len(problem) <= 600
    assert not set(problem) & (HIDDEN | {"\n", "\r", "\t"}), problem


def test_the_launcher_prints_the_escaped_line_and_exits_2():
    run = subprocess.run([sys.executable, str(ROOT / "deploy" / "serve_class.py"), "--port", "9180",
                          "--first-backend-port", "9185", "--processes", "1",
                          "--database-url", "postgresql://x@/y?host=/tmp/\x1b[31mq\nFAKE"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2
    assert run.stdout + run.stderr == (
        'progress storage: cannot connect to the progress database server at /tmp/\\u001b[31mq\\u000aFAKE: '
        'connection is bad: connection to server on socket "/tmp/\\u001b[31mq. Start the server, or fix the host and '
        'port in --database-url\n')
