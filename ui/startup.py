"""What a server process does once, when ``streamlit run app.py`` starts, before any browser connects.

app.py assigns ``app = st.App("app.py", lifespan=lifespan)`` when it is imported as a module (not when a
session runs it): ``streamlit run`` finds that assignment and serves the app through it, and Starlette calls
:func:`lifespan` once per process, after the runtime has started and before the first request
(https://docs.streamlit.io/develop/api-reference/server/st.app). Without it, nothing of ours runs before the
first session: app.py is a script Streamlit runs per session, so the first student's first script run paid
for every import, the locale catalogue, lessons, exercises, fixtures and the tokenizer (bench/README.md,
section J).

:func:`lifespan` starts :func:`warm_first_pages` in a daemon thread and returns at once, so the server is
healthy as soon as before and the warming overlaps the seconds the first browser spends fetching and starting
Streamlit's front end. Every step is bounded (the shipped pages, two languages, the shipped fixtures) and a
failure is only logged: a page still imports and loads what it needs itself. Pages that draw tables or
charts (:data:`LATER_PAGES`: pandas, pyarrow, altair) are left to the rest of the warm-up (toolcall/warmup.py),
started from here too but waiting 5 s and then for a quiet process, so a server started before class is warm
for every page before the first student arrives, and one started as the first student arrives warms those
libraries after that student's page is drawn.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import logging
import threading
from collections.abc import AsyncIterator
from pathlib import Path

from toolcall.pages_registry import PAGES
from ui.uploads import cap_session_uploads

REPO = Path(__file__).resolve().parent.parent
#: Pages whose modules import pandas, pyarrow or altair (tables, charts): not imported at server start, where
#: they would compete with the first browser; toolcall.warmup imports those libraries after the first page.
LATER_PAGES: frozenset[str] = frozenset({"passk_lab", "eval_lab", "dashboard"})
#: Libraries a server start must not import (tests/app/test_startup.py).
HEAVY: tuple[str, ...] = ("pandas", "pyarrow", "altair", "numpy")

log = logging.getLogger(__name__)


def script_imports(path: Path) -> list[str]:
    """The absolute modules a script imports at its top level or in a top-level ``if`` (``import a.b`` → ``a.b``;
    ``from a import b`` → ``a``), in file order, without running it; imports inside functions are left out.
    OSError / SyntaxError for an unreadable file."""
    names: list[str] = []
    nodes = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while nodes:
        node = nodes.pop(0)
        if isinstance(node, ast.If):  # app.py: `if __name__ != "__main__": … else: …`
            nodes[:0] = [*node.body, *node.orelse]
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def start_modules(root: Path = REPO) -> list[str]:
    """What app.py and every page but :data:`LATER_PAGES` import, once each, in navigation order."""
    seen: dict[str, None] = {}
    for script in ["app.py", *(p.script for p in PAGES if p.id not in LATER_PAGES)]:
        for name in script_imports(root / script):
            seen.setdefault(name, None)
    return list(seen)


#: What Streamlit itself imports lazily on a process's first script run: st.set_page_config with an emoji
#: icon imports the set of every emoji (40-130 ms in -X importtime, 0.6 s on the script thread under py-spy at
#: load 10; bench/README.md, section J).
STREAMLIT_MODULES: tuple[str, ...] = ("streamlit.emojis",)


def _import_all() -> None:
    for name in [*STREAMLIT_MODULES, *start_modules()]:
        importlib.import_module(name)


def _streamlit_once() -> None:
    """Streamlit's once-per-process check before the first element it sends ("are we in a REPL?", which
    walks the calling thread's stack with inspect.stack() and reads every frame's source: 0.1-0.2 s on the
    first student's script thread). Run here, on this thread's short stack; with a runtime it prints nothing."""
    from streamlit import delta_generator

    once = getattr(delta_generator, "_maybe_print_use_warning", None)
    if once is not None:
        once()


def _caches() -> None:
    """The first page's loads: both catalogues, lessons, exercises, the tokenizer, the playground's judgements."""
    from toolcall import warmup
    from toolcall.i18n import LANGS, catalogue
    from toolcall.tokens import _encoding
    from ui.exercise_widgets import exercise_set
    from ui.lesson_widgets import lesson_set

    for lang in LANGS:
        catalogue(lang)
        lesson_set(lang)
    exercise_set()
    _encoding()
    warmup.warm_playground()


def _no_legacy_pages() -> None:
    """A fresh server treats an app with a ``pages/`` folder as a legacy multipage app until app.py calls
    ``st.navigation``, so the first deep link (``/playground``) ran the page alone, then again under app.py
    (ui.page.start). app.py calls st.navigation on every run: say so before the first session."""
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False


STEPS = (("imports", _import_all), ("streamlit once", _streamlit_once), ("caches", _caches))


def warm_first_pages() -> dict[str, float]:
    """Run :data:`STEPS`; returns seconds per step. Never raises: a failing step is logged and skipped."""
    from toolcall.warmup import run_steps

    took = run_steps(STEPS, "server-start warm-up")
    log.debug("server-start warm-up: %s", took)
    return took


@contextlib.asynccontextmanager
async def lifespan(_app) -> AsyncIterator[None]:
    """st.App's lifespan hook: no legacy multipage run; each session's uploads capped (ui.uploads); in a daemon
    thread :func:`warm_first_pages`, then the rest of the warm-up (toolcall.warmup.start_background: the table and
    chart libraries, once the process has been quiet for a while); then serve at once."""
    _no_legacy_pages()
    cap_session_uploads()  # before any browser connects: no session's uploads pile up (ui/uploads.py)
    threading.Thread(target=_warm_all, name="toolcall-start-warmup", daemon=True).start()
    yield


def _warm_all() -> None:
    from toolcall import warmup

    warm_first_pages()
    warmup.start_background()
