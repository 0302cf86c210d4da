"""pass^k mathematics: the course's figures, the derivation, the simulation, the estimators."""

import itertools
import math
from fractions import Fraction

import pytest

from toolcall.fixtures import load_tool
from toolcall.numfmt import percent
from toolcall.passk import (N_MAX, EstimateInputError, check_runs, curve, equivalent_q, estimate, pass_k,
                            prob_all, read_whole, simulate, split_sentences, wilson)


# --- the ambiguity model -----------------------------------------------------------------

def test_course_band_for_m3_q90_k8():
    """q = 0.9, k = 8, m = 3 lands between 8.0 % (independent) and 72.9 % (correlated)."""
    assert pass_k(0.9, 3, 8, 0.0) == pytest.approx(0.9 ** 24, rel=1e-12)
    assert percent(pass_k(0.9, 3, 8, 0.0)) == "8.0%"
    assert pass_k(0.9, 3, 8, 1.0) == pytest.approx(0.729, rel=1e-12)
    assert percent(pass_k(0.9, 3, 8, 1.0)) == "72.9%"


def test_removing_one_ambiguity_is_worth_q_90_to_93_2():
    """m 3 → 2 at q = 0.9 equals keeping m = 3 at q' = 0.81^(1/3) ≈ 93.2 %, for every k at both ends."""
    q2 = equivalent_q(0.9, 3)
    assert q2 == pytest.approx(0.9321697517861577, rel=1e-12)
    assert percent(q2) == "93.2%"
    for k in range(1, 21):
        for rho in (0.0, 1.0):
            assert pass_k(q2, 3, k, rho) == pytest.approx(pass_k(0.9, 2, k, rho), rel=1e-9)
    assert equivalent_q(0.9, 1) == 1.0


@pytest.mark.parametrize("q, m, k", [(0.9, 3, 8), (0.5, 8, 20), (0.99, 1, 1), (0.7, 0, 5)])
def test_ends_of_the_correlation_control(q, m, k):
    """ρ = 0 gives q^(m·k); ρ = 1 gives q^m."""
    assert pass_k(q, m, k, 0.0) == pytest.approx(q ** (m * k), rel=1e-12)
    assert pass_k(q, m, k, 1.0) == pytest.approx(q ** m, rel=1e-12)


def test_exact_curve_is_monotone_in_rho_and_inside_the_band():
    for q, m, k in itertools.product((0.5, 0.8, 0.9, 0.99), (1, 3, 8), (1, 2, 8, 20)):
        values = [pass_k(q, m, k, i / 40) for i in range(41)]
        assert all(b >= a * (1 - 1e-12) for a, b in zip(values, values[1:]))
        assert q ** (m * k) * (1 - 1e-12) <= min(values) and max(values) <= q ** m * (1 + 1e-12)


def _enumerated(q: Fraction, k: int, rho: Fraction) -> Fraction:
    """P(all k runs right on one ambiguity), by enumerating the generative model outright."""
    total = Fraction(0)
    for shared in (True, False):
        p_shared = q if shared else 1 - q
        for plan in itertools.product(("copy", "right", "wrong"), repeat=k):
            weight = p_shared
            for step in plan:
                weight *= rho if step == "copy" else (1 - rho) * (q if step == "right" else 1 - q)
            if all(shared if step == "copy" else step == "right" for step in plan):
                total += weight
    return total


@pytest.mark.parametrize("q, rho", [(Fraction(9, 10), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 5)),
                                    (Fraction(3, 4), Fraction(9, 10)), (Fraction(2, 3), Fraction(0))])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_closed_form_matches_enumeration_of_the_model(q, rho, k):
    """The derived formula equals the sum over every outcome of the generative model."""
    assert prob_all(float(q), k, float(rho)) == pytest.approx(float(_enumerated(q, k, rho)), rel=1e-12)


def test_prob_all_edges_and_errors():
    assert prob_all(0.3, 0, 0.5) == 1.0
    assert prob_all(0.0, 4, 0.5) == 0.0 and prob_all(1.0, 4, 0.5) == 1.0
    for bad in ((1.2, 3, 0.5), (0.5, -1, 0.5), (0.5, 3, -0.1), (0.5, 2.5, 0.5), (True, 3, 0.5)):
        with pytest.raises(ValueError):
            prob_all(*bad)
    with pytest.raises(ValueError):
        pass_k(0.9, -1, 3)


def test_retries_independent_and_correlated():
    """20 % failure, 2 retries: 0.2³ = 0.8 % if independent, back to 20 % if fully correlated."""
    assert prob_all(0.2, 3, 0.0) == pytest.approx(0.008, rel=1e-12)
    assert percent(prob_all(0.2, 3, 0.0)) == "0.8%"
    assert prob_all(0.2, 3, 1.0) == pytest.approx(0.2, rel=1e-12)
    assert prob_all(0.2, 3, 0.5) == pytest.approx(0.2 * 0.6 ** 3 + 0.8 * 0.1 ** 3, rel=1e-12)


def test_curve_lists_k_1_to_20():
    c = curve(0.9, 3, 0.5)
    assert c.ks == tuple(range(1, 21))
    assert c.independent[7] == pytest.approx(0.9 ** 24) and c.correlated[7] == pytest.approx(0.729)
    assert c.exact[7] == pytest.approx(pass_k(0.9, 3, 8, 0.5))


# --- Monte Carlo ---------------------------------------------------------------------------

@pytest.mark.parametrize("q, m, rho", [(0.9, 3, 0.0), (0.9, 3, 0.5), (0.9, 3, 1.0), (0.5, 2, 0.3),
                                       (0.99, 8, 0.8), (0.7, 1, 0.95)])
def test_simulation_within_three_standard_errors(q, m, rho):
    """Every simulated pass^k lies within 3 standard errors (of the true p) of the formula."""
    sim, exact = simulate(q, m, rho, trials=4000), curve(q, m, rho).exact
    for k, est, p in zip(sim.ks, sim.estimate, exact):
        se = math.sqrt(p * (1 - p) / sim.trials)
        assert abs(est - p) <= 3 * se + 1e-12, (k, est, p, se)


def test_simulation_is_seeded_and_handles_m_zero():
    assert simulate(0.9, 3, 0.5) == simulate(0.9, 3, 0.5)
    assert simulate(0.9, 3, 0.5, seed=1) != simulate(0.9, 3, 0.5, seed=2)
    sim = simulate(0.6, 0, 0.5, trials=100)
    assert set(sim.estimate) == {1.0} and set(sim.stderr) == {0.0}
    assert all(lo < 1.0 == hi for lo, hi in zip(sim.low, sim.high))


def test_wilson_interval_is_finite_and_never_degenerate():
    lo, hi = wilson(0, 100)
    assert lo == 0.0 and 0.03 < hi < 0.04
    lo, hi = wilson(100, 100)
    assert 0.96 < lo < 0.97 and hi == 1.0
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


# --- sentences -----------------------------------------------------------------------------

def test_refund_order_description_splits_into_five_sentences():
    assert split_sentences(load_tool().description) == [
        "Refund a delivered order, in full or in part.",
        "Call it only when the customer explicitly asks for a refund and gives an order number.",
        "If the order has not shipped yet, use cancel_order instead.",
        "amount_cents is in cents: 19.99 yuan is 1999.",
        "The amount can never exceed what the customer paid for the order.",
    ]


@pytest.mark.parametrize("text, expected", [
    ("退款。只在客户明确要求时调用！金额以分为单位？", ["退款。", "只在客户明确要求时调用！", "金额以分为单位？"]),
    ("Pay 19.99 now. Then stop", ["Pay 19.99 now.", "Then stop"]),
    ("Mixed. 中文句子。English again!", ["Mixed.", "中文句子。", "English again!"]),
    ("Ends with a dot.", ["Ends with a dot."]),
    ("  \n ", []),
    ("", []),
    # issue 13: punctuation-only pieces are not sentences ('。' x 10 000 made 10 000 checkboxes)
    ("。" * 10_000, []),
    ("退款！！！真的？！", ["退款！", "真的？"]),
    ("Refund it. . . ! Then stop.", ["Refund it.", "Then stop."]),
])
def test_split_sentences(text, expected):
    assert split_sentences(text) == expected


# --- estimators ----------------------------------------------------------------------------

def test_worked_example_n10_c9_k3():
    """10 runs, 9 passes, k = 3: pass^k = 84/120 = 70 %, against the plug-in's 72.9 %."""
    est = estimate(10, 9, 3)
    assert (est.comb_c_k, est.comb_n_k, est.comb_fail_k) == (84, 120, 0)
    assert est.pass_hat_k == Fraction(7, 10) and percent(float(est.pass_hat_k)) == "70.0%"
    assert est.pass_at_k == 1
    assert est.naive == Fraction(729, 1000) and percent(float(est.naive)) == "72.9%"
    assert est.as_json() == {"n": 10, "c": 9, "k": 3, "pass^k": 0.7, "pass@k": 1.0, "naive": 0.729,
                             "decimal": {"pass^k": "0.7", "pass@k": "1", "naive": "0.729"},
                   "exact": {"pass^k": "7/10", "pass@k": "1", "naive": "729/1000"}}


def test_no_passes_and_all_passes():
    none, every = estimate(7, 0, 3), estimate(7, 7, 3)
    assert none.pass_at_k == 0 and none.pass_hat_k == 0 and none.naive == 0
    assert every.pass_at_k == 1 and every.pass_hat_k == 1 and every.naive == 1


def _expected(n: int, p: Fraction, k: int, attr: str) -> Fraction:
    return sum((math.comb(n, c) * p ** c * (1 - p) ** (n - c) * getattr(estimate(n, c, k), attr)
                for c in range(n + 1)), Fraction(0))


@pytest.mark.parametrize("p", [Fraction(0), Fraction(1, 3), Fraction(9, 10), Fraction(1)])
def test_estimators_unbiased_by_exact_enumeration(p):
    """E[C(c,k)/C(n,k)] = p^k and E[1 − C(n−c,k)/C(n,k)] = 1 − (1−p)^k exactly, for n ≤ 7."""
    for n in range(1, 8):
        for k in range(1, n + 1):
            assert _expected(n, p, k, "pass_hat_k") == p ** k
            assert _expected(n, p, k, "pass_at_k") == 1 - (1 - p) ** k


def test_plug_in_is_biased_upward():
    p = Fraction(9, 10)
    assert _expected(10, p, 3, "naive") > p ** 3
    assert _expected(10, p, 1, "naive") == p


@pytest.mark.parametrize("n, c, k, code, words", [
    (3, 1, 5, "k_above_n", "k = 5 is larger than n = 3"),
    (3, 4, 2, "c_above_n", "c = 4 passes cannot exceed n = 3"),
    (3, -1, 2, "negative", "c must not be negative"),
    (-2, 0, 1, "negative", "n must not be negative"),
    (3, 1.5, 2, "not_integer", "c must be a whole number"),
    (3, 1, "2", "not_integer", "k must be a whole number"),
    (True, 1, 1, "not_integer", "n must be a whole number"),
    (float("nan"), 1, 1, "not_integer", "n must be a whole number"),
    (0, 0, 1, "n_zero", "n must be at least 1"),
    (5, 2, 0, "k_zero", "k must be at least 1"),
    (N_MAX + 1, 1, 1, "n_too_large", "more than the 10000"),
])
def test_bad_runs_are_refused_with_a_clear_message(n, c, k, code, words):
    with pytest.raises(EstimateInputError) as info:
        estimate(n, c, k)
    assert info.value.code == code and words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_whole_floats_are_accepted():
    assert check_runs(10.0, 9, 3.0) == (10, 9, 3)


@pytest.mark.parametrize("x, text", [(0, "0%"), (1, "100.0%"), (0.729, "72.9%"), (0.0796, "8.0%"),
                                     (7e-49, "≈ 1 in 10⁴⁸"), (0.0004, "0.04%")])
def test_percent(x, text):
    assert percent(x) == text


@pytest.mark.parametrize("typed, value", [("12", 12), (" +3 ", 3), ("１２", 12), ("－５", -5), ("＋３", 3),
                                          ("\u3000７\u3000", 7)])
def test_read_whole_reads_ascii_and_full_width_digits(typed, value):
    assert read_whole(typed) == value


@pytest.mark.parametrize("typed", ["10²", "1⁰", "²", "⑩", "𝟏𝟎", "1₀", "1e15", "2.5", "1,000", "", "  "])
def test_read_whole_refuses_what_is_not_a_whole_number_as_typed(typed):
    """NFKC read "10²" as 102, "1⁰" as 10 and "⑩" as 10 (break-it pass brk20new): only full-width forms fold."""
    assert read_whole(typed) is None
