"""toolcall.numfmt: every probability, difference and number the app shows (issue 14): no scientific
notation, no "-0.0 pts", no "100.0%" for a value below 1, magnitudes in words in both languages."""

import re
from fractions import Fraction
from math import comb

import pytest

from toolcall.numfmt import number, percent, points

SCIENTIFIC = re.compile(r"\d[eE][-+]?\d")


@pytest.mark.parametrize("x, en, zh", [
    (1e-9, "≈ 1 in 10⁹", "约 10⁹ 分之一"),
    (7e-49, "≈ 1 in 10⁴⁸", "约 10⁴⁸ 分之一"),
    (Fraction(1, comb(10000, 5000)), "≈ 1 in 10³⁰⁰⁸", "约 10³⁰⁰⁸ 分之一"),  # far below float range
    (-0.0, "0%", "0%"),
    (0, "0%", "0%"),
    (0.00012, "0.012%", "0.012%"),
    (0.0004, "0.04%", "0.04%"),
    (0.0796, "8.0%", "8.0%"),
    (0.729, "72.9%", "72.9%"),
    (0.99999, "99.999%", "99.999%"),
    (0.999996, "99.9996%", "99.9996%"),
    (1 - 1e-9, "100% minus ≈ 1 in 10⁹", "100% 减去约 10⁹ 分之一"),
    (1.0, "100.0%", "100.0%"),
])
def test_percent(x, en, zh):
    assert (percent(x, "en"), percent(x, "zh")) == (en, zh)


@pytest.mark.parametrize("delta, en, zh", [
    (-0.0, "0 pts", "0 个百分点"),
    (0.0, "0 pts", "0 个百分点"),
    (-0.012, "-1.2 pts", "-1.2 个百分点"),
    (0.3, "+30.0 pts", "+30.0 个百分点"),
    (-0.0000012, "-0.00012 pts", "-0.00012 个百分点"),
    (-1e-9, "-<0.0001 pts", "-<0.0001 个百分点"),
    (Fraction(729, 1000) - Fraction(7, 10), "+2.9 pts", "+2.9 个百分点"),
    (Fraction(7, 10) - Fraction(729, 1000), "-2.9 pts", "-2.9 个百分点"),
])
def test_points(delta, en, zh):
    assert (points(delta, "en"), points(delta, "zh")) == (en, zh)


@pytest.mark.parametrize("x, text", [(0.4666666666666, "0.4666666667"), (1e-9, "0.000000001"), (1999.0, "1999"),
                                     (-0.0, "0"), (Fraction(84, 120), "0.7"), (-2.5, "-2.5")])
def test_number(x, text):
    assert number(x) == text


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_not_a_number_is_refused(bad):
    for show in (percent, points, number):
        with pytest.raises(ValueError):
            show(bad)


def test_no_value_in_the_range_shows_scientific_notation_or_a_negative_zero():
    """Powers of ten and their complements, from 1e-320 (a float's smallest) to 1 - 1e-15."""
    values = [10.0 ** -e for e in range(0, 321)] + [1 - 10.0 ** -e for e in range(1, 16)]
    for x in values:
        for lang in ("en", "zh"):
            shown = [percent(x, lang), points(x, lang), points(-x, lang), number(x)]
            assert not [s for s in shown if SCIENTIFIC.search(s) or s.startswith(("-0 ", "-0.0 "))], (x, shown)
        if x < 1:
            assert percent(x) != "100.0%", x
        assert percent(x) != "0%", x


#: A format spec that writes a percentage or a signed difference itself ("{x:.1f}%", "{x:.1%}", "{d:+.1f}").
OWN_PERCENT = re.compile(r"\{[^{}]*:[+ ]?[0-9]*\.?[0-9]*[fge%]\}%|\{[^{}]*:[^{}]*%\}|\{[^{}]*:\+[^{}]*\}")


def test_nothing_but_numfmt_formats_a_percentage_or_a_signed_difference():
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    files = [repo / "app.py", *repo.glob("pages/*.py"), *repo.glob("ui/**/*.py"), *repo.glob("toolcall/**/*.py")]
    found = [f"{path.relative_to(repo)}:{n}" for path in files if path.name != "numfmt.py"
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if OWN_PERCENT.search(line)]
    assert len(files) > 50 and found == []


def test_a_wrong_number_answer_is_echoed_as_read_without_an_exponent():
    from toolcall.exercises import load_exercises
    from toolcall.grading import grade, grading_inputs

    ex = next(e for e in load_exercises().exercises if e.type == "number")
    result = grade(ex, "1e-9", grading_inputs(ex))
    assert not result.correct
    assert result.feedback[-1].render("en").startswith("0.000000001 is not the expected value")
