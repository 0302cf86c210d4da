"""Every list of entries that content names by id (or a scenario's tools, by name) holds each id once, and
`check` says so at the repeated entry: two calls of one model response sharing an id (the scenario teaching
pairing by id; the providers refuse repeated tool_use ids), two tools of a scenario with one name, and a business
case with the id of a canned output (lessons and tool_use ids name both alike; the later one won silently)
passed. The sweep repeats an id in every such list of every shipped content file."""

import shutil

import pytest
import yaml

from toolcall import REPO_ROOT
from toolcall.check import run_checks

#: The member naming each entry of a list, by list: every other list of objects is keyed by "id".
KEYS = {"tools": "name"}


def _lists(data, at=()):
    """(path to a list, key) for every list of two or more objects that all have the key, first of each pattern."""
    if isinstance(data, dict):
        for name, value in data.items():
            yield from _lists(value, (*at, name))
    elif isinstance(data, list):
        key = KEYS.get(at[-1] if at and isinstance(at[-1], str) else "", "id")
        if len(data) > 1 and all(isinstance(item, dict) and key in item for item in data):
            yield at, key
        for i, item in enumerate(data):
            yield from _lists(item, (*at, i))


def _cases():
    seen = set()
    for path in sorted((REPO_ROOT / "fixtures").rglob("*.y*ml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        for at, key in _lists(data):
            pattern = (path.parent.name, tuple("#" if isinstance(p, int) else p for p in at))
            if pattern not in seen:
                seen.add(pattern)
                yield pytest.param(path.relative_to(REPO_ROOT).as_posix(), at, key,
                                   id=f"{path.name}:{'.'.join(map(str, at))}")


CASES = list(_cases())


def test_the_sweep_covers_the_lists_that_were_missed():
    found = {(case.values[0].split("/")[1], tuple("#" if isinstance(p, int) else p for p in case.values[1]))
             for case in CASES}
    assert {("scenarios", ("steps", "#", "model", "calls")), ("scenarios", ("tools",)),
            ("outputs", ("business_cases",)), ("exercises", ("exercises", "#", "options"))} <= found


@pytest.mark.parametrize("file, at, key", CASES)
def test_a_repeated_id_is_reported_in_its_file(tmp_path, file, at, key):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    data = yaml.safe_load((tmp_path / file).read_text("utf-8"))
    entries = data
    for part in at:
        entries = entries[part]
    entries[1][key] = entries[0][key]
    (tmp_path / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    problems = run_checks(tmp_path)
    assert any(p.file.endswith(file) for p in problems), [str(p) for p in problems]


def test_a_business_case_may_not_reuse_a_canned_outputs_id(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    path = tmp_path / "fixtures/outputs/refund_order.yaml"
    path.write_text(path.read_text("utf-8").replace("  - id: no_such_order\n", "  - id: valid\n", 1), "utf-8")
    assert [(p.path, p.message) for p in run_checks(tmp_path)] == [
        ("$.business_cases[1].id", "duplicate id 'valid' (also $.outputs[0])")]


def test_two_calls_of_one_response_may_not_share_an_id(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    path = tmp_path / "fixtures/scenarios/02-parallel-partial.yaml"
    path.write_text(path.read_text("utf-8").replace("{id: b, name: get_shipping,", "{id: a, name: get_shipping,", 1),
                    "utf-8")
    assert [(p.path, p.message) for p in run_checks(tmp_path)] == [("$.steps[0].model.calls[1].id", "duplicate id 'a'")]


def test_two_tools_of_a_scenario_may_not_share_a_name(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    path = tmp_path / "fixtures/scenarios/02-parallel-partial.yaml"
    path.write_text(path.read_text("utf-8").replace(
        "tools:\n  - name: get_shipping\n",
        "tools:\n  - name: get_shipping\n    description: x\n    input_schema: {type: object}\n  - name: get_shipping\n", 1),
        "utf-8")
    assert [(p.path, p.message) for p in run_checks(tmp_path)] == [("$.tools[1].name", "duplicate name 'get_shipping'")]
