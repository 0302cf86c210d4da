"""One edit of the schema costs one time budget, not one per canned output (issue 13, time kind).

Each canned output had its own VALIDATION_BUDGET: a schema just under it (a 1 KB chain of 14 ``$defs`` each
referring to the next twice) cost one edit 8 x 0.45 s of server CPU, 3.6 s. ``judge.evaluate_canned`` now judges
every output under one shared CANNED_BUDGET; the outputs left when it is spent are NOT_CHECKED and shown as such.
No clock is read here: the budget's clock is replaced by one that advances a fixed step per reading, so "seconds"
are readings of the clock, i.e. subschemas visited (tests/workcount.py's rule: no timed tests).
"""

from __future__ import annotations

import itertools
import json

import pytest

from toolcall import safe_validator
from toolcall.exercise_types.schema_fix import grade_schema_fix
from toolcall.exercises import load_exercises
from toolcall.fixtures import load_orders, load_outputs, load_tool
from toolcall.i18n import t
from toolcall.judge import ACCEPTED, CANNED_BUDGET, NOT_CHECKED, evaluate_canned, summarize
from toolcall.parsing import parse_tool_input
from toolcall.safe_validator import VALIDATION_BUDGET
from toolcall.validation import check_schema, validate
from toolcall import FIXTURES_DIR


def chain(k: int) -> dict:
    """``$defs`` d0 … dk, each d_i an allOf of two references to d_{i+1}: about 2^(k+2) subschemas per value."""
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(k)}
    defs[f"d{k}"] = {"type": "object"}
    return {"$ref": "#/$defs/d0", "$defs": defs}


class StepClock:
    """A stand-in for the budget's CPU clock: each reading advances it by ``step`` and is counted."""

    def __init__(self, step: float):
        self.step, self.reads = step, 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * self.step


def _readings_per_validation(monkeypatch, schema: dict, instance: dict) -> int:
    clock = StepClock(1e-9)  # far below every budget
    monkeypatch.setattr(safe_validator, "_clock", clock)
    validate(instance, schema)
    return clock.reads


def _schema(k: int = 10) -> dict:
    check = check_schema(json.dumps(chain(k)))
    assert check.ok, check.message
    return check.schema


def _objects(outputs) -> list[int]:
    """Indices of the outputs whose text parses to a JSON object (the ones the schema validates)."""
    return [i for i, out in enumerate(outputs) if parse_tool_input(out.raw).ok]


def test_a_schema_just_under_each_outputs_budget_costs_one_budget_per_edit(monkeypatch):
    """The example: every output costs 0.9 of its own budget; only what fits in CANNED_BUDGET is judged, the rest
    is NOT_CHECKED, and the clock is read about CANNED_BUDGET / step times (before: 0.9 budget x every output)."""
    outputs = load_outputs().outputs
    schema = _schema()
    objects = _objects(outputs)
    assert len(objects) >= 3, "needs three outputs that parse to objects"
    per = _readings_per_validation(monkeypatch, schema, parse_tool_input(outputs[objects[0]].raw).value)
    step = 0.9 * VALIDATION_BUDGET / per
    clock = StepClock(step)
    monkeypatch.setattr(safe_validator, "_clock", clock)
    cards = evaluate_canned(outputs, schema, "refund_order", load_orders())
    fits = int(CANNED_BUDGET // (0.9 * VALIDATION_BUDGET))  # 2 whole validations fit in 1.0 s
    first_unchecked = objects[fits]
    assert [c.card.verdict == NOT_CHECKED for c in cards] == [i >= first_unchecked for i in range(len(outputs))]
    assert clock.reads * step <= CANNED_BUDGET + 0.1 * VALIDATION_BUDGET
    summary = summarize(cards)
    assert summary.not_checked == tuple(o.id for o in outputs[first_unchecked:])
    assert summary.matched + len(summary.not_checked) + len(summary.leaked) + len(
        summary.unexpected_rejections) == len(outputs)
    assert all(not c.leaked and not c.matches for c in cards[first_unchecked:])


@pytest.mark.parametrize("copies", [1, 5, 20])
def test_one_edit_is_bounded_whatever_the_number_of_outputs(monkeypatch, copies):
    """The next member: more outputs (an instructor adds some, or many) never buy more time per edit."""
    outputs = list(itertools.chain.from_iterable([load_outputs().outputs] * copies))
    schema = _schema()
    per = _readings_per_validation(monkeypatch, schema, {"order_id": "A"})
    step = 0.3 * VALIDATION_BUDGET / per
    clock = StepClock(step)
    monkeypatch.setattr(safe_validator, "_clock", clock)
    cards = evaluate_canned(outputs, schema, "refund_order", None)
    assert clock.reads * step <= CANNED_BUDGET + 0.1 * VALIDATION_BUDGET
    judged = [c for c in cards if c.card.verdict != NOT_CHECKED]
    assert len(judged) < len(cards)
    assert len([i for i in _objects(outputs) if cards[i].card.verdict != NOT_CHECKED]) == int(CANNED_BUDGET / (
        0.3 * VALIDATION_BUDGET))


def test_a_spent_shared_budget_is_not_remembered_as_too_expensive(monkeypatch):
    """An output left unchecked says nothing about the schema: the same output alone is judged (not "$budget")."""
    outputs = load_outputs().outputs
    schema = _schema()
    index = _objects(outputs)[-1]
    per = _readings_per_validation(monkeypatch, schema, parse_tool_input(outputs[index].raw).value)
    monkeypatch.setattr(safe_validator, "_clock", StepClock(0.9 * VALIDATION_BUDGET / per))
    assert evaluate_canned(outputs, schema, "refund_order", None)[index].card.verdict == NOT_CHECKED
    alone = evaluate_canned([outputs[index]], schema, "refund_order", None)[0]
    assert (alone.card.verdict, alone.card.errors) == (ACCEPTED, [])  # the chain ends in {"type": "object"}


def test_an_unchecked_output_earns_no_schema_fix_point_and_says_why(monkeypatch):
    """The schema-fix exercise grades through evaluate_canned: an output left unchecked is not a point, and the
    feedback names it as not checked (en, zh), not as leaked or over-rejected."""
    exercise = next((e for e in load_exercises().exercises if e.type == "schema_fix"), None)
    if exercise is None:
        pytest.skip("no schema_fix exercise in the content")
    name = exercise.spec["tool"]
    tool = load_tool(FIXTURES_DIR / "tools" / f"{name}.json")
    outputs = load_outputs(FIXTURES_DIR / "outputs" / f"{name}.yaml")
    monkeypatch.setattr(safe_validator, "_clock", StepClock(10 * CANNED_BUDGET))  # spent at the first reading
    grade = grade_schema_fix(exercise, json.dumps(tool.input_schema), tool, outputs)
    assert grade.score == 0
    first = outputs.outputs[0]
    wanted = {lang: t("exercises.fb.not_checked", lang, label=first.label[lang]) for lang in ("en", "zh")}
    assert wanted["zh"].startswith("未检查：“")
    texts = [{lang: item.render(lang) for lang in ("en", "zh")} for item in grade.feedback
             if item.key == "exercises.fb.not_checked"]
    assert len(texts) == len(outputs.outputs)
    assert texts[0] == wanted


def test_a_partial_result_is_judged_once_more_before_it_is_kept(monkeypatch):
    """A spent shared budget may be a pause that is not the schema's doing: evaluate_canned_cached judges once more
    (a fresh budget) before it keeps the result for every session; the cost stays at most two budgets, once."""
    from toolcall import judge
    from toolcall.safe_validator import SizedCache

    monkeypatch.setattr(judge, "_canned", SizedCache(judge._canned.max_entries, judge._canned.max_bytes))
    outputs = load_outputs().outputs
    schema = {**_schema(), "$comment": "partial"}
    calls = []
    real = judge.evaluate_canned

    def first_spent(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:  # the first attempt's budget is spent before any output
            return [judge.CannedJudgement(o, judge.Judgement(o.raw, NOT_CHECKED, "x")) for o in args[0]]
        return real(*args, **kwargs)

    monkeypatch.setattr(judge, "evaluate_canned", first_spent)
    cards = judge.evaluate_canned_cached(outputs, schema, "refund_order", None)
    assert len(calls) == 2 and not any(c.not_checked for c in cards)
    assert judge.evaluate_canned_cached(outputs, schema, "refund_order", None) is cards and len(calls) == 2
