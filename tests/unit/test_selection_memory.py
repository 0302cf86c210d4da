"""The selection editor's expected_arguments cells are bounded in JSON lists and objects over the whole table,
not only in characters per cell (issue 13, memory kind).

Before: 500 rows of 20 000 characters of ``[]`` (10 MB pasted into the editor, each cell under its cap) kept
229 MB of lists on every rerun of the page. Now the table's cells may hold MAX_ARGUMENT_VALUES lists and objects
in all; the row that crosses it is one problem and is kept with no arguments.
"""

import json
import subprocess
import sys
import textwrap

from toolcall import REPO_ROOT
from toolcall.selection import MAX_ARGUMENT_VALUES, MAX_ARGUMENTS_CHARS, SetProblem, from_rows

CELL = '{"a":[' + ",".join(["[]"] * ((MAX_ARGUMENTS_CHARS - 10) // 3)) + ']}'


def _rows(n: int, cell: str = CELL) -> list[dict]:
    return [{"id": f"c{i}", "request": "r", "expected_tool": "get_order", "expected_arguments": cell,
             "should_not_call": ""} for i in range(n)]


def test_the_row_that_crosses_the_tables_value_budget_is_one_problem():
    per_cell = CELL.count("[") + CELL.count("{")
    first_refused = MAX_ARGUMENT_VALUES // per_cell  # 0-based: the row whose values cross the budget
    cases, problems = from_rows(_rows(first_refused + 3))
    assert [p.case for p in problems] == [f"c{i}" for i in range(first_refused, first_refused + 3)]
    assert problems[0] == SetProblem("too_many_argument_values", f"c{first_refused}",
                                     {"case": f"c{first_refused}", "limit": MAX_ARGUMENT_VALUES})
    assert problems[0].message("en") == (f"c{first_refused}: the expected arguments of the table hold more than "
                                         "20,000 JSON lists and objects up to this row; this row's are not read.")
    assert problems[0].message("zh") == (f"c{first_refused}：表里到这一行为止的期望参数超过 20,000 个 JSON 列表和对象，"
                                         "这一行的不再读取。")
    assert [bool(c.expected_arguments) for c in cases] == [True] * first_refused + [False] * 3


def test_a_table_of_small_arguments_is_read_whole():
    cases, problems = from_rows(_rows(500, json.dumps({"order_id": ["ORD-20260917", "ORD-20261102"]})))
    assert problems == [] and len(cases) == 500


SCRIPT = textwrap.dedent("""
    import json, resource, sys
    sys.path.insert(0, {root!r})
    from toolcall.selection import MAX_ARGUMENTS_CHARS, from_rows
    cell = '{{"a":[' + ",".join(["[]"] * ((MAX_ARGUMENTS_CHARS - 10) // 3)) + ']}}'
    rows = [{{"id": f"c{{i}}", "expected_tool": "get_order", "expected_arguments": cell}} for i in range(500)]
    from_rows(rows[:1])
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cases, problems = from_rows(rows)
    print(json.dumps([len(problems), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base]))
""")


def test_a_flooded_table_is_read_in_bounded_memory():
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(REPO_ROOT))], capture_output=True,
                          text=True, timeout=300, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    problems, growth_kb = json.loads(proc.stdout)
    assert problems == 497  # one cell holds 6 664 lists and objects: three rows fit in 20 000
    assert growth_kb < 20 * 1024, growth_kb  # was 229 MB
