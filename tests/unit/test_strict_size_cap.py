"""Issue 13: OpenAI's to_strict_json_schema inlines every $ref that has siblings; a chain of $defs
each referencing the one before twice doubles per link (2 KB of schema -> 48 MB). openai_transform
counts the subschemas it builds and stops past MAX_TRANSFORM_NODES; the report says so in en and zh."""

from __future__ import annotations

import json

import pytest

from toolcall.i18n import t
from toolcall.strict import leak_matrix, report
from toolcall.strict.transforms import MAX_TRANSFORM_NODES, TransformTooLarge, openai_transform


def chain(n: int) -> dict:
    """$defs d0..dn, d_k an object whose two properties each $ref d_(k-1) with a sibling description."""
    defs = {"d0": {"type": "string", "description": "leaf"}}
    for k in range(1, n + 1):
        defs[f"d{k}"] = {"type": "object", "properties": {
            "a": {"$ref": f"#/$defs/d{k - 1}", "description": "first"},
            "b": {"$ref": f"#/$defs/d{k - 1}", "description": "second"}}}
    return {"type": "object", "properties": {"x": {"$ref": f"#/$defs/d{n}", "description": "top"}}, "$defs": defs}


def _leaves(node) -> int:
    if isinstance(node, dict):
        return (node.get("type") == "string") + sum(_leaves(v) for v in node.values())
    if isinstance(node, list):
        return sum(_leaves(v) for v in node)
    return 0


@pytest.mark.parametrize("n", [14, 15, 16])
def test_a_doubling_ref_chain_is_stopped(n):
    schema = chain(n)
    assert len(json.dumps(schema)) < 3_000
    with pytest.raises(TransformTooLarge) as caught:
        openai_transform(schema)
    assert caught.value.limit == MAX_TRANSFORM_NODES
    rep = report(schema, "openai")
    assert (rep.transformed, rep.transform_too_large) == (None, MAX_TRANSFORM_NODES)
    assert rep.declaration["function"]["parameters"] == schema
    for lang, word in (("en", "not run to the end"), ("zh", "没让 SDK 助手跑完")):
        text = t("strict.panel.transform_too_large", lang, limit=f"{MAX_TRANSFORM_NODES:,}")
        assert word in text and "10,000" in text
    matrix = leak_matrix(schema, [])
    assert matrix is not None


@pytest.mark.parametrize("n", [1, 3, 6])
def test_a_short_chain_is_still_inlined_in_full(n):
    out, moved = openai_transform(chain(n))
    # every path from x down to a leaf is written out: 2**(n) leaves below d_n, plus the $defs copies
    assert _leaves(out["properties"]["x"]) == 2 ** n
    assert "$ref" not in json.dumps(out["properties"])
    assert report(chain(n), "openai").transform_too_large == 0
