"""A number input never refuses a value in the browser (issue 14): with ``min_value`` / ``max_value``
Streamlit's frontend keeps showing a refused value, says so in English, and the page computes with the
previous value. Every value typed is used; the core refuses it with a message in the student's language.

Without them it still refuses what JavaScript cannot hold exactly (past 9 007 199 254 740 991) and reads ``1e15``
as 1, so the pass^k lab's n, c and k are text boxes, read by toolcall.passk.read_whole (break-it pass brk19web)."""

import ast
from pathlib import Path

import pytest

from tests.app.conftest import fresh_app
from toolcall.i18n import t
from toolcall.passk import N_MAX

REPO = Path(__file__).resolve().parents[2]


def number_inputs():
    """Every ``*.number_input(...)`` call in pages/ and ui/ as (file:line, its keyword names)."""
    for path in sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "number_input":
                yield f"{path.relative_to(REPO)}:{node.lineno}", {kw.arg for kw in node.keywords}


def test_no_page_draws_a_number_input():
    """Not even without min_value / max_value: the browser refuses past 2**53 on its own, in English. A count is
    typed in a text box and read by the core (toolcall.passk.read_whole)."""
    assert list(number_inputs()) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key,value,code,params", [
    ("passk_n", N_MAX + 1, "n_too_large", {"n": N_MAX + 1, "limit": N_MAX}),
    ("passk_n", 0, "n_zero", {}),
    ("passk_c", -1, "negative", {"name": "c", "value": -1}),
    ("passk_est_k", 0, "k_zero", {}),
])
def test_a_value_out_of_range_is_used_and_refused_in_the_students_language(lang, key, value, code, params):
    at = fresh_app(lang, page="pages/passk_lab.py")
    at.text_input(key=key).input(str(value)).run()
    assert not at.exception
    assert at.text_input(key=key).value == str(value)
    assert [e.value for e in at.error] == [t(f"passk.err.{code}", lang, **params)]
    assert not [m for m in at.metric if m.label == t("passk.est_hat", lang)]  # nothing computed from another value


#: Past JavaScript's safe integers (2**53 + 1): a number input refused it in the browser, in English, and the page
#: computed with the previous n (break-it pass brk19web).
UNSAFE = 9_007_199_254_740_993


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key,typed,code,params", [
    ("passk_n", str(UNSAFE), "n_too_large", {"n": UNSAFE, "limit": N_MAX}),
    ("passk_n", "1e15", "not_integer", {"name": "n", "value": "1e15"}),  # a number input used 1
    ("passk_c", "2.5", "not_integer", {"name": "c", "value": r"2\.5"}),  # Markdown-escaped, drawn 2.5
    ("passk_c", "**9**\u202e", "not_integer", {"name": "c", "value": r"\*\*9\*\*\\u202e"}),  # drawn as typed
    ("passk_est_k", "  ", "empty", {"name": "k"}),
    ("passk_est_k", "9" * 150, "k_above_n", {"k": int("9" * 150), "n": 10, "more": int("9" * 150) - 10}),
    ("passk_est_k", "k" * 150, "not_integer", {"name": "k", "value": "k" * 40 + "…"}),
])
def test_any_text_typed_is_read_or_refused_in_the_students_language(lang, key, typed, code, params):
    at = fresh_app(lang, page="pages/passk_lab.py")
    at.text_input(key=key).input(typed).run()
    assert not at.exception
    assert [e.value for e in at.error] == [t(f"passk.err.{code}", lang, **params)]
    assert not [m for m in at.metric if m.label == t("passk.est_hat", lang)]


@pytest.mark.parametrize("typed", ["１２", " +12 ", "012"])
def test_a_whole_number_however_typed_is_used(typed):
    at = fresh_app("zh", page="pages/passk_lab.py")
    at.text_input(key="passk_n").input(typed).run()
    assert not at.exception and not at.error
    assert "C(9,3) / C(12,3)" in " ".join(m.value for m in at.markdown)
