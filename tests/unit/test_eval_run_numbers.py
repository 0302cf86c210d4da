"""A run number, a τ-bench task_id or an Inspect epoch past 2⁶⁴ − 1 (orjson reads it as a float) said "must be a
whole number ≥ 0" / "required: a string or a whole number" of a whole number; now it says the number is too large,
in en and zh (issue 13, break-it pass brk12cli)."""

import pytest

from toolcall.cli import main

RECORD = '{"case_id": "a", "run": %s, "model": "m", "expected_calls": [], "actual_calls": []}\n'


@pytest.mark.parametrize("lang, line", [
    ("en", "line 1: $.run: is too large: a whole number here is at most 2⁶⁴ − 1 (18446744073709551615)"),
    ("zh", "第 1 行：$.run：太大了：这里的整数最大是 2⁶⁴ − 1（18446744073709551615）"),
])
def test_a_run_number_past_the_largest_says_too_large(tmp_path, capsys, lang, line):
    path = tmp_path / "runs.jsonl"
    path.write_text(RECORD % (2 ** 64), encoding="utf-8")
    assert main(["eval", str(path), "--k", "1", "--lang", lang]) == 2
    assert capsys.readouterr().err.splitlines()[0] == f"{path}: {line}"


def test_a_negative_or_decimal_run_is_still_not_a_whole_number_at_least_0(tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    for value in ("-1", "1.5", str(-2 ** 64)):
        path.write_text(RECORD % value, encoding="utf-8")
        assert main(["eval", str(path), "--k", "1"]) == 2
        assert capsys.readouterr().err.splitlines()[0] == f"{path}: line 1: $.run: must be a whole number ≥ 0"


def test_a_tau_task_id_past_the_largest_says_too_large():
    from toolcall.eval_import import read_tau

    log = read_tau(b'[{"task_id": 18446744073709551616, "reward": 1}, {"task_id": "a", "reward": 1}]')
    assert [p.describe("en") for p in log.problems] == [
        "line 1: $[0].task_id: is too large: a whole number here is at most 2⁶⁴ − 1 (18446744073709551615)"]
    assert [r.case_id for r in log.runs] == ["a"]


def test_a_tau_trial_past_the_largest_says_too_large_and_is_not_replaced_by_its_position():
    """A trial of 2⁶⁴ was read as a float and silently replaced by the task's own count (0), so the run counted as
    trial 0 of its task with no word."""
    from toolcall.eval_import import read_tau

    log = read_tau(b'[{"task_id": "a", "trial": 18446744073709551616, "reward": 1}, {"task_id": "a", "trial": 1, '
                   b'"reward": 0}]')
    assert [p.describe("en") for p in log.problems] == [
        "line 1: $[0].trial: is too large: a whole number here is at most 2⁶⁴ − 1 (18446744073709551615)"]
    assert [(r.case_id, r.run) for r in log.runs] == [("a", 1)]
