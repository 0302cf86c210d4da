"""``python -m toolcall conformance SUITE_DIR`` quotes the suite's file names and test descriptions on one line each,
escaped and cut (issue 13, kinds: a name quoted in a message never prints a line of its own; a long name quoted whole
floods the output; break-it pass brk17fresh).

Before: the FAIL lines printed each case's and test's description raw, so a test described as "t⏎ALL OK" printed
"ALL OK" as a line of its own, and a description of 100 000 characters was printed whole; the tables printed a suite
file named "n⏎FAKE.json" across two lines. Now each goes through toolcall.conformance.shown: escape_line, then at most
200 characters as drawn, "…" after a cut."""

import json

from toolcall.cli import main
from toolcall.text import HIDDEN


def _suite(tmp_path, cases, name="a.json"):
    base = tmp_path / "tests" / "draft2020-12"
    (base / "optional").mkdir(parents=True)
    (base / "optional" / "ecmascript-regex.json").write_text("[]")
    (base / name).write_text(json.dumps(cases))
    return tmp_path


def _failing(case: str, test: str) -> list[dict]:  # "x" is no integer: valid: true is a test the validator fails
    return [{"description": case, "schema": {"type": "integer"}, "tests": [{"description": test, "data": "x",
                                                                               "valid": True}]}]


def test_a_description_with_line_ends_stays_on_its_fail_line(tmp_path, capsys):
    suite = _suite(tmp_path, _failing("evil\ncase\x1b[31m", "t\nALL OK\u202e"))
    assert main(["conformance", str(suite)]) == 0
    err = capsys.readouterr().err
    assert err == "FAIL a.json: evil\\u000acase\\u001b[31m / t\\u000aALL OK\\u202e\n"


def test_a_long_description_is_cut_at_200_characters(tmp_path, capsys):
    suite = _suite(tmp_path, _failing("c" * 100_000, "\u200b" * 1_000))
    assert main(["conformance", str(suite)]) == 0
    err = capsys.readouterr().err
    zero_width = "\\u200b" * 33
    assert err == f"FAIL a.json: {'c' * 200}… / {zero_width}…\n"  # was 106 017 characters
    assert len(err) == 417


def test_a_file_name_with_a_line_end_is_one_table_row(tmp_path, capsys):
    suite = _suite(tmp_path, [], name="n\nFAKE.json")
    assert main(["conformance", str(suite)]) == 0
    out = capsys.readouterr().out
    assert "| n\\u000aFAKE.json | required | 0 | 0 |" in out.splitlines()
    assert "FAKE.json | required" not in out.replace("n\\u000aFAKE.json", "")


def test_whatever_a_description_holds_its_line_is_one_bounded_line():
    """The next member: any character, any length, in any part of a FAIL line."""
    from toolcall.conformance import MAX_SHOWN_CHARS, CaseResult, failure_line, shown

    hostile = "".join(sorted(HIDDEN | {"\n", "\r", "\t"})) * 3
    line = failure_line(CaseResult(hostile, "required", hostile, hostile, False))
    assert not set(line) & (HIDDEN | {"\n", "\r", "\t"})
    assert len(line) <= len("FAIL : / ") + 3 * (MAX_SHOWN_CHARS + 1)
    assert shown("plain.json") == "plain.json"
