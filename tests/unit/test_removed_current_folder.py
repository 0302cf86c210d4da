"""Started from a folder that was removed meanwhile (the operator's shell still in it): os.getcwd() fails, and the
command line and the class launcher each ended with a traceback (break-it pass brk19ops)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run_in_removed_folder(tmp_path: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    gone = tmp_path / "gone"
    gone.mkdir()
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    return subprocess.run(["sh", "-c", script, "sh", str(gone), sys.executable, *argv], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})


def test_check_in_a_removed_folder_checks_the_content_without_a_traceback(tmp_path):
    done = _run_in_removed_folder(tmp_path, "-m", "toolcall", "check")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "all content checks passed"


def test_display_name_never_raises_without_a_current_folder(monkeypatch):
    from toolcall.fixtures import display_name

    def gone():
        raise FileNotFoundError(2, "No such file or directory")
    monkeypatch.setattr(os, "getcwd", gone)
    assert display_name(Path("/nowhere/x.json")) == "/nowhere/x.json"
    assert display_name(REPO / "fixtures" / "tools") == "fixtures/tools"


def test_the_launcher_names_a_relative_data_folder_it_cannot_place(tmp_path):
    from shutil import which
    if not any(which(n) for n in ("nginx", "/usr/sbin/nginx")):
        pytest.skip("nginx is not installed")
    done = _run_in_removed_folder(tmp_path, str(REPO / "deploy" / "serve_class.py"), "--processes", "1", "--port",
                                  "18551", "--first-backend-port", "18651",
                                  env={"TOOLCALL_DATA_DIR": "class-data", "TOOLCALL_DATABASE_URL": ""})
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("progress storage: TOOLCALL_DATA_DIR class-data is a relative path, and the folder this "
                           "launcher was started from no longer exists: write the folder's full path, or start the "
                           "launcher from an existing folder\n")
