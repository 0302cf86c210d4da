"""An outputs file's ``tool`` must be the tool of its file name: the playground judges outputs/<tool>.yaml
against the tool picked by that name, check judged them against the ``tool`` field. outputs/get_order.yaml
saying ``tool: refund_order`` (holding refund outputs) passed check while the playground flagged its valid outputs
as rejected. Cases: every course outputs file, pointed at another course tool."""

import shutil

import pytest

from toolcall import CONTENT_ROOT
from toolcall.check import check_outputs

OUTPUTS = sorted((CONTENT_ROOT / "fixtures" / "outputs").glob("*.yaml"))
TOOLS = sorted(p.stem for p in (CONTENT_ROOT / "fixtures" / "tools").glob("*.json"))


@pytest.mark.parametrize("path", OUTPUTS, ids=[p.stem for p in OUTPUTS])
def test_an_outputs_file_naming_another_tool_is_a_problem(tmp_path, path):
    shutil.copytree(CONTENT_ROOT / "fixtures", tmp_path / "fixtures")
    other = next(t for t in TOOLS if t != path.stem)
    copy = tmp_path / "fixtures" / "outputs" / path.name
    text = copy.read_text(encoding="utf-8")
    assert f"\ntool: {path.stem}\n" in text
    copy.write_text(text.replace(f"\ntool: {path.stem}\n", f"\ntool: {other}\n"), encoding="utf-8")
    found = [(p.file, p.path, p.message) for p in check_outputs(tmp_path) if p.file.endswith(path.name)]
    assert found == [(found[0][0], "$.tool", f"names the tool {other!r}, but the playground shows these outputs for "
                                              f"the tool of the file's name, {path.stem!r}")]
