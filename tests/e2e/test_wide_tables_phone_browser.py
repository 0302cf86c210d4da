"""Real browser, a phone's width: a Markdown table wider than its box scrolls sideways inside it. At 420 px the
playground's order book lost its item column and the idempotency replay its "keyed by order id + amount" column
at the screen's edge, with no way to scroll to them (newcomer pass, session 16)."""

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t

pytestmark = pytest.mark.e2e

#: Each Markdown table of the page: its box's overflow-x, its content and box widths, and the right edge of its
#: last header cell once the box is scrolled to its end.
TABLES = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stMarkdownContainer]:has(table)')]
  .map(box => {
    box.scrollLeft = box.scrollWidth;
    const heads = box.querySelectorAll('th');
    const last = heads[heads.length - 1];
    return {overflow: getComputedStyle(box).overflowX, wider: box.scrollWidth > box.clientWidth,
            last: last ? last.innerText.replace(/\\s+/g, '') : '', right: last ? last.getBoundingClientRect().right : 0};
  })"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_playground_tables_scroll_to_their_last_column_on_a_phone(browser, server, lang):
    page = browser.new_page(viewport={"width": 420, "height": 900})
    try:
        page.goto(f"{server}/playground?lang={lang}")
        wait_connected(page)
        page.get_by_text(t("replay.col_by_business", lang)).first.wait_for()
        page.wait_for_function("!document.querySelector('[data-testid=stStatusWidget], [data-testid=stSkeleton]')",
                               timeout=60_000)
        tables = page.evaluate(TABLES)
        wide = [tb for tb in tables if tb["wider"]]
        assert {tb["last"] for tb in wide} >= {"item", t("replay.col_by_business", lang).replace(" ", "")}
        assert [tb for tb in wide if tb["overflow"] != "auto" or tb["right"] > 420] == []
        assert page.evaluate("document.documentElement.scrollWidth") == 420  # the page itself never wider
    finally:
        page.close()
