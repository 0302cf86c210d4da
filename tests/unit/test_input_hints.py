"""The hint Streamlit writes under an edited box is drawn in the app's words (ui.widgets.input_hints_css) for
every kind of box the pages use: a new kind (a chat input, a time input) would show Streamlit's English."""

import ast

from tests.unit.test_text_boxes_bounded import ROOT, SOURCES
from ui.widgets import _HINT_BOXES

#: Streamlit widgets that draw an InputInstructions line, by the test id of their element
HINTED = {"text_area": "stTextArea", "text_input": "stTextInput", "number_input": "stNumberInput",
          "chat_input": "stChatInput", "time_input": "stTimeInput", "date_input": "stDateInput"}


def used_kinds() -> dict[str, str]:
    """{widget call: first place it is drawn} for every hinted widget called in app.py, pages/ and ui/."""
    found: dict[str, str] = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in HINTED:
                found.setdefault(node.func.attr, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_pages_use_the_two_kinds_of_box():
    assert {"text_area", "text_input"} <= set(used_kinds())  # no number input: tests/app/test_number_inputs.py


def test_every_kind_of_box_used_has_its_hint_in_the_apps_words():
    covered = {box for box, _ in _HINT_BOXES}
    assert {where: HINTED[kind] for kind, where in used_kinds().items() if HINTED[kind] not in covered} == {}
