"""The selection lab's expected_arguments cells are read as strictly as every other JSON a student types
(toolcall.parsing.strict_loads). Break-it pass brk14lab: ``json.loads`` took ``NaN``, ``Infinity`` and ``1e400`` as
values (the set then said "amount_cents = NaN fails the schema … type integer", and a number property would have
accepted them), kept the last of a key written twice without a word (``{"order_id": ["ORD-1"], "order_id":
["ORD-2"]}`` checked only ORD-2), took a 4 000-digit integer, and called 5 000 levels of nesting "must be a JSON
object whose values are lists" (it is one; it was the parser's recursion)."""

import pytest

from toolcall.parsing import MAX_DEPTH, StrictJSONError, localized_detail, strict_loads
from toolcall.selection import from_rows

CASES = {
    '{"amount_cents": [NaN]}': ("NaN is not valid JSON", "NaN 不是合法的 JSON"),
    '{"amount_cents": [Infinity]}': ("Infinity is not valid JSON", "Infinity 不是合法的 JSON"),
    '{"amount_cents": [-Infinity]}': ("-Infinity is not valid JSON", "-Infinity 不是合法的 JSON"),
    '{"amount_cents": [1e400]}': ("number 1e400 overflows a double", "数字 1e400 超出了双精度浮点数的范围"),
    '{"order_id": ["ORD-1"], "order_id": ["ORD-2"]}': ("duplicate keys: order_id", "键重复：order_id"),
    '{"amount_cents": [' + "9" * 4000 + "]}": ("integer with 4000 digits exceeds the 1000-digit limit",
                                               "这个整数有 4000 位，超过了 1000 位的上限"),
    '{"x": [' + "[" * 5000 + "]" * 5000 + "]}": ("nested 5002 levels deep; the limit is 64",
                                                 "嵌套了 5002 层，上限是 64 层"),
}


def _problems(cell: str):
    rows = [{"id": "c1", "request": "r", "expected_tool": "refund_order", "expected_arguments": cell,
             "should_not_call": ""}]
    cases, problems = from_rows(rows)
    return cases, problems


@pytest.mark.parametrize("cell", list(CASES))
def test_a_cell_strict_json_refuses_is_not_json_in_both_languages(cell):
    cases, problems = _problems(cell)
    en, zh = CASES[cell]
    assert [(p.code, p.message("en"), p.message("zh")) for p in problems] == [
        ("arguments_not_json", f"c1: the expected arguments are not JSON: {en}", f"c1：期望参数不是 JSON：{zh}")]
    assert cases[0].expected_arguments == {}  # kept with no arguments, as any cell that is not JSON


#: The next member of the kind: any text strict_loads refuses with a reason of its own (a lone surrogate, a trailing
#: comma, a key written twice deeper down, nesting one past the limit) is refused by the cell with that reason.
MORE = ['{"a": ["\\ud800"]}', '{"a": [1,]}', '{"a": [{"b": 1, "b": 2}]}',
        '{"a": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}", '{"a": [-1e999]}', '{"a": [nan]}']


@pytest.mark.parametrize("cell", MORE)
def test_whatever_strict_json_refuses_the_cell_refuses_with_its_reason(cell):
    with pytest.raises(StrictJSONError) as refused:
        strict_loads(cell, MAX_DEPTH)
    _, problems = _problems(cell)
    assert [p.code for p in problems] == ["arguments_not_json"]
    for lang in ("en", "zh"):
        assert problems[0].params["reason"][lang] == localized_detail(refused.value, lang)


def test_valid_cells_still_read():
    cases, problems = _problems('{"order_id": ["ORD-20260917"], "amount_cents": [-0, 2599, ""]}')
    assert problems == []
    assert cases[0].expected_arguments == {"order_id": ("ORD-20260917",), "amount_cents": (0, 2599, "")}
