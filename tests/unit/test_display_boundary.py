"""Text shown literally (code blocks, st.text, tables) goes through one escaping boundary: ui.common's
show_code / show_text / show_table, which show every invisible and bidi character as its ``\\uXXXX`` escape
(issue 13, invisible-characters kind).

Before: the playground's definition panel, the model view's two JSON blocks, the free box's call, the strict
panel's diff and notes, the harness lab's model response and the walkthrough's user sentence called st.code or
st.text directly, so a zero-width space typed in a description or a property name was drawn as nothing. The
AST test below is the one that catches the next view: no module of ui/ or pages/ but ui/common.py may call
st.code, st.text, st.dataframe, st.table or st.json, on st or on a container.
"""

import ast
from pathlib import Path

import pytest

import ui.common as common
from toolcall import REPO_ROOT

#: Streamlit's literal-text elements: each must be drawn through ui.common's escaping helpers.
LITERAL = {"code", "dataframe", "table", "json"}


def _sources():
    for path in sorted([*(REPO_ROOT / "ui").rglob("*.py"), *(REPO_ROOT / "pages").glob("*.py"),
                        REPO_ROOT / "app.py"]):
        if path != REPO_ROOT / "ui" / "common.py":
            yield path


def _direct_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            is_st = isinstance(receiver, ast.Name) and receiver.id == "st"
            if node.func.attr in LITERAL or (node.func.attr == "text" and is_st):
                found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}: .{node.func.attr}(")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "st"):
            found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}: getattr(st, …)")
    return found


def test_no_view_draws_literal_text_around_the_escaping_helpers():
    found = [hit for path in _sources() for hit in _direct_calls(path)]
    # ui/cards.py draws its cached plans by step name: through DRAWERS first, so "code" and "text" are escaped
    lines = (REPO_ROOT / "ui" / "cards.py").read_text().splitlines()
    where = [n for n, line in enumerate(lines, 1) if "(DRAWERS.get(name) or getattr(st, name))" in line]
    assert len(where) == 1 and found == [f"ui/cards.py:{where[0]}: getattr(st, …)"]


class _Recorder:
    """A stand-in for streamlit: records what each element was given."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args, **kwargs: self.calls.append((name, args, kwargs))


HIDDEN = "a\u200bb\u200cc\u200dd\u2060e\ufefff\u00adg\u200fh\u061ci\u202ej\U000e0041"
SHOWN = "a\\u200bb\\u200cc\\u200dd\\u2060e\\ufefff\\u00adg\\u200fh\\u061ci\\u202ej\\udb40\\udc41"


@pytest.mark.parametrize("helper, element", [("show_code", "code"), ("show_text", "text")])
def test_code_and_text_show_every_hidden_character_escaped(helper, element, monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(common, "st", recorder)
    getattr(common, helper)(HIDDEN)
    assert recorder.calls[0][0] == element
    assert recorder.calls[0][1] == (SHOWN,)


def test_tables_show_every_hidden_character_escaped(monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(common, "st", recorder)
    monkeypatch.setattr(common, "fit_widths", lambda rows, px: {})
    common.show_table([{"case\u200b": HIDDEN, "n": 3}])
    name, args, kwargs = recorder.calls[-1]
    assert name == "dataframe"
    assert args == ([{"case\\u200b": SHOWN, "n": 3}],)


def test_a_card_plan_draws_code_through_the_helper():
    assert common.DRAWERS == {"code": common.show_code, "text": common.show_text}


@pytest.mark.parametrize("code, element", [(True, "code"), (False, "text")])
def test_show_lines_keeps_each_item_on_one_line(code, element, monkeypatch):
    """An item's own line end, tab or control character is written out (toolcall.text.escape_line), and hidden
    characters are escaped as everywhere else (break-it pass brk13lab)."""
    recorder = _Recorder()
    monkeypatch.setattr(common, "st", recorder)
    common.show_lines(["a\nline 2: forged\r\tx\x1b", "b\u200b"], code=code)
    assert recorder.calls[0][0] == element
    assert recorder.calls[0][1] == ("a\\u000aline 2: forged\\u000d\\u0009x\\u001b\nb\\u200b",)


def test_load_problems_are_one_line_each(monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(common, "st", recorder)
    monkeypatch.setattr(common, "tr", lambda key, **kw: key)
    common.show_load_problems("page", ["lessons/en/x.md: $.title\nlessons/en/y.md: fine", "second"])
    assert [c for c in recorder.calls if c[0] == "code"][0][1] == (
        "lessons/en/x.md: $.title\\u000alessons/en/y.md: fine\nsecond",)
