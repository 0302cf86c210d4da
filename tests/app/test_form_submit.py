"""A student's answer form is submitted by its Submit button only: with Enter submitting too, a
student who pressed Enter in a number answer and then clicked Submit had one answer graded twice and
read "The same answer as your last try" (newcomer pass, session 5). Every form of every page is
checked, so the next form added keeps to it; the instructor's sign-in is the one form where Enter
submits (a passphrase box, as on any sign-in page)."""

import pytest

from tests.app.conftest import PAGES, fresh_app
from tests.app.test_inputs_survive_a_page_visit import _to_json_step

#: Forms where Enter submits on purpose: the dashboard's passphrase.
ENTER_SUBMITS = {"dashboard_sign_in"}


def forms(node, found=None) -> list:
    """Every form block below ``node`` of an AppTest tree."""
    found = [] if found is None else found
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", None) == "form":
            found.append(child)
        forms(child, found)
    return found


@pytest.mark.parametrize("page", PAGES)
def test_enter_does_not_submit_an_answer_form(page, data_dir):
    at = fresh_app("en", page=page)
    ids = {f.proto.form.form_id: f.proto.form.enter_to_submit for f in forms(at._tree)}
    assert {form_id: enter for form_id, enter in ids.items() if enter} == {
        form_id: True for form_id in ids if form_id in ENTER_SUBMITS}


def test_the_answer_forms_were_seen():
    """The test above looked at the exercise and harness forms (a page drawing none would pass it)."""
    at = fresh_app("en", page="pages/harness_lab.py",
                   state={"harness_format": "anthropic", "harness_scenario": "plain_call"})
    _to_json_step(at)  # a choice step draws no form: its pick is kept outside one (test_harness_lab_page.py)
    assert [f.proto.form.form_id for f in forms(at._tree)] == ["harness_form_plain_call_anthropic_write_followup_en"]
    at = fresh_app("en", page="pages/exercises.py")
    assert len(forms(at._tree)) >= 3 and all(f.proto.form.form_id.startswith("exercises_") for f in forms(at._tree))
