"""Every message the selection lab's core can emit (importer problems, notes, whole-file errors,
grading details, selection-set problems, per-case refusals) is a code with parameters, and every
code has English and Chinese text taking exactly those parameters."""

import ast
import inspect
import re
import string

import pytest

import toolcall.eval_import as eval_import
import toolcall.evaluation as evaluation
import toolcall.selection as selection
from toolcall.i18n import catalogue, fill

CODE_TABLES = {
    "eval.problem": evaluation.PROBLEM_CODES,
    "eval.notes": evaluation.NOTE_CODES,
    "eval.detail": evaluation.DETAIL_CODES,
    "eval.error": eval_import.ERROR_CODES,
    "eval.set": selection.SET_CODES,
}
ALL = [(prefix, code, params) for prefix, table in CODE_TABLES.items() for code, params in table.items()]


def fields(template: str) -> set[str]:
    return {name.split("!")[0].split(":")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("prefix, code, params", ALL, ids=[f"{p}.{c}" for p, c, _ in ALL])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_code_has_text_with_its_parameters(prefix, code, params, lang):
    template = catalogue(lang).get(f"{prefix}.{code}")
    assert template, f"{prefix}.{code} has no {lang} text"
    assert fields(template) == set(params)
    sample = {name: 12345 if name in ("size", "limit", "count", "need", "trials", "line") else "x" for name in params}
    assert fill(template, **sample)


def test_chinese_text_is_chinese():
    """A zh message is not the English one copied over (it holds CJK characters)."""
    for prefix, code, _ in ALL:
        assert re.search(r"[\u4e00-\u9fff]", catalogue("zh")[f"{prefix}.{code}"]), f"{prefix}.{code}"


def _emitted(module, calls: dict[str, int]) -> set[str]:
    """String codes passed to the named constructors at the given argument position, and the
    second item of every (path, code) tuple a function in ``module`` returns."""
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in calls:
            pos = calls[node.func.id]
            if len(node.args) > pos and isinstance(node.args[pos], ast.Constant):
                found.add(node.args[pos].value)
            for kw in node.keywords:
                if kw.arg in ("code", "detail") and isinstance(kw.value, ast.Constant):
                    found.add(kw.value.value)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            code = node.value.elts[1]
            if isinstance(code, ast.Constant) and isinstance(code.value, str) and module is eval_import:
                found.add(code.value)
    return found


def test_every_code_the_importers_emit_is_listed():
    """Codes written in toolcall.eval_import (LineProblem, Note, LogTooLarge, LogUnreadable and
    the (path, code) checks) are all in the tables, so each has text (test above)."""
    emitted = _emitted(eval_import, {"LineProblem": 2, "Note": 0, "LogTooLarge": 0, "LogUnreadable": 0})
    known = set(evaluation.PROBLEM_CODES) | set(evaluation.NOTE_CODES) | set(eval_import.ERROR_CODES)
    assert len(emitted) > 30 and emitted <= known
    assert _emitted(selection, {"SetProblem": 0}) == set(selection.SET_CODES)
    assert _emitted(evaluation, {"Verdict": 6, "_unparsable": 2}) <= set(evaluation.DETAIL_CODES)


def test_an_unlisted_code_is_refused_where_it_is_made():
    with pytest.raises(ValueError):
        evaluation.LineProblem(1, "$", "no_such_code")
    with pytest.raises(ValueError):
        evaluation.Note("no_such_code")
    with pytest.raises(ValueError):
        eval_import.LogUnreadable("no_such_code")
    with pytest.raises(ValueError):
        selection.SetProblem("no_such_code", None)


def test_problem_lines_in_chinese():
    problem = evaluation.LineProblem(6, "$.run", "required_missing")
    assert str(problem) == "line 6: $.run: required field missing"
    assert problem.describe("zh") == "第 6 行：$.run：缺少必填字段"
    big = eval_import.LogTooLarge("log_too_large", 30_000_000, 20_000_000)
    assert str(big) == "the log is 30,000,000 bytes; the limit is 20,000,000"
    assert big.text("zh") == "日志有 30,000,000 字节，上限是 20,000,000"


def test_a_runs_detail_in_chinese_carries_the_parsers_chinese_message():
    from toolcall.evaluation import Call, grade_run
    from toolcall.i18n import t
    from toolcall.parsing import localized_detail, parse_tool_input

    raw = '{"order_id": "ORD-1"'
    want = [{"name": "get_order", "arguments": {"order_id": ["ORD-1"]}}]
    zh = grade_run(want, [Call("get_order", raw_arguments=raw)], {}, "zh")
    en = grade_run(want, [Call("get_order", raw_arguments=raw)], {})
    assert (zh.detail, zh.error_type) == (en.detail, en.error_type) == ("unparsable", "unparsable_arguments")
    parsed = parse_tool_input(raw)
    assert zh.text("zh") == t("eval.detail.unparsable", "zh", why=f"{parsed.code}: {localized_detail(parsed, 'zh')}")
    assert en.text() == f"arguments do not parse ({parsed.code}: {localized_detail(parsed, 'en')})"
