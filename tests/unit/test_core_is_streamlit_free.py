"""The core never imports streamlit: every toolcall module, imported in a fresh interpreter."""

import subprocess
import sys

from toolcall import REPO_ROOT

MODULES = sorted(p.stem for p in (REPO_ROOT / "toolcall").glob("*.py") if p.stem not in ("__init__", "__main__"))


def test_every_toolcall_module_imports_without_streamlit():
    assert "judge" in MODULES and "markdown" in MODULES and "pages_registry" in MODULES
    code = ("import importlib, sys\n"
            f"for name in {MODULES!r}:\n"
            "    importlib.import_module('toolcall.' + name)\n"
            "print(sorted(m for m in sys.modules if m == 'streamlit' or m.startswith('streamlit.')))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
