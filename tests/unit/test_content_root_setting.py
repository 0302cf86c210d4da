"""TOOLCALL_CONTENT_ROOT set to something that cannot hold the course content is named, in en and zh, by every
command that reads content and by the app, instead of a FileNotFoundError traceback naming a schema file
(`result` with TOOLCALL_CONTENT_ROOT=/nonexistent) or "unknown exercise id …; known ids: none" (`grade`).
Cases: every subcommand of the CLI (toolcall.cli's parser), each under each broken setting."""

import io
import sys

import pytest

from tests.unit.test_cli_bad_inputs import PARSER, VALID, _argv
from toolcall.cli import NO_CONTENT, main
from toolcall.i18n import t

COMMANDS = sorted(next(a for a in PARSER._actions if hasattr(a, "choices") and a.choices).choices)
CALLS = {"passk": ["passk", "--n", "3", "--c", "2", "--k", "1"], "export": ["export", "class-progress.json"]}


def _call(command: str) -> list[str]:
    if command in CALLS:
        return CALLS[command]
    values, extra = VALID[command]
    name, value = next(iter(values.items()))
    return _argv(command, name, value)


def _settings(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    return {"no_folder": str(tmp_path / "missing"), "no_fixtures": str(tmp_path / "empty"),
            "a_file": str(tmp_path / "file"), "loop": str(tmp_path / "loop"), "unknown_user": "~nouser-cli9/x"}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_that_reads_content_names_the_setting(tmp_path, capsys, monkeypatch, command):
    for name, value in _settings(tmp_path).items():
        monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", value)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        code = main(_call(command))
        out, err = capsys.readouterr()
        if command in NO_CONTENT:
            assert "TOOLCALL_CONTENT_ROOT" not in err
            continue
        code_name = name if name in ("no_fixtures", "loop", "unknown_user") else "no_folder"
        assert (code, out) == (2, ""), (name, err[-300:])
        assert err == t(f"content_root.{code_name}", "en", value=value) + "\n"


def test_the_setting_is_named_in_chinese_with_lang_zh(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / "missing"))
    assert main(["pairing", "-", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == t("content_root.no_folder", "zh", value=str(tmp_path / "missing")) + "\n"



@pytest.mark.parametrize("setting", ["loop", "unknown_user"])
def test_a_setting_that_pathlib_cannot_resolve_does_not_break_the_import(tmp_path, setting):
    """TOOLCALL_CONTENT_ROOT as a symlink loop (Path.resolve: RuntimeError "Symlink loop") or ~nouser/x
    (Path.expanduser: RuntimeError "Could not determine home directory") failed while toolcall was imported, so
    every command, passk included, ended in a traceback."""
    import os
    import subprocess
    from pathlib import Path
    value = _settings(tmp_path)[setting]
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "toolcall", "lint", "-"], cwd=repo, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env={**os.environ, "TOOLCALL_CONTENT_ROOT": value}, timeout=60)
    code = "loop" if setting == "loop" else "unknown_user"
    assert (done.returncode, done.stderr) == (2, t(f"content_root.{code}", "en", value=value) + "\n")
    done = subprocess.run([sys.executable, "-m", "toolcall", "passk", "--n", "3", "--c", "1", "--k", "1"], cwd=repo,
                          capture_output=True, text=True, env={**os.environ, "TOOLCALL_CONTENT_ROOT": value}, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_data_dir_of_an_unknown_user_does_not_raise(monkeypatch):
    """TOOLCALL_DATA_DIR=~nouser/x: Path.expanduser raised RuntimeError wherever progress was opened."""
    from pathlib import Path

    from toolcall.progress import data_dir
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "~nouser-cli9/x")
    assert data_dir() == Path("~nouser-cli9/x")
    monkeypatch.setenv("TOOLCALL_DATA_DIR", "~/x")
    assert data_dir() == Path.home() / "x"


@pytest.mark.parametrize("value, en, zh", [
    ('"/srv/course"', 'TOOLCALL_CONTENT_ROOT is "/srv/course", written in quotes, which would be part of the '
     "folder's name: remove them.",
     'TOOLCALL_CONTENT_ROOT 设成了 "/srv/course"，外面带着引号，引号会成为文件夹名的一部分：请去掉引号。'),
    ("'/srv/course'", "TOOLCALL_CONTENT_ROOT is '/srv/course', written in quotes, which would be part of the "
     "folder's name: remove them.",
     "TOOLCALL_CONTENT_ROOT 设成了 '/srv/course'，外面带着引号，引号会成为文件夹名的一部分：请去掉引号。"),
    ("$TOOLCALL_TEST_HOME/course", "TOOLCALL_CONTENT_ROOT is $TOOLCALL_TEST_HOME/course, which holds a variable no "
     "shell expanded (an env file or a quoted setting passes it as written): write the folder's full path.",
     "TOOLCALL_CONTENT_ROOT 设成了 $TOOLCALL_TEST_HOME/course，其中的变量没有经过 shell 展开（env 文件或加了引号的设置"
     "会原样传过来）：请写出文件夹的完整路径。"),
    ("~nosuchuser_toolcall/course", "TOOLCALL_CONTENT_ROOT is ~nosuchuser_toolcall/course, which starts with ~ and "
     "a user this machine does not have: write the folder's full path.",
     "TOOLCALL_CONTENT_ROOT 设成了 ~nosuchuser_toolcall/course，开头是 ~ 加上一个本机没有的用户名：请写出文件夹的完整路径。"),
    ("file:///srv/course", "TOOLCALL_CONTENT_ROOT is a URL, not a folder: set it to a copy of the course content on "
     "this machine (a folder holding fixtures/ and lessons/).",
     "TOOLCALL_CONTENT_ROOT 设成了一个网址，而不是文件夹：请把它设为本机上一份课程内容的副本（含 fixtures/ 和 lessons/ 的文件夹）。"),
    ("C:/course", "TOOLCALL_CONTENT_ROOT is C:/course, a Windows path: this machine's folders start with /, write "
     "the folder's full path.",
     "TOOLCALL_CONTENT_ROOT 设成了 C:/course，这是 Windows 的路径：本机的文件夹路径以 / 开头，请写出文件夹的完整路径。"),
    ("   ", "TOOLCALL_CONTENT_ROOT is white space only: unset it to use the repository's content, or set it to a "
     "copy of the course content (a folder holding fixtures/ and lessons/).",
     "TOOLCALL_CONTENT_ROOT 只有空白字符：去掉这个设置即可改用仓库自带的内容，或者把它设为一份课程内容的副本（含 "
     "fixtures/ 和 lessons/ 的文件夹）。"),
])
def test_a_setting_holding_what_no_folder_name_means_says_what(monkeypatch, capsys, value, en, zh):
    """Quotes an env file kept, a variable no shell expanded, ``~`` and an unknown user, a URL, a Windows path,
    white space only: each was "…, which is not a folder", which sent the operator looking for a missing folder
    (break-it pass brk13text); the sentence now names what the setting holds."""
    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", value)
    monkeypatch.setenv("TOOLCALL_TEST_HOME", "/srv/teacher")
    for lang, words in (("en", en), ("zh", zh)):
        assert main(["pairing", "-", "--lang", lang]) == 2
        assert capsys.readouterr().err == words + "\n"


def test_white_space_at_either_end_is_named(tmp_path, monkeypatch, capsys):
    """``/srv/course `` (an env file keeps the space) named a folder ``course `` that does not exist: "not a folder",
    though the folder without the space is there."""
    (tmp_path / "fixtures").mkdir()
    for value in (f"{tmp_path} ", f" {tmp_path}", f"{tmp_path}\t"):
        monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", value)
        assert main(["pairing", "-", "--lang", "en"]) == 2
        shown = value.replace("\t", "\\u0009")
        assert capsys.readouterr().err == (
            f"TOOLCALL_CONTENT_ROOT is “{shown}”, with white space at its start or end, which would be part of the "
            "folder's name: remove it.\n")
        assert main(["pairing", "-", "--lang", "zh"]) == 2
        assert capsys.readouterr().err == (
            f"TOOLCALL_CONTENT_ROOT 设成了“{shown}”，开头或结尾有空白字符，它们会成为文件夹名的一部分：请去掉。\n")


def test_a_folder_that_exists_is_used_whatever_its_name(tmp_path, monkeypatch):
    """Only a setting that names no folder is read for quotes and variables: a folder really named so is used."""
    from toolcall import content_root_problem

    for name in ('"quoted"', "$HOME", "end "):
        (tmp_path / name / "fixtures").mkdir(parents=True)
        monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / name))
        assert content_root_problem() is None
