"""Selection sets: the shipped starter sets follow the course's rules, and each rule fires."""

import dataclasses

import pytest

from toolcall import FIXTURES_DIR
from toolcall.selection import (MIN_PER_TOOL, NO_TOOL, SelectionCase, check_selection_files, check_set, from_rows,
                                load_set, load_tool_schemas, to_rows)

SETS = sorted((FIXTURES_DIR / "selection").glob("*.yaml"))
TOOL_NAMES = sorted(p.stem for p in (FIXTURES_DIR / "tools").glob("*.json"))


def schemas():
    return load_tool_schemas(TOOL_NAMES, FIXTURES_DIR / "tools")


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_starter_sets_pass_every_rule(path):
    sset = load_set(path)
    assert check_set(sset.cases, schemas(), sset.tools) == []
    for tool in sset.tools:
        assert sum(c.expected_tool == tool for c in sset.cases) >= MIN_PER_TOOL
        assert sum(tool in c.should_not_call for c in sset.cases) >= MIN_PER_TOOL


def test_both_languages_have_the_same_cases():
    en, zh = (load_set(FIXTURES_DIR / "selection" / f"shop.{lang}.yaml") for lang in ("en", "zh"))
    assert [c.id for c in en.cases] == [c.id for c in zh.cases]
    assert [c.expected_tool for c in en.cases] == [c.expected_tool for c in zh.cases]
    assert (en.lang, zh.lang) == ("en", "zh")


def codes(cases, tools=None):
    return [(p.code, p.case) for p in check_set(cases, schemas(), tools)]


def shop():
    return list(load_set(SETS[0]).cases)


def test_too_few_per_tool():
    cases = [c for c in shop() if c.expected_tool != "cancel_order"]
    assert ("too_few_should_call", None) in codes(cases, ["cancel_order"])
    problem = check_set(cases, schemas(), ["cancel_order"])[0]
    assert problem.params == {"tool": "cancel_order", "count": 0, "need": MIN_PER_TOOL}
    assert problem.message("zh") == "cancel_order：“应该调用”只有 0 条，规则是至少 5 条。"
    declines = [dataclasses.replace(c, should_not_call=()) for c in shop()]
    assert ("too_few_should_not_call", None) in codes(declines, ["refund_order"])


def test_duplicates_unknown_tools_and_contradictions():
    first = shop()[0]
    copy = dataclasses.replace(first, id="copy", request="  " + first.request.upper() + " ")
    assert ("duplicate_request", "copy") in codes([first, copy])
    assert ("duplicate_id", first.id) in codes([first, first])
    ghost = SelectionCase("ghost", "x", "delete_account", {}, ("nope",))
    assert codes([ghost], []) == [("unknown_tool", "ghost"), ("unknown_tool", "ghost")]
    both = SelectionCase("both", "y", "get_order", {"order_id": ("ORD-20260917",)}, ("get_order",))
    assert codes([both], []) == [("self_contradiction", "both")]


@pytest.mark.parametrize("args, code", [
    ({"order_id": ("ORD-20260917",), "amount_cents": ("19.99",), "reason": ("damaged",)}, "invalid_value"),
    ({"order_id": ("ORD-20260917",), "amount_cents": (1999,), "reason": ("broken",)}, "invalid_value"),
    ({"order_id": ("ORD-20260917",), "amount_cents": (1999,)}, "missing_required"),
    ({"order_id": ("ORD-20260917", ""), "amount_cents": (1999,), "reason": ("damaged",)}, "omitted_required"),
    ({"order_id": ("ORD-20260917",), "amount_cents": (1999,), "reason": ("damaged",), "colour": ("red",)},
     "unknown_parameter"),
])
def test_expected_arguments_checked_against_the_schema(args, code):
    case = SelectionCase("r", "refund please", "refund_order", args)
    assert codes([case], []) == [(code, "r")]


def test_invalid_value_names_pointer_and_keyword():
    case = SelectionCase("r", "refund", "refund_order", {"order_id": ("ORD-1",), "amount_cents": (1999,),
                                                         "reason": ("damaged",)})
    problem = check_set([case], schemas(), [])[0]
    assert (problem.params["pointer"], problem.params["keyword"]) == ("/order_id", "pattern")


def test_rows_round_trip_and_bad_json():
    cases = shop()
    back, problems = from_rows(to_rows(cases))
    assert back == cases and problems == []
    rows = to_rows(cases[:1])
    rows[0]["expected_arguments"] = '{"query": "lamp"}'
    rows[0]["expected_tool"] = NO_TOOL
    back, problems = from_rows(rows)
    assert back[0].expected_tool is None and [(p.code, p.case) for p in problems] == [("bad_json", cases[0].id)]


def test_check_command_reports_file_and_case(tmp_path):
    (tmp_path / "fixtures" / "selection").mkdir(parents=True)
    (tmp_path / "fixtures" / "tools").symlink_to(FIXTURES_DIR / "tools")
    text = SETS[0].read_text(encoding="utf-8").replace('expected_tool: get_order\n    expected_arguments: {order_id: ["ORD-20261102"]}',
                                                       'expected_tool: get_order\n    expected_arguments: {order_id: ["20261102"]}', 1)
    (tmp_path / "fixtures" / "selection" / "x.yaml").write_text(text, encoding="utf-8")
    problems = check_selection_files(tmp_path)
    assert [(p.path, p.message.split(":")[0]) for p in problems] == [("$.cases[5]", "go_where")]
