"""toolcall.charts.cached_spec: the pass^k lab's charts built once per input, equal to Altair's own validated
spec, handed out as fresh dicts; the warm-up builds the default ones (bench/README.md, section H)."""

import pytest

from toolcall import charts
from toolcall.charts import PASSK_DEFAULTS, RETRY_DEFAULTS, cached_spec, passk_chart_for, retry_chart
from toolcall.i18n import LANGS
from toolcall.warmup import warm_charts

CASES = [(passk_chart_for, (*PASSK_DEFAULTS, lang)) for lang in LANGS] + \
        [(retry_chart, (*RETRY_DEFAULTS, lang)) for lang in LANGS] + \
        [(passk_chart_for, (0.75, 5, 0.0, "en")), (retry_chart, (0.5, 6, 1.0, "zh"))]


@pytest.mark.parametrize(("build", "args"), CASES, ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_the_cached_spec_is_the_validated_chart(build, args):
    assert cached_spec(build, *args) == build(*args).to_dict()  # Altair validates this one


def test_each_call_gets_its_own_dict():
    first = cached_spec(retry_chart, *RETRY_DEFAULTS, "en")
    first["datasets"].clear()
    first["layer"] = None
    again = cached_spec(retry_chart, *RETRY_DEFAULTS, "en")
    assert again["datasets"] and again["layer"]


def test_the_warm_up_builds_every_default_chart():
    charts._specs.clear()
    defaults = CASES[:2 * len(LANGS)]
    assert not any((b.__module__, b.__qualname__, a) in charts._specs for b, a in defaults)
    warm_charts()
    assert all((b.__module__, b.__qualname__, a) in charts._specs for b, a in defaults)


def test_a_chart_is_built_once_per_input():
    calls = []

    def counting(*args):
        calls.append(args)
        return retry_chart(*args)
    cached_spec(counting, 0.3, 2, 0.1, "en")
    cached_spec(counting, 0.3, 2, 0.1, "en")
    cached_spec(counting, 0.3, 2, 0.2, "en")
    assert calls == [(0.3, 2, 0.1, "en"), (0.3, 2, 0.2, "en")]
