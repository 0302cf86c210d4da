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
CALLS = {"passk": ["passk", "--n", "3", "--c", "2", "--k", "1"]}


def _call(command: str) -> list[str]:
    if command in CALLS:
        return CALLS[command]
    values, extra = VALID[command]
    name, value = next(iter(values.items()))
    return _argv(command, name, value)


def _settings(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    return {"no_folder": str(tmp_path / "missing"), "no_fixtures": str(tmp_path / "empty"),
            "a_file": str(tmp_path / "file")}


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
        code_name = "no_fixtures" if name == "no_fixtures" else "no_folder"
        assert (code, out) == (2, ""), (name, err[-300:])
        assert err == t(f"content_root.{code_name}", "en", value=value) + "\n"


def test_the_setting_is_named_in_chinese_with_lang_zh(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TOOLCALL_CONTENT_ROOT", str(tmp_path / "missing"))
    assert main(["pairing", "-", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == t("content_root.no_folder", "zh", value=str(tmp_path / "missing")) + "\n"

