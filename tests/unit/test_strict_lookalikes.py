"""The strict-mode findings quote the schema's names with look-alike letters of other scripts escaped (issue 13,
invisible and look-alike kind; break-it pass brk10web). Before: a property named ``оrder_id`` (Cyrillic о) in a
schema whose ``required`` lists order_id read "`order_id` is not in `required`" in the playground's strict panel and
in ``python -m toolcall strict``. Swept: every finding of every provider for schemas with look-alike names in each
place a finding names them (a property, a nested property, an enum value, a pattern, a $defs entry)."""


import pytest

from toolcall.strict import PROVIDERS, finding_message, report
from toolcall.text import LOOKALIKE_BLOCKS

CO = "\u043e"  # Cyrillic о
SCHEMAS = {
    "property": {"type": "object", "properties": {CO + "rder_id": {"type": "string"}}, "required": ["order_id"],
                 "additionalProperties": False},
    "nested": {"type": "object", "properties": {"item": {"type": "object", "properties": {
        "c" + CO + "de": {"type": "string", "minLength": 3}}}}},
    "enum": {"type": "object", "properties": {"reason": {"enum": ["d" + CO + "ne", 1.5, None], "default": CO}},
             "required": ["reason"], "additionalProperties": False},
    "pattern": {"type": "object", "properties": {"sku": {"type": "string", "pattern": "^" + CO + "$",
                                                         "format": "em" + CO}},
                "required": ["sku"]},
    "defs": {"type": "object", "$defs": {"n" + CO + "de": {"type": "object", "properties": {"x": {"type": "integer",
                                                                                              "maximum": 3}}}},
             "properties": {"a": {"$ref": "#/$defs/n" + CO + "de"}}},
}


def _lookalikes(text: str) -> set[str]:
    return {ch for ch in text if any(lo <= ord(ch) <= hi for lo, hi in LOOKALIKE_BLOCKS)}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("shape", list(SCHEMAS))
def test_no_finding_shows_a_lookalike_letter(shape, provider, lang):
    findings = report(SCHEMAS[shape], provider).findings
    for f in findings:
        assert not _lookalikes(finding_message(f, lang)), finding_message(f, lang)


def test_the_example_names_the_property_escaped():
    messages = [finding_message(f) for f in report(SCHEMAS["property"], "openai").findings]
    assert any(m.startswith("`\\u043erder_id` is not in `required`") for m in messages), messages
