"""An order exercise's Move buttons act on their step, not on a place (issue 13, lost input; break-it pass
brk10web2). A button's callback runs with the arguments it was drawn with; a second click sent before the page is
drawn again (a double click on a busy class server: the run the first click started is cut short and the buttons
keep their old arguments) repeated the first one's swap of two places, which put the step back: two clicks on
"Move up" left the list as it was. AppTest always draws again between clicks, so the buttons are drawn here with
a stand-in for Streamlit that keeps each button's callback, and each callback is called twice as drawn."""

import pytest

import ui.exercise_inputs.order as order_input
from toolcall import FIXTURES_DIR
from toolcall.exercise_types.order import listed_order
from toolcall.exercises import load_exercises
from ui.exercise_inputs.base import key

ORDER_EXERCISES = [e for e in load_exercises(FIXTURES_DIR / "exercises").exercises if e.type == "order"]


class _Drawn:
    """What order._draw needs of ``st``: session_state, and containers whose buttons are recorded."""

    def __init__(self):
        self.session_state, self.buttons = {}, {}

    def container(self, *args, **kwargs):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def html(self, *args, **kwargs):
        return None

    caption = markdown = html

    def button(self, label, *, key, on_click, args, **kwargs):
        self.buttons[key] = (on_click, args)


@pytest.fixture
def drawn(monkeypatch):
    fake = _Drawn()
    monkeypatch.setattr(order_input, "st", fake)
    monkeypatch.setattr(order_input, "tr", lambda name, **params: name)
    monkeypatch.setattr(order_input, "shown", lambda labels: {i: i for i in labels})
    return fake


def test_the_fixtures_have_an_order_exercise_of_three_steps():
    assert any(len(listed_order(ex)) >= 3 for ex in ORDER_EXERCISES)


@pytest.mark.parametrize("ex", [e for e in ORDER_EXERCISES if len(listed_order(e)) >= 3], ids=lambda e: e.id)
@pytest.mark.parametrize("direction,offset", [("up", -1), ("down", 1)])
def test_two_clicks_from_one_drawing_move_the_step_two_places(drawn, ex, direction, offset):
    steps = listed_order(ex)
    step = steps[-1] if offset < 0 else steps[0]
    order_input._draw(ex)
    callback, args = drawn.buttons[key(ex, f"move_{direction}_{step}")]
    callback(*args)
    callback(*args)  # the second click, with the arguments of the same drawing
    now = drawn.session_state[key(ex, "answer")]
    assert now.index(step) == steps.index(step) + 2 * offset
    assert sorted(now) == sorted(steps)
