"""No test measures time (DEVELOPERS.md: performance is measured by benchmarks under bench/, not by timed
tests). CI once failed on a CPU-time ratio that a loaded machine pushed past its bound. Scaling is tested
by counting work (tests/workcount.py); a clock in a test may only set a deadline for waiting.

The cases are every Python file under tests/, so a new test file is checked too."""

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
#: Clocks that only measure durations: reading one in a test means timing something.
DURATION_CLOCKS = {"perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "thread_time",
                   "thread_time_ns"}


def _clock_reads(path: Path, root: Path = TESTS.parent) -> list[str]:
    """"file:line: name" for each duration clock the file reads or imports, in ast.walk order."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name in DURATION_CLOCKS:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {name}")
        if isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [f"{path.relative_to(root)}:{node.lineno}: from time import {a.name}"
                      for a in node.names if a.name in DURATION_CLOCKS]
    return found


@pytest.mark.parametrize("path", sorted(TESTS.rglob("*.py")), ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_reads_a_duration_clock(path):
    assert _clock_reads(path) == []


def test_the_check_finds_a_timed_test(tmp_path):
    timed = tmp_path / "test_timed.py"
    timed.write_text("import time\nfrom time import process_time\nstart = time.perf_counter()\n")
    assert sorted(_clock_reads(timed, tmp_path)) == ["test_timed.py:2: from time import process_time",
                                                    "test_timed.py:3: perf_counter"]


def test_property_tests_are_neither_timed_nor_random():
    """Hypothesis's default gives each example a 200 ms deadline (a timing) and new random examples on every
    run (a CI run could fail by luck): tests/conftest.py loads a profile without either."""
    from hypothesis import settings
    assert settings.default.deadline is None and settings.default.derandomize is True
