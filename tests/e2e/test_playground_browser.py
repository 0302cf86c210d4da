"""In a real Chromium: edit the schema and watch a verdict change."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_output, wait_connected
from toolcall.fixtures import load_outputs
from toolcall.i18n import t

pytestmark = pytest.mark.e2e


def test_editing_schema_in_browser_changes_a_verdict(server, page):
    """Delete additionalProperties in the editor, commit with Ctrl+Enter: the extra-field card shows LEAKED."""
    page.goto(server + "/playground")
    wait_connected(page)
    open_output(page, "Extra field")
    card = page.locator(".st-key-playground_card_extra_field")
    card.get_by_text("Verdict:").wait_for()
    assert "LEAKED" not in card.inner_text()

    editor = page.locator(".st-key-schema_editor textarea")
    # The textarea is drawn empty first and filled a moment later: wait for its text.
    page.wait_for_function("() => document.querySelector('.st-key-schema_editor textarea')?.value.length > 0")
    schema = json.loads(editor.input_value())
    del schema["additionalProperties"]
    editor.fill(json.dumps(schema, indent=2))
    editor.press("Control+Enter")

    card.get_by_text("LEAKED").wait_for()
    summary = page.locator(".st-key-playground_summary")
    n = len(load_outputs().outputs)
    summary.get_by_text(f"{n - 1} of {n} outputs got their expected verdict.").wait_for()
    assert "Extra field the schema does not define" in summary.inner_text()
    # the picker flags the leak under the output; the picked output stays picked
    picker = page.locator(".st-key-playground_output")
    expect(picker).to_contain_text(t("playground.output_leaked", "en").split("[", 1)[1].rstrip("]"))
    expect(picker.locator("label:has(input:checked)")).to_contain_text("Extra field the schema does not define")
    schema["additionalProperties"] = False
    editor.fill(json.dumps(schema, indent=2))
    editor.press("Control+Enter")
    summary.get_by_text(f"{n} of {n} outputs got their expected verdict.").wait_for()
    expect(card).not_to_contain_text("LEAKED")
    expect(picker).not_to_contain_text("🚨")
    assert page.locator('[class*="st-key-playground_card_"]').count() == 1  # one card drawn, not one per output


def _commit_on_fresh_page(page, server, key: str, text: str) -> None:
    """Open the playground, type ``text`` into the text area with ``key`` and commit it (Ctrl+Enter)."""
    page.goto(server + "/playground")
    wait_connected(page)
    if key == "playground_free_input":
        open_output(page, "Your own output")
    box = page.locator(f".st-key-{key} textarea")
    box.fill(text)
    box.press("Control+Enter")


def test_invalid_schema_text_shows_error_where_typed(server, page):
    _commit_on_fresh_page(page, server, "schema_editor", '{"type": "object",')
    page.get_by_text("Not JSON: The text stops at line 1, column 18").wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0


def test_switching_wire_format_redraws_cards_and_business_cases(server, page):
    """The format radio sits above the fragment; switching it redraws the whole page (cards and business cases)."""
    page.goto(server + "/playground")
    wait_connected(page)
    page.locator(".st-key-playground_format").get_by_text(t("playground.format.openai", "en"), exact=True).click()
    page.locator(".st-key-playground_card_valid").get_by_text('"tool_call_id"').wait_for()
    page.locator(".st-key-playground_business_over_paid").get_by_text('"tool_call_id"').wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0


def test_hostile_text_in_the_free_box_stays_literal(server, page):
    """Icons, upper-case autolinks and bidi overrides in a pasted output show as typed text."""
    _commit_on_fresh_page(page, server, "playground_free_input",
                          '{"reason": "a :material/home: b", "WWW.EVIL.COM": 1, "\\u202eabc": 2}')
    card = page.locator(".st-key-playground_card_free")
    card.get_by_text("Errors (").wait_for()
    assert card.locator("a").count() == 0
    assert card.locator('[data-testid="stIconMaterial"]').count() == 0
    text = card.inner_text()
    assert ":material/home:" in text.replace("\u2060", "")
    assert "WWW.EVIL.COM" in text.replace("\u2060", "")
    assert "\\u202eabc" in text and "\u202e" not in text.split("Message to send back")[0]
