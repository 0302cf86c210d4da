"""Every file, folder and stdin argument of every subcommand, given each kind of bad input,
gets one line on stderr naming the argument and the file, exit code 2 and no traceback
(issue 13). The cases come from the argparse definition (toolcall.cli.file_arguments): a new
subcommand or file argument is covered as soon as it is declared with _file_arg, and this test
fails until VALID says how to call the new subcommand correctly."""

import errno
import io
import os
import sys
from pathlib import Path

import pytest

from toolcall.cli import _build_parser, file_arguments, label, main

REPO = Path(__file__).resolve().parents[2]
TOOL = str(REPO / "fixtures" / "tools" / "refund_order.json")

#: A correct call of each subcommand that takes a file, folder or stdin: {dest: value} (positionals
#: in order first) plus fixed arguments. The bad value replaces one dest at a time.
VALID = {
    "result": ({"tool": TOOL, "input": "{}"}, []),
    "check": ({"dir": str(REPO)}, []),
    "conformance": ({"suite": str(REPO)}, []),
    "grade": ({"exercise_id": "pk_pass3", "answer": "1"}, []),
    "pairing": ({"file": str(REPO / "fixtures" / "tools" / "refund_order.json")}, []),
    "strict": ({"tool": TOOL}, ["--provider", "openai"]),
    "eval": ({"runs": str(REPO / "fixtures" / "eval_runs" / "shop_vague.en.jsonl")}, ["--k", "1"]),
    "lint": ({"file": TOOL}, []),
}

PARSER = _build_parser()
ARGS = file_arguments(PARSER)
FILE_KINDS = ("missing", "folder", "fifo", "dev_zero", "link_to_dev_zero", "loop", "not_utf8", "utf16",
              "utf16_no_bom", "empty", "blank", "too_big")
FOLDER_KINDS = ("missing", "file", "fifo", "dev_zero", "loop")
STDIN_KINDS = {"not_utf8": b"\xff{}", "empty": b"", "blank": b" \n"}


def _cases():
    for command, actions in sorted(ARGS.items()):
        for action in actions:
            if action.file_kind == "folder":
                kinds = FOLDER_KINDS
            elif action.file_kind == "stdin":
                kinds = ()
            else:
                kinds = FILE_KINDS
            for kind in kinds:
                yield pytest.param(command, action, kind, id=f"{command}-{label(action)}-{kind}")


def _stdin_cases():
    for command, actions in sorted(ARGS.items()):
        for action in actions:
            if action.reads_stdin:
                for kind in STDIN_KINDS:
                    yield pytest.param(command, action, kind, id=f"{command}-{label(action)}-stdin-{kind}")


def _argv(command: str, dest: str, value: str) -> list[str]:
    assert command in VALID, f"add a correct call of the new subcommand {command!r} to VALID"
    values, extra = VALID[command]
    values = {**values, dest: value}
    argv = [command]
    for action in next(a for a in PARSER._actions if hasattr(a, "choices") and a.choices)\
            .choices[command]._actions:
        if action.dest in values and not action.option_strings:
            argv.append(values[action.dest])
        elif action.dest in values:
            argv += [action.option_strings[0], values[action.dest]]
    return argv + extra


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    os.symlink("loop", root / "loop")
    os.symlink("/dev/zero", root / "link_to_dev_zero")
    (root / "not_utf8").write_bytes(b'{"a": "\xff"}')
    (root / "utf16").write_bytes('{"a": 1}'.encode("utf-16"))  # with its byte-order mark, as Windows writes it
    (root / "utf16_no_bom").write_bytes('{"a": 1}'.encode("utf-16-le"))  # valid UTF-8: ASCII bytes and zeros
    (root / "empty").write_bytes(b"")
    (root / "blank").write_bytes(b"  \n\n")
    (root / "file").write_text("{}")
    with open(root / "too_big", "wb") as fh:  # sparse: over every limit, never read
        fh.truncate(2 ** 30)
    paths = {kind: str(root / kind) for kind in FILE_KINDS + FOLDER_KINDS}
    paths["dev_zero"] = "/dev/zero"
    return paths


def _one_clear_line(capsys, code, *named):
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert (code, out) == (2, ""), err
    assert len(lines) == 1 and "Traceback" not in err, err
    for name in named:
        assert name in lines[0], lines[0]
    return lines[0]


def test_every_subcommand_with_a_file_argument_has_a_correct_call():
    assert set(ARGS) - {c for c, a in ARGS.items() if not a} <= set(VALID)
    for command in VALID:  # the correct calls themselves are accepted
        assert ARGS[command], f"{command} takes no file argument any more: remove it from VALID"


@pytest.mark.parametrize("command, action, kind", list(_cases()))
def test_a_bad_file_or_folder_argument_gets_one_line_and_exit_2(bad, capsys, monkeypatch, command, action, kind):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    path = bad[kind]
    code = main(_argv(command, action.dest, path))
    line = _one_clear_line(capsys, code, label(action), path)
    if kind == "utf16_no_bom":  # named, not read on as text with a NUL after every character
        assert "UTF-16 text without a byte-order mark" in line, line


@pytest.mark.parametrize("command, action, kind", list(_stdin_cases()))
def test_a_bad_stdin_gets_one_line_and_exit_2(capsys, monkeypatch, command, action, kind):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(STDIN_KINDS[kind]), encoding="utf-8"))
    code = main(_argv(command, action.dest, "-"))
    line = _one_clear_line(capsys, code, label(action), "- (stdin)")
    if kind == "not_utf8":
        assert line.endswith("not UTF-8 text (byte 0)")


@pytest.mark.parametrize("command, action", sorted({(c.values[0], c.values[1]) for c in _cases()},
                                                   key=lambda ca: (ca[0], label(ca[1]))),
                         ids=lambda v: v if isinstance(v, str) else label(v))
def test_a_name_with_line_ends_is_echoed_on_one_line(tmp_path, capsys, monkeypatch, command, action):
    """A path holding a line end was echoed raw ("FILE /a" on one line, "b: no such file" on the next), so a
    name could print a line of its own (issue 13, cli9). Every file and folder argument of every command."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    path = str(tmp_path / "a\nall content checks passed\r\x1b[2K\tb")
    code = main(_argv(command, action.dest, path))
    line = _one_clear_line(capsys, code, label(action))
    assert f"{tmp_path}/a\\u000aall content checks passed\\u000d\\u001b[2K\\u0009b: no such f" in line, line


def test_a_utf16_file_is_named_as_such(bad, capsys):
    assert main(["pairing", bad["utf16"]]) == 2
    assert _one_clear_line(capsys, 2) == (f"FILE {bad['utf16']}: UTF-16 text (it starts with a UTF-16 byte-order "
                                          "mark); save it as UTF-8")
    assert main(["eval", bad["utf16"], "--k", "1"]) == 2
    assert _one_clear_line(capsys, 2).startswith(f"RUNS {bad['utf16']}: UTF-16 text")


def test_utf16_without_a_byte_order_mark_is_named_not_read_as_broken_json(bad, capsys, monkeypatch):
    """It is valid UTF-8 (each ASCII byte followed by 0), so it was read on: 'not JSON: line 1 column 2:
    Expecting property name enclosed in double quotes', or lint showing '{\\u0000'."""
    nul = "a NUL byte at character 1: UTF-16 text without a byte-order mark, or not a text file; save it as UTF-8 text"
    assert main(["result", "--tool", bad["utf16_no_bom"], "--input", "{}"]) == 2
    assert _one_clear_line(capsys, 2) == f"--tool {bad['utf16_no_bom']}: {nul}"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO('{"a": 1}'.encode("utf-16-le")), encoding="utf-8"))
    assert main(["result", "--tool", TOOL, "--input", "-"]) == 2
    assert _one_clear_line(capsys, 2) == f"--input - (stdin): {nul}"


def test_the_messages_the_closing_note_listed(bad, capsys, monkeypatch):
    assert main(["check", "/nonexistent"]) == 2
    assert _one_clear_line(capsys, 2, "/nonexistent") == "DIR /nonexistent: no such folder"
    runs = VALID["eval"][0]["runs"]
    assert main(["eval", runs, "--k", "1", "--selection", bad["not_utf8"]]) == 2
    line = _one_clear_line(capsys, 2, bad["not_utf8"])
    assert line == f"--selection {bad['not_utf8']}: not UTF-8 text (byte 7)" and runs not in line
    assert main(["eval", bad["not_utf8"], "--k", "1"]) == 2
    assert _one_clear_line(capsys, 2) == f"RUNS {bad['not_utf8']}: not UTF-8 text (byte 7)"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"a": 1}\xff'), encoding="utf-8"))
    assert main(["result", "--tool", TOOL, "--input", "-"]) == 2
    assert _one_clear_line(capsys, 2) == "--input - (stdin): not UTF-8 text (byte 8)"


def test_every_argument_that_names_a_file_is_declared_as_one():
    """An argument whose help speaks of a file, folder, stdin, JSON, YAML or a log must be added with
    _file_arg, or the checks above (and main's) would not know it."""
    import argparse
    import re

    sub = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction))
    undeclared = [
        f"{command} {label(action)}"
        for command, parser in sub.choices.items()
        for action in parser._actions
        if action.help and not getattr(action, "file_kind", None) and action.type is None and not action.choices
        and re.search(r"\b(file|folder|stdin|JSON|JSONL|YAML|log|DIR)\b", action.help)
    ]
    # files a command writes, not reads: its own checks name them (export: a file in an existing folder)
    assert undeclared == ["export OUT"]


# --- issue 14: with --lang zh the refusals are Chinese (argparse's own usage errors stay English) ---

def _has_lang(command: str) -> bool:
    sub = next(a for a in PARSER._actions if hasattr(a, "choices") and a.choices).choices[command]
    return any("--lang" in a.option_strings for a in sub._actions)


def _english_reasons() -> list[str]:
    from toolcall.files import KINDS, READ_ERRORS
    return [text for text in READ_ERRORS.values() if "{" not in text] + list(KINDS.values()) + ["not UTF-8", "too large"]


@pytest.mark.parametrize("command, action, kind", [c for c in _cases() if _has_lang(c.values[0])])
def test_a_bad_file_argument_is_refused_in_chinese_with_lang_zh(bad, capsys, monkeypatch, command, action, kind):
    import re
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code = main(_argv(command, action.dest, bad[kind]) + ["--lang", "zh"])
    line = _one_clear_line(capsys, code, label(action), bad[kind])
    reason = line.split(bad[kind], 1)[1]
    assert re.search(r"[\u4e00-\u9fff]", reason) and not any(e in reason for e in _english_reasons()), line


@pytest.mark.parametrize("command, action, kind", [c for c in _stdin_cases() if _has_lang(c.values[0])])
def test_a_bad_stdin_is_refused_in_chinese_with_lang_zh(capsys, monkeypatch, command, action, kind):
    from toolcall.i18n import t
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(STDIN_KINDS[kind]), encoding="utf-8"))
    code = main(_argv(command, action.dest, "-") + ["--lang", "zh"])
    line = _one_clear_line(capsys, code, label(action), t("files.stdin", "zh"))
    if kind == "not_utf8":
        assert line.endswith(t("files.not_utf8", "zh", byte=0))


def test_a_tool_definition_error_uses_the_translated_validator_message(tmp_path, capsys):
    from toolcall.i18n import t
    tool = tmp_path / "d.json"
    tool.write_text('{"name": "a", "description": "d", "input_schema": {"type": "object", "properties": {}}}')
    assert main(["result", "--tool", str(tool), "--input", "{}", "--lang", "zh"]) == 2
    err = capsys.readouterr().err.strip()
    from toolcall.validation import describe
    detail = t("schema.invalid_detail", "zh", expected="至少 20 个字符", received=describe("d", "zh"))
    assert err == f"{tool}: $.description: {detail}" and "too short" not in err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_read_error_code_has_text_with_its_parameters(lang):
    import string

    from toolcall.files import KINDS, READ_ERRORS
    from toolcall.i18n import catalogue
    for code, english in READ_ERRORS.items():
        template = catalogue(lang)[f"files.{code}"]
        assert {f[1] for f in string.Formatter().parse(template) if f[1]} == \
               {f[1] for f in string.Formatter().parse(english) if f[1]}, code
        if lang == "en":
            assert template == english, code
    for key, english in KINDS.items():
        assert catalogue(lang)[f"files.kind.{key}"] == english or lang == "zh"


def _os_error_cases():
    from toolcall.files import _OS_ERRORS
    return sorted(_OS_ERRORS.items())


@pytest.mark.parametrize("number, code", _os_error_cases(), ids=lambda v: errno.errorcode.get(v, v))
def test_an_os_refusal_is_said_in_the_language_asked(tmp_path, capsys, monkeypatch, number, code):
    """The OS's own reason ("Permission denied") was passed through in English to a Chinese reader. Each errno
    with a sentence of its own is raised where the file is opened (a root test run can read any file)."""
    from toolcall import files
    from toolcall.i18n import t
    tool = tmp_path / "tool.json"
    tool.write_text("{}")

    def refuse(*args, **kwargs):
        raise OSError(number, os.strerror(number))
    monkeypatch.setattr(files.os, "open", refuse)
    for lang in ("en", "zh"):
        assert main(["result", "--tool", str(tool), "--input", "{}", "--lang", lang]) == 2
        line = _one_clear_line(capsys, 2, str(tool))
        assert line.endswith(t(f"files.{code}", lang)) and os.strerror(number) not in line, line


def test_any_other_os_refusal_keeps_the_os_reason(tmp_path, capsys, monkeypatch):
    from toolcall import files
    tool = tmp_path / "tool.json"
    tool.write_text("{}")

    def refuse(*args, **kwargs):
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
    monkeypatch.setattr(files.os, "open", refuse)
    assert main(["result", "--tool", str(tool), "--input", "{}", "--lang", "zh"]) == 2
    assert _one_clear_line(capsys, 2, str(tool)).endswith(f"系统拒绝读取：{os.strerror(errno.EMFILE)}")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_run_log_in_utf16_without_a_byte_order_mark_is_named_on_upload(encoding):
    """The selection lab's upload reads logs with read_log too: it said 'not JSON: the error is at line 1,
    column 2'. A binary file (not UTF-8) stays 'not text'."""
    from toolcall.eval_import import LogUnreadable, read_log

    data = '{"case_id": "c1", "run": 0}\n'.encode(encoding)
    with pytest.raises(LogUnreadable) as info:
        read_log(data, "auto", "runs.jsonl")
    at = 1 if encoding == "utf-16-le" else 0
    assert (info.value.code, info.value.params) == ("nul", {"at": at})
    assert info.value.text("en") == (f"a NUL byte at byte offset {at}: UTF-16 text without a byte-order mark, or "
                                     "not a text file? A run log is JSON or JSONL text saved as UTF-8")
