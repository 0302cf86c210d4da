"""A number input's typed value is the value used (issue 14): the browser refuses nothing on its own
(Streamlit's English "outside the allowed range" while computing with the previous value); the page
refuses it in the student's language."""

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t
from toolcall.passk import N_MAX

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang,label", [("zh", "中文"), ("en", "English")])
def test_an_out_of_range_n_is_kept_and_refused_in_the_page_language(page, server, lang, label):
    page.goto(f"{server}/passk_lab?app_lang={label}")
    wait_connected(page)
    box = page.locator(".st-key-passk_n")
    box.locator("input").fill(str(N_MAX + 1))
    box.locator("input").press("Enter")
    message = t("passk.err.n_too_large", lang, n=N_MAX + 1, limit=N_MAX)
    page.get_by_text(message).wait_for()
    assert box.locator("input").input_value() == str(N_MAX + 1)
    assert "Error" not in box.inner_text()
