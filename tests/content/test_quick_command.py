"""The README's quick test command is quick: tests that rerun a test suite in a subprocess carry the
``slow`` mark, the quick command leaves them out and CI (.ci/run) still runs them (newcomer session 6, item 4)."""

import ast
import re
from pathlib import Path

from toolcall import REPO_ROOT

QUICK = re.compile(r"python -m pytest tests/unit tests/content[^\n`]*")


def quick_command() -> str:
    found = QUICK.findall((REPO_ROOT / "README.md").read_text("utf-8"))
    assert found, "the README gives the quick test command"
    return found[0]


def test_the_quick_command_leaves_the_slow_tests_out():
    assert '-m "not slow"' in quick_command()


def test_ci_runs_the_slow_tests_too():
    calls = [line for line in (REPO_ROOT / ".ci" / "run").read_text("utf-8").splitlines()
             if "-m pytest" in line and not line.lstrip().startswith("#")]
    assert calls and not any(" -m " in line.split("-m pytest", 1)[1] for line in calls), calls
    assert "slow:" in (REPO_ROOT / "pytest.ini").read_text("utf-8")


def suite_reruns(path: Path) -> list[tuple[str, bool]]:
    """(test name, carries @pytest.mark.slow) for each test function in ``path`` that starts pytest
    in a subprocess (a ``"pytest"`` string among a call's arguments)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            runs_pytest = any(isinstance(c, ast.Constant) and c.value == "pytest" for c in ast.walk(node))
            slow = any(ast.unparse(d) == "pytest.mark.slow" for d in node.decorator_list)
            if runs_pytest:
                found.append((node.name, slow))
    return found


def test_every_test_that_reruns_pytest_is_marked_slow():
    reruns = [(str(path.relative_to(REPO_ROOT)), name, slow)
              for folder in ("unit", "content") for path in sorted((REPO_ROOT / "tests" / folder).glob("test_*.py"))
              for name, slow in suite_reruns(path)]
    assert reruns, "the instructor test reruns the suite against grown content"
    assert [r for r in reruns if not r[2]] == []
