"""Two entries of a list the app orders by ``order`` may not share one: two lessons (in every language) or two
harness scenarios with the same ``order`` passed `check`, and which came first then followed the file names,
not the course. The sweep covers every content schema with an ``order`` member."""

import json
import re
import shutil
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.check import run_checks
from toolcall.i18n import LANGS


@pytest.fixture
def content(tmp_path: Path) -> Path:
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    return tmp_path


def _set_order(path: Path, order: int) -> None:
    text = path.read_text("utf-8")
    new, count = re.subn(r"(?m)^order: \d+$", f"order: {order}", text, count=1)
    assert count == 1
    path.write_text(new, "utf-8")


def test_two_lessons_with_one_order(content):
    for lang in LANGS:
        _set_order(content / "lessons" / lang / "03-tool-definition.md", 4)
    assert [str(p) for p in run_checks(content)] == [
        "lessons/en/04-descriptions-are-prompts.md: $.order: 4 is also the order of lessons/en/03-tool-definition.md: "
        "give each its own place in the list"]


def test_two_scenarios_with_one_order(content):
    _set_order(content / "fixtures/scenarios/03-stop-reasons.yaml", 2)
    assert [(Path(p.file).name, p.path, p.message.split(" of ")[0]) for p in run_checks(content)] == [
        ("03-stop-reasons.yaml", "$.order", "2 is also the order")]


#: Each content kind whose schema has an ``order`` member: (schema, files of that kind, as a glob).
ORDERED = {"lesson.schema.json": "lessons/*/*.md", "scenario.schema.json": "fixtures/scenarios/*.yaml"}


def test_every_ordered_kind_is_swept():
    with_order = sorted(p.name for p in (REPO_ROOT / "fixtures" / "schemas").glob("*.schema.json")
                        if "order" in json.loads(p.read_text("utf-8")).get("properties", {}))
    assert with_order == sorted(ORDERED)


@pytest.mark.parametrize("schema", sorted(ORDERED))
def test_a_shared_order_is_reported_for_every_ordered_kind(content, schema):
    files = sorted(content.glob(ORDERED[schema]))
    first = re.search(r"(?m)^order: (\d+)$", files[0].read_text("utf-8")).group(1)
    for path in files[1:]:  # every other file of the kind (each language's twin too) takes the first one's order
        if path.name != files[0].name:
            _set_order(path, int(first))
    assert any(p.path == "$.order" and "is also the order of" in p.message for p in run_checks(content))
