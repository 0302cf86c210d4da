"""Rough edges a new user hit (issue 14): the check's messages, exports and the command line."""

import csv
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import pytest
import yaml

from toolcall import CONTENT_ROOT, REPO_ROOT
from toolcall.check import run_checks, unknown_keyword
from toolcall.cli import strip_shell_newline
from toolcall.exercises import load_exercises
from toolcall.progress import EXPORT_FIELDS, export_rows, to_csv_bytes, to_json

PY = sys.executable


def _run(*args, stdin=None, shell=None):
    if shell:
        return subprocess.run(shell, shell=True, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
                              executable="/bin/bash")
    return subprocess.run([PY, "-m", "toolcall", *args], input=stdin, capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=120)


@pytest.fixture
def content(tmp_path):
    shutil.copytree(CONTENT_ROOT / "fixtures", tmp_path / "fixtures")
    shutil.copytree(CONTENT_ROOT / "lessons", tmp_path / "lessons")
    return tmp_path


# --- toolcall check: one problem once, at its root --------------------------------------------

def test_a_typo_in_expected_is_reported_once_at_its_root(content):
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    path.write_text(path.read_text("utf-8").replace("expected: accepted", "expected: acepted", 1), "utf-8")
    problems = [str(p).replace(str(content) + "/", "") for p in run_checks(content)]
    assert problems == ["fixtures/outputs/refund_order.yaml: $.outputs[0].expected: "
                        "'acepted' is not one of ['accepted', 'rejected']"]


def test_a_misspelled_catches_keyword_gets_did_you_mean(content):
    path = content / "fixtures" / "outputs" / "refund_order.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    index = [o["catches"] for o in data["outputs"]].index("required")
    path.write_text(path.read_text("utf-8").replace("catches: required", "catches: minimun", 1), "utf-8")
    problems = [str(p).replace(str(content) + "/", "") for p in run_checks(content)]
    assert problems == [f"fixtures/outputs/refund_order.yaml: $.outputs[{index}].catches: 'minimun' is not a keyword "
                        "that can reject an output: did you mean minimum?"]
    assert unknown_keyword("additionalProperty").endswith("did you mean additionalProperties?")
    assert "expected one of INVALID_JSON, type" in unknown_keyword("zzz")


def test_a_duplicate_id_is_blamed_on_the_file_that_introduced_it(content):
    """An instructor adds aa_new.yaml (first in name order) reusing an existing id: the new file is
    blamed, not the file that had the id first."""
    folder = content / "fixtures" / "exercises"
    victim = sorted(folder.glob("*.yaml"))[-1]
    first = yaml.safe_load(victim.read_text("utf-8"))["exercises"][0]
    old = time.time() - 3600
    for path in folder.glob("*.yaml"):
        os.utime(path, (old, old))
    (folder / "aa_new.yaml").write_text(yaml.safe_dump({"schema_version": 1, "exercises": [first]},
                                                       allow_unicode=True), "utf-8")
    loaded = load_exercises(folder)
    blamed = [(p.file.rsplit("/", 1)[-1], p.path) for p in loaded.problems]
    assert blamed == [("aa_new.yaml", "$.exercises[0].id")]
    assert f"(first in {loaded.by_id()[first['id']].file})" in loaded.problems[0].message


# --- exports ------------------------------------------------------------------------------------

def test_progress_csv_is_utf8_with_bom_and_writes_booleans_as_the_json_export_does():
    exercises = load_exercises().exercises
    rows = export_rows("alice", exercises, {}, "zh")
    data = to_csv_bytes(rows)
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads the file as UTF-8 only with the BOM
    parsed = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert list(parsed[0]) == list(EXPORT_FIELDS)
    assert [r["title"] for r in parsed] == [ex.title["zh"] for ex in exercises]
    assert {r["revealed"] for r in parsed} == {"false"}
    assert {r["revealed"] for r in __import__("json").loads(to_json("alice", rows))["exercises"]} == {False}


# --- the command line ---------------------------------------------------------------------------

def test_one_trailing_shell_newline_is_stripped_and_only_one():
    assert strip_shell_newline('{"rea\n') == '{"rea'
    assert strip_shell_newline('{"rea\r\n') == '{"rea'
    assert strip_shell_newline('{"a": 1}\n\n') == '{"a": 1}\n'
    assert strip_shell_newline('{"rea') == '{"rea'


def test_echo_and_printf_give_the_same_unterminated_string():
    tool = "fixtures/tools/refund_order.json"
    with_echo = _run(shell=f"echo '{{\"rea' | {shlex.quote(PY)} -m toolcall result --tool {tool} --input -")
    with_printf = _run(shell=f"printf '{{\"rea' | {shlex.quote(PY)} -m toolcall result --tool {tool} --input -")
    assert with_echo.returncode == 0 and with_echo.stdout == with_printf.stdout
    assert "Unterminated string" in with_echo.stdout


def test_piping_into_head_ends_quietly():
    """The reader is gone before the first write (``true`` exits at once; ``head`` does the same
    once it has its lines): no traceback, exit 141 (128 + SIGPIPE, as a shell reports for a program the signal
    ended: the output was cut, so `set -o pipefail` must not see success; it was 0, cli9)."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the command starts: its first write fails, every time
    try:
        run = subprocess.run([PY, "-m", "toolcall", "eval", "fixtures/eval_runs/shop_vague.en.jsonl", "--k", "3",
                              "--out", "json"], stdout=write, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
                             timeout=120)
    finally:
        os.close(write)
    assert (run.returncode, run.stderr) == (141, "")


def test_help_names_only_files_that_exist():
    texts = [_run("--help").stdout] + [_run(cmd, "--help").stdout for cmd in
                                       ("result", "check", "grade", "passk", "pairing", "strict", "eval")]
    named = set()
    for text in texts:
        named |= set(re.findall(r"[\w./*-]+\.(?:md|ya?ml|json|jsonl|py)\b", " ".join(text.split())))
    assert named, "the help names no file at all"
    for name in named:
        assert list(REPO_ROOT.glob(name)), f"--help names {name}, which does not exist"


def test_the_readme_grade_example_is_a_correct_answer():
    readme = (REPO_ROOT / "README.md").read_text("utf-8")
    line = next(x for x in readme.splitlines() if x.startswith("python -m toolcall grade ")).split("#")[0]
    assert "[" in line, "the line no longer shows its optional --exercises: this test runs it both ways"
    without = re.sub(r"\[[^\]]*\]", "", line)  # optional parts in [...] left out, then written in
    written = line.replace("[", "").replace("]", "")
    for form in (without, written):
        run = _run(*shlex.split(form)[3:])
        assert run.returncode == 0, (form, run.stderr)
        assert __import__("json").loads(run.stdout)["correct"] is True
