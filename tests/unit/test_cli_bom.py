"""A file that starts with a UTF-8 byte-order mark (Windows Notepad writes one) is read like the same file without
it by every command that reads a tool definition: ``lint`` alone refused it, while ``strict`` and ``result --tool``
read past it (break-it pass brk16cli). Cases come from the shipped tools."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from toolcall.cli import main

REPO = Path(__file__).resolve().parents[2]
TOOLS = sorted((REPO / "fixtures" / "tools").glob("*.json"))
COMMANDS = {
    "lint": lambda path: ["lint", path],
    "strict": lambda path: ["strict", "--provider", "openai", path],
    "result": lambda path: ["result", "--tool", path, "--input", "{}"],
}


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("tool", TOOLS, ids=lambda p: p.stem)
def test_a_byte_order_mark_changes_nothing(tmp_path, capsys, command, tool):
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_bytes(tool.read_bytes())
    marked.write_bytes(codecs.BOM_UTF8 + tool.read_bytes())
    without = _run(capsys, COMMANDS[command](str(plain)))
    with_mark = _run(capsys, COMMANDS[command](str(marked)))
    assert with_mark[0] == without[0]
    assert with_mark[1] == without[1]
    assert with_mark[2] == without[2].replace(str(plain), str(marked))


def test_lint_on_the_shipped_get_order_with_a_mark(tmp_path, capsys):
    marked = tmp_path / "get_order.json"
    marked.write_bytes(codecs.BOM_UTF8 + (REPO / "fixtures" / "tools" / "get_order.json").read_bytes())
    code, out, err = _run(capsys, ["lint", str(marked)])
    assert (code, err) == (0, "")
    assert json.loads(out)["tools"] == ["get_order"]
