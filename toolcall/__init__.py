"""toolcall: the pure core of the tool-calling course companion.

Nothing in this package imports streamlit; pages are thin glue over these modules.
"""

import errno
import os
from pathlib import Path

from toolcall.lazy import defer_rfc3987_syntax

defer_rfc3987_syntax()  # before anything imports jsonschema: see toolcall/lazy.py

#: Repository root (the folder that holds app.py, toolcall/ and the default content).
REPO_ROOT = Path(__file__).resolve().parent.parent
#: The folder holding the course content (fixtures/ and lessons/): the repository, or
#: ``TOOLCALL_CONTENT_ROOT`` when set (an instructor's copy; the tests that prove that adding an
#: entry of each kind needs no code change run against such a copy).
def setting_path(value: str) -> Path:
    """The folder a path setting (TOOLCALL_CONTENT_ROOT, TOOLCALL_DATA_DIR) names: ``~`` expanded as a shell
    would (os.path.expanduser: an unknown user's ``~name`` stays as written, where pathlib raises RuntimeError).
    Never raises."""
    return Path(os.path.expanduser(value))


def _resolved(path: Path) -> Path:
    """``path`` made absolute with its links resolved; a symlink loop (which Path.resolve raises RuntimeError for
    on Python 3.11, so importing toolcall failed for every command) is left unresolved for content_root_problem
    to name."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


CONTENT_ROOT = _resolved(setting_path(os.environ.get("TOOLCALL_CONTENT_ROOT") or str(REPO_ROOT)))
FIXTURES_DIR = CONTENT_ROOT / "fixtures"
LESSONS_DIR = CONTENT_ROOT / "lessons"


def content_root_problem() -> tuple[str, str] | None:
    """``(code, value)`` when TOOLCALL_CONTENT_ROOT is set to something that cannot be the content root, else
    None: ``no_folder`` (missing, or not a folder), ``loop`` (a symlink loop) or ``no_fixtures`` (a folder without
    fixtures/). The code's
    sentence is ``content_root.<code>`` in the locale files; every page and command would otherwise fail on
    the first fixture it reads (a FileNotFoundError traceback naming a schema file)."""
    value = os.environ.get("TOOLCALL_CONTENT_ROOT")
    if not value:
        return None
    root = setting_path(value)
    try:
        os.stat(root)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "loop", value
    if not root.is_dir():
        return "no_folder", value
    if not (root / "fixtures").is_dir():
        return "no_fixtures", value
    return None
