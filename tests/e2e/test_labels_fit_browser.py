"""Real browser: on every page of the registry, in both languages, at a laptop's 1366×768 and a
phone's 390×844, no label is cut off with an ellipsis (issue 14: the strict-mode toggle at 1366 px,
the selection lab's Chinese metric label). Screenshots of each are saved to
tests/e2e/screenshots/labels/ (looked at by a person, not compared)."""

from pathlib import Path

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.pages_registry import PAGES

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parent / "screenshots" / "labels"
VIEWPORTS = ((1366, 768), (390, 844))

#: Every shown element whose text is cut with an ellipsis: its computed text-overflow is
#: "ellipsis" and its content is wider than its box. Named by the nearest data-testid and widget
#: key, with its text. (Streamlit cuts metric, widget and tab labels this way.) The sidebar counts
#: only when open: on a phone it starts folded, out of view.
TRUNCATED_JS = """() => Array.from(document.querySelectorAll(
    '[data-testid="stMain"] *, [data-testid="stSidebar"][aria-expanded="true"] *')).filter(e => {
    const s = getComputedStyle(e);
    return s.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1 && e.getClientRects().length > 0
        && s.visibility !== 'hidden' && (e.innerText || '').trim() !== '';
}).map(e => {
    const keyed = e.closest('[class*="st-key-"]');
    return [e.closest('[data-testid]')?.dataset.testid || e.tagName,
            keyed ? keyed.className.match(/st-key-[^ ]+/)[0] : '', e.innerText.trim().slice(0, 80)];
})"""


def _settle(page) -> None:
    """Wait until the script run is over (no status widget, no element still a skeleton) and the
    layout has settled."""
    page.locator("h1").first.wait_for()
    page.wait_for_function("!document.querySelector('[data-testid=stStatusWidget], [data-testid=stSkeleton]')",
                           timeout=60_000)
    page.wait_for_timeout(800)


def _views(page):
    """Yield a label for each state to check: as opened; with every expander open (their labels are
    drawn, though folded); then with each tab of the page selected in turn (client-side, no rerun), and each of
    the playground's panels (a rerun)."""
    yield ""
    page.evaluate("document.querySelectorAll('[data-testid=stExpander] details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(300)
    yield "(expanders open) "
    tabs = page.locator('[data-testid="stMain"] button[role="tab"]')
    for i in range(tabs.count()):
        tab = tabs.nth(i)
        if tab.is_visible():
            tab.click()
            page.wait_for_timeout(200)
            yield f"(tab {tab.inner_text()[:30]}) "
    # the playground's panels replaced its tabs: each is drawn only when picked (a rerun)
    panels = page.locator('.st-key-playground_panel button')
    for i in range(panels.count()):
        panel = panels.nth(i)
        name = panel.inner_text()[:30]
        panel.click()
        _settle(page)
        yield f"(panel {name}) "


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("entry", PAGES, ids=[p.id for p in PAGES])
def test_no_label_is_cut_off(server, browser, entry, lang):
    """Every metric, toggle, button, tab and widget label a page shows on first opening is whole
    at both sizes, in both languages."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    cut = set()
    for width, height in VIEWPORTS:  # a fresh page per size: a resize re-renders the page (skeletons)
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="zh-CN" if lang == "zh" else "en-US")
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            page.goto(f"{server}/{entry.url_path}")
            wait_connected(page)
            _settle(page)
            page.screenshot(path=str(SHOTS / f"{entry.id}-{lang}-{width}x{height}.png"))
            views = []
            for where in _views(page):  # the first screen, then every expander open, then each tab
                views.append(where)
                cut.update(f"{width}x{height} {where}{testid} {key}: {text}"
                           for testid, key, text in page.evaluate(TRUNCATED_JS))
            if entry.id == "playground":  # every panel was opened
                assert sum(v.startswith("(panel ") for v in views) == 4, views
            assert page.locator('[data-testid="stException"]').count() == 0
        finally:
            context.close()
    assert not cut, "cut off:\n" + "\n".join(sorted(cut))
