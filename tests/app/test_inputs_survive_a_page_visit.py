"""What a student typed is still there after a visit to another page (issue 13, lost input; break-it pass
brk10web). Streamlit drops the state of every widget a run does not draw: the pairing checker's and converter's
boxes came back empty, and the selection lab's table came back as the shipped set, the student's rows gone for
good. Swept: every text box outside a form and every data editor of every page (a box inside a form commits its
text only on submit, and an exercise's submitted answer comes back from the progress store)."""

import pytest

from tests.app.conftest import PAGES, fresh_app

TYPED = '{"typed": "by the student", "n": 42}'
ELSEWHERE = "pages/lessons.py"


def _boxes():
    found = []
    for page in PAGES:
        at = fresh_app("en", page=page)
        found += [(page, kind, w.key) for kind in ("text_area", "text_input") for w in getattr(at, kind)
                  if w.key and not w.form_id]
    return found


BOXES = _boxes()


def test_the_sweep_finds_the_boxes_that_lost_their_text():
    keys = {key for _, _, key in BOXES}
    assert {"pairing_input", "convert_input", "schema_editor", "tool_description", "tool_name"} <= keys


@pytest.fixture(autouse=True)
def _private_progress(data_dir):
    return data_dir


@pytest.mark.parametrize("page,kind,key", BOXES)
def test_a_box_keeps_its_text_after_a_visit_to_another_page(page, kind, key):
    at = fresh_app("en", page=page)
    getattr(at, kind)(key=key).input(TYPED).run()
    at.switch_page(ELSEWHERE).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert getattr(at, kind)(key=key).value == TYPED


def _editors():
    return [(page, e.key) for page in PAGES for e in fresh_app("en", page=page).data_editor
            if e.editing_mode != "read_only"]


@pytest.mark.parametrize("page,key", _editors())
def test_a_tables_edits_are_kept_after_a_visit_to_another_page(page, key):
    at = fresh_app("en", page=page)
    table = at.data_editor(key=key).value
    columns = list(table.columns)
    first = columns[-1]
    at.session_state[key] = {"edited_rows": {0: {first: "edited"}},
                             "added_rows": [{c: f"mine-{c}" for c in columns}], "deleted_rows": [1]}
    at.run()
    at.switch_page(ELSEWHERE).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    back = at.data_editor[0].value
    assert len(back) == len(table)  # one row added, one deleted
    assert back.iloc[0][first] == "edited" and list(back.iloc[-1]) == [f"mine-{c}" for c in columns]
    assert list(back.iloc[1]) == list(table.iloc[2])
