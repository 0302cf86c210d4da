"""A widget label is the question alone, in text a screen reader reads as it is shown.

- No Markdown escapes: a label is read aloud from its source, so ``cancel\\_order`` was read
  "cancel backslash underscore order" (the pass^k lab's sentence checkboxes and the playground's output
  picker, escaped with toolcall.markdown.plain; label() escapes only what Markdown would change).
  A backslash inside a code span is the text's own and allowed.
- No keyboard hints: "(arrow keys or Space; then Tab to the button and Enter)" inside the harness lab's
  question made the label a manual; hints go to the widget's help.

Every widget of every page is read in English and Chinese, and every ``*_label`` string of the
catalogue (labels of widgets a page draws only later: the harness lab's JSON step, the free box).
"""

import re

import pytest

from tests.app.conftest import PAGES, fresh_app
from toolcall.i18n import LANGS, catalogue

KINDS = ("checkbox", "toggle", "button", "number_input", "slider", "select_slider", "text_area", "text_input",
         "selectbox", "radio", "multiselect", "segmented_control", "date_input", "time_input", "color_picker")
#: A backslash before ASCII punctuation: a Markdown escape (read aloud as "backslash").
ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]")
CODE_SPAN = re.compile(r"(`+).*?\1")
KEYBOARD = re.compile(r"\b(?:Ctrl|Cmd|Shift|Enter|Tab|Space|Esc)\b|⌘|arrow keys|回车|方向键|空格")


def escapes(text: str) -> list[str]:
    """The Markdown escapes of ``text`` outside its code spans."""
    return ESCAPE.findall(CODE_SPAN.sub("", text))


@pytest.mark.parametrize("text, found", [
    ("use cancel\\_order instead\\.", ["\\_", "\\."]),
    ("use cancel_order instead.", []),
    ('`{"output": "{\\"status\\": 1}"}`', []),  # JSON's own backslashes, inside code
    ("a \\n b", []),  # the escape of a newline, shown as such
])
def test_the_escape_finder(text, found):
    assert escapes(text) == found


def labels(at) -> list[str]:
    """Every widget label and option text on the page."""
    found = []
    for kind in KINDS:
        for widget in getattr(at, kind, []):
            found.append(str(widget.label))
            found += [str(option) for option in getattr(widget, "options", None) or []]
    found += [str(f.label) for f in at.get("file_uploader")]
    return [text for text in found if text]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_every_widget_label_is_plain_text_without_keyboard_hints(page, lang):
    at = fresh_app(lang, page=page)
    shown = labels(at)
    assert shown  # every page has widgets (the sidebar's language switch at least)
    assert {text: escapes(text) for text in shown if escapes(text)} == {}
    assert [text for text in shown if KEYBOARD.search(text)] == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_label_string_carries_a_keyboard_hint(lang):
    strings = {key: text for key, text in catalogue(lang).items() if key.endswith("_label")}
    assert len(strings) > 20
    assert {key: text for key, text in strings.items() if KEYBOARD.search(text)} == {}
