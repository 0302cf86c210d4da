"""A number input never refuses a value in the browser (issue 14): with ``min_value`` / ``max_value``
Streamlit's frontend keeps showing a refused value, says so in English, and the page computes with the
previous value. Every value typed is used; the core refuses it with a message in the student's language."""

import ast
from pathlib import Path

import pytest

from tests.app.conftest import fresh_app
from toolcall.i18n import t
from toolcall.passk import N_MAX

REPO = Path(__file__).resolve().parents[2]
#: Arguments that make Streamlit's frontend refuse or round a typed value on its own.
REFUSING = {"min_value", "max_value", "format"}


def number_inputs():
    """Every ``*.number_input(...)`` call in pages/ and ui/ as (file:line, its keyword names)."""
    for path in sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "number_input":
                yield f"{path.relative_to(REPO)}:{node.lineno}", {kw.arg for kw in node.keywords}


def test_there_are_number_inputs_to_check():
    assert len(list(number_inputs())) >= 3


@pytest.mark.parametrize("where,keywords", list(number_inputs()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_number_input_lets_the_browser_refuse_a_value(where, keywords):
    assert not keywords & REFUSING, f"{where}: {sorted(keywords & REFUSING)} (validate in the core instead)"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key,value,code,params", [
    ("passk_n", N_MAX + 1, "n_too_large", {"n": N_MAX + 1, "limit": N_MAX}),
    ("passk_n", 0, "n_zero", {}),
    ("passk_c", -1, "negative", {"name": "c", "value": -1}),
    ("passk_est_k", 0, "k_zero", {}),
])
def test_a_value_out_of_range_is_used_and_refused_in_the_students_language(lang, key, value, code, params):
    at = fresh_app(lang, page="pages/passk_lab.py")
    at.number_input(key=key).set_value(value).run()
    assert not at.exception
    assert at.number_input(key=key).value == value
    assert [e.value for e in at.error] == [t(f"passk.err.{code}", lang, **params)]
    assert not [m for m in at.metric if m.label == t("passk.est_hat", lang)]  # nothing computed from another value
