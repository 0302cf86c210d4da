"""AppTest helpers: the app's declared pages, a fresh app per test, and reruns that run app.py."""

from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from toolcall.pages_registry import PAGES as REGISTRY

REPO = Path(__file__).resolve().parents[2]
PAGES = [p.script for p in REGISTRY]


def fresh_app(lang: str | None = "en", query: dict | None = None, *, page: str | None = None,
              state: dict | None = None, locale: str | None = None) -> AppTest:
    """A new session of app.py, already run once: the language preset (None: left to the URL and the
    browser's ``locale``), ``query`` in the URL, ``state`` in the session before the first run; then
    switched to ``page`` (``pages/<id>.py``) and run again, with no exception, when given. The one
    AppTest opener of tests/app."""
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    if lang is not None:
        at.session_state["app_lang"] = lang
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if locale:
        at.context["locale"] = locale
    at.run()
    if page:
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def app():
    return fresh_app


@pytest.fixture(autouse=True)
def run_app_py_on_every_rerun(monkeypatch):
    """Make AppTest rerun app.py the way the server does.

    Because a ``pages/`` folder sits next to app.py, ``PagesManager`` starts in the old
    pages-directory mode; ``st.navigation`` switches it off (a class attribute). The
    server keeps it off for the life of the process, but AppTest resets it before every
    run, so from the second run on it executes ``pages/<page>.py`` alone and skips app.py:
    the sidebar language switch vanishes and its session key is dropped. Keeping the
    flag off, as the server does after its first run, restores the real behaviour.
    (ui.page.start() recovers with an extra rerun, but that rerun loses the
    widget-owned language and AppTest's st.context.locale, so a chosen language would not
    survive a rerun or switch_page under AppTest.)
    """
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A private progress folder for this test (TOOLCALL_DATA_DIR), returned as a Path."""
    monkeypatch.setenv("TOOLCALL_DATA_DIR", str(tmp_path))
    return tmp_path
