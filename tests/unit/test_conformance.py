"""The official JSON-Schema-Test-Suite (draft 2020-12) through the playground's validate().

The suite is read from ``<repo>/../shared/JSON-Schema-Test-Suite`` (CI lays shared/ beside
its clone), or from $JSON_SCHEMA_TEST_SUITE. Absent, the tests skip with a message; under
CI (CI=true) they fail instead, so CI can never pass without running them.
"""

import os
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.conformance import UNSUPPORTED_FORMATS, format_name, remotes_registry, run_file, suite_files

SUITE = Path(os.environ.get("JSON_SCHEMA_TEST_SUITE", REPO_ROOT.parent / "shared" / "JSON-Schema-Test-Suite"))
PRESENT = (SUITE / "tests" / "draft2020-12").is_dir()

if not PRESENT:
    if os.environ.get("CI") == "true":
        pytest.fail(f"JSON-Schema-Test-Suite not found at {SUITE}: CI requires it", pytrace=False)
    pytest.skip(f"JSON-Schema-Test-Suite not found at {SUITE} (set JSON_SCHEMA_TEST_SUITE)", allow_module_level=True)

FILES = list(suite_files(SUITE))
REGISTRY = remotes_registry(SUITE)


def _id(item):
    group, path = item
    return f"{group}:{path.name}"


@pytest.mark.parametrize("item", FILES, ids=_id)
def test_suite_file(item):
    group, path = item
    result = run_file(group, path, REGISTRY, SUITE)
    name = format_name(result)
    if name in UNSUPPORTED_FORMATS:
        # Reported in the README's format table; the check itself belongs to jsonschema's extras.
        assert result.passed > 0, f"{name}: no test passes at all: the format checker is missing"
        pytest.skip(f"format {name} is partly checked: {UNSUPPORTED_FORMATS[name]} "
                    f"({result.passed}/{result.total})")
    assert result.failures == [] and result.total > 0, "\n".join(f"{f.case} / {f.test}" for f in result.failures)


def test_the_suite_has_the_files_the_readme_counts():
    groups = [group for group, _ in FILES]
    assert groups.count("ecmascript-regex") == 1
    assert groups.count("required") >= 45 and groups.count("format") >= 20


def test_cli_prints_the_tables_quoted_in_the_readme(capsys):
    from toolcall.cli import main

    assert main(["conformance", str(SUITE)]) == 0
    out = capsys.readouterr().out
    totals = [line for line in out.splitlines() if line.startswith("| **all ")]
    assert totals[0].startswith("| **all required** | |") and totals[0].endswith("(100.0 %) |")
    assert totals[1].startswith("| **all ecmascript-regex** | |") and totals[1].endswith("(100.0 %) |")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert all(line in readme for line in totals), "README's conformance table is out of date"


def test_cli_refuses_a_folder_that_is_not_the_suite(tmp_path, capsys):
    from toolcall.cli import main

    assert main(["conformance", str(tmp_path)]) == 2
    assert "no tests/draft2020-12 folder" in capsys.readouterr().err
