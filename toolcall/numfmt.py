"""How the app writes a probability, a difference of probabilities and a plain number: one place, so
no page shows scientific notation (``7e-47%``), ``-0.0 pts`` or ``100.0%`` for a value below 1.

- :func:`percent`: a probability (0..1) as a percentage with one decimal (``72.9%``); between 1e-6
  and 0.05 % with two significant digits (``0.012%``); below 1e-6 by its magnitude, in words
  (``≈ 1 in 10⁹``, ``约 10⁹ 分之一``); just below 1 with as many decimals as it takes not to read
  as 100 % (``99.999%``), and closer to 1 than 1e-6 by its distance from 1 in words.
- :func:`points`: a difference of two probabilities in percentage points, signed with ASCII ``+`` /
  ``-`` (st.metric colours a delta by its leading ``-``); zero has no sign; a change below 0.0001 pts
  reads ``<0.0001``.
- :func:`number`: a plain decimal with up to 10 significant digits and no exponent.

Exact Fractions far below float range (C(c,k)/C(n,k) with n in the thousands) keep their magnitude:
logarithms are taken from the integers' bit lengths, never from a float that underflowed to 0.
Words come from the ``numbers.*`` keys of the catalogue (toolcall/locales/*/numbers.yaml).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

from toolcall.i18n import DEFAULT_LANG, t

#: Below this probability (and this close to 1) a percentage is given by its magnitude, in words.
MAGNITUDE_BELOW = Fraction(1, 10**6)
#: Smallest difference written as a number of points; anything smaller reads "<0.0001".
POINTS_FLOOR = Fraction(1, 10**4)

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _exact(x: float | int | Fraction) -> Fraction:
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"not a finite number: {x!r}")
    return Fraction(x)


def _log10(x: Fraction) -> float:
    """log10 of a positive Fraction, also far outside float range (from the integers' bit lengths)."""
    def log_int(n: int) -> float:
        shift = max(0, n.bit_length() - 60)
        return math.log10(n >> shift) + shift * math.log10(2)
    return log_int(x.numerator) - log_int(x.denominator)


def _decimal(x: Fraction, significant: int) -> str:
    """``x`` rounded half-even to ``significant`` digits, in plain notation (no exponent)."""
    with localcontext() as ctx:
        ctx.prec = significant
        ctx.Emin, ctx.Emax = -10**9, 10**9
        value = (Decimal(x.numerator) / Decimal(x.denominator)).normalize()
        return f"{value:f}"


def _fixed(x: Fraction, decimals: int) -> str:
    """``x`` rounded half-even to ``decimals`` places, plain notation."""
    with localcontext() as ctx:
        ctx.prec = 60
        value = Decimal(x.numerator) / Decimal(x.denominator)
        return f"{value.quantize(Decimal(1).scaleb(-decimals)):f}"


def one_in(x: Fraction, lang: str = DEFAULT_LANG) -> str:
    """A small positive probability by its magnitude: ``≈ 1 in 10⁹`` (en), ``约 10⁹ 分之一`` (zh);
    the power is -log10(x) rounded to the nearest whole number."""
    power = round(-_log10(x))
    return t("numbers.one_in", lang, power="10" + str(power).translate(_SUPERSCRIPT))


def percent(x: float | int | Fraction, lang: str = DEFAULT_LANG) -> str:
    """A probability ``x`` (0..1; float, int or exact Fraction) as the app shows it: ``72.9%``,
    ``0.012%``, ``≈ 1 in 10⁴⁸``, ``99.999%``, ``0%`` (also for -0.0), ``100.0%``. Outside 0..1 it is
    written as a percentage with one decimal. ValueError for NaN or infinity."""
    value = _exact(x)
    if value == 0:
        return "0%"
    if value < 0 or value > 1:
        return f"{_fixed(value * 100, 1)}%"
    if value < MAGNITUDE_BELOW:
        return one_in(value, lang)
    if value < Fraction(5, 10**4):
        return f"{_decimal(value * 100, 2)}%"
    shown = _fixed(value * 100, 1)
    if value == 1 or shown != "100.0":
        return f"{shown}%"
    rest = 1 - value  # rounds to 100.0 %: as many decimals as it takes not to, or the distance in words
    if rest < MAGNITUDE_BELOW:
        return t("numbers.all_but", lang, rest=one_in(rest, lang))
    decimals = 2
    while _fixed(value * 100, decimals).startswith("100"):  # rest ≥ 1e-6: at most 5 decimals
        decimals += 1
    return f"{_fixed(value * 100, decimals)}%"


def points(delta: float | int | Fraction, lang: str = DEFAULT_LANG) -> str:
    """A difference of two probabilities in percentage points: ``+1.2 pts``, ``-34.0 pts``,
    ``0 pts`` (zero, also -0.0, has no sign), ``+0.012 pts``, ``-<0.0001 pts``; ``pts`` is
    ``个百分点`` in zh. ValueError for NaN or infinity."""
    value = _exact(delta) * 100
    if value == 0:
        return t("numbers.points", lang, value="0")
    sign = "+" if value > 0 else "-"
    size = abs(value)
    if size >= Fraction(5, 100):
        text = _fixed(size, 1)
    elif size >= POINTS_FLOOR:
        text = _decimal(size, 2)
    else:
        text = "<" + _decimal(POINTS_FLOOR, 1)
    return t("numbers.points", lang, value=sign + text)


def number(x: float | int | Fraction) -> str:
    """A plain decimal with up to 10 significant digits, no exponent and no trailing zeros:
    0.4666666667, 1999, 0.000000001, 0 (also for -0.0). ValueError for NaN or infinity."""
    value = _exact(x)
    return "0" if value == 0 else _decimal(value, 10)
