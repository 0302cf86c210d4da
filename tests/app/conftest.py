"""AppTest helpers: the app's declared pages, and a fresh app per test."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
PAGES = re.findall(r'st\.Page\(\s*"(pages/[a-z_]+\.py)"', (REPO / "app.py").read_text(encoding="utf-8"))


def fresh_app(lang: str = "en", query: dict | None = None) -> AppTest:
    """A new session of app.py with the language preset, already run once."""
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.session_state["app_lang"] = lang
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


@pytest.fixture
def app():
    return fresh_app
