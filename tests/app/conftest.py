"""AppTest fixtures shared by the page tests."""

import pytest
from streamlit.runtime.pages_manager import PagesManager


@pytest.fixture(autouse=True)
def run_app_py_on_every_rerun(monkeypatch):
    """Make AppTest rerun app.py the way the server does.

    Because a ``pages/`` folder sits next to app.py, ``PagesManager`` starts in the old
    pages-directory mode; ``st.navigation`` switches it off (a class attribute). The
    server keeps it off for the life of the process, but AppTest resets it before every
    run, so from the second run on it executes ``pages/<page>.py`` alone and skips app.py:
    the sidebar language switch vanishes and its session key is dropped. Keeping the
    flag off, as the server does after its first run, restores the real behaviour.
    """
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)
