"""Issue 13, memory: what a browser may send is bounded. Every text box on every page has max_chars (4 times
what the core reads: ui.common.box_chars; a table column exactly what the set reads), and the server
takes no message over server.maxMessageSize (Streamlit's default, 200 MB, would be held whole).

The cases are every Streamlit text-widget call in app.py, pages/ and ui/, so a new box is checked too."""

import ast
import tomllib
from pathlib import Path

import pytest

from toolcall.pairing import MAX_CHARS
from toolcall.selection import MAX_ARGUMENTS_CHARS, MAX_CASES, MAX_CELL_CHARS, MAX_REQUEST_CHARS
from ui.common import box_chars

ROOT = Path(__file__).resolve().parents[2]
TEXT_WIDGETS = {"text_area", "text_input", "chat_input", "TextColumn"}
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]


def _text_widget_calls(path: Path) -> list[tuple[int, str, set[str]]]:
    """(line, widget, keyword names) for each call of a Streamlit text widget in the file. A TextColumn
    counts in a file that draws a data_editor (in st.dataframe it only shows text)."""
    calls = [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)]
    editable = any(node.func.attr == "data_editor" for node in calls)
    return [(node.lineno, node.func.attr, {k.arg for k in node.keywords}) for node in calls
            if node.func.attr in TEXT_WIDGETS and (editable or node.func.attr != "TextColumn")]


def test_the_pages_have_text_boxes_to_check():
    found = {widget for path in SOURCES for _, widget, _ in _text_widget_calls(path)}
    assert {"text_area", "text_input", "TextColumn"} <= found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_text_box_says_how_much_it_holds(path):
    unbounded = [f"{path.relative_to(ROOT)}:{line}: {widget}" for line, widget, keywords
                 in _text_widget_calls(path) if "max_chars" not in keywords]
    assert unbounded == []


def test_the_server_takes_no_message_larger_than_the_largest_box_needs():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    limit_mb = config["server"]["maxMessageSize"]
    largest_box = 4 * box_chars(MAX_CHARS)  # UTF-8: at most 4 bytes a character
    largest_table = MAX_CASES * 3 * (3 * MAX_CELL_CHARS + MAX_REQUEST_CHARS + MAX_ARGUMENTS_CHARS)  # CJK: 3 bytes
    assert largest_box < largest_table < limit_mb * 1_000_000
    assert limit_mb <= 64
