"""What the open strict panel sends per rerun is bounded by what the student typed (issue 13, memory kind): it
wrote the schema out three times (original, SDK rewrite, diff) and listed 100 findings of long paths, ~8x the typed
schema per rerun at its caps (toolcall.strict.MAX_PANEL_CHARS). The full schemas are now drawn only when asked
(toggle ``playground_strict_full``), the diff shows SHOWN_DIFF_LINES lines and the tables SHOWN_ROWS rows. The
shapes are the largest under the panel's caps, so the test follows them."""

import json
import re

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_pairing_page import _element_bytes
from toolcall.i18n import t
from toolcall.strict import MAX_PANEL_CHARS, MAX_PANEL_SUBSCHEMAS, panel_too_large
from toolcall.text import visible_json
from ui import strict_panel


def constrained(n: int) -> dict:
    """``n`` properties with long names and constraints every SDK rewrites (each a finding, each a diff hunk)."""
    return {"type": "object", "properties": {f"p{i:03d}" + "x" * 40: {"type": "string", "minLength": 1,
                                                                      "format": "date"} for i in range(n)}}


def nested(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i:03d}" + "x" * 40: {"type": "object", "properties": {
        "a": {"type": "string", "maxLength": 9}}} for i in range(n)}}


def largest(build) -> str:
    """The compact text of ``build(n)`` for the largest n the panel still draws."""
    n = 1
    while not panel_too_large(build(n + 1)) and n < MAX_PANEL_SUBSCHEMAS:
        n += 1
    text = json.dumps(build(n), separators=(",", ":"))
    assert len(text) > MAX_PANEL_CHARS // 2
    return text


SHAPES = {"constrained properties": constrained, "nested objects": nested}


def _open(lang: str, text: str, provider: str):
    at = fresh_app(lang, page="pages/playground.py")
    at.toggle(key="playground_strict_open").set_value(True).run()
    at.radio(key="playground_strict_provider").set_value(provider).run()
    base = sum(_element_bytes(at).values())
    at.text_area(key="schema_editor").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, sum(_element_bytes(at).values()) - base


@pytest.mark.parametrize("provider", ["anthropic", "openai", "gemini"])
@pytest.mark.parametrize("shape", SHAPES)
def test_the_open_panel_sends_at_most_three_times_the_schema(shape, provider):
    text = largest(SHAPES[shape])
    _, sent = _open("en", text, provider)
    assert sent <= 3 * len(text), (sent, len(text))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_diff_is_cut_and_both_schemas_come_when_asked(lang):
    text = largest(constrained)
    at, _ = _open(lang, text, "anthropic")
    diffs = [c.value for c in at.code if c.language == "diff"]
    assert len(diffs) == 1 and len(diffs[0].split("\n")) == strict_panel.SHOWN_DIFF_LINES
    said = re.escape(t("strict.panel.diff_cut", lang, shown=strict_panel.SHOWN_DIFF_LINES, total="TOTAL"))
    cut = [c.value for c in at.caption if re.fullmatch(said.replace("TOTAL", r"(\d[\d,]*)"), c.value)]
    assert len(cut) == 1
    assert int(re.search(r"\d[\d,]*", cut[0]).group().replace(",", "")) > strict_panel.SHOWN_DIFF_LINES
    assert t("strict.panel.original", lang) not in [c.value for c in at.caption]
    at.toggle(key="playground_strict_full").set_value(True).run()
    assert t("strict.panel.original", lang) in [c.value for c in at.caption]
    assert any(json.loads(c.value) == json.loads(text) for c in at.code if c.language == "json")


def hidden(n: int) -> dict:
    """The order id with a description of ``n`` tag characters (U+E0041: drawn as nothing, escaped as 12)."""
    return {"type": "object", "properties": {"order_id": {"type": "string", "minLength": 1,
                                                          "description": "\U000e0041" * n}}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hidden_characters_count_as_the_escapes_the_panel_draws(lang):
    """The panel's character cap is on the JSON as drawn: 15 800 tag characters (62 KB typed) were under it counted
    one each, and the open panel sent 374 KB of escapes on every edit; now the largest such schema it draws is at most
    MAX_PANEL_CHARS characters drawn, it sends at most three times that, and a larger one is declined (en, zh)."""
    n = (MAX_PANEL_CHARS - 200) // 12
    while not panel_too_large(hidden(n + 1)):
        n += 1
    assert len(visible_json(hidden(n))) <= MAX_PANEL_CHARS < len(visible_json(hidden(n + 1)))
    _, sent = _open(lang, json.dumps(hidden(n), ensure_ascii=False), "anthropic")
    assert sent <= 3 * MAX_PANEL_CHARS, sent
    at, _ = _open(lang, json.dumps(hidden(n + 1), ensure_ascii=False), "anthropic")
    assert t("strict.panel.too_large", lang, nodes=MAX_PANEL_SUBSCHEMAS, chars=f"{MAX_PANEL_CHARS:,}") in [
        i.value for i in at.info]


def chain(depth: int, char: str) -> dict:
    """Objects nested ``depth`` deep, each property's name ``char`` repeated (as wide as the panel's caps let it be),
    the innermost a string with constraints every SDK rewrites: each level's findings quote its whole path."""
    def build(width: int) -> dict:
        node: dict = {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^a", "format": "email"}
        for i in reversed(range(depth)):
            name = f"{i}" + char * width
            node = {"type": "object", "properties": {name: node}, "required": [name]}
        return node
    width = 1
    while not panel_too_large(build(width + 1)):
        width += 1
    return build(width)


#: Long names in nested objects: each finding's path holds every name above it. 25 levels of names drawn as 6-character
#: escapes made a findings table of about 50 000 characters (break-it pass brk14web).
CHAINS = {"25 levels, plain names": (25, "q"), "25 levels, zero-width names": (25, "\u200b"),
          "10 levels, zero-width names": (10, "\u200b")}


@pytest.mark.parametrize("provider", ["anthropic", "openai", "gemini"])
@pytest.mark.parametrize("shape", CHAINS)
def test_long_paths_do_not_multiply_what_the_panel_sends(shape, provider):
    schema = chain(*CHAINS[shape])
    assert not panel_too_large(schema)
    _, sent = _open("en", json.dumps(schema, ensure_ascii=False), provider)
    assert sent <= 3 * MAX_PANEL_CHARS, sent
