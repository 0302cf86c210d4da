"""toolcall: the pure core of the tool-calling course companion.

Nothing in this package imports streamlit; pages are thin glue over these modules.
"""

import errno
import os
import re
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


#: A shell variable in a path setting, as written: ``$HOME``, ``${HOME}``, ``%USERPROFILE%``. Nothing expands it (no
#: shell reads a systemd Environment= line, a docker --env-file or a quoted export), so ``$HOME/tcdata`` made a folder
#: named ``$HOME`` in the folder the app was started from.
SHELL_VARIABLE = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\})|%[A-Za-z_][A-Za-z0-9_]*%")
#: A URL's scheme at the start of a path setting (``postgresql://…``, ``sqlite:///…``, ``file:…``): the folder made
#: was ``postgresql:/u@h/db`` in the folder the app started from, and the class saved into SQLite there.
URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):(?://|[A-Za-z/])")


def path_setting_flaw(value: str) -> tuple[str, str] | None:
    """Why a path setting's non-empty ``value`` (TOOLCALL_DATA_DIR, TOOLCALL_CONTENT_ROOT) names a path the operator
    did not mean, as ``(code, the part to name)``; None when it reads as a path. Codes: ``blank`` (white space only),
    ``unknown_user`` (``~name`` for a user this machine does not have; the name), ``url`` (the scheme: the rest may
    hold a password), ``windows`` (``C:/data``), ``variable`` (``$HOME``, ``%USERPROFILE%`` as written: no shell
    expanded it), ``quoted`` (an env file's quotes kept: ``"/srv/data"``), ``edge_space`` (white space at the start
    or end, kept by an env file: ``/srv/data `` is a folder named ``data ``). Each was taken as a folder of that
    name, without a word (issue 13, break-it passes brk10, brk13cli, brk13text)."""
    if not value.strip():
        return "blank", value
    if value.startswith("~") and os.path.expanduser(value) == value:
        return "unknown_user", value[1:].split("/", 1)[0]
    if (url := URL_SCHEME.match(value)) is not None:
        return "url", url.group(1)
    if re.match(r"[A-Za-z]:[\\/]", value):
        return "windows", value
    if (ref := SHELL_VARIABLE.search(value)) is not None:
        return "variable", ref.group()
    bare = value.strip()
    if bare[0] in "\"'" or bare[-1] in "\"'":
        return "quoted", value
    if bare != value:
        return "edge_space", value
    return None


def content_root_problem() -> tuple[str, str] | None:
    """``(code, value)`` when TOOLCALL_CONTENT_ROOT is set to something that cannot be the content root, else
    None: ``no_folder`` (missing, or not a folder), ``loop`` (a symlink loop) or ``no_fixtures`` (a folder without
    fixtures/); when it names no folder, first what the setting holds that no folder name is meant to: a code of
    :func:`path_setting_flaw` (``quoted``, ``variable``, ``unknown_user`` …). Each was "not a folder", which sent
    the operator looking for a folder instead of at the quotes an env file kept (break-it pass brk13text). The
    code's sentence is ``content_root.<code>`` in the locale files; every page and command would otherwise fail on
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
        flaw = path_setting_flaw(value)
        return (flaw[0] if flaw is not None else "no_folder"), value
    if not (root / "fixtures").is_dir():
        return "no_fixtures", value
    return None
