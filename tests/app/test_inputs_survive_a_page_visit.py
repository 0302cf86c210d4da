"""What a student typed is still there after a visit to another page (issue 13, lost input; break-it pass
brk10web). Streamlit drops the state of every widget a run does not draw: the pairing checker's and converter's
boxes came back empty, and the selection lab's table came back as the shipped set, the student's rows gone for
good. Swept: every text box outside a form and every data editor of every page (a box inside a form commits its
text only on submit, and an exercise's submitted answer comes back from the progress store)."""

import pytest

from tests.app.conftest import PAGES, fresh_app, run_app_py_on_every_rerun
from toolcall.harness import load_scenarios, reference_move

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


#: Input widget kinds AppTest lists (a data editor keeps its rows through the page's own state: see above).
KINDS = ("text_area", "text_input", "number_input", "selectbox", "multiselect", "radio", "checkbox", "toggle", "slider",
         "select_slider", "button_group")
#: Widgets that need no keeping: app.py's language switch (drawn on every page, and kept in the URL) and the
#: instructor's passphrase (a secret: typed again after a visit, not held for the session).
NOT_KEPT = {"app_lang", "dashboard_passphrase"}


def _to_json_step(at):
    """The harness lab at its first JSON step (its first step is a choice, played right)."""
    scenario = next(s for s in load_scenarios().scenarios if s.id == "plain_call")
    step = scenario.steps_for("anthropic")[0]
    at.radio(key=f"harness_choice_plain_call_anthropic_{step.id}").set_value(
        reference_move(scenario, step, "anthropic", "en"))
    at.button(key=f"harness_submit_plain_call_anthropic_{step.id}_en").click().run()


#: Widgets a page draws only after a click: (page, what to do on it).
STATES = [(page, None) for page in PAGES] + [
    ("pages/harness_lab.py", _to_json_step),
    ("pages/playground.py", lambda at: at.toggle(key="playground_strict_open").set_value(True).run()),
]


def _widgets(page, act):
    """``(kind, key, scope Streamlit keeps it for)`` of each input widget ``page`` draws once ``act`` is done. Run at
    collection, outside the fixtures: the rerun fix of tests/app/conftest.py is applied here by hand."""
    with pytest.MonkeyPatch.context() as patch:
        run_app_py_on_every_rerun.__wrapped__(patch)
        return _drawn(page, act)


def _drawn(page, act):
    at = fresh_app("en", page=page, state={"harness_format": "anthropic", "harness_scenario": "plain_call"})
    if act:
        act(at)
    assert not at.exception, [e.value for e in at.exception]
    tracker = at._session_state._state._persist_tracker  # Streamlit's record of the widgets it keeps
    return [(kind, w.key, tracker.scope_of(w.id)) for kind in KINDS for w in getattr(at, kind)
            if w.key and w.key not in NOT_KEPT]


SWEPT = {(page, kind, key): scope for page, act in STATES for kind, key, scope in _widgets(page, act)}


def test_the_sweep_finds_the_widgets_that_lost_their_value():
    keys = {key for _, _, key in SWEPT}
    assert {"passk_n", "passk_m", "passk_sentence_0", "eval_k", "eval_drill_case", "eval_format",
            "harness_json_plain_call_anthropic_write_followup", "playground_strict_provider",
            "exercises_pk_pass3_answer", "exercises_pg_fix_schema_answer"} <= keys
    assert len(SWEPT) >= 89  # as many as the shipped pages drew when this was written


def test_every_input_widget_of_every_page_is_kept_for_the_session():
    assert [f"{page} {kind} {key}" for (page, kind, key), scope in SWEPT.items() if scope != "session"] == []


def _other(widget):
    """A value for ``widget`` other than the one it holds."""
    kind = widget.type
    if kind in ("text_area", "text_input"):
        return TYPED
    if kind in ("checkbox", "toggle"):
        return not widget.value
    if kind in ("number_input", "slider"):
        step = widget.proto.step or 1
        return widget.value + step if widget.value + step <= widget.proto.max else widget.value - step
    shown = getattr(widget.format_func, "__self__", None)  # translated widgets: {value: label}.__getitem__
    values = list(shown) if isinstance(shown, dict) else widget.options
    return next(v for v in values if v != widget.value)


def _samples():
    """One widget of each kind in a form and one out of one: the first the sweep met."""
    seen = {}
    for (page, kind, key), _ in SWEPT.items():
        if key.startswith("harness_choice_"):  # a right pick moves the step on: the JSON step stands for the form
            continue
        at_form = key.startswith(("exercises_", "harness_json_"))
        seen.setdefault((kind, at_form), (page, kind, key))
    return sorted(seen.values())


@pytest.mark.parametrize("page,kind,key", _samples())
def test_a_changed_widget_keeps_its_value_after_a_visit_to_another_page(page, kind, key):
    act = dict(STATES).get(page) if key.startswith(("harness_json_", "playground_strict_")) else None
    if key.startswith("playground_strict_"):
        act = STATES[-1][1]
    at = fresh_app("en", page=page, state={"harness_format": "anthropic", "harness_scenario": "plain_call"})
    if act:
        act(at)
    widget = getattr(at, kind)(key=key)
    value = _other(widget)
    widget.set_value(value)
    if widget.form_id:  # a form's widget commits its value on submit
        next(b for b in at.button if b.form_id == widget.form_id).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(ELSEWHERE).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert getattr(at, kind)(key=key).value == value


def test_the_harness_labs_json_move_is_still_there_after_a_visit():
    """The JSON move a student played (wrong) came back as the step's starter after a visit to another page."""
    at = fresh_app("en", page="pages/harness_lab.py", state={"harness_format": "anthropic",
                                                             "harness_scenario": "plain_call"})
    _to_json_step(at)
    box = at.text_area(key="harness_json_plain_call_anthropic_write_followup")
    box.input(TYPED)
    at.button(key="harness_submit_plain_call_anthropic_write_followup_en").click().run()
    at.switch_page(ELSEWHERE).run()
    at.switch_page("pages/harness_lab.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="harness_json_plain_call_anthropic_write_followup").value == TYPED
