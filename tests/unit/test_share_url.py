"""toolcall.tooldef.share_url: the playground's share link as a full address the student can copy, built
on the app's own address (st.context.url), bounded, http(s) only; None makes the page fall back."""

from urllib.parse import parse_qs, urlsplit

import pytest

from toolcall.fixtures import load_tool
from toolcall.tooldef import MAX_BASE_URL_CHARS, read_share_token, share_token, share_url


@pytest.mark.parametrize("base, want", [
    ("http://localhost:8501/playground", "http://localhost:8501/playground?tool=T"),
    ("https://course.example/app/playground/", "https://course.example/app/playground?tool=T"),
    ("https://course.example/app", "https://course.example/app/playground?tool=T"),
    ("https://course.example", "https://course.example/playground?tool=T"),
    ("http://h:1/playground?tool=old#x", "http://h:1/playground?tool=T"),
    ("http://h/a b/playground", "http://h/a%20b/playground?tool=T"),
])
def test_full_link_on_the_apps_address(base, want):
    assert share_url(base, "playground", "tool", "T") == want


@pytest.mark.parametrize("base", [None, "", "javascript:alert(1)//playground", "file:///etc/passwd", "http://",
                                  "/playground", "ftp://h/playground",
                                  "http://h/" + "a" * MAX_BASE_URL_CHARS])
def test_no_full_link_from_an_address_it_cannot_trust(base):
    assert share_url(base, "playground", "tool", "T") is None


def test_the_link_opens_the_same_definition():
    tool = load_tool()
    token = share_token(tool)
    link = share_url("http://localhost:8501/playground", "playground", "tool", token)
    (back,) = parse_qs(urlsplit(link).query)["tool"]
    checked = read_share_token(back)
    assert checked.ok and checked.tool.as_anthropic() == tool.as_anthropic()
