"""A number input's typed value is the value used (issue 14): the browser refuses nothing on its own
(Streamlit's English "outside the allowed range" while computing with the previous value); the page
refuses it in the student's language."""

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t
from toolcall.passk import N_MAX

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("n", [N_MAX + 1, 9_007_199_254_740_993], ids=["over N_MAX", "past JavaScript's integers"])
@pytest.mark.parametrize("lang,label", [("zh", "中文"), ("en", "English")])
def test_an_out_of_range_n_is_kept_and_refused_in_the_page_language(page, server, lang, label, n):
    """2**53 + 1 was refused by the number input itself ("Error: Number is above the allowed range", in English)
    while the page computed with n = 10 (break-it pass brk19web)."""
    page.goto(f"{server}/passk_lab?app_lang={label}")
    wait_connected(page)
    box = page.locator(".st-key-passk_n")
    box.locator("input").fill(str(n))
    box.locator("input").press("Enter")
    message = t("passk.err.n_too_large", lang, n=n, limit=N_MAX)
    page.get_by_text(message).wait_for()
    assert box.locator("input").input_value() == str(n)
    assert "Error" not in box.inner_text()
