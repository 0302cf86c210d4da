"""``grade`` reads at most GRADE_READ_BUDGET (check's budget: files and bytes) of its exercise folder: each file was
held to its own cap, but every file of the folder was read, however many (3 000 copies of one exercise file took
53 s). Past the budget it stops, names the file it stopped at, and grades nothing (exit 2)."""

import shutil

import toolcall.cli as cli
from toolcall import REPO_ROOT
from toolcall.check import MAX_CHECK_BYTES, MAX_CHECK_FILES
from toolcall.cli import main
from toolcall.exercises import SCHEMA_PATH
from toolcall.fixtures import content_schema

PASSK = REPO_ROOT / "fixtures" / "exercises" / "passk_lab.yaml"


def test_the_budget_is_checks():
    assert cli.GRADE_READ_BUDGET == (MAX_CHECK_FILES, MAX_CHECK_BYTES)


def test_grade_stops_at_the_budget_and_names_the_file(tmp_path, monkeypatch, capsys):
    for name in ("a", "b", "c", "d"):
        shutil.copy(PASSK, tmp_path / f"{name}.yaml")
    content_schema(SCHEMA_PATH)  # read now (it is kept): the budget is the exercise files' alone
    monkeypatch.setattr(cli, "GRADE_READ_BUDGET", (2, 10 ** 9))  # a.yaml, b.yaml
    assert main(["grade", "pk_pass3", "56/120", "--exercises", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"{tmp_path / 'c.yaml'}: grade stopped here: the exercise files pass what one run reads "
                            "(2 files, 1,000,000,000 bytes), so nothing was graded; give --exercises a folder of the "
                            "course's exercise files only\n")


def test_grade_stops_at_the_byte_budget(tmp_path, monkeypatch, capsys):
    shutil.copy(PASSK, tmp_path / "a.yaml")
    shutil.copy(PASSK, tmp_path / "b.yaml")
    content_schema(SCHEMA_PATH)
    monkeypatch.setattr(cli, "GRADE_READ_BUDGET", (100, 2 * PASSK.stat().st_size - 1))
    assert main(["grade", "pk_pass3", "56/120", "--exercises", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'b.yaml'}: grade stopped here: the exercise files pass "
                                              f"what one run reads (100 files, {2 * PASSK.stat().st_size - 1:,} "
                                              "bytes)")


def test_grade_within_the_budget_grades(tmp_path, capsys):
    shutil.copy(PASSK, tmp_path / "a.yaml")
    assert main(["grade", "pk_pass3", "56/120", "--exercises", str(tmp_path)]) == 0
    assert '"correct": true' in capsys.readouterr().out
