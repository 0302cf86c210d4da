"""What the pass^k lab and the eval lab print for probabilities and differences (issue 14): at the
extremes of every input, in both languages, no scientific notation, no "-0.0"/"+0.0" points and no
100 % for a value below 1; the magnitude in words instead (toolcall.numfmt)."""

import re

import pytest

from tests.app.conftest import fresh_app
from toolcall.i18n import t
from toolcall.numfmt import percent, points
from toolcall.passk import K_MAX, N_MAX, estimate

SCIENTIFIC = re.compile(r"\d[eE][-+]?\d")
NEGATIVE_ZERO = re.compile(r"[-+−]0(\.0+)?\s*(pts|个百分点)")


def shown(at) -> list[str]:
    """Every metric value and delta, and every Markdown/caption text of the page."""
    texts = [str(m.value) for m in at.metric] + [str(m.proto.delta) for m in at.metric if m.proto.delta]
    return texts + [str(e.value) for kind in ("markdown", "caption", "info") for e in getattr(at, kind)]


def faults(at) -> list[str]:
    return [s for s in shown(at) if SCIENTIFIC.search(s) or NEGATIVE_ZERO.search(s)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("settings", [
    {"passk_m": 8, "passk_q": 0.5, "passk_k": K_MAX, "passk_rho": 0.0},  # pass^k of 2^-(8·K_MAX)
    {"passk_m": 0, "passk_q": 0.99, "passk_k": 1, "passk_rho": 1.0},
    {"passk_n": N_MAX, "passk_c": N_MAX // 2, "passk_est_k": N_MAX // 2},  # C(c,k)/C(n,k) far below float range
    {"passk_n": 10, "passk_c": 10, "passk_est_k": 3},  # naive = unbiased: a zero difference
    {"passk_n": 10, "passk_c": 0, "passk_est_k": 3},
    {"passk_n": N_MAX, "passk_c": N_MAX - 1, "passk_est_k": 1},  # issue 14: one failed run is not 100.0%
    {"passk_m": 8, "passk_q": 0.5, "passk_k": K_MAX, "passk_sentence_0": False},  # issue 14: no "-0.0 pts"
])
def test_the_passk_lab_at_its_extremes(lang, settings):
    at = fresh_app(lang, page="pages/passk_lab.py")
    for key, value in settings.items():
        if key.startswith("passk_sentence_"):
            widget = at.checkbox(key=key)
        elif key in ("passk_m", "passk_q", "passk_k", "passk_rho"):
            widget = at.slider(key=key)
        else:
            at.text_input(key=key).input(str(value)).run()
            continue
        widget.set_value(value).run()
    assert not at.exception and not at.error
    assert faults(at) == []
    if settings.get("passk_c") == N_MAX - 1:
        assert not [s for s in shown(at) if re.search(r"(?<![\d.])100(\.0+)?\s*%", s)], shown(at)


def test_the_tiny_estimate_is_written_by_its_magnitude():
    at = fresh_app("zh", page="pages/passk_lab.py")
    for key, value in (("passk_n", N_MAX), ("passk_c", N_MAX // 2), ("passk_est_k", N_MAX // 2)):
        at.text_input(key=key).input(str(value)).run()
    est = estimate(N_MAX, N_MAX // 2, N_MAX // 2)
    values = {m.label: m.value for m in at.metric}
    assert values[t("passk.est_hat", "zh")] == percent(est.pass_hat_k, "zh") == "约 10³⁰⁰⁸ 分之一"
    delta = [m.proto.delta for m in at.metric if m.label == t("passk.est_naive", "zh")][0]
    assert delta == points(est.naive - est.pass_hat_k, "zh") == "+<0.0001 个百分点"  # 10^-1505 - 10^-3008, not 0
