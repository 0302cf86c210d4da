"""The strict panel's leak matrix costs one time budget per edit, not one per cell (issue 13, time kind).

Each cell of the matrix (a row: a canned output, a probe or the free box's text; a column: the original schema and
three transformed ones) had its own VALIDATION_BUDGET, retried once. The free box holds up to 100 000 characters, so
its text against a schema that is slow on it (an array of 19 000 strings, each tried against 30 patterns) cost four
columns x two budgets: 3.6-4.0 s of server CPU on every schema edit while the panel was open (break-it pass
brk13web; 0.1 s without the text). ``leak_matrix`` now judges every cell under one shared LEAK_BUDGET, the free box's
row last; the cells left are NOT_CHECKED, which is no verdict and makes no leak. No clock is read here: the budget's
clock advances a fixed step per reading (tests/unit/test_edit_budget.py's StepClock).
"""

from __future__ import annotations

import json

from tests.unit.test_edit_budget import StepClock
from toolcall import safe_validator, validation
from toolcall.fixtures import load_outputs
from toolcall.parsing import parse_tool_input
from toolcall.safe_validator import VALIDATION_BUDGET
from toolcall.strict import COLUMNS, LEAK_BUDGET, NOT_CHECKED, leak_matrix
from toolcall.validation import check_schema, validate
from toolcall.i18n import t

#: The refund schema's fields with an array of strings each tried against 30 patterns: cheap for the canned
#: outputs (no tags), slow on the free box's 19 000 tags.
SLOW = {"type": "object",
        "properties": {"order_id": {"type": "string"}, "amount_cents": {"type": "integer", "minimum": 1},
                       "reason": {"type": "string"},
                       "tags": {"type": "array", "items": {"anyOf": [{"type": "string", "pattern": f"^x{i}$"}
                                                                     for i in range(30)]}}},
        "required": ["order_id", "amount_cents", "reason"], "additionalProperties": False}
FREE = json.dumps({"order_id": "ORD-1", "amount_cents": 1, "reason": "x", "tags": ["y"] * 19_000},
                  separators=(",", ":"))


def _schema() -> dict:
    checked = check_schema(json.dumps(SLOW))
    assert checked.ok, checked.message
    return checked.schema


def _step(monkeypatch, schema: dict, share: float = 0.9) -> float:
    """A clock step that makes the free text cost ``share`` of one validation's budget under ``schema``."""
    clock = StepClock(1e-12)
    monkeypatch.setattr(safe_validator, "_clock", clock)
    validate(parse_tool_input(FREE).value, schema)
    return share * VALIDATION_BUDGET / clock.reads


def test_the_free_box_row_costs_the_matrix_one_budget_not_one_per_column(monkeypatch):
    """Before: every column of the free row took its own 0.9 budget (over 1.35 s of the stand-in clock in all).
    Now the whole matrix stops at LEAK_BUDGET; the course's rows come first and are all judged."""
    schema, outputs = _schema(), load_outputs().outputs
    step = _step(monkeypatch, schema)
    clock = StepClock(step)
    monkeypatch.setattr(safe_validator, "_clock", clock)
    matrix = leak_matrix(schema, outputs, [("free", "Free box", FREE)])
    assert clock.reads * step <= LEAK_BUDGET + 0.1 * VALIDATION_BUDGET
    free = matrix.rows[-1]
    assert free.id == "free"
    assert [row.id for row in matrix.rows[:len(outputs)]] == [o.id for o in outputs]
    course = [v for row in matrix.rows[:-1] for v in row.verdicts.values() if v is not None]
    assert all(v.checked for v in course)
    unchecked = [c for c in COLUMNS if free.verdicts[c] is NOT_CHECKED]
    assert unchecked and matrix.not_checked == len(unchecked)
    assert not set(free.leaks + free.overrejects) & set(unchecked)


def test_an_unchecked_original_makes_no_leak_and_no_over_rejection(monkeypatch):
    """Spent at the first reading: every cell is NOT_CHECKED, none is a verdict, and no row claims a leak (before,
    a refused cell read "rejected", so the transformed columns that accepted looked like leaks)."""
    schema, outputs = _schema(), load_outputs().outputs
    monkeypatch.setattr(safe_validator, "_clock", StepClock(10 * LEAK_BUDGET))
    matrix = leak_matrix(schema, outputs, [("free", "Free box", FREE)])
    cells = [v for row in matrix.rows for v in row.verdicts.values() if v is not None]
    assert cells and all(v is NOT_CHECKED for v in cells)
    assert matrix.not_checked == len(cells)
    assert not any(row.leaks or row.overrejects for row in matrix.rows)


def test_a_spent_matrix_leaves_the_schema_checkable(monkeypatch):
    """A cell left unchecked says nothing about the schema: the free text costs 1.5 validation budgets, so its first
    cell runs past its own budget and then, retried, past the matrix's; it is not remembered as too expensive (before,
    it was, for every student of the process), and the same schema still judges a canned output on its own."""
    schema, outputs = _schema(), load_outputs().outputs
    monkeypatch.setattr(safe_validator, "_clock", StepClock(_step(monkeypatch, schema, 1.5)))
    leak_matrix(schema, outputs, [("free", "Free box", FREE)])
    monkeypatch.setattr(safe_validator, "_clock", StepClock(1e-12))
    valid = next(o for o in outputs if o.expected == "accepted")
    assert validate(parse_tool_input(valid.raw).value, schema)[0] == []


def test_an_overrun_on_a_large_pasted_value_is_not_remembered_against_the_schema(monkeypatch):
    """The free box's card validates the same text first: its overrun (1.5 budgets, retried) refused the value and
    then the schema itself for every canned output of every session (the valid call read "rejected ($budget)", and
    leaked under the transformed schemas in the matrix). A value of REMEMBER_MAX_CHARS or less still is remembered."""
    schema, outputs = _schema(), load_outputs().outputs
    monkeypatch.setattr(safe_validator, "_clock", StepClock(_step(monkeypatch, schema, 1.5)))
    value = parse_tool_input(FREE).value
    [refused] = validate(value, schema)[0]
    assert json.dumps(schema) not in validation._too_expensive
    # the hint names the value's size: "Simplify the schema" blamed the schema alone for what the value cost
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    assert (refused.keyword, refused.hints) == ("$budget", [
        f"This value is large ({size:,} characters of JSON), and the schema checks its parts against several branches: "
        "validation was stopped so the server stays responsive for everyone. Check a smaller value, or simplify the "
        "schema's $ref / allOf / anyOf branches."])
    assert validate(value, schema, "zh")[0][0].hints == [
        f"这个值很大（JSON 共 {size:,} 个字符），schema 又要拿它的每一部分去对照好几个分支：为了让服务器对所有人保持响应，"
        "校验被中止了。请换一个小一些的值来校验，或者简化 schema 里的 $ref / allOf / anyOf 分支。"]
    monkeypatch.setattr(safe_validator, "_clock", StepClock(1e-12))
    valid = next(o for o in outputs if o.expected == "accepted")
    assert validate(parse_tool_input(valid.raw).value, schema)[0] == []
    row = next(r for r in leak_matrix(schema, outputs).rows if r.id == valid.id)
    assert row.verdicts["original"].accepted and not row.leaks


def test_an_overrun_on_a_call_sized_value_is_still_remembered(monkeypatch):
    schema = {**_schema(), "description": "remembered"}
    small = {"order_id": "ORD-1", "amount_cents": 1, "reason": "x", "tags": ["y"] * 200}
    assert len(json.dumps(small)) <= validation.REMEMBER_MAX_CHARS
    monkeypatch.setattr(safe_validator, "_clock", StepClock(10 * VALIDATION_BUDGET))
    [refused] = validate(small, schema)[0]
    assert (refused.keyword, refused.hints) == ("$budget", [t("hint.too_expensive", "en")])
    assert json.dumps(schema) in validation._too_expensive
