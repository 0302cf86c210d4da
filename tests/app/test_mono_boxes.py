"""Every box where a student types JSON uses the schema editor's monospace font: the exercises' JSON
answers and the pairing checker / converter (they were in the proportional font), the harness lab and
the playground's editors. Derived from the text areas each page draws; prose boxes stay proportional."""

import re

import pytest

from tests.app.conftest import fresh_app
from ui.mono import MONO_FONT

#: Text areas that hold prose, not JSON: they keep the page's font.
PROSE = {"tool_description"}


def covered(at) -> set[str]:
    """The widget keys whose text area the page's style rules set in MONO_FONT (exact keys and prefixes)."""
    rules = [h.proto.body for h in at.get("html") if MONO_FONT in h.proto.body]
    exact = {k for r in rules for k in re.findall(r"\.st-key-([\w-]+) textarea", r)}
    prefixes = [p for r in rules for p in re.findall(r"\[class\*='st-key-([\w-]+)'\] textarea", r)]
    return exact | {a.key for a in at.text_area if any(a.key.startswith(p) for p in prefixes)}


@pytest.mark.parametrize("page", ["pages/playground.py", "pages/pairing.py", "pages/walkthrough.py",
                                  "pages/passk_lab.py", "pages/eval_lab.py"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_json_boxes_are_monospace(page, lang):
    at = fresh_app(lang).switch_page(page).run()
    assert not at.exception
    boxes = {a.key for a in at.text_area} - PROSE
    assert boxes <= covered(at), sorted(boxes - covered(at))
    assert "tool_description" not in covered(at)


def test_the_walkthrough_draws_json_answer_boxes():
    """The parametrised test above checks an exercise's JSON answer box: the walkthrough draws some."""
    at = fresh_app("en").switch_page("pages/walkthrough.py").run()
    assert any(a.key.startswith("exercises_") and a.key.endswith("_answer") for a in at.text_area)
