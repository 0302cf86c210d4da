"""Real browser: the language follows the browser, switches in the sidebar and survives a
page switch; the lessons page opened by deep link on a fresh server gets the whole app."""


import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import fresh_server, open_output, wait_connected
from toolcall.i18n import t

pytestmark = pytest.mark.e2e


def _open(browser, url: str, locale: str):
    page = browser.new_context(locale=locale).new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    wait_connected(page)
    return page


def test_language_follows_the_browser_switches_and_survives_a_page_switch(browser, server):
    """zh-CN browser: Chinese first; switch to English on Home; the lessons page stays English."""
    page = _open(browser, server + "/", "zh-CN")
    expect(page.locator("h1").first).to_have_text("动手学工具调用")
    page.locator(".st-key-app_lang input[role='combobox']").click()
    page.get_by_role("option", name="English").click()
    expect(page.locator("h1").first).to_have_text("Tool calling, hands on")
    page.locator('[data-testid="stSidebarNav"] a[href$="lessons"]').click()
    expect(page.locator("h1").first).to_have_text("Lessons")
    expect(page.locator(".st-key-app_lang input")).to_have_value("English")
    page.context.close()


def test_a_deep_link_to_lessons_on_a_fresh_server_gets_the_whole_app(browser):
    """The first visitor of a new server opens /lessons: sidebar language switch and real navigation."""
    with fresh_server() as url:
        page = _open(browser, url + "/lessons", "zh-CN")
        expect(page.locator("h1").first).to_have_text("课程讲义")
        expect(page.locator(".st-key-app_lang")).to_have_count(1)
        assert "lesson widgets" not in page.locator('[data-testid="stSidebarNav"]').inner_text()
        page.context.close()


def test_a_chosen_language_survives_a_reload(server, browser):
    """The sidebar choice is kept in the URL (?app_lang=…), so a reload keeps Chinese."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server + "/playground")
    wait_connected(page)
    page.locator(".st-key-app_lang input[role='combobox']").click()
    page.get_by_role("option", name="中文").click()
    page.get_by_role("heading", name="Schema 练习场").wait_for()
    page.wait_for_function("location.search.includes('app_lang=')")  # the option's label, URL-encoded
    page.reload()
    wait_connected(page)
    page.get_by_role("heading", name="Schema 练习场").wait_for()
    context.close()


def test_after_a_switch_translated_choices_keep_working(server, browser):
    """Switch to Chinese on the playground, then commit the free box: the preset select and the
    wire-format radio show Chinese labels and the next run is not broken by the old English ones."""
    page = _open(browser, server + "/playground", "en-US")
    page.locator(".st-key-app_lang input[role='combobox']").click()
    page.get_by_role("option", name="中文").click()
    page.get_by_role("heading", name="Schema 练习场").wait_for()
    expect(page.locator(".st-key-playground_format input:checked")).to_have_count(1)
    expect(page.locator(".st-key-playground_preset input")).to_have_value("参考 schema")
    open_output(page, "自己的输出")
    box = page.locator(".st-key-playground_free_input textarea")
    box.fill('{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}')
    box.press("Control+Enter")
    page.locator(".st-key-playground_card_free").get_by_text("校验结论").wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0
    page.context.close()


def test_a_switch_drops_the_links_language_from_the_address(server, browser):
    """A newcomer's pass: after a switch the address read ?app_lang=中文&lang=en, two languages in one link."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server + "/playground?lang=en")
    wait_connected(page)
    page.locator(".st-key-app_lang input[role='combobox']").click()
    page.get_by_role("option", name="中文").click()
    page.get_by_role("heading", name="Schema 练习场").wait_for()
    page.wait_for_function("new URLSearchParams(location.search).has('app_lang')")
    page.wait_for_function("!new URLSearchParams(location.search).has('lang')")
    page.reload()
    wait_connected(page)
    page.get_by_role("heading", name="Schema 练习场").wait_for()
    context.close()


def _choose(page, key: str, label: str) -> None:
    """Pick ``label`` in the select keyed ``key`` by typing it (a click on the select far down the page left its list
    closed) and Enter."""
    box = page.locator(f".st-key-{key} input[role='combobox']")
    box.click()
    box.fill(label)
    page.get_by_role("option", name=label, exact=True).wait_for()
    box.press("Enter")
    expect(box).to_have_value(label)


def test_the_selection_labs_choices_survive_a_switch(server, browser):
    """The drill-down's version (a radio) and the upload's format (a select) were drawn with translated labels but not
    through ui.widgets.translated: after a switch to Chinese the radio showed nothing picked and the next run fell
    back to the vague descriptions, and the select still read "native JSONL" (break-it pass brk13lab)."""
    page = _open(browser, server + "/eval_lab", "en-US")
    drill, fmt = page.locator(".st-key-eval_drill_version"), page.locator(".st-key-eval_format input")
    drill.get_by_text(t("eval.version_good", "en"), exact=True).click()
    expect(drill.locator("input:checked")).to_have_value("1")
    _choose(page, "eval_format", t("eval.format_native", "en"))
    _choose(page, "app_lang", "中文")
    page.get_by_role("heading", name=t("eval.title", "zh")).wait_for()
    expect(drill.get_by_text(t("eval.version_good", "zh"), exact=True)).to_have_count(1)
    expect(drill.locator("input:checked")).to_have_value("1")
    expect(fmt).to_have_value(t("eval.format_native", "zh"))
    page.locator(".st-key-eval_k").scroll_into_view_if_needed()  # another run of the page: the choices hold
    _choose(page, "app_lang", "English")
    page.get_by_role("heading", name=t("eval.title", "en")).wait_for()
    expect(drill.locator("input:checked")).to_have_value("1")
    expect(fmt).to_have_value(t("eval.format_native", "en"))
    assert page.locator('[data-testid="stException"]').count() == 0
    page.context.close()
