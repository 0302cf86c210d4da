"""An edit sent together with a button's click is not lost (issue 13, lost input; break-it pass brk10web2).

A text box commits on blur: a student who types and then presses a button without leaving the box first sends
the edit and the click in one rerun (Streamlit also merges a rerun asked for while one is queued), and a
callback runs before the script with the arguments the button was drawn with. The strict panel's "Put the
fixed schema in the editor" carried the fix of the schema as it was when drawn: a property the student had just
added to the editor was dropped without a word. AppTest sends an ``input`` without ``run`` with the next click,
as the browser does; the sweep presses every button of every page (the playground with the strict panel's fix
drawn) that way and asserts each edited box keeps its edit, unless the button is one whose purpose is to
replace the box (REPLACES)."""

import json

import pytest

from tests.app.conftest import PAGES, fresh_app, run_app_py_on_every_rerun
from toolcall.i18n import t

#: Buttons that replace a box's text on purpose, by key prefix: a preset or a reset, an example, the
#: definition box applied to the fields, "use the transcript above", a harness step's "start the editor over".
REPLACES = ("playground_apply_preset", "playground_reset", "pairing_example_", "workbench_apply_definition",
            "convert_use_above", "harness_reset_")
ADDED = "note_added_by_student"


def _open(page: str, lang: str = "en"):
    at = fresh_app(lang, page=page)
    if page == "pages/playground.py":  # the fix and its apply button drawn
        at.toggle(key="playground_strict_open").set_value(True).run()
        at.button(key="playground_strict_fix").click().run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def _with_added_property(at) -> str:
    schema = json.loads(at.text_area(key="schema_editor").value)
    schema["properties"][ADDED] = {"type": "string"}
    return json.dumps(schema, indent=2)


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    return data_dir


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_applying_the_strict_fix_keeps_an_edit_sent_with_the_click(lang):
    """The example: the fix was applied over the edit (ADDED gone, no message); now nothing is applied, the edit
    stays, the page says why, and the fix drawn is the edited schema's, which the next click applies."""
    at = _open("pages/playground.py", lang)
    edited = _with_added_property(at)
    at.text_area(key="schema_editor").input(edited)
    at.button(key="playground_strict_fix_apply").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="schema_editor").value == edited
    assert [w.value for w in at.warning if w.value == t("strict.panel.fix_stale", lang)] == \
        [t("strict.panel.fix_stale", lang)]
    at.button(key="playground_strict_fix_apply").click().run()
    fixed = json.loads(at.text_area(key="schema_editor").value)
    assert fixed["properties"][ADDED] == {"type": ["string", "null"]} and ADDED in fixed["required"]  # its own fix
    assert not [w for w in at.warning if w.value == t("strict.panel.fix_stale", lang)]


def _buttons(at) -> list[str]:
    return [b.key for b in at.button if b.key and not b.disabled and not b.form_id
            and not b.key.startswith(REPLACES)]


def _sweep():
    """Collected before any fixture runs: with conftest's rerun fix applied here too, or the click that draws the
    strict fix would run the page without app.py."""
    with pytest.MonkeyPatch.context() as patch:
        run_app_py_on_every_rerun.__wrapped__(patch)
        return [(page, key) for page in PAGES for key in _buttons(_open(page))]


BUTTONS = _sweep()


def test_the_sweep_presses_the_button_that_lost_the_edit():
    assert ("pages/playground.py", "playground_strict_fix_apply") in BUTTONS


@pytest.mark.parametrize("page,key", BUTTONS)
def test_every_box_keeps_an_edit_sent_with_a_click(page, key):
    """Every box outside a form gets a line added (JSON stays JSON) and the click goes with it; after the run each
    box holds its edit, or the edit of another box (a copy of the newest text is not a loss)."""
    at = _open(page)
    boxes = {w.key: w.value + "\n" for kind in ("text_area",) for w in getattr(at, kind)
             if w.key and not w.form_id and w.value}
    for box, text in boxes.items():
        at.text_area(key=box).input(text)
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    now = {w.key: w.value for w in at.text_area if w.key in boxes}
    assert {box: value for box, value in now.items() if value not in boxes.values()} == {}
