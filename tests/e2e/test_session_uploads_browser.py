"""One session cannot make the server hold uploads without end (issue 13; break-it pass brk15scale). Streamlit keeps
every file PUT to ``/_stcore/upload_file/<session>/<file id>`` until the session ends, under any file id the browser
names: 20 files of 19 MB sent from one page (its console, or a script) took the server from 260 MB to 643 MB of RSS,
each further file adding its size. Now the server keeps each session's newest 4 files within 2 × maxUploadSize
(ui/uploads.py, installed by the server's start); Streamlit's own metrics (``/_stcore/metrics``) count what the
upload manager holds, to the byte."""

import re
import urllib.request

from tests.e2e.conftest import wait_connected
from toolcall.fixtures import FIXTURES_DIR
from toolcall.i18n import t

MIB = 1024 * 1024

#: Sends ``sizes`` (bytes each) as files under new ids to this session's upload address, as the page's uploader does
#: (multipart form, the XSRF cookie's token); returns the HTTP statuses.
PUT_FILES = """async ([base, sizes]) => {
  const xsrf = (document.cookie.match(/_streamlit_xsrf=([^;]+)/) || [])[1];
  const out = [];
  for (let i = 0; i < sizes.length; i++) {
    const fd = new FormData();
    fd.append("UploadedFile", new Blob([new Uint8Array(sizes[i]).fill(120)]), "log" + i + ".jsonl");
    const r = await fetch(base + "/extra-" + sizes.length + "-" + i, {method: "PUT", body: fd,
        headers: xsrf ? {"X-Xsrftoken": decodeURIComponent(xsrf)} : {}, credentials: "same-origin"});
    out.push(r.status);
  }
  return out;
}"""


def _held(server: str, page) -> int:
    """Bytes the server's upload manager holds, from Streamlit's metrics (0 when it holds no file). The server
    computes that figure at most once per 5 s (streamlit.web.server.starlette.starlette_routes), so it is read
    after that window."""
    page.wait_for_timeout(5_500)
    with urllib.request.urlopen(server + "/_stcore/metrics", timeout=30) as resp:
        text = resp.read().decode()
    found = re.findall(r'cache_memory_bytes\{cache_type="UploadedFileManager"[^}]*\} (\d+)', text)
    return sum(map(int, found))


def test_one_session_keeps_its_newest_uploads_only(server, page, tmp_path):
    puts = []
    page.on("request", lambda r: puts.append(r.url) if "/_stcore/upload_file/" in r.url and r.method == "PUT" else None)
    page.goto(f"{server}/eval_lab?lang=en")
    wait_connected(page)
    small = tmp_path / "small.jsonl"
    small.write_text("{}\n")
    page.locator(".st-key-eval_upload input[type=file]").set_input_files(str(small))
    for _ in range(120):
        if puts:
            break
        page.wait_for_timeout(250)
    base = puts[0].rsplit("/", 1)[0]  # this session's upload address
    assert page.evaluate(PUT_FILES, [base, [3 * MIB] * 8]) == [204] * 8
    assert _held(server, page) == 4 * 3 * MIB  # the newest 4 (the page's own small file was the oldest); was 8 × 3 MiB + 3
    assert page.evaluate(PUT_FILES, [base, [15 * MIB] * 3]) == [204] * 3
    assert _held(server, page) == 2 * 15 * MIB  # within 2 × maxUploadSize (40 MiB): the two newest


def test_a_page_whose_file_was_dropped_shows_what_it_kept(server, page):
    """The eval lab read its log when it was sent: once the server drops that file (newer uploads past the cap),
    the page shows the analysis it kept and says why the box is empty, with no error."""
    puts = []
    page.on("request", lambda r: puts.append(r.url) if "/_stcore/upload_file/" in r.url and r.method == "PUT" else None)
    page.goto(f"{server}/eval_lab?lang=en")
    wait_connected(page)
    sample = FIXTURES_DIR / "eval_runs" / "shop_vague.en.jsonl"
    page.locator(".st-key-eval_upload input[type=file]").set_input_files(str(sample))
    page.get_by_text("Read from this log (Native JSONL): cases 31, runs 310.").wait_for()
    assert page.evaluate(PUT_FILES, [puts[0].rsplit("/", 1)[0], [1_000] * 4]) == [204] * 4  # the page's file: 5th
    page.locator("body").press("r")  # a rerun: the uploader finds its file gone
    kept = t("eval.upload_kept", "en", name=sample.name, k=3)  # as drawn: no Markdown escapes
    page.get_by_text(kept).wait_for()
    page.get_by_text("Read from this log (Native JSONL): cases 31, runs 310.").wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0
