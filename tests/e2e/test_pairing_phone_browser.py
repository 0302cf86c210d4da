"""Real browser, a phone's width: the pairing checker's violations table is read whole. At 420 px the rule id
took a third of the width, the detail wrapped every three characters and the advice column was cut off at the
right edge (newcomer pass)."""

import time

import pytest

from tests.e2e.conftest import wait_connected
from toolcall.i18n import t
from toolcall.pairing import load_examples

pytestmark = pytest.mark.e2e

#: three fixture examples: those breaking the most rules, then those with the longest rule ids (the id column
#: took the width; the newcomer saw it with two rows, an id mismatch and a call without a result)
BROKEN = sorted((e for e in load_examples() if e.expect),
                key=lambda e: (-len(e.expect), -max(len(rule) for rule in e.expect)))[:3]

#: every cell of the violations table: its box, and which column it is in
CELLS = """box => [...box.querySelectorAll('td')].map(td => {
  const r = td.getBoundingClientRect();
  return {column: td.cellIndex, left: r.left, right: r.right, width: r.width};
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_violations_table_fits_a_phone_with_readable_columns(browser, server, lang):
    """Each of those examples' tables at 420 px: the detail and advice columns at least 7em (98 px at
    14 px) wide, and the page itself never wider than the phone."""
    page = browser.new_page(viewport={"width": 420, "height": 900})
    try:
        page.goto(f"{server}/pairing?lang={lang}")
        wait_connected(page)
        width = page.evaluate("document.documentElement.clientWidth")
        for example in BROKEN:
            button = page.locator(f".st-key-pairing_example_{example.id} button")
            inert = f"!!document.querySelector('.st-key-pairing_example_{example.id} button').closest('[inert]')"
            time.sleep(1)  # the fold of the list of examples is animated after the run
            if page.evaluate(inert):  # loading an example folds the list of examples (its content turns inert)
                page.locator("[data-testid=stExpander] details", has=button).locator("summary").click()
                page.wait_for_function("!" + inert, timeout=30_000)
            button.click()
            table = page.locator("[data-testid=stMarkdownContainer]:has(table)").filter(
                has=page.locator("th", has_text=t("pairing.col_advice", lang))).first
            table.locator("td").first.wait_for()
            page.wait_for_function("!document.querySelector('[data-testid=stStatusWidget]')")
            cells = table.evaluate(CELLS)
            assert [c for c in cells if c["column"] in (3, 4) and c["width"] < 98] == [], example.id
            # a table with a long identifier may still be wider: it scrolls in its own box, never widens the page
            assert page.evaluate("document.documentElement.scrollWidth") <= width, example.id
    finally:
        page.close()
