"""A content entry that names another content file or entry by a name with a typo is reported at the entry the
instructor edited, with its JSON path: an outputs file's ``tool: get_ordr`` and a schema_fix exercise's
``tool: refund_ordr`` read ``fixtures/tools/get_ordr.json: $: cannot read file: no such file``, a file nobody
touched. The sweep covers every field of the shipped content that names a tool."""

import shutil
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.check import run_checks

TOOLS = "['cancel_order', 'do_stuff', 'get_order', 'refund_order', 'search_orders', 'update_shipping']"

#: (file, text, typo, where the problem must be, the message's start or None for "any message there").
REFERENCES = [
    ("fixtures/outputs/get_order.yaml", "tool: get_order", "tool: get_ordr", "$.tool",
     f"names 'get_ordr', but there is no fixtures/tools/get_ordr.json; there are: {TOOLS}"),
    ("fixtures/exercises/playground.yaml", "    tool: refund_order", "    tool: refund_ordr", "$.exercises[0].tool",
     f"names 'refund_ordr', but there is no fixtures/tools/refund_ordr.json; there are: {TOOLS}"),
    ("lessons/en/03-tool-definition.md", 'tool="refund_order"', 'tool="refund_ordr"', "$.figures[0].source",
     f"tool_description(tool=\"refund_ordr\"): no tool 'refund_ordr': fixtures/tools/ holds {TOOLS}"),
    ("fixtures/transcripts/refund_walkthrough.yaml", "tools: [refund_order, get_order]",
     "tools: [refund_order, get_ordr]", "$.tools[1]", None),
    ("fixtures/selection/shop.en.yaml", "should_not_call: [search_orders, refund_order]",
     "should_not_call: [search_orders, refund_ordr]", "$.cases[6]", None),
    ("fixtures/selection/shop.zh.yaml", "tools: [search_orders,", "tools: [search_order,", "$.tools", None),
    ("fixtures/scenarios/02-parallel-partial.yaml", "{id: b, name: get_shipping,", "{id: b, name: get_shiping,",
     "$.steps[0].model.calls[1].name", None),
]


@pytest.fixture
def content(tmp_path: Path) -> Path:
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    return tmp_path


@pytest.mark.parametrize("file, text, typo, where, message", REFERENCES, ids=[r[0].rsplit("/", 1)[1] for r in REFERENCES])
def test_a_name_with_a_typo_is_reported_where_it_was_typed(content, file, text, typo, where, message):
    path = content / file
    source = path.read_text("utf-8")
    assert text in source
    path.write_text(source.replace(text, typo, 1), "utf-8")
    problems = run_checks(content)
    assert problems, "the typo passed check"
    # besides: the other language's selection set now differs from this one (check_selection_and_runs)
    assert all(p.file.endswith(file) or p.message.endswith(f"in {file}") for p in problems), [str(p) for p in problems]
    assert where in [p.path for p in problems], [str(p) for p in problems]
    if message is not None:
        assert message in [p.message for p in problems if p.path == where]


def test_a_schema_fix_exercise_needs_the_canned_outputs_of_its_tool(content):
    """cancel_order is a tool, but has no canned outputs: a schema_fix exercise on it cannot be graded."""
    path = content / "fixtures/exercises/playground.yaml"
    path.write_text(path.read_text("utf-8").replace("    tool: refund_order", "    tool: cancel_order", 1), "utf-8")
    assert [(Path(p.file).name, p.path, p.message) for p in run_checks(content)] == [
        ("playground.yaml", "$.exercises[0].tool", "names 'cancel_order', but there is no "
         "fixtures/outputs/cancel_order.yaml; there are: ['get_order', 'refund_order']")]


def test_a_tool_renamed_inside_its_file_is_named_not_a_traceback(tmp_path):
    """refund_order.json with "name": "x" (no fake backend has that name) ended check in ``KeyError: 'content'``: the
    lessons' tool_result_content figures read the tool_result's content, which a tool without a backend sends none
    of (break-it pass brk19new, found by mutating content files at random). Each such figure says why."""
    import json

    from tests.content_copy import copy_content, problem_set

    root = copy_content(tmp_path)
    path = root / "fixtures" / "tools" / "refund_order.json"
    tool = json.loads(path.read_text("utf-8"))
    path.write_text(json.dumps({**tool, "name": "x"}, ensure_ascii=False), "utf-8")
    figures = {(file, where, message) for file, where, message in problem_set(root)
               if file.startswith("lessons/") and where.endswith(".source")}
    said = ("tool_result_content(output=\"over_paid\"): canned output 'over_paid' gets no tool_result content: the tool "
            "of fixtures/outputs/refund_order.yaml has no fake backend (the \"name\" in its file is none of "
            "search_orders, get_order, cancel_order, refund_order, update_shipping)")
    assert {(f"lessons/{lang}/07-errors-back.md", "$.figures[2].source", said) for lang in ("en", "zh")} <= figures
