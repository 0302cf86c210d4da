"""The strict-mode panel's rules do work linear in the schema (issue 13, time kind): counted, not timed.

Before: the recursion rule searched the ``$defs`` graph once from every definition, so a chain of 3 000 ``$defs``
each referring to the next took 1.3 s of CPU for the three providers (0.03 s for 300: ×49 for ×10), and 3 000
definitions referring to each other in a ring 3.5 s; now 0.24 s and 0.9 s (×10). The work is counted as the
Python and C function calls the three reports make (sys.setprofile), for each family of schemas a student can
paste at n and 10·n: the ratio must stay near 10 (a quadratic rule gives ~100). A new rule that rescans the
schema per node fails here.
"""

import pytest

from tests.workcount import calls_made

from toolcall.strict import report
from toolcall.strict.rules import on_a_cycle


def ref_chain(n: int) -> dict:
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(n)}
    defs[f"d{n}"] = {"type": "string"}
    return {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def ref_ring(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"$ref": f"#/$defs/d{i}"} for i in range(n)},
            "$defs": {f"d{i}": {"type": "object", "properties": {"q": {"$ref": f"#/$defs/d{(i + 1) % n}"}}}
                      for i in range(n)}}


def wide(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "d"} for i in range(n)},
            "required": [f"p{i}" for i in range(n)]}


def unions(n: int) -> dict:
    return {"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "const": f"v{i}"}
                                                             for i in range(n)]}}}


def nested(n: int) -> dict:
    """``n`` objects, 50 levels deep at most (the schema editor refuses deeper), in a comb."""
    schema: dict = {"type": "string"}
    for i in range(n):
        schema = {"type": "object", "properties": {"x": schema if i % 50 else {"type": "string"}, f"y{i}": {}}}
    return schema


FAMILIES = {"ref_chain": ref_chain, "ref_ring": ref_ring, "wide": wide, "unions": unions, "nested": nested}


def _calls(schema: dict) -> int:
    return calls_made(lambda: [report(schema, p, "tool", "Does one thing.") for p in ("anthropic", "openai", "gemini")])[1]


@pytest.mark.parametrize("family", FAMILIES)
def test_three_reports_do_work_linear_in_the_schema(family):
    build = FAMILIES[family]
    small, large = _calls(build(300)), _calls(build(3000))
    assert large / small < 14, (family, small, large)


def test_a_ring_and_a_chain_of_definitions():
    """on_a_cycle finds exactly the nodes that reach themselves."""
    chain = {f"d{i}": {f"d{i + 1}"} for i in range(5)}
    assert on_a_cycle(chain) == set()
    ring = {**chain, "d5": {"d2"}, "x": {"x"}, "y": {"d0"}}
    assert on_a_cycle(ring) == {"d2", "d3", "d4", "d5", "x"}


def test_the_recursion_rule_reports_every_definition_of_a_ring_once():
    findings = [f for f in report(ref_ring(4), "anthropic").findings if f.keyword == "$ref"]
    assert sorted(f.path for f in findings) == ["/$defs/d0", "/$defs/d1", "/$defs/d2", "/$defs/d3"]
