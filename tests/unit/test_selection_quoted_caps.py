"""A selection-set problem quotes a case id, a tool or a parameter name at most MAX_QUOTED_CHARS characters long
(issue 13, floods; break-it pass brk14lab). A table cell holds up to MAX_CELL_CHARS (2 000) and every invisible or
look-alike character is shown as a six-character \\uXXXX, so 60 rows of 2 000-character ids and tool names drew a
710 KB error box (30 problems of up to 24 000 characters) on every rerun of the selection lab; now 25 KB. Cut
before escaping, first and last characters kept around "…", as the pairing checker and the .eval member names do."""

import pytest

from toolcall.i18n import LANGS
from toolcall.selection import MAX_CELL_CHARS, MAX_QUOTED_CHARS, SET_CODES, SetProblem, check_set, from_rows


def test_a_long_invisible_id_and_a_lookalike_tool_are_cut_around_an_ellipsis():
    case = "000" + "\u200b" * 1990 + "end"
    rows = [{"id": case, "request": "r", "expected_tool": "\u0430" * 1990, "expected_arguments": "",
             "should_not_call": ""}]
    cases, problems = from_rows(rows)
    problems += check_set(cases, {}, ("get_order",))
    unknown = next(p for p in problems if p.code == "unknown_tool")
    head_id = "000" + "\\u200b" * (MAX_QUOTED_CHARS - 24 - 3)
    tail_id = "\\u200b" * 17 + "end"
    tool = "\\u0430" * (MAX_QUOTED_CHARS - 24) + "…" + "\\u0430" * 20
    assert unknown.message("en") == f"{head_id}…{tail_id}: there is no tool named {tool}."
    assert unknown.message("zh") == f"{head_id}…{tail_id}：没有叫 {tool} 的工具。"


def test_a_name_of_the_limit_is_quoted_whole():
    name = "c" * MAX_QUOTED_CHARS
    assert SetProblem("duplicate_id", name, {"case": name}).message("en") == f"{name}: this id is used twice."


#: The next member of the kind: every code, every quoted parameter at the longest a cell holds, each character one
#: that is shown escaped: no message is longer than its template and the quotes at their cap.
@pytest.mark.parametrize("code", list(SET_CODES))
@pytest.mark.parametrize("lang", LANGS)
def test_no_set_problem_grows_with_what_was_typed(code, lang):
    long = "\u200b" * MAX_CELL_CHARS
    params = {name: (long if name in ("case", "other", "tool", "param") else "id" if name == "column" else 7)
              for name in SET_CODES[code]}
    if "reason" in params:
        params["reason"] = {"en": "why", "zh": "原因"}
    if "value" in params:
        params["value"] = long[:80]
    message = SetProblem(code, params.get("case"), params).message(lang)
    assert len(message) <= 600 + 4 * 6 * MAX_QUOTED_CHARS, (code, len(message))
