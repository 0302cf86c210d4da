"""Issue 21: the wire-forms lesson and its two exercises, graded with exact scores, and the MCP answer the
exercise calls right is the one the app builds for an unknown tool."""

import json

from toolcall import REPO_ROOT
from toolcall.grading import grade, grading_inputs
from toolcall.exercises import load_exercises
from toolcall.judge import unknown_tool_message
from toolcall.lessons import load_lessons

EXERCISES = load_exercises().by_id()


def _grade(exercise_id, answer):
    exercise = EXERCISES[exercise_id]
    return grade(exercise, answer, grading_inputs(exercise))


def test_mcp_unknown_tool_exercise():
    assert (_grade("ex_mcp_unknown_tool", '["rpc_error"]').score, _grade("ex_mcp_unknown_tool", '["is_error"]').score) == (1, 0)
    right = EXERCISES["ex_mcp_unknown_tool"].labels("options")["rpc_error"]["en"].strip("`")
    built = unknown_tool_message("refund_everything", 7, "mcp", ["refund_order"])
    assert json.loads(right)["error"]["code"] == built["error"]["code"] == -32602
    assert json.loads(right)["id"] == built["id"] == 7


def test_pair_responses_items_exercise():
    right = _grade("ex_pair_responses_items", '{"out_b": "call_b", "out_a": "call_a", "out_z": "none", "out_name": "none"}')
    by_name = _grade("ex_pair_responses_items", '{"out_b": "call_b", "out_a": "call_a", "out_z": "none", "out_name": "call_a"}')
    assert (right.score, right.max_score, right.correct) == (4, 4, True)
    assert (by_name.score, by_name.correct) == (3, False)
    assert "never by tool name" in by_name.feedback[0].render("en")


def test_the_lesson_exists_in_both_languages_with_its_sources():
    for lang in ("en", "zh"):
        lesson = next(x for x in load_lessons(lang).lessons if x.name == "12-wire-forms.md")
        assert lesson.page == "pairing"
        front = (REPO_ROOT / lesson.file).read_text(encoding="utf-8").split("---")[1]
        assert "https://modelcontextprotocol.io/specification/2025-11-25/server/tools" in front
        assert "-32602" in lesson.body and "function_call_output" in lesson.body
