"""What check spends recomputing a lesson's figures is bounded (issue 13, break-it pass brk14content: time bounded on
every input path). ``naive_pass_k(p=1e-300, k=10000)`` passed the ±10 000 argument limit and built a 10-million-bit
fraction: 0.9 s per figure, and a lesson's front matter (50 000 characters) held about 800 such figures, so one lesson
kept check busy for minutes. Now p^k is refused past MAX_EXACT_BITS bits (the bits are counted before computing, so
the refusal costs nothing), and a lesson lists at most 100 figures."""

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall.lessons import MAX_EXACT_BITS, naive_pass_k

LESSON = "lessons/en/08-contract-tests-and-evals.md"
FIGURE = '  - {value: "72.9%", source: "naive_pass_k(p=0.9, k=3)"}\n'


def _problems(root):
    return {(where, message) for file, where, message in problem_set(root)
            if file.endswith("en/08-contract-tests-and-evals.md")}


def test_a_figure_whose_exact_value_is_millions_of_bits_is_refused_by_its_size(tmp_path):
    root = edited_copy(tmp_path, LESSON, FIGURE,
                       FIGURE + '  - {value: "0.0%", source: "naive_pass_k(p=1e-300, k=10000)"}\n')
    assert _problems(root) == {("$.figures[3].source", "naive_pass_k(p=1e-300, k=10000): p^k would need 9,970,000 bits "
                                                       "to compute exactly; the limit is 1,000,000: quote a figure with "
                                                       "fewer digits in p or a smaller k")}


def test_a_lesson_lists_at_most_100_figures(tmp_path):
    root = edited_copy(tmp_path, LESSON, FIGURE, FIGURE * 99)
    (where, message), = _problems(root)
    assert where == "$.figures" and message.endswith("is too long (101 items; at most 100)")


@pytest.mark.parametrize("p, k", [(0.9, 3), ("1e-30", 10_000), (0.123456789, 10_000), (0.5, -10_000)])
def test_what_fits_the_limit_is_computed_exactly_and_the_limit_is_counted_before(p, k):
    from fractions import Fraction

    base = Fraction(str(p))
    bits = max(base.numerator.bit_length(), base.denominator.bit_length()) * abs(k)
    if bits <= MAX_EXACT_BITS:
        assert naive_pass_k(p, k) == base ** k
    else:
        with pytest.raises(ValueError, match="bits to compute exactly"):
            naive_pass_k(p, k)
