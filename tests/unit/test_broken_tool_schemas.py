"""A course tool whose input_schema is no JSON Schema ({"type": -1} or a list in place of a property's schema:
tool.schema.json only asks for an object) is one problem of the tool file, in every language, for check, the
command line and every loader (fixtures.load_tool); before, each validation against it raised TypeError /
AttributeError: check's selection and walkthrough checks, `result --tool`. A walkthrough listing a tool that
cannot be loaded raised KeyError building its requests. Cases: every property of every course tool."""

import json
import shutil

import pytest

from toolcall import CONTENT_ROOT
from toolcall.check import run_checks
from toolcall.cli import main
from toolcall.fixtures import FixtureError, load_tool

TOOLS = sorted((CONTENT_ROOT / "fixtures" / "tools").glob("*.json"))
BREAKS = {"type": lambda schema: {**schema, "type": -1}, "list": lambda schema: []}


def _broken_copy(root, how):
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    broken = {}
    for path in TOOLS:
        tool = json.loads(path.read_text(encoding="utf-8"))
        props = tool["input_schema"].get("properties") or {}
        if props:
            name = sorted(props)[0]
            props[name] = BREAKS[how](props[name])
            broken[path.name] = name
            (root / "fixtures" / "tools" / path.name).write_text(json.dumps(tool), encoding="utf-8")
    return broken


@pytest.mark.parametrize("how", BREAKS)
def test_check_names_each_broken_tool_and_nothing_raises(tmp_path, how):
    broken = _broken_copy(tmp_path, how)
    problems = run_checks(tmp_path)  # no TypeError / AttributeError / KeyError
    for file, prop in broken.items():
        mine = [p for p in problems if p.file.endswith(f"fixtures/tools/{file}")]
        assert any(p.path.startswith(f"$.input_schema.properties.{prop}") for p in mine), (file, mine)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", TOOLS, ids=[p.stem for p in TOOLS])
def test_load_tool_and_result_refuse_it_with_its_path(tmp_path, capsys, path, lang):
    tool = json.loads(path.read_text(encoding="utf-8"))
    props = tool["input_schema"].get("properties") or {}
    if not props:
        pytest.skip("no property to break")
    name = sorted(props)[0]
    props[name] = {**props[name], "type": -1}
    broken = tmp_path / path.name
    broken.write_text(json.dumps(tool), encoding="utf-8")
    with pytest.raises(FixtureError) as exc:
        load_tool(broken, lang)
    assert [p.path for p in exc.value.problems] == [f"$.input_schema.properties.{name}.type"]
    assert main(["result", "--tool", str(broken), "--input", "{}", "--lang", lang]) == 2
    assert capsys.readouterr().err.startswith(f"{broken}: $.input_schema.properties.{name}.type: ")
