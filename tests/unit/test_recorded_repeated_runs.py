"""A recorded run log (fixtures/eval_runs/*.jsonl) holding one (case, run) twice is named by check with the line
and path (break-it pass brk16content): two lines pasted again passed check, and the selection lab counted them,
12 runs of so_lamp instead of 10. A hidden character in a text the lab shows is named too."""

import json
import shutil
from pathlib import Path

import pytest

from toolcall import REPO_ROOT
from toolcall.check import run_checks
from toolcall.eval_import import read_recorded
from toolcall.fixtures import FixtureError

LOG = "fixtures/eval_runs/shop_good.en.jsonl"


def _log_with_lines_again(tmp_path: Path, again: slice) -> Path:
    path = tmp_path / "shop_good.en.jsonl"
    lines = (REPO_ROOT / LOG).read_text("utf-8").splitlines()
    path.write_text("\n".join(lines + lines[again]) + "\n", "utf-8")
    return path


def test_a_run_written_twice_is_named_at_its_second_line(tmp_path):
    path = _log_with_lines_again(tmp_path, slice(1, 3))
    with pytest.raises(FixtureError) as caught:
        read_recorded(path)
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("line 311: $.run", "run 2 of case 'so_lamp' is also line 2: each run is counted once"),
        ("line 312: $.run", "run 3 of case 'so_lamp' is also line 3: each run is counted once")]


def test_check_names_it_and_the_shipped_logs_have_each_run_once(tmp_path):
    for part in ("fixtures", "lessons"):
        shutil.copytree(REPO_ROOT / part, tmp_path / part)
    assert run_checks(tmp_path) == []
    shutil.copy(_log_with_lines_again(tmp_path, slice(5, 6)), tmp_path / LOG)
    assert [(p.file.endswith(LOG), p.path, p.message) for p in run_checks(tmp_path)] == [
        (True, "line 311: $.run", "run 6 of case 'so_lamp' is also line 6: each run is counted once")]


def test_the_problems_are_capped(tmp_path):
    from toolcall.eval_import import MAX_PROBLEMS

    path = tmp_path / "shop_good.en.jsonl"
    first, second = (REPO_ROOT / LOG).read_text("utf-8").splitlines()[:2]
    path.write_text("\n".join([first] + [second] * (MAX_PROBLEMS + 50)) + "\n", "utf-8")
    with pytest.raises(FixtureError) as caught:
        read_recorded(path)
    assert len(caught.value.problems) == MAX_PROBLEMS


def test_a_hidden_character_in_a_text_the_lab_shows_is_named(tmp_path):
    """The first line's tool descriptions and every request are shown to students: a zero-width space or a direction
    override in them passed check (every other instructor file names them)."""
    lines = (REPO_ROOT / LOG).read_text("utf-8").splitlines()
    rec = json.loads(lines[0])
    rec["tools"][0]["description"] = "List\u200b the customer's orders."
    rec["request"] = "Find my lamp\u202e please"
    path = tmp_path / "shop_good.en.jsonl"
    path.write_text("\n".join([json.dumps(rec, ensure_ascii=False), *lines[1:]]) + "\n", "utf-8")
    with pytest.raises(FixtureError) as caught:
        read_recorded(path)
    why = ": a character the page shows as nothing or that reorders the text around it (pasted from a document?); " \
          "delete it"
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("line 1: $.request", "holds \\u202e" + why), ("line 1: $.tools[0].description", "holds \\u200b" + why)]


def test_a_repeated_run_s_case_id_is_cut_as_drawn(tmp_path):
    """The case id was quoted whole with its look-alikes escaped: a 200-character id of tag characters (each drawn as
    12) made a 2 400-character line per repeated run (break-it pass brk19new). Cut at 40 as drawn, as check's lists."""
    case = "c" + "\U000e0041" * 199
    first = json.loads((REPO_ROOT / LOG).read_text("utf-8").splitlines()[0])  # it lists the tools
    line = json.dumps({**first, "case_id": case}, ensure_ascii=False)
    path = tmp_path / "shop_good.en.jsonl"
    path.write_text(line + "\n" + line + "\n", "utf-8")
    with pytest.raises(FixtureError) as caught:
        read_recorded(path)
    assert [(p.path, p.message) for p in caught.value.problems if p.path.endswith("$.run")] == [
        ("line 2: $.run", "run 1 of case 'c" + "\\udb40\\udc41" * 3 + "…' is also line 1: each run is counted once")]
