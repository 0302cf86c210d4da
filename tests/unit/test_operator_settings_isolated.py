"""An operator's TOOLCALL_* settings (the class's database and data folder, the instructor sign-in) never reach
the tests: tests/conftest.py removes every TOOLCALL_* variable but the test run's own."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TEST_RUN_SETTINGS

REPO = Path(__file__).resolve().parents[2]


def settings_the_app_reads() -> set[str]:
    """Every TOOLCALL_* name in the app, the class launcher and the scripts."""
    files = [REPO / "app.py", *(REPO / "deploy").glob("*.py"), *(REPO / "scripts").glob("*")]
    for folder in ("toolcall", "ui", "pages"):
        files += (REPO / folder).rglob("*.py")
    return {name for f in files if f.is_file() for name in re.findall(r"TOOLCALL_[A-Z_]+", f.read_text("utf-8"))}


def test_an_operator_setting_is_absent_inside_the_run():
    from ui.learner import database_url  # the environment, else Streamlit secrets
    assert sorted(n for n in os.environ if n.startswith("TOOLCALL_") and n not in TEST_RUN_SETTINGS) == []
    assert database_url() == ""


@pytest.mark.slow  # starts pytest in a subprocess (tests/content/test_quick_command.py)
def test_operator_settings_exported_in_the_shell_do_not_reach_the_tests(tmp_path):
    # with TOOLCALL_DATABASE_URL exported (as for deploy/serve_class.py), the app tests wrote their learners'
    # progress into that database
    operator = sorted(settings_the_app_reads() - TEST_RUN_SETTINGS) + ["TOOLCALL_SOMETHING_NEW"]
    assert {"TOOLCALL_DATABASE_URL", "TOOLCALL_DATA_DIR", "TOOLCALL_INSTRUCTOR_PASSPHRASE"} <= set(operator)
    env = dict(os.environ, **{name: "postgresql://class@/class_db" for name in operator})
    env.pop("STREAMLIT_SECRETS_FILES", None)
    # and in the instructor's ~/.streamlit/secrets.toml, which Streamlit reads too
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        "".join(f'{name} = "postgresql://class@/class_db"\n' for name in operator), encoding="utf-8")
    env["HOME"] = str(tmp_path)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"{Path(__file__).relative_to(REPO)}::test_an_operator_setting_is_absent_inside_the_run"],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]
    assert run.stdout.startswith(".\n") or run.stdout.startswith(". ")  # one test ran, and passed


def test_git_never_picks_up_the_instructors_secrets_file():
    # .streamlit/secrets.toml (the class database's password, the instructor passphrase) was not ignored: a
    # `git add -A` in the checkout committed it
    run = subprocess.run(["git", "check-ignore", "--no-index", "-q", ".streamlit/secrets.toml"], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
