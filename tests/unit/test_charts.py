"""Charts of the pass^k lab, inspected through their Vega-Lite spec (chart.to_dict())."""

import json

import pandas as pd
import pytest

from toolcall.charts import _finite, passk_chart, retry_chart
from toolcall.i18n import t
from toolcall.numfmt import percent
from toolcall.passk import curve, prob_all, simulate


def _spec(chart) -> dict:
    spec = chart.to_dict()
    json.dumps(spec, allow_nan=False)  # raises if NaN or infinity reached the chart
    return spec


def _rows(spec: dict, layer: int) -> list[dict]:
    return spec["datasets"][spec["layer"][layer]["data"]["name"]]


def _passk(lang="en", q=0.9, m=3, rho=0.5):
    return _spec(passk_chart(curve(q, m, rho), simulate(q, m, rho, trials=500), rho, lang))


def test_passk_chart_layers_and_percent_axis():
    """Band, lines, error bars, points; pass^k on a percent axis fixed to 0..100 %."""
    spec = _passk()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["area", "line", "errorbar", "point"]
    for layer in spec["layer"]:
        assert layer["encoding"]["y"]["axis"]["format"] == "%"
        assert layer["encoding"]["y"]["scale"]["domain"] == [0, 1]
        assert layer["encoding"]["x"]["scale"]["domain"] == [1, 20]


def test_passk_chart_carries_the_formula_values():
    spec = _passk()
    band = _rows(spec, 0)
    assert [r["k"] for r in band] == list(range(1, 21))
    assert band[7]["low"] == pytest.approx(0.9 ** 24) and band[7]["high"] == pytest.approx(0.729)
    exact = [r for r in _rows(spec, 1) if r["series"] == "Exact at ρ = 0.50"]
    assert exact[7]["value"] == pytest.approx(curve(0.9, 3, 0.5).exact[7])
    points = _rows(spec, 3)
    assert len(points) == 20 and all(r["low"] <= r["value"] <= r["high"] for r in points)


@pytest.mark.parametrize("lang, k_title, series", [
    ("en", "k (runs of the same request)", "Independent runs: q^(m·k)"),
    ("zh", "k（同一请求的运行次数）", "各次独立：q^(m·k)"),
])
def test_passk_chart_labels_follow_the_language(lang, k_title, series):
    spec = _passk(lang)
    encoding = spec["layer"][1]["encoding"]
    assert encoding["x"]["title"] == k_title
    assert series in encoding["color"]["scale"]["domain"]
    assert len(encoding["color"]["scale"]["domain"]) == 5


@pytest.mark.parametrize("q, m, rho", [(0.5, 8, 0.0), (0.5, 8, 1.0), (0.99, 0, 0.3), (0.5, 8, 0.95)])
def test_extreme_settings_still_give_finite_specs(q, m, rho):
    """Even 0.5^160 or m = 0 gives a spec with no NaN or infinity."""
    spec = _passk(q=q, m=m, rho=rho)
    assert all(0 <= r["value"] <= 1 for r in _rows(spec, 1))


def test_mismatched_curve_and_simulation_are_refused():
    with pytest.raises(ValueError):
        passk_chart(curve(0.9, 3, 0.5, k_max=10), simulate(0.9, 3, 0.5, trials=10), 0.5, "en")


def test_non_finite_values_never_reach_a_chart():
    with pytest.raises(ValueError, match="non-finite"):
        _finite(pd.DataFrame({"value": [0.5, float("nan")]}))
    with pytest.raises(ValueError, match="non-finite"):
        _finite(pd.DataFrame({"value": [float("inf")]}))


def test_retry_chart_climbs_from_independent_back_to_one_attempt():
    """20 % per attempt, 3 attempts: 0.8 % at ρ = 0, 20 % at ρ = 1; the chosen ρ is marked."""
    spec = _spec(retry_chart(0.2, 3, 0.5, "en"))
    line = _rows(spec, 0)
    assert line[0] == {"rho": 0.0, "value": pytest.approx(0.008), "shown": "0.8%"}
    assert line[-1] == {"rho": 1.0, "value": pytest.approx(0.2), "shown": "20.0%"}
    assert all(b["value"] >= a["value"] for a, b in zip(line, line[1:]))
    assert _rows(spec, 1) == [{"value": 0.2, "label": "one attempt"}]
    assert _rows(spec, 3)[0]["rho"] == 0.5
    assert spec["layer"][0]["encoding"]["y"]["axis"]["format"] == "%"
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Final failure rate"
    assert _spec(retry_chart(0.2, 3, 0.5, "zh"))["layer"][0]["encoding"]["x"]["title"] == "ρ（各次尝试之间的相关性）"


def test_the_passk_legend_is_one_column_on_a_phone():
    """A newcomer's pass: at 390 px two legend columns ran past the chart's right edge and the red and blue
    curves had no label. Vega-Lite evaluates these over the chart's width signal."""
    from toolcall.charts import passk_chart_for

    spec = passk_chart_for(0.9, 3, 0.5, "en").to_dict()
    legends = [layer["encoding"]["color"]["legend"] for layer in spec["layer"]]
    assert {json.dumps(legend, sort_keys=True) for legend in legends} == {json.dumps({
        "columns": {"expr": "width < 520 ? 1 : 2"}, "orient": "bottom",
        "labelLimit": {"expr": "width < 520 ? max(120, width - 40) : min(400, width / 2 - 40)"}}, sort_keys=True)}


def _tooltips(spec: dict) -> list[dict]:
    return [tip for layer in spec["layer"] for tip in layer.get("encoding", {}).get("tooltip", [])]


@pytest.mark.parametrize("lang, tiny, high", [("en", "≈ 1 in 10¹⁹", "0.4%"), ("zh", "约 10¹⁹ 分之一", "0.4%")])
def test_a_pass_k_tooltip_writes_the_value_as_the_metric_does(lang, tiny, high):
    """Round 9 of issue 13: the tooltips formatted with Vega's ".2%", so at q = 0.5, m = 8, k = 8 the independent
    curve's point read "0.00%" under a metric reading "≈ 1 in 10¹⁹" (toolcall.numfmt.percent), and 72.9% read
    "72.90%". The tooltip now shows the metric's own text."""
    spec = _passk(lang, q=0.5, m=8, rho=0.0)
    rows = {(r["series"], r["k"]): r["shown"] for r in _rows(spec, 1)}
    independent, correlated = t("passk.chart.independent", lang), t("passk.chart.correlated", lang)
    assert rows[(independent, 8)] == tiny
    assert rows[(correlated, 8)] == high
    assert rows[(independent, 8)] == percent(curve(0.5, 8, 0.0).independent[7], lang)


@pytest.mark.parametrize("spec", [_passk("en"), _passk("zh", q=0.5, m=8, rho=0.0), _spec(retry_chart(0.3, 3, 0.5, "en")),
                                  _spec(retry_chart(0.3, 3, 0.5, "zh"))], ids=["passk-en", "passk-zh", "retry-en",
                                                                                "retry-zh"])
def test_no_chart_tooltip_formats_a_probability_itself(spec):
    """The next "0.00%": a probability in a tooltip is the text numfmt.percent wrote (a nominal field), never a
    number Vega formats with its own "%" rule."""
    tips = _tooltips(spec)
    assert tips and [tip for tip in tips if "%" in tip.get("format", "")] == []
    assert {tip["field"] for tip in tips if tip["type"] == "quantitative"} <= {"k", "rho"}


def test_the_retry_tooltip_reads_as_the_metric():
    rows = _rows(_spec(retry_chart(0.3, 3, 0.5, "en")), 3)
    assert rows == [{"rho": 0.5, "value": pytest.approx(0.08475), "shown": "8.5%"}]
    assert percent(prob_all(0.3, 3, 0.5), "en") == "8.5%"
