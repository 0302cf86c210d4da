"""The design review of a tool set stays linear (issue 13, quadratic work in checkers): a pasted
list of 1 000 tools with one description made 504 501 findings (225 MB) in 2.7 s CPU, because every
pair of near-duplicate descriptions was a finding and every pair was compared."""

import json

from tests.workcount import growth
from toolcall.lint import MAX_PAIRWISE, lint_set
from toolcall.tooldef import parse_tool_list


def _tools(n: int, description: str = "Get order status now."):
    text = json.dumps([{"name": f"get_t{i}", "description": description, "input_schema": {}} for i in range(n)],
                      separators=(",", ":"))
    tools, problem = parse_tool_list(text, "en")
    assert problem is None
    return tools


def test_at_most_one_overlap_finding_per_tool_naming_the_first():
    for n in (3, MAX_PAIRWISE + 1, 2000):  # 2000 fits in the CLI's 200 000 characters
        overlaps = [f for f in lint_set(_tools(n)) if f.rule == "set_overlap"]
        assert len(overlaps) == n - 1
        assert {dict(f.params)["other"] for f in overlaps} == {"get_t0"}
        assert [f.path for f in overlaps] == [f"$[{j}].description" for j in range(1, n)]


def test_different_descriptions_are_not_flagged_in_a_large_set():
    tools = _tools(MAX_PAIRWISE + 50)
    for i, tool in enumerate(tools):
        word = "".join(chr(ord("a") + int(d)) for d in f"{i:03d}")  # 7 -> "aah": words are letters only
        object.__setattr__(tool, "description", f"Find {word}x {word}y {word}z.")
    assert [f for f in lint_set(tools) if f.rule == "set_overlap"] == []


def test_the_review_of_a_set_is_linear_in_its_size():
    """Lines run, not seconds (tests/workcount.py): 4x the tools is 4x the lines when linear, 16x when
    every pair is compared. The sets are built outside the count."""
    sets = {n: _tools(n) for n in (250, 1000)}
    ratio = growth(lambda n: lint_set(sets[n]), 250)
    assert 3.5 < ratio < 4.5, ratio
