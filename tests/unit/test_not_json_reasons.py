"""Every place the app reads JSON a person wrote says why it is not JSON, in the page's language.

Newcomer pass: the selection lab's upload said "不是 JSON：第 1 行第 1 列出错" (where, not what) while the
playground, the pairing checker and the exercises explained the mistake. Each input path below gets the same
broken texts; its message must hold the reason every path gives (toolcall.parsing.localized_detail /
json_reason: json_explain's words at the place to fix) in en and zh. A new path that reads JSON belongs here."""

import io
import json
import zipfile

import pytest

from toolcall.eval_import import LogError, read_log
from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.harness_grading import parse_move
from toolcall.i18n import LANGS
from toolcall.pairing import check_pairing
from toolcall.parsing import localized_detail, parse_tool_input
from toolcall.selection import from_rows
from toolcall.tooldef import parse_definition, parse_tool_list
from toolcall.validation import check_schema

#: One of each kind of mistake json_explain names (a trailing comma, single quotes, a cut-off text, a bad
#: value, a missing colon), each on one line so that its place is the same wherever it is read.
BROKEN = ['{"a": 1,}', "{'a': 1}", '{"a": [1, 2', '{"a": tru}', '{"a" 1}']


def _exercise(kind: str):
    return next(ex for ex in load_exercises().exercises if ex.type == kind)


def _log_error(data: bytes, fmt: str, lang: str) -> str:
    with pytest.raises(LogError) as caught:
        read_log(data, fmt, "upload")
    return caught.value.text(lang)


def _eval_member(text: str, lang: str) -> str:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("samples/s1_epoch_1.json", text.encode())
    return read_log(buf.getvalue(), "inspect").problems[0].describe(lang)


def _jsonl_line(text: str, lang: str) -> str:
    good = json.dumps({"case_id": "c1", "run": 0, "model": "m", "expected_calls": [], "actual_calls": [],
                       "tools": [{"name": "get_order", "input_schema": {"type": "object"}}]})
    log = read_log(f"{text}\n{good}\n".encode(), "native", "runs.jsonl")  # one good line: the bad one is a problem
    return next(p for p in log.problems if p.code == "not_json").describe(lang)


def _selection_cell(text: str, lang: str) -> str:
    _, problems = from_rows([{"id": "c1", "request": "r", "expected_tool": "get_order", "expected_arguments": text}])
    return problems[0].message(lang)


def _graded(kind: str):
    def message(text: str, lang: str) -> str:
        ex = _exercise(kind)
        return "\n".join(f.render(lang) for f in grade(ex, text, grading_inputs(ex)).feedback)
    return message


#: Every input path that reads JSON a student or an instructor typed or uploaded: (name, message in a language).
PATHS = {
    "playground schema editor": lambda text, lang: check_schema(text, lang).message,
    "pairing checker": lambda text, lang: check_pairing(text, "auto", lang).error,
    "harness move": lambda text, lang: parse_move(text, lang)[1].message,
    "tool definition": lambda text, lang: parse_definition(text, lang).message,
    "tool list": lambda text, lang: parse_tool_list(text, lang)[1].message,
    "json exercise": _graded("json"),
    "schema_fix exercise": _graded("schema_fix"),
    "run log upload, JSON document (τ-bench)": lambda text, lang: _log_error(text.encode(), "tau", lang),
    "run log upload, JSON document (Inspect)": lambda text, lang: _log_error(text.encode(), "inspect", lang),
    "run log upload, JSONL with no good line": lambda text, lang: _log_error(text.encode(), "native", lang),
    "run log upload, one JSONL line": _jsonl_line,
    "run log upload, .eval member": _eval_member,
    "selection set, expected arguments": _selection_cell,
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("text", BROKEN)
@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_not_json_message_says_why_in_the_page_language(path, text, lang):
    reason = localized_detail(parse_tool_input(text), lang)
    assert reason.startswith(("A ", "There ", "Single ", "The ", "第", "这", "文本")), reason  # an explanation
    message = PATHS[path](text, lang)
    assert reason in message, message
