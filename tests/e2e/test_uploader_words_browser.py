"""In a real Chromium: the selection lab's file uploader shows its button and its line of limits in the
page's language. Streamlit draws "Upload" and "20MB per file • JSONL, JSON, EVAL" in English and has no
parameter for them (session 7); ui.widgets.file_uploader draws ours over them."""

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t

pytestmark = pytest.mark.e2e

#: What the uploader keyed eval_upload shows where Streamlit's words were: the button's and the limits'
#: text as drawn (their own text at font-size 0, ours in ::after).
SHOWN_JS = """() => {
    const box = document.querySelector('.st-key-eval_upload [data-testid=stFileUploaderDropzone]');
    const shown = e => JSON.parse(getComputedStyle(e, '::after').content);
    const button = box.querySelector(':scope > span button [data-testid=stMarkdownContainer] p');
    const limits = box.querySelector('[data-testid=stFileUploaderDropzoneInstructions] span');
    return [shown(button), getComputedStyle(button).fontSize, shown(limits), getComputedStyle(limits).fontSize,
            getComputedStyle(limits, '::after').fontSize];
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_uploader_speaks_the_pages_language(server, browser, lang):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="zh-CN" if lang == "zh" else "en-US")
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(server + "/eval_lab")
        wait_connected(page)
        page.locator(".st-key-eval_upload [data-testid=stFileUploaderDropzoneInstructions]").wait_for()
        limits = t("widgets.uploader.limits", lang, limit=20, types=t("widgets.uploader.type_gap", lang).join(
            ["JSONL", "JSON", "EVAL"]))
        assert page.evaluate(SHOWN_JS) == [t("widgets.uploader.button", lang), "0px", limits, "0px", "14px"]
    finally:
        context.close()
