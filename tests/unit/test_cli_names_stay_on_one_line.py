"""A name with a line end in it (a file name, a property name, a JSON key) is quoted on the message's own line, as
``\\u000a``, by every command: it never prints a line of its own, which a script reading the output line by line
(``check | grep``) would take for a message.

Before (break-it pass brk16cli): ``check`` on a tool file named ``new⏎line.json`` printed
"… differs from the file name 'new" and then "line'" as a line of its own (the file name before it was already
escaped); ``lint``, ``result --schema`` and ``strict`` printed a property named ``a⏎FAKE LINE`` raw in the JSON path
and in the validator's message, so "FAKE LINE: Not a valid Draft 2020-12 schema …" stood as a line of its own."""

import json
import shutil

import pytest

from tests.content_copy import copy_content
from toolcall import REPO_ROOT
from toolcall.cli import main
from toolcall.fixtures import Problem

FAKE = "FAKE LINE"
TOOL = json.loads((REPO_ROOT / "fixtures" / "tools" / "get_order.json").read_text(encoding="utf-8"))


def _run(capsys, argv: list[str]) -> tuple[int, list[str]]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (out + err).splitlines()


def _bad_key_tool(path, key: str = f"a\n{FAKE}"):
    tool = json.loads(json.dumps(TOOL))
    tool["input_schema"]["properties"][key] = {"type": "nope"}
    path.write_text(json.dumps(tool), encoding="utf-8")
    return path


def test_check_quotes_a_file_name_with_a_line_end_on_one_line(tmp_path, capsys):
    root = copy_content(tmp_path)
    shutil.copy(root / "fixtures" / "tools" / "get_order.json", root / "fixtures" / "tools" / "new\nline.json")
    code, lines = _run(capsys, ["check", str(root)])
    assert code == 1 and lines == [
        f"{root}/fixtures/tools/new\\u000aline.json: $.name: tool name 'get_order' differs from the file name "
        "'new\\u000aline'", "problems: 1"]


def test_lint_quotes_a_property_name_with_a_line_end_on_one_line(tmp_path, capsys):
    path = tmp_path / "tool.json"
    path.write_text(json.dumps({"name": "x", "description": "d", "input_schema": {
        "type": "object", "properties": {f"a\n{FAKE}": 5}}}), encoding="utf-8")
    code, lines = _run(capsys, ["lint", str(path)])
    key = f"a\\u000a{FAKE}"
    assert (code, lines) == (2, [
        f"{path}: $.input_schema.properties.{key}: Not a valid Draft 2020-12 schema: at /properties/{key}, keyword "
        f"\"{key}\": expected type object or boolean; received integer 5"])


def test_result_schema_quotes_a_property_name_with_a_line_end_on_one_line(tmp_path, capsys):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"type": "object", "properties": {f"a\n{FAKE}": {"type": "nope"}}}), encoding="utf-8")
    code, lines = _run(capsys, ["result", "--tool", str(REPO_ROOT / "fixtures/tools/get_order.json"),
                                "--schema", str(path), "--input", "{}"])
    assert (code, lines) == (2, [
        f"{path}: Not a valid Draft 2020-12 schema: at /properties/a\\u000a{FAKE}/type, keyword \"type\": expected "
        'one of "array", "boolean", "integer", "null", "number", "object", "string"; received string "nope"'])


def test_a_problem_is_one_line():
    """The next member: whatever a checker's message quotes, a Problem prints as one line."""
    problem = Problem("f\n.json", "$.a\nb", f"quotes 'x\n{FAKE}'\r\n")
    assert str(problem) == f"f\\u000a.json: $.a\\u000ab: quotes 'x\\u000a{FAKE}'\\u000d\\u000a"


@pytest.mark.parametrize("argv", [
    ["strict", "{tool}", "--provider", "openai"], ["lint", "{tool}"], ["pairing", "{tool}"],
    ["result", "--tool", "{tool}", "--input", "{{}}"],
    ["result", "--tool", str(REPO_ROOT / "fixtures/tools/get_order.json"), "--schema", "{schema}", "--input", "{{}}"],
], ids=lambda argv: "-".join(a for a in argv if not a.startswith("{") and "/" not in a))
@pytest.mark.parametrize("key", [f"a\n{FAKE}", f"a\r{FAKE}", f"a\u2028{FAKE}", f"a\x85{FAKE}"])
def test_no_command_prints_a_line_from_a_name(tmp_path, capsys, argv, key):
    """The next member: each command given a definition or schema whose property name holds a line end."""
    tool = _bad_key_tool(tmp_path / "tool.json", key)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"type": "object", "properties": {key: {"type": "nope"}}}), encoding="utf-8")
    code, lines = _run(capsys, [a.format(tool=tool, schema=schema) for a in argv])
    assert code in (1, 2) and lines, lines
    assert not [line for line in lines if line.lstrip().startswith(FAKE)], lines
