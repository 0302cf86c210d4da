"""An instructor's content root holds its own fixtures/schemas/*.schema.json; each one broken (missing, not
JSON, nested too deep, a FIFO, valid JSON that is no JSON Schema) makes every file it checks "cannot be
checked: <schema file>: <reason>", never a traceback: the exercise schema was read with Path.read_text (a
FileNotFoundError traceback when missing) and ``{"type": 5}`` in any schema raised TypeError inside the
validator. Cases: every schema file of the repository (a new kind is covered) under each defect."""

import os
import shutil
import subprocess
import sys

import pytest

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.fixtures import SchemaFileError, content_schema

SCHEMAS = sorted(p.name for p in (CONTENT_ROOT / "fixtures" / "schemas").glob("*.schema.json"))
#: Read by toolcall.eval_import's own checks (a test holds the two together), not by check.
NOT_READ_BY_CHECK = {"eval_runs.schema.json"}

DEFECTS = {
    "missing": ("no such file", None),
    "not_json": ("not JSON: ", '{"type": "object"'),
    "too_deep": ("not JSON: nested too deep to read", "[" * 100_000 + "]" * 100_000),
    "fifo": ("a FIFO (named pipe), not a regular file", None),
    "not_a_schema": ("not a valid JSON Schema: /type: ", '{"type": 5}'),
    "bad_keyword": ("not a valid JSON Schema: /properties: ", '{"properties": []}'),
}


def _break(path, defect: str) -> None:
    path.unlink()
    if defect == "fifo":
        os.mkfifo(path)
    elif DEFECTS[defect][1] is not None:
        path.write_text(DEFECTS[defect][1], encoding="utf-8")


@pytest.mark.parametrize("defect", DEFECTS)
def test_a_broken_schema_file_is_one_sentence(tmp_path, defect):
    path = tmp_path / "x.schema.json"
    path.write_text("{}", encoding="utf-8")
    _break(path, defect)
    with pytest.raises(SchemaFileError) as exc:
        content_schema(path)
    assert str(exc.value).startswith(DEFECTS[defect][0])


@pytest.mark.parametrize("defect", ["missing", "not_a_schema", "too_deep"])
def test_check_names_each_broken_schema_file_and_exits_1(tmp_path, defect):
    root = tmp_path / "content"
    shutil.copytree(CONTENT_ROOT / "fixtures", root / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", root / "lessons")
    for name in SCHEMAS:
        _break(root / "fixtures" / "schemas" / name, defect)
    run = subprocess.run([sys.executable, "-m", "toolcall", "check"], capture_output=True, text=True, cwd=REPO_ROOT,
                         timeout=300, env={**os.environ, "TOOLCALL_CONTENT_ROOT": str(root)}, stdin=subprocess.DEVNULL)
    assert (run.returncode, "Traceback" in run.stderr) == (1, False), run.stderr[-2000:]
    for name in set(SCHEMAS) - NOT_READ_BY_CHECK:
        assert f"cannot be checked: fixtures/schemas/{name}: {DEFECTS[defect][0]}" in run.stdout, name


def test_the_course_schemas_are_valid():
    for name in SCHEMAS:
        content_schema(CONTENT_ROOT / "fixtures" / "schemas" / name)
