"""Altair charts for the pass^k lab, built from toolcall.passk results (no streamlit here).

Every chart takes ``lang`` and labels itself from the UI catalogue, shows probabilities
as percentages on the axis, and refuses NaN or infinity before any value reaches Vega.
"""

from __future__ import annotations

import json
import math

import altair as alt
import pandas as pd

from toolcall.i18n import t
from toolcall.numfmt import percent
from toolcall.passk import Curve, Simulation, curve, prob_all, simulate
from toolcall.safe_validator import SizedCache

#: The pass^k lab's sliders as a page opens: (q, m, rho) of the ambiguity model, (fail, attempts, rho) of
#: the retries. toolcall/warmup.py builds these charts before the first student asks for them.
PASSK_DEFAULTS = (0.90, 3, 0.5)
RETRY_DEFAULTS = (0.20, 3, 0.5)

_PERCENT_AXIS = alt.Axis(format="%")
_UNIT = alt.Scale(domain=[0, 1])


def _finite(frame: pd.DataFrame) -> pd.DataFrame:
    """Return ``frame`` after checking every number in it is finite; ValueError otherwise."""
    for column in frame.select_dtypes("number"):
        bad = [v for v in frame[column] if not math.isfinite(v)]
        if bad:
            raise ValueError(f"column {column!r} holds non-finite values {bad[:3]}")
    return frame


#: The pass^k legend: two columns on a wide chart, one on a phone (under 520 px two columns of these labels ran
#: past the right edge and the red and blue curves had no label); a label may be as wide as the chart allows.
#: Vega-Lite expressions over the chart's ``width`` signal (https://vega.github.io/vega-lite/docs/legend.html).
_LEGEND_COLUMNS = alt.ExprRef(expr="width < 520 ? 1 : 2")
_LEGEND_LABEL_LIMIT = alt.ExprRef(expr="width < 520 ? max(120, width - 40) : min(400, width / 2 - 40)")


def _series_scale(names: list[str], colours: list[str]) -> alt.Scale:
    return alt.Scale(domain=names, range=colours)


def passk_chart(curve: Curve, sim: Simulation, rho: float, lang: str) -> alt.LayerChart:
    """pass^k against k: the band [q^(m·k), q^m], its two edges, the exact curve at ``rho``,
    and the Monte Carlo estimates as points with 95 % Wilson error bars.

    curve and sim must cover the same ks. Raises ValueError if they do not, or if any
    value is not finite.
    """
    if curve.ks != sim.ks:
        raise ValueError("curve and simulation cover different k")
    k_title, y_title = t("passk.chart.k_axis", lang), t("passk.chart.y_axis", lang)
    names = [t("passk.chart.band", lang), t("passk.chart.independent", lang), t("passk.chart.correlated", lang),
             t("passk.chart.exact", lang, rho=f"{rho:.2f}"), t("passk.chart.monte_carlo", lang, trials=sim.trials)]
    colour = alt.Color("series:N", title=None, scale=_series_scale(names, ["#c6dbef", "#d62728", "#2ca02c",
                                                                           "#1f77b4", "#ff7f0e"]),
                       legend=alt.Legend(orient="bottom", columns=_LEGEND_COLUMNS, labelLimit=_LEGEND_LABEL_LIMIT))
    x = alt.X("k:Q", title=k_title, scale=alt.Scale(domain=[1, max(curve.ks)]), axis=alt.Axis(tickMinStep=1))
    band = _finite(pd.DataFrame({"k": curve.ks, "low": curve.independent, "high": curve.correlated,
                                 "series": names[0]}))
    lines = _finite(pd.DataFrame([{"k": k, "value": v, "series": name, "shown": percent(v, lang)}
                                  for name, values in zip(names[1:4],
                                                          (curve.independent, curve.correlated, curve.exact))
                                  for k, v in zip(curve.ks, values)]))
    points = _finite(pd.DataFrame({"k": sim.ks, "value": sim.estimate, "low": sim.low, "high": sim.high,
                                   "series": names[4], "shown": [percent(v, lang) for v in sim.estimate]}))
    # the value as the metrics above the chart write it (toolcall.numfmt.percent): Vega's ".2%" wrote 0.5^64
    # as "0.00%" under a metric reading "≈ 1 in 10¹⁹", and 72.9% as "72.90%"
    tooltip = [alt.Tooltip("series:N", title=" "), alt.Tooltip("k:Q", title="k"),
               alt.Tooltip("shown:N", title=y_title)]
    y = alt.Y("value:Q", title=y_title, axis=_PERCENT_AXIS, scale=_UNIT)
    return alt.layer(
        alt.Chart(band).mark_area(opacity=0.5).encode(x=x, y=alt.Y("low:Q", title=y_title, axis=_PERCENT_AXIS,
                                                                   scale=_UNIT), y2="high:Q", color=colour),
        alt.Chart(lines).mark_line(strokeWidth=2.5).encode(x=x, y=y, color=colour, tooltip=tooltip),
        alt.Chart(points).mark_errorbar(ticks=True).encode(x=x, y=alt.Y("low:Q", title=y_title, axis=_PERCENT_AXIS,
                                                                          scale=_UNIT),
                                                           y2="high:Q", color=colour),
        alt.Chart(points).mark_point(filled=True, size=45).encode(x=x, y=y, color=colour, tooltip=tooltip),
    ).properties(height=380)


def passk_chart_for(q: float, m: int, rho: float, lang: str) -> alt.LayerChart:
    """:func:`passk_chart` of the exact curve and the seeded simulation for (q, m, rho)."""
    return passk_chart(curve(q, m, rho), simulation_for(q, m, rho), rho, lang)


#: Seeded simulations by (q, m, rho): the pass^k lab's metric ran the 4 000-trial simulation (about 9 ms of CPU at
#: m = 8) on every rerun, a click on a sentence or a number in another section included (brk10web3). About 3 KB each.
_simulations = SizedCache(max_entries=256, max_bytes=2 * 1024 ** 2)


def simulation_for(q: float, m: int, rho: float) -> Simulation:
    """``simulate(q, m, rho)`` (seeded, so the same for the same arguments), once per arguments in this process:
    one object shared by every session (frozen). Raises what ``simulate`` raises."""
    key = (float(q), int(m), float(rho))
    hit = _simulations.get(key)
    if hit is None:
        hit = simulate(q, m, rho)
        _simulations.put(key, hit)
    return hit


#: Vega-Lite specs (JSON text) by builder and arguments. Building a layered Altair chart deep-copies every
#: layer and encoding, and to_dict walks it all again: ≈ 0.3 s of CPU per pass^k chart on the course
#: machine, most of a page's first render (bench/README.md, section H). Bounded by entries and bytes.
_specs = SizedCache(max_entries=512, max_bytes=8 * 1024 ** 2)


def cached_spec(build, *args) -> dict:
    """``build(*args).to_dict(validate=False)`` (a fresh dict each call: the caller may change it), the chart
    built once per (builder, args) in this process. ``args`` must be hashable (numbers, strings).
    Validation against Altair's Vega-Lite schema is left to the unit tests (tests/unit/test_charts.py), as
    in ui.common.show_chart: these are our charts, not student input. Raises what ``build`` raises."""
    key = (build.__module__, build.__qualname__, args)
    text = _specs.get(key)
    if text is None:
        text = json.dumps(build(*args).to_dict(validate=False), allow_nan=False)
        _specs.put(key, text)
    return json.loads(text)


def retry_chart(fail: float, attempts: int, rho: float, lang: str, steps: int = 50) -> alt.LayerChart:
    """Final failure rate after ``attempts`` attempts against the correlation between them.

    The curve is prob_all(fail, attempts, ρ) for ρ = 0..1 in ``steps`` steps: fail^attempts
    at ρ = 0, back to ``fail`` at ρ = 1. A rule marks the single-attempt rate and a point
    marks the chosen ``rho``. Raises ValueError for out-of-range input.
    """
    x_title, y_title = t("passk.retry.x_axis", lang), t("passk.retry.y_axis", lang)
    grid = _finite(pd.DataFrame([{"rho": i / steps, "value": value, "shown": percent(value, lang)}
                                 for i in range(steps + 1) for value in [prob_all(fail, attempts, i / steps)]]))
    here_value = prob_all(fail, attempts, rho)
    here = _finite(pd.DataFrame([{"rho": rho, "value": here_value, "shown": percent(here_value, lang)}]))
    single = _finite(pd.DataFrame([{"value": fail, "label": t("passk.retry.single", lang)}]))
    x = alt.X("rho:Q", title=x_title, scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("value:Q", title=y_title, axis=_PERCENT_AXIS, scale=alt.Scale(domain=[0, max(fail * 1.1, 0.01)]))
    tooltip = [alt.Tooltip("rho:Q", title="ρ", format=".2f"), alt.Tooltip("shown:N", title=y_title)]
    return alt.layer(
        alt.Chart(grid).mark_line(strokeWidth=2.5, color="#1f77b4").encode(x=x, y=y, tooltip=tooltip),
        alt.Chart(single).mark_rule(strokeDash=[6, 4], color="#d62728").encode(y=y),
        alt.Chart(single).mark_text(align="left", dx=4, dy=-8, color="#d62728").encode(
            y=y, x=alt.value(0), text="label:N"),
        alt.Chart(here).mark_point(filled=True, size=90, color="#ff7f0e").encode(x=x, y=y, tooltip=tooltip),
    ).properties(height=260)
