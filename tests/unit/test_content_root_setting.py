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
        code_name = name if name in ("no_fixtures", "loop") else "no_folder"
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
    code = "loop" if setting == "loop" else "no_folder"
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
