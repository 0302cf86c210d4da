"""toolcall.markdown: plain (any student text shows as itself inside Markdown and becomes nothing else), label
(the same for widget labels, with as few backslashes as possible) and link (a cited address, short text).

A real CommonMark parser (markdown-it-py) renders the escaped text inside one of the app's sentences;
Streamlit's own additions to Markdown (``:material/icon:``, ``:color[…]`` directives, ``$…$`` LaTeX,
GitHub-style autolinks) are checked on the escaped text itself.
"""

import html
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from toolcall.harness import load_scenarios
from toolcall.lessons import load_lessons
from toolcall.markdown import (_CONTROL, _MD_SPECIAL, _WORD_JOINER, LINK_CHARS, boldable, code, label, link, link_text, plain,
                               table)
from toolcall.strict.rules import RULES

MD = MarkdownIt("commonmark")
# U+0000 is replaced by U+FFFD by every CommonMark parser, and surrogates are not text.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=80)
NASTY = ["[x](https://evil.example)", "![i](http://x/y.png)", ":material/home:", ":red[alert]", "$x^2$",
         "<script>alert(1)</script>", "**bold** _it_", "www.evil.com", "HTTP://A.B", "a@b.co", "# heading",
         "`code`", "&amp; &#65;", "line\nbreak", "tab\there", "\u202eevil", "1. item", "> quote", "---"]


def shown(text: str) -> str:
    """What a student should see for ``text``: controls as their escapes, nothing else changed."""
    for ch, escape in _CONTROL.items():
        text = text.replace(ch, escape)
    return text


def visible(rendered: str) -> tuple[list[str], str]:
    """The tags markdown-it produced and the text a reader sees (entities decoded, word joiners dropped)."""
    tags = re.findall(r"<(/?[a-zA-Z][a-zA-Z0-9]*)", rendered)
    return tags, html.unescape(re.sub(r"<[^>]*>", "", rendered)).replace(_WORD_JOINER, "").rstrip("\n")


@settings(deadline=None)  # a CommonMark render per example; the machine may be busy
@given(TEXT)
@example("")
def test_any_text_renders_as_itself_and_as_nothing_else(text):
    for sample in [text, *NASTY]:
        tags, seen = visible(MD.render(f"Received: {plain(sample)}."))
        assert tags == ["p", "/p"], (sample, tags)
        assert seen == f"Received: {shown(sample)}.".strip(), sample


def _unescaped_specials(out: str) -> list[str]:
    """Markdown-special characters of ``out`` that are not preceded by their backslash."""
    found, i = [], 0
    while i < len(out):
        if out[i] == "\\":
            i += 2
            continue
        if out[i] in _MD_SPECIAL:
            found.append(out[i])
        i += 1
    return found


@settings(deadline=None)
@given(TEXT)
def test_nothing_streamlit_converts_survives(text):
    for sample in [text, *NASTY]:
        out = plain(sample)
        assert _unescaped_specials(out) == []  # no $ LaTeX, :directive[…], <html>, [link]
        bare = out.replace("\\", "")
        assert not re.search(r"(?i):material/", bare)
        assert not re.search(r"(?i)www\.", bare)
        assert "://" not in bare
        assert not re.search(r"@[^\u2060]", bare)
        assert not set(out) & {"\n", "\r", "\t", "\u202e"}


def test_examples_pin_the_escapes():
    assert plain("a*b") == "a\\*b"
    assert plain("$x$") == "\\$x\\$"
    assert plain("line\nbreak") == "line\\\\nbreak"
    assert plain(":material/home:") == "\\:" + _WORD_JOINER + "material/home\\:"
    assert plain("www.x") == "www" + _WORD_JOINER + "\\.x"


def test_boldable_guards_only_outer_whitespace():
    assert boldable("a ") == _WORD_JOINER + "a " + _WORD_JOINER
    assert boldable("a b") == "a b"
    assert visible(MD.render("**" + boldable(plain(" a ")) + "**"))[0] == ["p", "strong", "/strong", "/p"]


TABLE_MD = MarkdownIt("commonmark").enable("table")
#: A cell's edge whitespace is trimmed by the Markdown renderer, as at the edges of any paragraph: Unicode
#: whitespace (str.strip's default), so a cell of U+00A0 alone is empty too (Hypothesis found it).
_EDGE = None
_TABLE_TAGS = {"table", "/table", "thead", "/thead", "tbody", "/tbody", "tr", "/tr", "th", "/th", "td", "/td"}


@settings(deadline=None)
@given(st.lists(st.tuples(TEXT, st.integers(-10**6, 10**6)), min_size=1, max_size=4), TEXT)
@example([("a | b", 1), ("|", 2), ("x\\", 3)], "tool | name")
@example([("\xa0", 1)], "\xa0")
def test_table_cells_render_as_themselves_and_nothing_else(rows, head):
    """Every cell (pipes, backslashes, any text) is one cell showing itself; only table tags appear."""
    rendered = TABLE_MD.render(table([{head: text, "n": n} for text, n in rows]))
    tags = re.findall(r"<(/?[a-zA-Z][a-zA-Z0-9]*)", rendered)
    assert set(tags) <= _TABLE_TAGS, tags
    cells = [visible(c)[1].strip(_EDGE) for c in re.findall(r"<t[hd](?: [^>]*)?>(.*?)</t[hd]>", rendered, re.S)]
    want = [shown(head).strip(_EDGE), "n"] + [x for text, n in rows for x in (shown(text).strip(_EDGE), str(n))]
    assert cells == want
    assert 'style="text-align:right"' in rendered  # numbers right-aligned


def test_table_of_nothing_is_nothing():
    assert table([]) == ""


@settings(deadline=None)
@given(TEXT)
@example("")
@example("$.input_schema.properties")
@example("`a``b`")
@example(" a ")
@example("   ")
def test_code_span_shows_any_text_as_itself(text):
    """code(): one <code> element whose text is the input (controls as their escapes), no backslash added;
    plain() inside backticks (the review's old JSON paths: ``\\$\\.description``) would fail here."""
    for sample in [text, *NASTY]:
        tags, seen = visible(MD.render(f"At {code(sample)} here."))
        assert tags == ["p", "code", "/code", "/p"], (sample, tags)
        assert seen == f"At {shown(sample) or ' '} here.", sample


def test_plain_inside_backticks_is_the_fault_code_fixes():
    assert visible(MD.render(f"`{plain('$.description')}`"))[1] == "\\$\\.description"
    assert visible(MD.render(code("$.description")))[1] == "$.description"


def test_no_page_puts_escaped_text_between_backticks():
    """The kind, across the app: plain()/table() output inside a code span shows its backslashes."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    wrong = re.compile(r"`\{(?:plain|boldable|label|table|link)\(|`\"\s*\+\s*(?:plain|boldable|label)\(")
    found = [f"{p.relative_to(root)}:{n}" for folder in ("ui", "pages", "toolcall") for p in sorted((root / folder).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if wrong.search(line)]
    assert found == []


# --- label: literal text with as few backslashes as Markdown allows (a label is read aloud from its source) ----

GFM = MarkdownIt("commonmark").enable("strikethrough")
LABEL_NASTY = [*NASTY, "- item", "+ item", "* item", "12) item", "___", "***", "a_b_c", "_a_", "a _b_ c", "x\\*y",
               "end\\", "~~gone~~", "<b>x</b>", "<http://x.y>", ":smile:", "a:b", "1.5 yuan", "&#65;", "![i](x)",
               "-5 points", "+5", "#tag", "- - -", "###", "> q", "=x", "-"]


@settings(deadline=None)
@given(TEXT)
@example("")
def test_any_label_renders_as_itself_and_as_nothing_else(text):
    for sample in [text, *LABEL_NASTY]:
        sample = sample.strip()  # a paragraph's outer spaces are not shown (and a label has none)
        tags, seen = visible(GFM.render(label(sample)))
        assert tags in (["p", "/p"], []), (sample, tags)
        assert seen == shown(sample).strip(), sample
        out = label(sample).replace("\\\\", "")
        assert not re.search(r"(?<!\\)(\$|:[A-Za-z]|~)", out), sample  # Streamlit's LaTeX, directives, icons


@pytest.mark.parametrize("text", [
    "If the order has not shipped yet, use cancel_order instead.",  # the pass^k lab's checkboxes (newcomer pass)
    "amount_cents is in cents: 19.99 yuan is 1999.",
    "金额单位是分：19.99 元写作 1999。",
    'Wrong type ("19.99" as a string)',  # the playground's output picker
    'Trailing newline after the id ("ORD-20260917\\n")',
    "JSON 被截断（触到 max_tokens）",
])
def test_ordinary_labels_need_no_backslash(text):
    assert label(text) == text


def test_label_escapes_only_what_markdown_would_change():
    assert [label(t) for t in ("-5 points", "+5", "#tag", "=x")] == ["-5 points", "+5", "#tag", "=x"]
    assert [label(t) for t in ("- x", "+ x", "# x", "> x", "---")] == ["\\- x", "\\+ x", "\\# x", "\\> x", "\\---"]
    assert label("a *b*") == "a \\*b\\*"
    assert label("_x_") == "\\_x\\_"
    assert label("1. x") == "1\\. x"
    assert label("- x") == "\\- x"
    assert label(":red[x]") == "\\:red\\[x]"
    assert label("$5") == "\\$5"
    assert label("a\\*b") == "a\\\\\\*b"


# --- link: a cited address as a link with short text (the strict panel's Source column broke mid-word) ----------

#: Every address the app cites on a page: strict-mode rules and the harness lab's scenarios.
CITED = sorted({rule.source for rule in RULES} | {u for s in load_scenarios().scenarios for u in s.sources})


@pytest.mark.parametrize("url", CITED)
def test_every_cited_address_is_one_link_with_short_text(url):
    rendered = GFM.render(link(url))
    anchors = re.findall(r'<a href="([^"]*)">(.*?)</a>', rendered)
    assert len(anchors) == 1, rendered
    href, text = anchors[0]
    assert html.unescape(href) == url  # the shipped addresses need no percent-encoding
    shown_text = html.unescape(text)
    assert len(shown_text) <= LINK_CHARS and "://" not in shown_text and shown_text.startswith(
        url.split("/")[2].removeprefix("www."))


def test_link_texts_read_exactly():
    assert link("https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations") \
        == ("[platform\\.claude\\.com › json\\-schema\\-limitations]"
            "(https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations)")
    assert link("https://www.example.com/") == "[example\\.com](https://www.example.com/)"
    assert link("https://community.openai.com/t/a-b/123").startswith("[community\\.openai\\.com › a\\-b](")


@pytest.mark.parametrize("text", ["javascript:alert(1)", "ftp://x.y/z", "not a url", "https:///nohost"])
def test_only_http_addresses_become_links(text):
    assert link(text) == plain(text)
    assert "<a " not in GFM.render(link(text))


def test_a_target_cannot_end_the_link_or_the_cell():
    out = link("https://x.y/a(b)|c d<e>")
    assert out == "[x\\.y › a\\(b\\)\\|c d\\<e\\>](https://x.y/a%28b%29%7Cc%20d%3Ce%3E)"
    assert re.findall(r'href="([^"]*)"', GFM.render(out)) == ["https://x.y/a%28b%29%7Cc%20d%3Ce%3E"]


#: Lesson titles that broke their line of the lessons page's table of contents (break-it pass brk10web2): the
#: link's Markdown shown raw ("Arrays]", "C:\"), or only part of the title made the link ("Step [1").
BROKEN_TOC_TITLES = ["Arrays]", "Step [1", "C:\\", "ok [a] b", "`items[0]` and [x", "a\\\\]", "**bold** [",
                     "``a`b]`` ]"]


def _links_as_itself(title: str) -> bool:
    return MD.renderInline(f"[{link_text(title)}](#anchor)") == f'<a href="#anchor">{MD.renderInline(title)}</a>'


@pytest.mark.parametrize("title", BROKEN_TOC_TITLES)
def test_a_title_in_a_link_shows_as_on_its_own(title):
    assert _links_as_itself(title)


def test_every_shipped_lesson_title_links_as_itself():
    titles = [lesson.title for lang in ("en", "zh") for lesson in load_lessons(lang).lessons]
    assert titles and [t for t in titles if not _links_as_itself(t)] == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab []\\`*_", max_size=16))
def test_any_title_without_links_links_as_itself(title):
    """Nested links cannot exist in Markdown, so a title holding a link of its own is left out (no ( in the alphabet)."""
    assert _links_as_itself(title)
