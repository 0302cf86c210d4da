"""The README's command-line block names every option of every command, with every choice: a newcomer read
``pairing transcript.json [--format auto|anthropic|openai]`` while the command also reads Responses, MCP and Gemini
transcripts and answers in Chinese (--lang), and ``result --orders``, ``check --all`` and ``grade --exercises`` were
not in the block at all."""

import re

import pytest

from toolcall import REPO_ROOT
from toolcall.cli import _build_parser

README = (REPO_ROOT / "README.md").read_text("utf-8")
BLOCK = re.search(r"## Command line\n\n```bash\n(.*?)```", README, re.S).group(1)


def _commands() -> dict:
    parser = _build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(sub.choices)


def _usage_in_readme(command: str) -> str:
    """The README's lines for ``python -m toolcall COMMAND``, continuation lines (after a trailing ``\\``) joined."""
    text = BLOCK.replace("\\\n", " ")
    lines = [line for line in text.splitlines() if line.startswith(f"python -m toolcall {command} ")]
    assert lines, f"the README's command-line block has no line for {command}"
    return " ".join(lines)


@pytest.mark.parametrize("command", sorted(_commands()))
def test_the_readme_names_every_option_and_choice(command):
    usage = _usage_in_readme(command)
    for action in _commands()[command]._actions:
        options = [o for o in action.option_strings if o.startswith("--") and o != "--help"]
        if not options:
            continue
        assert any(re.search(re.escape(o) + r"(?![\w-])", usage) for o in options), f"{command}: {options[0]}"
        if action.choices:
            assert "|".join(map(str, action.choices)) in usage, f"{command} {options[0]}: {list(action.choices)}"


def test_the_readme_names_every_option_of_the_class_launcher():
    """deploy/serve_class.py's options are all in the README (--first-backend-port, the processes' ports from 8601,
    was not: a newcomer with those ports taken had only --help to find it)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(REPO_ROOT / "deploy" / "serve_class.py"), "--help"], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    options = sorted(set(re.findall(r"(--[a-z][a-z-]+)", out)) - {"--help"})
    assert options == ["--address", "--database-url", "--first-backend-port", "--port", "--processes", "--public"]
    assert [o for o in options if f"`{o}" not in README] == []
