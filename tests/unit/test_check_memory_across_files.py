"""``check`` holds a bounded amount of parsed content however many files it reads.

Before (break-it pass brk16cli): the run memo (one_read_per_run, which reads each file once per run) kept every
parsed file until the run ended, so memory grew with the number of files: 16 tool files of 1.19 MB took `check` to
278 MB peak RSS (157 MB after), 61 files of 1.9 MB to 785 MB (116 MB after). It now keeps at most RUN_MEMO_BYTES of
files, least recently used first out."""

import json
import subprocess
import sys

import pytest

import toolcall.fixtures as fixtures
from tests.content_copy import copy_content, problem_set
from toolcall import REPO_ROOT
from toolcall.fixtures import one_read_per_run, read_data


def _files(folder, count: int, size: int) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"f{i}.json"
        path.write_text(json.dumps({"i": i, "pad": "x" * (size - 20)}), encoding="utf-8")
        paths.append(path)
    return paths


def test_the_memo_keeps_at_most_its_budget_newest_first(tmp_path, monkeypatch):
    paths = _files(tmp_path, 10, 1000)
    sizes = {str(p): p.stat().st_size for p in paths}
    monkeypatch.setattr(fixtures, "RUN_MEMO_BYTES", 3 * (max(sizes.values()) + fixtures.RUN_MEMO_ENTRY_BYTES))
    parsed = []
    real = fixtures._read_data
    monkeypatch.setattr(fixtures, "_read_data", lambda path: parsed.append(path.name) or real(path))
    with one_read_per_run():
        for path in paths:
            assert read_data(path)["i"] == int(path.stem[1:])
        memo = fixtures._RUN_MEMO.get()
        assert list(memo) == [str(p) for p in paths[-3:]]
        read_data(paths[-1])  # kept: not parsed again
        read_data(paths[0])  # let go: parsed again, and the least recently used goes
        assert list(memo) == [str(paths[-2]), str(paths[-1]), str(paths[0])]
    assert parsed == [p.name for p in paths] + ["f0.json"]


def test_small_files_are_charged_their_entry_and_the_total_is_kept_not_summed(tmp_path):
    """Charged its size alone, an empty or 3-byte file cost nothing: the memo kept all 10 000 such files, and summed
    every weight again on each file read, so 16 000 files of 8 bytes took read_data 18 s in one run against 2 s
    without the memo (break-it pass brk17new). Each file is now charged RUN_MEMO_ENTRY_BYTES more, and the memo
    keeps its total as files come and go."""
    assert (fixtures.RUN_MEMO_BYTES, fixtures.RUN_MEMO_ENTRY_BYTES) == (4_000_000, 1_000)
    folder = tmp_path / "small"
    folder.mkdir()
    paths = [folder / f"f{i}.json" for i in range(10_000)]
    for path in paths:
        path.write_text("{}\n", encoding="utf-8")
    with one_read_per_run():
        for path in paths:
            assert read_data(path) == {}
        memo = fixtures._RUN_MEMO.get()
        assert len(memo) == 4_000_000 // 1_003 == 3_988
        assert list(memo)[0] == str(paths[10_000 - 3_988])
        assert memo.total == sum(weight for _, weight in memo.values()) == 3_988 * 1_003
        read_data(paths[0])  # let go: read again, and the total still adds up
        assert memo.total == sum(weight for _, weight in memo.values()) <= fixtures.RUN_MEMO_BYTES


def test_a_file_over_the_budget_is_still_kept_while_used(tmp_path, monkeypatch):
    (path,) = _files(tmp_path, 1, 5000)
    monkeypatch.setattr(fixtures, "RUN_MEMO_BYTES", 100)
    with one_read_per_run():
        assert read_data(path)["i"] == 0 and list(fixtures._RUN_MEMO.get()) == [str(path)]


def test_check_finds_the_same_problems_with_a_memo_that_keeps_one_file(tmp_path, monkeypatch):
    """The next member of the kind is a checker that relies on what the memo keeps: with room for one file,
    every problem of a broken copy is found all the same."""
    root = copy_content(tmp_path)
    tool = root / "fixtures" / "tools" / "get_order.json"
    tool.write_text(tool.read_text(encoding="utf-8").replace('"get_order"', '"get_orders"', 1), encoding="utf-8")
    whole = problem_set(root)
    monkeypatch.setattr(fixtures, "RUN_MEMO_BYTES", 1)
    assert problem_set(root) == whole and whole


_PEAK = """
import resource, sys
from pathlib import Path
from toolcall.check import run_checks
problems = run_checks(Path(sys.argv[1]))
print(len(problems), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_kb(root) -> tuple[int, int]:
    run = subprocess.run([sys.executable, "-c", _PEAK, str(root)], capture_output=True, text=True, cwd=REPO_ROOT,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    count, peak = map(int, run.stdout.split())
    return count, peak


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KB on Linux")
def test_peak_memory_does_not_grow_with_the_number_of_big_files(tmp_path):
    tool = json.loads((REPO_ROOT / "fixtures" / "tools" / "get_order.json").read_text(encoding="utf-8"))
    tool.pop("x-i18n", None)
    tool["input_schema"] = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(40_000)}}
    peaks = {}
    for count in (3, 12):
        root = copy_content(tmp_path / str(count))
        for i in range(count):
            (root / "fixtures" / "tools" / f"big{i}.json").write_text(json.dumps({**tool, "name": f"big{i}"}),
                                                                     encoding="utf-8")
        problems, peaks[count] = _peak_kb(root)
        assert problems == count  # each is refused for its schema's size, after being read and walked whole
    # before: 12 files held 9 × 7.5 MB more than 3 (about 67 MB); now the memo holds at most RUN_MEMO_BYTES of files
    assert peaks[12] - peaks[3] < 25_000, peaks
