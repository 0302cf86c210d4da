"""What a server process imports and warms when it starts (ui/startup.py), and what a page's first run imports.

Each check runs in a fresh interpreter: ``sys.modules`` of the test process already holds whatever other tests
imported. No timings are asserted (bench/cold_start.py measures them)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolcall.pages_registry import PAGES
from ui.startup import HEAVY, LATER_PAGES, script_imports, start_modules

REPO = Path(__file__).resolve().parents[2]
#: Pages that import no table or chart library but draw an st.dataframe on their first run (Streamlit
#: converts it through pandas and pyarrow): the pairing checker's rule table, the exercises' score table.
FIRST_RUN_TABLES = {"pairing", "exercises"}


def run_python(code: str) -> dict:
    """Run ``code`` in a new interpreter at the repository root; it prints one JSON line last."""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_server_start_warms_every_light_page_without_heavy_libraries():
    """The server-start steps run without error (called directly: warm_first_pages would only log a failure),
    import what app.py and every page but the table/chart pages import, and load no pandas/pyarrow/altair/numpy."""
    got = run_python(
        "import json, sys\n"
        "from ui import startup\n"
        "startup._import_all(); startup._streamlit_once(); startup._caches()\n"
        f"print(json.dumps({{'heavy': [m for m in {HEAVY!r} if m in sys.modules],"
        " 'missing': [m for m in startup.start_modules() if m not in sys.modules]}))\n")
    assert got == {"heavy": [], "missing": []}


def test_start_modules_cover_app_py_and_the_light_pages():
    names = start_modules()
    for script in ["app.py", *(p.script for p in PAGES if p.id not in LATER_PAGES)]:
        assert set(script_imports(REPO / script)) <= set(names), script
    assert "ui.common" in names and "ui.cards" in names  # app.py's imports sit in its `else:` branch


@pytest.mark.parametrize("page", [p for p in PAGES if p.id not in LATER_PAGES | FIRST_RUN_TABLES], ids=lambda p: p.id)
def test_light_page_first_run_imports_no_table_or_chart_library(page):
    """The first run of a page that draws no table or chart (app.py, then the page, as a server runs them)
    leaves pandas, pyarrow, altair and numpy unimported. app.py's later warm-up thread, which imports them on
    purpose once the first page is drawn, is switched off here."""
    got = run_python(
        "import json, sys\n"
        "from toolcall import warmup\n"
        "warmup.start_background = lambda *a, **k: None\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=120)\n"
        "at.session_state['app_lang'] = 'en'\n"
        "at.run()\n"
        f"at.switch_page({page.script!r}).run()\n"
        f"print(json.dumps({{'errors': [str(e.value) for e in at.exception],"
        f" 'heavy': [m for m in {HEAVY!r} if m in sys.modules]}}))\n")
    assert got == {"errors": [], "heavy": []}


def test_streamlit_run_serves_app_py_through_st_app_with_the_startup_lifespan():
    """`streamlit run app.py` looks for an st.App assignment (AST, streamlit.web.server.app_discovery); the
    module import finds ``app`` with ui.startup's lifespan, while a session's run (``__main__``) draws the page."""
    got = run_python(
        "import json\n"
        "from pathlib import Path\n"
        "from streamlit.web.server.app_discovery import discover_asgi_app\n"
        "found = discover_asgi_app(Path('app.py'))\n"
        "import app\n"
        "from ui.startup import lifespan\n"
        "print(json.dumps({'asgi': found.is_asgi_app, 'target': found.import_string,"
        " 'lifespan': app.app._user_lifespan is lifespan, 'script': app.app.script_path.name}))\n")
    assert got == {"asgi": True, "target": "app:app", "lifespan": True, "script": "app.py"}


def test_lifespan_turns_off_the_legacy_pages_mode_and_warms_in_the_background(monkeypatch):
    """Before the first session: PagesManager leaves the legacy pages/ mode (a fresh server's first deep link
    ran the page alone, then again under app.py), and the warm-up runs in a thread, not in the server's start."""
    import asyncio
    import threading

    from streamlit.runtime.pages_manager import PagesManager

    from ui import startup

    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    done = threading.Event()
    monkeypatch.setattr(startup, "_warm_all", done.set)

    async def serve():
        async with startup.lifespan(None):
            return PagesManager.uses_pages_directory

    assert asyncio.run(serve()) is False
    assert done.wait(10)
