"""Real browser: the hint Streamlit writes under a box being edited ("Press Enter to apply") is in the
session's language. On every Chinese page it was English while a student typed: "Press Ctrl+Enter to
apply" under the schema editor, "Press Enter to apply" under pass^k's numbers, "Press Enter to submit
form" on the dashboard's sign-in (newcomer pass). app.py draws it in the app's words (ui.widgets.input_hints_css).
"""

import re

import pytest

from tests.e2e.conftest import start_server, stop_server, wait_connected
from toolcall.i18n import t

pytestmark = pytest.mark.e2e

PASSPHRASE = "a passphrase of the class"

#: (page, widget key, hint key): one text area and two text inputs (pass^k's n was a number input) outside a form, and the
#: text input of the one form that submits on Enter
BOXES = [("playground", "schema_editor", "apply_lines"), ("playground", "tool_name", "apply_line"),
         ("passk_lab", "passk_n", "apply_line"), ("dashboard", "dashboard_passphrase", "submit_line")]

#: every span of a box's hint line as the student sees it: its own text unless hidden (font size 0), then what
#: our ::after rule draws in its place
SHOWN = """els => els.map(e => {
  const own = getComputedStyle(e).fontSize === '0px' ? '' : e.textContent;
  const after = getComputedStyle(e, '::after').content;
  return own + (after && after !== 'none' ? JSON.parse(after) : '');
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, url = start_server(env={"TOOLCALL_DATA_DIR": str(tmp_path_factory.mktemp("data")),
                                  "TOOLCALL_INSTRUCTOR_PASSPHRASE": PASSPHRASE})
    yield url
    stop_server(proc)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page_id, key, hint", BOXES)
def test_the_hint_under_an_edited_box_is_in_the_sessions_language(browser, server, lang, page_id, key, hint):
    """The hint line under an edited box reads the app's words for it and no other words (the count, "3/200",
    stays as Streamlit draws it)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{server}/{page_id}?lang={lang}")
        wait_connected(page)
        box = page.locator(f".st-key-{key}").locator("textarea, input").first
        box.click()
        page.keyboard.type("1")
        line = page.locator(f".st-key-{key} [data-testid=InputInstructions] span")
        line.first.wait_for(state="attached", timeout=10_000)
        shown = [text for text in line.evaluate_all(SHOWN)]
        assert [text for text in shown if not re.fullmatch(r"\d+/\d+", text)] == [t(f"widgets.hint.{hint}", lang)]
    finally:
        page.close()
