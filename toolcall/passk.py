"""pass^k mathematics: how reliability falls with ambiguity, and how to estimate it from runs.

Two halves, both pure (no streamlit):

* **The ambiguity model.** A tool definition leaves ``m`` points ambiguous; the model
  reads each one right with probability ``q``; the same request runs ``k`` times.
  pass^k is the probability that *all* k runs get every point right.

  Correlation between runs (parameter ``rho`` in [0, 1]). For each ambiguity there is
  one *shared reading*, right with probability q (the reading this description tends
  to produce). Each run, independently, either copies the shared reading (probability
  rho) or makes its own fresh reading (probability 1 - rho), again right with
  probability q. Every run's reading is therefore right with probability q, whatever
  rho is; rho only couples the runs. (Two runs are both right with probability
  rho²·q + (1 - rho²)·q², so their success indicators have correlation rho².)

  Derivation, for one ambiguity and k runs. Let J ~ Binomial(k, 1 - rho) be the number
  of runs that read afresh. All k runs are right when every fresh reading is right and,
  if at least one run copied (J < k), the shared reading is right too::

      P_k = Σ_j C(k,j) (1-rho)^j rho^(k-j) · q^j · q^[j<k]
          = q · Σ_j C(k,j) ((1-rho)q)^j rho^(k-j)  +  (1 - q) · ((1-rho)q)^k
          = q · (rho + (1-rho)q)^k  +  (1 - q) · ((1-rho)q)^k

  (the j = k term is counted with q^k, not q^(k+1), hence the correction term).
  Ambiguities are independent of each other, so ``pass^k = P_k ** m``.

  Ends: rho = 0 gives q·q^k + (1-q)·q^k = q^k, so pass^k = q^(m·k) (independent runs);
  rho = 1 gives q (for k ≥ 1), so pass^k = q^m (every run repeats the same reading).
  In between it is monotone: dP_k/drho = k·q·(1-q)·(a^(k-1) - b^(k-1)) ≥ 0 with
  a = rho + (1-rho)q ≥ b = (1-rho)q. So the exact curve always lies in the band
  [q^(m·k), q^m] that the course chapter quotes.

  The same formula, with p in place of q, is the probability that k exchangeable
  events that each happen with probability p all happen: with p = 0.2 failures and
  k = 3 attempts it gives the final failure rate after 2 retries (0.2³ = 0.8 % when
  independent, back up to 20 % when every retry repeats the same mistake).

* **Estimating from real runs.** n runs of one test case, c of them passed. The
  unbiased estimators (τ-bench's pass^k, Yao et al. 2024; the HumanEval/Codex pass@k,
  Chen et al. 2021) are computed exactly with math.comb and Fraction.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from numbers import Integral, Real

from toolcall.i18n import fill
from toolcall.text import fold_full_width

#: Range of the ambiguity model's inputs accepted by the functions below.
K_MAX = 20


def _check_prob(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
    return float(value)


def _check_count(name: str, value: int, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return int(value)


def prob_all(p: float, k: int, rho: float) -> float:
    """Probability that k exchangeable events, each of probability ``p``, all happen.

    Events share one latent outcome: each copies it with probability ``rho`` or draws
    its own (see the module docstring for the derivation)::

        P = p · (rho + (1-rho)·p)^k + (1 - p) · ((1-rho)·p)^k

    p, rho in [0, 1]; k ≥ 0 (k = 0 gives 1). Returns a float in [0, 1].
    Raises ValueError for anything out of range.
    """
    p, rho, k = _check_prob("p", p), _check_prob("rho", rho), _check_count("k", k)
    if k == 0:
        return 1.0
    return p * (rho + (1.0 - rho) * p) ** k + (1.0 - p) * ((1.0 - rho) * p) ** k


def pass_k(q: float, m: int, k: int, rho: float = 0.0) -> float:
    """Exact pass^k of the ambiguity model: ``prob_all(q, k, rho) ** m``.

    q: chance one ambiguity is read right (0..1); m: number of ambiguities (≥ 0);
    k: runs of the same request (≥ 0); rho: correlation control (0 independent,
    1 every run repeats the same reading). rho = 0 gives q^(m·k), rho = 1 gives q^m.
    Raises ValueError for anything out of range.
    """
    return prob_all(q, k, rho) ** _check_count("m", m)


@dataclass(frozen=True)
class Curve:
    """pass^k for k = 1..len(ks): the independent end, the correlated end, the exact curve."""

    ks: tuple[int, ...]
    independent: tuple[float, ...]  # q^(m·k)
    correlated: tuple[float, ...]   # q^m
    exact: tuple[float, ...]        # pass_k(q, m, k, rho)


def curve(q: float, m: int, rho: float, k_max: int = K_MAX) -> Curve:
    """The three pass^k curves for k = 1..k_max (k_max ≥ 1). Raises ValueError."""
    ks = tuple(range(1, _check_count("k_max", k_max, 1) + 1))
    return Curve(ks, tuple(pass_k(q, m, k, 0.0) for k in ks), tuple(pass_k(q, m, k, 1.0) for k in ks),
                 tuple(pass_k(q, m, k, rho) for k in ks))


@dataclass(frozen=True)
class Simulation:
    """Monte Carlo estimate of pass^k for k = 1..len(ks), from ``trials`` seeded trials.

    ``estimate[i]`` is the share of trials whose first ks[i] runs all succeeded;
    ``low``/``high`` bound its 95 % Wilson score interval (finite even at 0 or 1);
    ``stderr`` is the binomial standard error sqrt(p̂(1-p̂)/trials).
    """

    ks: tuple[int, ...]
    trials: int
    seed: int
    estimate: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    stderr: tuple[float, ...]


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval (low, high) for a binomial proportion; trials ≥ 1.

    Source: E. B. Wilson, JASA 22 (1927). Unlike p̂ ± z·SE it never has zero width at
    0 or 1 and never leaves [0, 1].
    """
    trials = _check_count("trials", trials, 1)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(q: float, m: int, rho: float, k_max: int = K_MAX, trials: int = 4000, seed: int = 20260917) -> Simulation:
    """Simulate the generative model of ``pass_k`` directly (vectorised numpy, seeded).

    Per trial: one shared reading per ambiguity (right w.p. q), shape (trials, m); per run
    and ambiguity a copy flag (w.p. rho) and a fresh reading (right w.p. q), shape
    (trials, k_max, m). A run succeeds when every ambiguity is read right; pass^k is
    estimated by the share of trials whose first k runs all succeed (runs are
    exchangeable, so the first k stand for any k). Raises ValueError for bad input.
    """
    q, rho = _check_prob("q", q), _check_prob("rho", rho)
    m, k_max, trials = _check_count("m", m), _check_count("k_max", k_max, 1), _check_count("trials", trials, 1)
    import numpy as np  # here, not at the top: pages that only quote the exact estimators never load numpy

    rng = np.random.default_rng(seed)
    shared = rng.random((trials, 1, m)) < q
    copies = rng.random((trials, k_max, m)) < rho
    fresh = rng.random((trials, k_max, m)) < q
    run_ok = np.where(copies, shared, fresh).all(axis=2)            # (trials, k_max)
    passes = np.logical_and.accumulate(run_ok, axis=1).sum(axis=0)  # trials whose first k runs all passed
    est = passes / trials
    bounds = [wilson(int(s), trials) for s in passes]
    return Simulation(tuple(range(1, k_max + 1)), trials, seed, tuple(float(x) for x in est),
                      tuple(b[0] for b in bounds), tuple(b[1] for b in bounds),
                      tuple(float(x) for x in np.sqrt(est * (1 - est) / trials)))


def equivalent_q(q: float, m: int) -> float:
    """The accuracy q' that would make m ambiguities as reliable as m - 1 ambiguities at q.

    Removing one ambiguity (m → m-1, accuracy q) is worth as much as keeping all m and
    raising every reading's accuracy to q', where q'^m = q^(m-1), so q' = q^((m-1)/m).
    Then q'^(m·k) = q^((m-1)·k) for every k, and q'^m = q^(m-1) at the correlated end.
    m = 3, q = 0.9 gives 0.81^(1/3) ≈ 0.9322 (the course's "90 % → 93.2 %").
    m = 1 gives 1.0 (removing the only ambiguity is worth perfect reading).
    Raises ValueError for q outside [0, 1] or m < 1.
    """
    q, m = _check_prob("q", q), _check_count("m", m, 1)
    return q ** ((m - 1) / m)


# --- sentences of a tool description ----------------------------------------------------

_LATIN_END = ".!?"
_CJK_END = "。！？"


def split_sentences(text: str) -> list[str]:
    """Split a tool description into sentences, each keeping its closing punctuation.

    A sentence ends at '.', '!' or '?' followed by whitespace or the end of the text
    (so "19.99" and "e.g.ORD" stay whole), or at '。', '！' or '？' (Chinese needs no
    space after them). Surrounding whitespace is stripped; pieces with no letter or digit
    (empty, or punctuation only, such as the second '。' of '。。') are dropped.
    Returns [] for a blank text.
    """
    sentences, start, n = [], 0, len(text)
    for i, ch in enumerate(text):
        if ch in _CJK_END or (ch in _LATIN_END and (i + 1 == n or text[i + 1].isspace())):
            sentences.append(text[start:i + 1])
            start = i + 1
    sentences.append(text[start:])
    return [s.strip() for s in sentences if any(ch.isalnum() for ch in s)]


# --- estimating from real runs ------------------------------------------------------------

#: Most runs accepted by the estimators (keeps C(n, k) and its Fraction small and fast).
N_MAX = 10_000


#: Longest run of digits :func:`read_whole` turns into a number (Python's int() refuses more than 4 300); the box
#: holds far fewer (its max_chars), so only a message crafted past the browser is longer.
MAX_WHOLE_DIGITS = 4_000
_WHOLE = re.compile(r"[+-]?[0-9]+")


def read_whole(text: str) -> int | None:
    """The whole number typed in a box of the estimator (``"12"``, ``" +3 "``, full-width ``"１２"`` as a Chinese
    keyboard types it), or None for anything else (``1e15``, ``2.5``, ``1,000``, ``10²``, a word, nothing). The boxes
    were number inputs: Streamlit's browser side refused a value past 9 007 199 254 740 991 on its own, in English,
    and the page kept computing with the previous value; ``1e15`` became 1 (break-it pass brk19web). Only full-width
    forms are folded (fold_full_width), not NFKC's superscripts: ``10²`` was read as 102 (brk20new)."""
    typed = fold_full_width(text).strip()
    if len(typed) <= MAX_WHOLE_DIGITS + 1 and _WHOLE.fullmatch(typed):
        return int(typed)
    return None


class EstimateInputError(ValueError):
    """Bad (n, c, k). ``code`` names the problem (not_integer, negative, n_zero, n_too_large,
    k_zero, c_above_n, k_above_n) and ``params`` fills a translated message."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message)
        self.code = code
        self.params = params


def check_runs(n, c, k) -> tuple[int, int, int]:
    """Validate n runs, c passes, k: whole numbers with 1 ≤ n ≤ N_MAX, 0 ≤ c ≤ n, 1 ≤ k ≤ n.

    Returns (n, c, k) as ints (3.0 is accepted as 3). Raises EstimateInputError with a
    message naming the offending value.
    """
    values = {"n": n, "c": c, "k": k}
    for name, value in values.items():
        whole = isinstance(value, Integral) or (isinstance(value, float) and value.is_integer())
        if isinstance(value, bool) or not whole:
            raise EstimateInputError("not_integer", f"{name} must be a whole number, got {value!r}",
                                     name=name, value=value)
        if value < 0:
            raise EstimateInputError("negative", f"{name} must not be negative, got {int(value)}",
                                     name=name, value=int(value))
    n, c, k = int(n), int(c), int(k)
    if n == 0:
        raise EstimateInputError("n_zero", "n must be at least 1: no runs, nothing to estimate")
    if n > N_MAX:
        raise EstimateInputError("n_too_large", f"n = {n} runs is more than the {N_MAX} this tool accepts",
                                 n=n, limit=N_MAX)
    if k == 0:
        raise EstimateInputError("k_zero", "k must be at least 1")
    if c > n:
        raise EstimateInputError("c_above_n", fill("c = {c} {c:plural:pass|passes} cannot exceed n = {n} "
                                                       "{n:plural:run|runs}", c=c, n=n), c=c, n=n)
    if k > n:
        raise EstimateInputError("k_above_n", f"k = {k} is larger than n = {n}: the unbiased estimators "
                                 f"need at least k runs; add runs (missing: {k - n}) or lower k",
                                 k=k, n=n, more=k - n)
    return n, c, k


@dataclass(frozen=True)
class Estimates:
    """Exact estimates from n runs with c passes, for k.

    pass_hat_k = C(c,k)/C(n,k): unbiased for pass^k (all k of k runs pass). Source:
      τ-bench, Yao et al. 2024, "τ-bench: A Benchmark for Tool-Agent-User Interaction".
    pass_at_k = 1 - C(n-c,k)/C(n,k): unbiased for pass@k (at least one of k passes).
      Source: Chen et al. 2021, "Evaluating Large Language Models Trained on Code".
    naive = (c/n)^k: the plug-in; biased upward for pass^k when 0 < c < n and k ≥ 2.
    ``comb_c_k``/``comb_n_k`` keep the unreduced ratio for display (84/120);
    ``comb_fail_k`` is C(n-c, k).
    """

    n: int
    c: int
    k: int
    comb_c_k: int
    comb_n_k: int
    comb_fail_k: int
    pass_hat_k: Fraction
    pass_at_k: Fraction
    naive: Fraction

    @property
    def printable(self) -> bool:
        """True when C(n,k) is short enough (≤ 15 digits) to show the unreduced ratio."""
        return self.comb_n_k < 10**15

    def as_json(self) -> dict:
        """Plain-JSON view for the CLI: each estimate as a float, as a decimal string with
        DECIMAL_DIGITS significant digits (keeps the magnitude where the float underflows to
        0.0, e.g. "7.0798112610481729e-1506") and, under ``exact``, as a fraction when it is at
        most EXACT_MAX_CHARS long ("7/10"), else null."""
        fields = {"pass^k": self.pass_hat_k, "pass@k": self.pass_at_k, "naive": self.naive}
        return {"n": self.n, "c": self.c, "k": self.k,
                **{name: float(value) for name, value in fields.items()},
                "decimal": {name: decimal_text(value) for name, value in fields.items()},
                "exact": {name: exact_text(value) for name, value in fields.items()}}


def estimate(n, c, k) -> Estimates:
    """pass^k, pass@k and the naive plug-in from n runs with c passes (see Estimates).

    n = 10, c = 9, k = 3 gives pass^k = 84/120 = 7/10, pass@k = 1, naive = 729/1000.
    c = 0 gives pass@k = 0; c = n gives pass^k = pass@k = 1. Raises EstimateInputError.
    """
    n, c, k = check_runs(n, c, k)
    total, good, bad = math.comb(n, k), math.comb(c, k), math.comb(n - c, k)
    return Estimates(n, c, k, good, total, bad, Fraction(good, total), 1 - Fraction(bad, total),
                     Fraction(c, n) ** k)


#: Longest fraction (characters of "a/b") printed exactly; C(n, k) runs to thousands of digits.
EXACT_MAX_CHARS = 40
#: Significant digits of the decimal form (17 round-trip any float).
DECIMAL_DIGITS = 17


def exact_text(x: Fraction) -> str | None:
    """``str(x)`` ("7/10", "1") when it is at most EXACT_MAX_CHARS long, else None.

    Never converts a long integer to text (Python refuses past 4300 digits): the length is
    bounded first from the bit lengths (a b-bit number has at most ⌈b·log10 2⌉ + 1 digits).
    """
    x = Fraction(x)
    bound = sum(math.ceil(v.bit_length() * math.log10(2)) + 1 for v in (x.numerator, x.denominator))
    if bound > 4 * EXACT_MAX_CHARS:
        return None
    text = str(x)
    return text if len(text) <= EXACT_MAX_CHARS else None


def decimal_text(x: Fraction | int | float, digits: int = DECIMAL_DIGITS) -> str:
    """A probability as a decimal with ``digits`` significant digits, rounded half-even:
    7/10 → "0.7", 1 → "1", 0 → "0", a C(c,k)/C(n,k) far below float range → "7.0798112610481729e-1506".
    Computed with decimal.Decimal from the exact numerator and denominator (no float
    underflow, no int-to-text conversion). Plain notation down to 1e-6, scientific below."""
    x = Fraction(x)
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.Emin, ctx.Emax = -10**9, 10**9
        value = Decimal(x.numerator) / Decimal(x.denominator)
        value = value.normalize() if value else Decimal(0)
        if value and abs(value) < Decimal("1e-6"):
            return f"{value:e}".replace("E", "e")
        return f"{value:f}"
