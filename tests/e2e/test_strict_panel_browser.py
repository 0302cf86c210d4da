"""In a real Chromium: open the strict-mode panel, see the amount_cents: 0 leak, edit the schema, see it go."""

import json

import pytest

from tests.e2e.conftest import wait_connected

pytestmark = pytest.mark.e2e


def test_strict_panel_follows_the_editor(server, page):
    """The panel opens from its toggle; dropping `minimum` in the editor removes Anthropic's
    minimum finding and the amount_cents: 0 probe, without an exception."""
    page.goto(server + "/playground")
    wait_connected(page)
    page.locator(".st-key-playground_strict_open").get_by_text("Strict mode per provider").click()
    panel = page.locator(".st-key-playground_strict_panel")
    panel.get_by_text("Anthropic (strict tools, JSON outputs) would refuse this schema.").wait_for()
    panel.get_by_text("probe: amount_cents: 0: leaks under Anthropic (SDK transform)").wait_for()

    page.wait_for_function("() => document.querySelector('.st-key-schema_editor textarea')?.value.length > 0")
    editor = page.locator(".st-key-schema_editor textarea")
    schema = json.loads(editor.input_value())
    del schema["properties"]["amount_cents"]["minimum"]
    editor.fill(json.dumps(schema, indent=2))
    editor.press("Control+Enter")
    page.wait_for_function("() => !document.querySelector('.st-key-playground_strict_panel')"
                           "?.innerText.includes('amount_cents: 0')")
    assert "probe: note:" in panel.inner_text()
    assert page.locator('[data-testid="stException"]').count() == 0
