"""Deep paths of long names are shown by their end, at most a fixed number of characters as drawn (issue 13, floods:
what a page sends per rerun is bounded by what was typed). In objects nested 25 deep whose property names were
zero-width spaces (each drawn as a 6-character escape), every strict-panel finding quoted its whole path in the path
column (and in the sentences that quote it), and each probe label its whole place: the open panel sent 78.7 KB per rerun for a
schema the panel's caps allow (16 000 characters as drawn; 3 times that is the bound); now 25.9 KB (break-it pass
brk14web). The end is kept: it names the keyword and the property the finding is about."""

import pytest

from toolcall.fixtures import load_outputs
from toolcall.strict import PROBE_LABEL_CHARS, leak_matrix
from toolcall.text import escaped_tail


@pytest.mark.parametrize(("text", "limit", "shown"), [
    ("/properties/order_id", 120, "/properties/order_id"),
    ("abcdef", 4, "…def"),
    ("a\u200bb\u200bc", 9, "…b\\u200bc"),  # "\u200b" whole or not at all
    ("a\u200bb\u200bc", 8, "…\\u200bc"),
    ("a\u200bb\u200bc", 7, "…c"),
    ("a\u200bb\u200bc", 6, "…c"),
    ("x\U000e0041", 13, "x\\udb40\\udc41"),
    ("xy\U000e0041", 13, "…\\udb40\\udc41"),
    ("\u043e" * 3, 18, "\\u043e\\u043e\\u043e"),
])
def test_escaped_tail_keeps_whole_escapes_at_the_end(text, limit, shown):
    assert escaped_tail(text, limit) == shown
    assert len(shown) <= limit


def nested(depth: int, name: str) -> dict:
    node: dict = {"type": "string", "maxLength": 9}
    for i in reversed(range(depth)):
        node = {"type": "object", "properties": {f"{i}{name}": node}, "required": [f"{i}{name}"]}
    return node


def test_a_probe_label_names_the_end_of_its_place():
    schema = nested(10, "\u200b" * 100)
    probe = next(r for r in leak_matrix(schema, load_outputs().outputs).rows if r.id.startswith("probe:"))
    # the place is "0\u200b….9\u200b…" (1 010 characters, 6 060 escaped); its last 13 whole escapes fit in 80
    assert probe.label == "…" + "\\u200b" * 13 + ': "xxxxxxxxxx"'
    assert PROBE_LABEL_CHARS == 80
