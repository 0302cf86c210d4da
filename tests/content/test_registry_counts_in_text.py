"""The UI text does not state a count that a registry controls (issue 14: the playground's home card
said "Anthropic and OpenAI formats" while toolcall/wire.py FORMATS lists more; the pairing intro said
"the five wire forms"). A number of wire forms in a catalogue string goes stale when FORMATS changes."""

import re

from toolcall.i18n import catalogue
from toolcall.wire import FORMATS

COUNTED_FORMS = re.compile(r"\b(?:two|three|four|five|six|seven|\d+) (?:wire )?(?:forms|formats)\b|"
                           r"(?:[两二三四五六七]|\d+) ?种线上格式|[两二三四五六七]种格式）", re.I)


def test_the_pattern():
    assert COUNTED_FORMS.search("in any of the five wire forms") and COUNTED_FORMS.search("五种线上格式")
    assert COUNTED_FORMS.search("（Anthropic 和 OpenAI 两种格式）")
    assert not COUNTED_FORMS.search("in every wire form the course teaches")


def test_no_catalogue_string_counts_the_wire_forms():
    found = {(lang, key): text for lang in ("en", "zh") for key, text in catalogue(lang).items()
             if COUNTED_FORMS.search(text)}
    assert found == {}


def test_the_playground_card_names_every_vendor_of_the_wire_forms():
    """Every wire form's vendor or protocol is named on the playground's home card."""
    names = {"anthropic": "Anthropic", "openai": "OpenAI", "responses": "OpenAI", "mcp": "MCP", "gemini": "Gemini"}
    for lang in ("en", "zh"):
        assert [f for f in FORMATS if names[f] not in catalogue(lang)["home.playground"]] == []
