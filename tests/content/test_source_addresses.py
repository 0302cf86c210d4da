"""A source a lesson or a scenario cites opens the page its author copied, or check says why (issue 13, break-it
pass brk14content: content that passes check and breaks a page; invisible and look-alike characters named).

Before: ``https://[platform.openai.com]/docs`` (brackets around a host that is no IPv6 address) passed check, and
the lessons page and the walkthrough (which folds the lesson above it) failed in class with urlsplit's ValueError;
a zero-width space or a direction override pasted with an address passed and was percent-encoded into the link (an
error page); a host with a Cyrillic а (``plаtform.openai.com``) passed and opened another site; a scenario's
``https://`` alone or with spaces inside passed. The sweep builds addresses from hostile parts: link() never raises
and every address source_problems passes is shown as a link."""

import itertools
import os
import json
import subprocess
import sys

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall import REPO_ROOT
from toolcall.markdown import link
from toolcall.markdown_hazards import source_problems

LESSON = "lessons/en/02-five-steps.md"
CITED = "  - https://platform.openai.com/docs/guides/function-calling"
HIDDEN = ("white space or a character the page shows as nothing (pasted with the address?); the link would open "
          "another address: delete it")


@pytest.mark.parametrize("written, said", [
    ("https://[platform.openai.com]/docs", "'https://[platform.openai.com]/docs' is no web address: "
                                           "'platform.openai.com' does not appear to be an IPv4 or IPv6 address"),
    ("https://platform.openai.com/docs/\u200bguides", f"'https://platform.openai.com/docs/\\u200bguides' holds "
                                                      f"\\u200b: {HIDDEN}"),
    ("https://plаtform.openai.com/docs", "'https://plаtform.openai.com/docs' its host 'plаtform.openai.com' holds а "
                                         "(U+0430), outside ASCII: a look-alike of a Latin letter opens another site "
                                         "that reads the same; write the host in ASCII (an international name in its "
                                         "xn-- form)"),
])
def test_a_lesson_source_that_would_not_open_its_page_is_named(tmp_path, written, said):
    root = edited_copy(tmp_path, LESSON, CITED, f"  - {written}")
    assert {(where, message) for file, where, message in problem_set(root) if file.endswith("02-five-steps.md")} \
        == {("$.sources[2]", said)}


def test_a_scenario_source_with_no_host_or_a_space_is_named(tmp_path):
    root = edited_copy(tmp_path, "fixtures/scenarios/01-plain-call.yaml", CITED,
                       "  - https://\n  - https://platform.openai.com/docs/guides/function calling")
    assert {(where, message) for file, where, message in problem_set(root) if file.endswith("01-plain-call.yaml")} \
        == {("$.sources[1]", "'https://' names no host: write the whole address, https://host/path"),
            ("$.sources[2]", f"'https://platform.openai.com/docs/guides/function calling' holds ' ': {HIDDEN}")}


def test_the_lessons_page_shows_a_source_urlsplit_refuses_as_text(tmp_path):
    root = edited_copy(tmp_path, LESSON, CITED, "  - https://[platform.openai.com]/docs")
    run = subprocess.run([sys.executable, "-m", "tests.app.broken_content_probe", "en", "pages/lessons.py",
                          "pages/walkthrough.py"], capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                         env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)})
    assert run.returncode == 0, run.stderr[-3000:]
    shown = json.loads(run.stdout.strip().splitlines()[-1])
    assert shown["pages/lessons.py"]["exception"] == shown["pages/walkthrough.py"]["exception"] == []


PARTS = ["https://", "http://", "ftp://", "", "[", "]", "[::1]", "[v1.x]", ":", ":99999", ":x", "@", "#", "?", "%",
         "%zz", "\u200b", "\u202e", " ", "\n", "а", "xn--80ak6aa92e.com", "host.example", "/path", "\\", "|", ")"]


@pytest.mark.parametrize("parts", list(itertools.product(PARTS[:4], PARTS, PARTS)))
def test_link_never_raises_and_a_source_check_passes_is_shown_as_a_link(parts):
    url = "".join(parts)
    shown = link(url)
    if url.startswith(("https://", "http://")) and not source_problems(url):
        assert shown.startswith("[") and shown.endswith(")"), (url, shown)


def test_every_shipped_source_opens_what_it_names():
    from toolcall.harness import load_scenarios
    from toolcall.lessons import load_lessons

    sources = [s for lang in ("en", "zh") for lesson in load_lessons(lang).lessons for s in lesson.sources]
    sources += [s for sc in load_scenarios().scenarios for s in sc.sources]
    assert len(sources) > 10 and {s: source_problems(s) for s in sources if source_problems(s)} == {}
