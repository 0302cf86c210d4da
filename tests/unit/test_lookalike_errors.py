"""A validation error quotes the input's field names and values with look-alike letters of other scripts escaped,
wherever it is shown (issue 13, invisible and look-alike kind; break-it pass brk10web). Before: a field named
``is_еrror`` (Cyrillic е) read "/is_error: expected no field by this name (allowed: …, is_error, …)" right under
"/is_error: expected this required field", in the playground's card, the message sent back to the model, the
json exercises' feedback and the selection lab's drill-down; ``"usеr"`` read 'expected one of "user"; received
string "user"'.

The sweep: every module that reads a FieldError's ``received`` is listed below with the display it feeds, so a new
display of validation errors has to be added here (and escaped)."""

import ast
import json
from pathlib import Path

import pytest

from toolcall.evaluation import grade_run
from toolcall.exercise_types.base import Grade
from toolcall.exercises import load_exercises
from toolcall.grading import answer_text, grade, grading_inputs
from toolcall.judge import evaluate
from toolcall.text import LOOKALIKE_BLOCKS

REPO = Path(__file__).resolve().parents[2]
CYRILLIC_E, CYRILLIC_O = "\u0435", "\u043e"
SCHEMA = {"type": "object", "properties": {"is_error": {"type": "boolean"}, "role": {"enum": ["user", "assistant"]}},
          "required": ["is_error", "role"], "additionalProperties": False}
RAW = json.dumps({"is_" + CYRILLIC_E + "rror": True, "role": "us" + CYRILLIC_E + "r"}, ensure_ascii=False)
#: Modules reading FieldError.received, and why each is covered: swept below, or showing only instructor content.
READERS = {"toolcall/validation.py": "builds them",
           "toolcall/results.py": "the message sent back (swept)",
           "ui/cards.py": "the playground card (swept)",
           "toolcall/exercise_types/json_object.py": "json exercise feedback (swept)",
           "toolcall/evaluation.py": "the selection lab's drill-down (swept)",
           "toolcall/transcripts.py": "the walkthrough: fixture outputs only",
           "toolcall/fixtures.py": "loader problems: instructor files only"}


def _lookalikes(text: str) -> set[str]:
    return {ch for ch in text if any(lo <= ord(ch) <= hi for lo, hi in LOOKALIKE_BLOCKS)}


def test_every_reader_of_a_field_errors_received_value_is_listed():
    found = set()
    for path in [*REPO.glob("toolcall/**/*.py"), *REPO.glob("ui/**/*.py"), *REPO.glob("pages/*.py")]:
        tree = ast.parse(path.read_text("utf-8"))
        if any(isinstance(n, ast.Attribute) and n.attr == "received" for n in ast.walk(tree)):
            found.add(str(path.relative_to(REPO)))
    assert found == set(READERS)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_message_sent_back(lang):
    content = evaluate(RAW, SCHEMA, "report", lang).tool_result["content"]
    assert not _lookalikes(content)
    assert "/is_\\u0435rror" in content and '"us\\u0435r"' in content


def test_the_playground_card():
    from ui.cards import _error_lines  # noqa: PLC0415 (outside a script run: English)
    text = "\n".join(_error_lines(evaluate(RAW, SCHEMA, "report", "en").errors))
    assert not _lookalikes(text)
    assert "is\\_\\\\u0435rror" in text and "us\\\\u0435r" in text  # Markdown for is_\u0435rror, us\u0435r


def _cyrillic(value):
    """``value`` with every Latin e and o of its keys and strings made Cyrillic."""
    if isinstance(value, dict):
        return {_cyrillic(k): _cyrillic(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cyrillic(v) for v in value]
    return value.replace("e", CYRILLIC_E).replace("o", CYRILLIC_O) if isinstance(value, str) else value


JSON_EXERCISES = [ex for ex in load_exercises().exercises if ex.type == "json"]


def test_there_are_json_exercises():
    assert JSON_EXERCISES


@pytest.mark.parametrize("ex", JSON_EXERCISES, ids=lambda ex: ex.id)
def test_each_json_exercises_feedback(ex):
    answer = json.dumps(_cyrillic(json.loads(answer_text(ex, ex.answer))), ensure_ascii=False)
    result: Grade = grade(ex, answer, grading_inputs(ex))
    assert not result.correct
    for lang in ("en", "zh"):
        shown = [item.render(lang) for item in result.feedback]
        assert shown and not any(_lookalikes(text) for text in shown), shown
        assert any("\\u0435" in text or "\\u043e" in text for text in shown)


def test_the_selection_labs_drill_down():
    verdict = grade_run([{"name": "report", "arguments": {}}], _calls(), {"report": SCHEMA})
    assert verdict.validation and not any(_lookalikes(line) for line in verdict.validation)
    assert any("/is_\\u0435rror" in line for line in verdict.validation)


def _calls():
    from toolcall.evaluation import Call  # noqa: PLC0415
    return (Call("report", json.loads(RAW)),)
