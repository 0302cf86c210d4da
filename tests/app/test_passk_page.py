"""The pass^k lab page through AppTest: sliders and inputs change the figures shown."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.app.conftest import fresh_app

from toolcall.i18n import t
from toolcall.numfmt import percent
from toolcall.passk import N_MAX, estimate

PAGE = "pages/passk_lab.py"


@pytest.fixture
def at() -> AppTest:
    return fresh_app(None, page=PAGE)


def metric(at: AppTest, label_start: str) -> str:
    """The value of the one metric whose label starts with ``label_start``."""
    found = [m.value for m in at.metric if m.label.startswith(label_start)]
    assert len(found) == 1, (label_start, [m.label for m in at.metric])
    return found[0]


def markdown(at: AppTest) -> str:
    return "\n".join(md.value for md in at.markdown)


def test_defaults_show_the_course_figures(at):
    """m = 3, q = 90 %, k = 8: 8.0 % to 72.9 %, 93.2 %, 84/120 = 70 %, 0.8 %."""
    assert metric(at, "Independent runs") == "8.0%"
    assert metric(at, "Fully correlated") == "72.9%"
    assert metric(at, "Exact at ρ = 0.50") == "21.3%"
    text = markdown(at)
    assert "between **8.0%** (independent runs) and **72.9%**" in text
    assert "from **90.0%** to **93.2%**" in text
    assert "= 84/120 = **70.0%**" in text and "gives **72.9%**" in text
    assert metric(at, "pass^k, unbiased") == "70.0%"
    assert metric(at, "pass@k, unbiased") == "100.0%"
    assert metric(at, "Naive plug-in") == "72.9%"
    assert metric(at, "All 3 attempts fail, independent") == "0.8%"
    assert metric(at, "One attempt fails") == "20.0%"


def test_both_charts_are_drawn_with_percent_axes(at):
    specs = [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]
    assert len(specs) == 2
    assert all(layer["encoding"]["y"]["axis"]["format"] == "%" for spec in specs for layer in spec["layer"])


def test_moving_the_sliders_updates_the_values(at):
    at.slider(key="passk_m").set_value(2).run()
    at.slider(key="passk_q").set_value(0.95).run()
    at.slider(key="passk_k").set_value(4).run()
    at.slider(key="passk_rho").set_value(0.0).run()
    assert not at.exception
    assert metric(at, "Independent runs, q^(m·k), k = 4") == "66.3%"   # 0.95^8
    assert metric(at, "Fully correlated, q^m, k = 4") == "90.2%"       # 0.95^2
    assert metric(at, "Exact at ρ = 0.00, k = 4") == "66.3%"
    assert "from **95.0%** to **97.5%**" in markdown(at)              # 0.95^(1/2)
    at.slider(key="passk_rho").set_value(1.0).run()
    assert metric(at, "Exact at ρ = 1.00") == "90.2%"
    at.slider(key="passk_m").set_value(0).run()
    assert not at.exception and metric(at, "Independent runs") == "100.0%"
    assert "no ambiguity left" in markdown(at)


def test_each_sentence_cut_adds_one_ambiguity(at):
    assert len(at.checkbox) == 5 and all(box.value for box in at.checkbox)
    assert metric(at, "m, ambiguities now") == "3"
    at.checkbox(key="passk_sentence_2").uncheck().run()
    at.checkbox(key="passk_sentence_4").uncheck().run()
    assert not at.exception
    assert metric(at, "m, ambiguities now") == "5"
    assert metric(at, "pass^k now") == "7.6%"   # P_8^5 at q = 0.9, ρ = 0.5
    assert any(c.value == t("passk.cut_band", "en", low="1.5%", high="59.0%") for c in at.caption)                # 0.9^40 and 0.9^5


def test_estimator_inputs_and_refusals(at):
    at.text_input(key="passk_est_k").input(str(11)).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "k = 11 is larger than n = 10: choosing k runs out of n needs k ≤ n. Run the case until n reaches 11, or lower k."]
    at.text_input(key="passk_est_k").input(str(3)).run()
    at.text_input(key="passk_c").input(str(0)).run()
    assert not at.error
    assert metric(at, "pass@k, unbiased") == "0%" and metric(at, "pass^k, unbiased") == "0%"
    at.text_input(key="passk_c").input(str(10)).run()
    assert metric(at, "pass@k, unbiased") == "100.0%" and metric(at, "pass^k, unbiased") == "100.0%"
    at.text_input(key="passk_c").input(str(12)).run()
    assert [e.value for e in at.error] == ["c = 12 passes cannot be more than n = 10 runs."]


def test_retry_correlation_pushes_failure_back_to_the_single_rate(at):
    at.slider(key="passk_retry_rho").set_value(1.0).run()
    assert metric(at, "All attempts fail at ρ = 1.00") == "20.0%"
    at.slider(key="passk_retry_rho").set_value(0.0).run()
    assert metric(at, "All attempts fail at ρ = 0.00") == "0.8%"


def test_chinese(at):
    at.selectbox(key="app_lang").set_value("zh").run()
    assert not at.exception
    assert at.title[0].value == "pass^k 实验室：歧义越多，可靠性掉得越快"
    assert metric(at, "各次独立") == "8.0%"
    assert "从 **90.0%** 提到 **93.2%**" in markdown(at)
    # the description simulation cuts the Chinese description's five sentences
    assert [c.label for c in at.checkbox if c.key.startswith("passk_sentence_")] == [
        "给已签收的订单发起全额或部分退款。", "只在用户明确要求退款、并给出订单号时调用。", "取消未发货的订单请用 cancel_order。",
        "金额单位是分：19.99 元写作 1999。", "退款金额不能超过实付金额。"]
    at.text_input(key="passk_est_k").input(str(12)).run()
    assert at.error[0].value.startswith("k = 12 大于 n = 10")


def _estimate_shown(at: AppTest, n: int, c: int, k: int) -> None:
    for key, value in (("passk_n", n), ("passk_c", c), ("passk_est_k", k)):
        at.text_input(key=key).input(str(value)).run()
    assert not at.exception and not at.error


@pytest.mark.parametrize("n, c, k, hat, naive", [
    (1500, 1499, 1400, "6.7%", "39.3%"),        # the case that crashed the CLI
    (10000, 5000, 5000, "≈ 1 in 10³⁰⁰⁸", "≈ 1 in 10¹⁵⁰⁵"),  # far below float range: magnitude in words, never 0%
    (10000, 10000, 10000, "100.0%", "100.0%"),
    (1, 0, 1, "0%", "0%"),
])
def test_estimator_extremes_of_the_documented_range(at, n, c, k, hat, naive):
    _estimate_shown(at, n, c, k)
    assert metric(at, "pass^k, unbiased") == hat and metric(at, "Naive plug-in") == naive


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_estimator_section_over_the_documented_range(at, data):
    """Any n in 1..N_MAX, c in 0..n, k in 1..n: the three metrics show, none is "0%" unless it is 0."""
    n = data.draw(st.integers(1, N_MAX))
    c, k = data.draw(st.integers(0, n)), data.draw(st.integers(1, n))
    _estimate_shown(at, n, c, k)
    est = estimate(n, c, k)
    assert metric(at, "pass^k, unbiased") == percent(est.pass_hat_k)
    assert metric(at, "pass@k, unbiased") == percent(est.pass_at_k)
    assert metric(at, "Naive plug-in") == percent(est.naive)


@pytest.mark.parametrize("lang, note", [("en", "more sentences are not listed"), ("zh", "句没有列出")])
def test_a_long_description_lists_at_most_the_cap(lang, note):
    """Issue 13: '。' x 10 000 made 10 000 checkboxes; now punctuation is no sentence, and past
    MAX_LISTED_SENTENCES sentences the rest are counted in one note and stay kept."""
    from toolcall.points import MAX_LISTED_SENTENCES
    many = " ".join(f"Sentence {i}." for i in range(200)) + "。" * 10_000
    at = fresh_app(lang, page=PAGE, state={"workbench_description": many, "workbench_reference": many})
    boxes = [c for c in at.checkbox if str(c.key).startswith("passk_sentence_")]
    assert len(boxes) == MAX_LISTED_SENTENCES
    notes = [c.value for c in at.caption if note in c.value]
    assert notes == [t("passk.sentences_not_listed", lang, count=200 - MAX_LISTED_SENTENCES,
                       limit=MAX_LISTED_SENTENCES)]
    assert f"{200 - MAX_LISTED_SENTENCES}" in notes[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_cuts_sections_2_and_3_use_the_same_m(at, lang):
    """Newcomer session 7: with m = 6 set and two points cut, section 2 showed m = 8 and 0.1–43.0 % while section 3
    still said m = 6 and 0.6–53.1 %. Below the cuts, one m (8) drives every figure, and section 3 says where it
    comes from."""
    at.selectbox(key="app_lang").set_value(lang).run()
    at.slider(key="passk_m").set_value(6).run()
    at.checkbox(key="passk_sentence_2").uncheck().run()
    at.checkbox(key="passk_sentence_4").uncheck().run()
    assert not at.exception
    assert metric(at, t("passk.cut_m", lang)) == "8"
    band = t("passk.cut_band", lang, low="0.1%", high="43.0%")          # 0.9^64 and 0.9^8
    assert [c.value for c in at.caption if c.value == band] == [band]
    text = markdown(at)
    assert t("passk.equiv_band", lang, q="90.0%", k=8, m=8, low="0.1%", high="43.0%") in text
    assert t("passk.equiv_band", lang, q="90.0%", k=8, m=6, low="0.6%", high="53.1%") not in text
    assert t("passk.equiv_remove", lang, m=8, m1=7, q="90.0%", q2=percent(0.9 ** (7 / 8), lang),
             value=percent(0.9 ** 7, lang)) in text
    assert t("passk.equiv_m_cut", lang, m_set=6, cut=2, m=8) in [c.value for c in at.caption]


def test_without_cuts_section_3_uses_the_slider_and_says_nothing_more(at):
    at.slider(key="passk_m").set_value(6).run()
    assert "At q = 90.0%, k = 8, m = 6, pass^k lands between **0.6%** (independent runs) and **53.1%**" in markdown(at)
    assert not [c for c in at.caption if c.value.startswith("Here m =")]


def _count_simulations(monkeypatch) -> list:
    """Every seeded simulation run from now on (toolcall.passk.simulate draws from one numpy default_rng each)."""
    import numpy

    runs, real = [], numpy.random.default_rng
    monkeypatch.setattr(numpy.random, "default_rng", lambda *a, **k: runs.append(a) or real(*a, **k))
    return runs


def test_a_rerun_that_moves_no_model_slider_simulates_nothing(monkeypatch):
    """brk10web3: the metric beside the chart ran the 4 000-trial simulation on every rerun (about 9 ms of CPU at
    m = 8): a sentence ticked, an estimator number typed, a retry slider moved. Now once per (q, m, rho)."""
    at = fresh_app(None, page=PAGE)
    runs = _count_simulations(monkeypatch)
    at.checkbox(key="passk_sentence_1").uncheck().run()
    at.text_input(key="passk_n").input(str(12)).run()
    at.slider(key="passk_k").set_value(5).run()
    at.slider(key="passk_retries").set_value(3).run()
    at.slider(key="passk_retry_rho").set_value(0.2).run()
    assert not at.exception
    assert runs == []


def test_each_new_model_setting_is_simulated_once_for_the_chart_and_the_metric(monkeypatch):
    """The next member: every slider the simulation depends on (m, q, rho), a value this process has not simulated
    yet runs one simulation (the chart and the metric share it), and a value seen before runs none."""
    from toolcall import charts

    at = fresh_app(None, page=PAGE)
    charts._simulations.clear()
    charts._specs.clear()
    runs = _count_simulations(monkeypatch)
    at.run()  # the defaults, simulated again after the clear
    assert len(runs) == 1
    for key, new, back in (("passk_m", 5, 3), ("passk_q", 0.75, 0.9), ("passk_rho", 0.25, 0.5)):
        seen = len(runs)
        at.slider(key=key).set_value(new).run()
        assert (len(runs) - seen, key) == (1, key)
        at.slider(key=key).set_value(back).run()  # the defaults: seen
        at.slider(key=key).set_value(new).run()   # seen
        assert (len(runs) - seen, key) == (1, key)
    assert not at.exception


@pytest.mark.parametrize("first, second", [("en", "zh"), ("zh", "en")])
@pytest.mark.parametrize("visited", [False, True], ids=["lab only", "after the playground"])
def test_a_cut_survives_a_language_switch_and_the_count_agrees_with_the_boxes(first, second, visited):
    """Newcomer session 14: with "If the order has not shipped yet, use cancel_order instead." unticked, a switch
    to Chinese drew that box unticked while the page said every point was there (m = 3, 0% fall): the switch
    translated the description, the page deleted the boxes' keys, and the browser kept its unticked box. The
    description is the same one translated, so the cut is kept, and the count agrees with the boxes."""
    at = fresh_app(first, page=PAGE)
    if visited:  # the lab then splits the playground editor's description (untouched: it follows the language)
        at.switch_page("pages/playground.py").run()
        at.switch_page(PAGE).run()
    at.checkbox(key="passk_sentence_2").uncheck().run()
    assert metric(at, t("passk.cut_m", first)) == "4"
    at.session_state["app_lang"] = second
    at.run()
    if visited:
        at.switch_page("pages/playground.py").run()
        at.switch_page(PAGE).run()
    assert not at.exception
    boxes = [c for c in at.checkbox if str(c.key).startswith("passk_sentence_")]
    assert [(c.label, c.value) for c in boxes][2] == (
        {"en": "If the order has not shipped yet, use cancel_order instead.",
         "zh": "取消未发货的订单请用 cancel_order。"}[second], False)
    assert [c.value for c in boxes] == [True, True, False, True, True]
    assert metric(at, t("passk.cut_m", second)) == "4"
    missing = t("workbench.lab_missing", second, points=t("workbench.point.when_not_to_use", second))
    assert [c.value for c in at.caption if c.value == missing] == [missing]


def test_a_new_description_starts_with_every_box_ticked_in_the_browser_too():
    """A description that is not the same one (edited on the playground) starts with every sentence kept: each box
    is set to True, so the browser redraws an unticked box ticked (a deleted key left it unticked)."""
    at = fresh_app("en", page=PAGE)
    at.checkbox(key="passk_sentence_2").uncheck().run()
    text = "Refund a delivered order. Call it only when the customer asks. Use cancel_order instead if unshipped."
    at.session_state["workbench_description"] = text
    at.session_state["workbench_reference"] = text
    at.run()
    assert [c.value for c in at.checkbox if str(c.key).startswith("passk_sentence_")] == [True, True, True]
    assert at.session_state["passk_sentence_2"] is True
