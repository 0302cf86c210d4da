"""A lesson figure's source that Python's parser cannot build (thousands of operators in a row) is a ValueError
naming the problem, as parse_source promises, never RecursionError or MemoryError out of `python -m toolcall
check`: 3 000 minus signs raised the first, 10 000 the second. Cases: every unary and binary operator token the
ast module knows, repeated past the parser's limits."""

import ast

import pytest

from toolcall.lessons import MAX_SOURCE_CHARS, parse_source

UNARY = {ast.UAdd: "+", ast.USub: "-", ast.Invert: "~", ast.Not: "not "}
BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.BitOr: "|", ast.MatMult: "@"}


def _sources():
    assert set(UNARY) == {c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.unaryop)} - {
        ast.unaryop}
    for n in (100, 3_000, 10_000, 100_000):
        for op in UNARY.values():
            yield pytest.param(f"f(x={op * n}1)", id=f"unary-{op.strip()}-{n}")
        for op in BINARY.values():
            yield pytest.param("f(x=1" + f"{op}1" * n + ")", id=f"binary-{op}-{n}")
        if n > 200:  # Python's parser's own limit on parentheses (a hundred around a literal is still one)
            yield pytest.param("f(x=" + "(" * n + "1" + ")" * n + ")", id=f"parentheses-{n}")


@pytest.mark.parametrize("source", list(_sources()))
def test_an_unbuildable_source_is_a_value_error(source):
    with pytest.raises(ValueError) as refused:
        parse_source(source)
    if len(source) > MAX_SOURCE_CHARS:
        assert str(refused.value) == f"the source is {len(source):,} characters; the limit is {MAX_SOURCE_CHARS}"


def test_the_shipped_sources_are_far_below_the_cap():
    from toolcall.lessons import load_lessons

    sources = [f.source for lang in ("en", "zh") for lesson in load_lessons(lang).lessons for f in lesson.figures]
    assert sources and max(map(len, sources)) < MAX_SOURCE_CHARS // 2
    for source in sources:
        parse_source(source)


def test_figures_are_rounded_exactly_and_their_digits_are_capped():
    """Rounding went through Decimal's 28-digit default: a correct 1/3 quoted with 40 threes failed as
    "[<class 'decimal.InvalidOperation'>]" (blamed on the source), and the digits a figure asks for were not
    bounded. Now exact integer rounding, at most lessons.MAX_FIGURE_DIGITS digits (issue 13)."""
    from fractions import Fraction

    from toolcall import lessons
    from toolcall.lessons import value_problem

    third = Fraction(1, 3)
    assert value_problem("0." + "3" * 40, third) is None
    assert value_problem("0." + "3" * 39 + "4", third) == "computed 0." + "3" * 40
    assert value_problem("0.73", 0.725) is None and value_problem("0.72", 0.725) == "computed 0.73"
    assert value_problem("33." + "3" * 58 + "%", third) is None
    assert lessons.MAX_FIGURE_DIGITS == 60
    assert value_problem("0." + "3" * 60, third) == ("it has 61 digits; a figure is quoted with at most 60 (the app "
                                                     "computes 0.333333)")
    assert value_problem("0." + "0" * 1_000_000 + "1%", 0.5) == ("it has 1,000,002 digits; a figure is quoted with at "
                                                                  "most 60 (the app computes 0.5)")
    assert value_problem("9" * 5000 + "/" + "9" * 5000, 0.5) == ("it has 10,000 digits; a figure is quoted with at "
                                                                "most 60 (the app computes 0.5)")
