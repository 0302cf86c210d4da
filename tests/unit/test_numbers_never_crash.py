"""Numbers that never crash: every (n, c, k) in the documented range of ``passk`` (1 ≤ n ≤ N_MAX,
0 ≤ c ≤ n, 1 ≤ k ≤ n) and every short number answer to ``grade`` gives a result, never a
traceback (issue 12, "Numbers that never crash")."""

import json
import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcall.cli import main
from tests.conftest import unit_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.numfmt import percent
from toolcall.passk import EXACT_MAX_CHARS, N_MAX, decimal_text, estimate, exact_text


@st.composite
def runs(draw):
    n = draw(st.integers(1, N_MAX) | st.sampled_from([1, 2, 1500, N_MAX - 1, N_MAX]))
    c = draw(st.integers(0, n) | st.sampled_from([0, n, n - 1, n // 2]).filter(lambda v: 0 <= v <= n))
    k = draw(st.integers(1, n) | st.sampled_from([1, n, max(1, n - 1), max(1, n // 2)]).filter(lambda v: 1 <= v <= n))
    return n, c, k


def _close(text: str, exact: Fraction) -> bool:
    """``text`` agrees with ``exact`` to 16 significant digits (17 are printed)."""
    value = Fraction(Decimal(text))
    return value == exact or abs(value - exact) <= abs(exact) * Fraction(1, 10**16)


def test_the_reported_case_prints_instead_of_crashing(capsys):
    """n = 1500, c = 1499, k = 1400 used to die with "Exceeds the limit (4300 digits)"."""
    assert main(["passk", "--n", "1500", "--c", "1499", "--k", "1400"]) == 0
    out = json.loads(capsys.readouterr().out)
    # C(1499, 1400) / C(1500, 1400) = (1500 - 1400) / 1500 = 1/15
    assert out["exact"] == {"pass^k": "1/15", "pass@k": "1", "naive": None}
    assert out["pass^k"] == 1 / 15 and out["decimal"]["pass^k"] == "0.066666666666666667"
    # (1499/1500)^1400 = exp(1400 · log1p(-1/1500)) = 0.39311834395562906...
    assert math.isclose(out["naive"], math.exp(1400 * math.log1p(-1 / 1500)), rel_tol=1e-12)
    assert out["decimal"]["naive"].startswith("0.393118343955629")


def test_a_value_below_float_range_keeps_its_magnitude(capsys):
    """n = 10000, c = 5000, k = 5000: pass^k = 1/C(10000, 5000) ≈ 6.3e-3009, which a float rounds to 0."""
    assert main(["passk", "--n", "10000", "--c", "5000", "--k", "5000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pass^k"] == 0.0 and out["exact"]["pass^k"] is None
    exact = Fraction(1, math.comb(10000, 5000))
    assert _close(out["decimal"]["pass^k"], exact)
    assert out["decimal"]["pass^k"].endswith("e-3009")
    assert percent(estimate(10000, 5000, 5000).pass_hat_k) == "≈ 1 in 10³⁰⁰⁸"  # its magnitude, in words


# capsys is read (and so emptied) after every example
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=runs())
def test_cli_passk_over_the_whole_documented_range(case, capsys):
    n, c, k = case
    assert main(["passk", "--n", str(n), "--c", str(c), "--k", str(k)]) == 0
    out = json.loads(capsys.readouterr().out)
    est = estimate(n, c, k)
    for name, exact in {"pass^k": est.pass_hat_k, "pass@k": est.pass_at_k, "naive": est.naive}.items():
        assert _close(out["decimal"][name], exact), name
        assert out[name] == float(exact)
        shown = out["exact"][name]
        assert shown is None or (Fraction(shown) == exact and len(shown) <= EXACT_MAX_CHARS)
        if exact.numerator < 10**15 and exact.denominator < 10**15:  # short enough to print
            assert shown == f"{exact.numerator}/{exact.denominator}" if exact.denominator > 1 else str(exact.numerator)
        assert percent(exact) != "0%" or exact == 0
        assert "e" not in percent(exact).replace("≈ 1 in", ""), percent(exact)  # no scientific notation


@pytest.mark.parametrize("x, text", [(Fraction(0), "0"), (Fraction(1), "1"), (Fraction(7, 10), "0.7"),
                                     (Fraction(1, 3), "0.33333333333333333"), (Fraction(1, 10**7), "1e-7"),
                                     (Fraction(3, 10**400), "3e-400")])
def test_decimal_text(x, text):
    assert decimal_text(x) == text


def test_exact_text_refuses_long_fractions_without_converting_them():
    assert exact_text(Fraction(729, 1000)) == "729/1000"
    assert exact_text(Fraction(1, 10**5000)) is None  # str() of it would raise past 4300 digits


@st.composite
def number_answers(draw):
    """Answer texts in the documented number formats (decimal, fraction, percentage), ≤ 200 chars."""
    digits = st.text("0123456789", min_size=1, max_size=60)
    dec = st.builds(lambda a, b, e: a + ("." + b if b else "") + e, digits, st.text("0123456789", max_size=40),
                    st.sampled_from(["", "e5", "e-5", "E400", "e-400", "e308", "e-330"]))
    form = draw(st.sampled_from(["dec", "frac", "pct"]))
    if form == "frac":
        return draw(dec) + "/" + draw(dec)
    return draw(dec) + ("%" if form == "pct" else "")


@settings(max_examples=200, deadline=None)
@given(text=number_answers())
def test_grade_number_answers_over_the_documented_formats(text):
    exercises = [e for e in unit_exercises().exercises if e.type == "number"]
    for exercise in exercises:
        result = grade(exercise, text)
        assert result.score in (0, 1) and result.feedback
        if result.correct:
            assert not result.malformed


@settings(max_examples=150, deadline=None)
@given(top=st.integers(0, 10**6), bottom=st.integers(1, 10**6))
def test_grade_a_fraction_is_right_exactly_when_it_is_within_tolerance(top, bottom):
    exercise = next(e for e in unit_exercises().exercises if e.id == "pk_pass3")
    result = grade(exercise, f"{top}/{bottom}")
    near = abs(top / bottom - float(exercise.answer)) <= float(exercise.spec["tolerance"]) + 1e-12
    assert result.correct == near


@settings(max_examples=100, deadline=None)
@given(exercise_id=st.sampled_from(sorted(unit_exercises().by_id())),
       text=st.text(max_size=300) | st.integers().map(str) | st.builds(lambda d: "[" + "9" * d + "]", st.integers(1, 6000)))
def test_grade_any_text_never_raises(exercise_id, text):
    exercise = unit_exercises().by_id()[exercise_id]
    result = grade(exercise, text, grading_inputs(exercise))
    assert result.max_score > 0 and 0 <= result.score <= result.max_score
