"""`python -m toolcall grade EXERCISE_ID ANSWER`: the grade as JSON, exit 2 on bad input."""

import json
import subprocess
import sys

from toolcall import REPO_ROOT
from toolcall.cli import main


def test_grade_prints_json(capsys):
    assert main(["grade", "pk_pass3", "56/120"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["score"], out["max_score"], out["correct"]) == (1, 1, True)


def test_known_wrong_answer_exits_zero_with_feedback(capsys):
    assert main(["grade", "pk_pass3", "0.512"]) == 0
    assert json.loads(capsys.readouterr().out)["feedback"][0]["en"].startswith("That is the plug-in (c/n)^k")


def test_unknown_id_and_malformed_answer_exit_2(capsys):
    assert main(["grade", "no_such", "1"]) == 2
    assert "unknown exercise id 'no_such'" in capsys.readouterr().err
    assert main(["grade", "wt_order", "send, run"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["malformed"] is True
    assert "malformed answer for exercise wt_order (order)" in captured.err


def test_module_entry_point_reads_stdin():
    answer = json.dumps({"role": "user", "content": []})
    done = subprocess.run([sys.executable, "-m", "toolcall", "grade", "wt_parallel_results", "-"], input=answer,
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["feedback"][0]["en"] == "/content: expected at least 2 items; received array []."


def test_check_passes_on_the_repo():
    done = subprocess.run([sys.executable, "-m", "toolcall", "check"], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "all content checks passed")


def test_an_unknown_id_is_shown_escaped_and_cut_with_at_most_a_dozen_known_ids(capsys):
    """`grade` echoed a 100 000-character id whole, listed every known id (21 shipped; any number in an instructor's
    folder), and ``pk_pаss3`` with a Cyrillic а read the same as the ``pk_pass3`` it listed (issue 13, round 6)."""
    from toolcall.exercises import load_exercises

    known = sorted(load_exercises(None).by_id())
    assert len(known) > 12 and "pk_pass3" in known
    rest = f" … and {len(known) - 12} more"
    assert main(["grade", "x" * 100_000, "1"]) == 2
    assert capsys.readouterr().err == (f"unknown exercise id '{'x' * 64}…'; known ids: {', '.join(known[:12])}{rest}\n")
    assert main(["grade", "pk_p\u0430ss3", "0.7"]) == 2  # Cyrillic а
    err = capsys.readouterr().err
    assert err.startswith("unknown exercise id 'pk_p\\u0430ss3'; known ids: pk_pass3, ") and err.endswith(rest + "\n")
    listed = err.split("known ids: ", 1)[1].removesuffix(rest + "\n").split(", ")
    assert len(listed) == 12 and set(listed) <= set(known)


def test_an_exercise_defined_twice_is_named_and_not_graded(tmp_path, capsys):
    """A teacher copies passk_lab.yaml and edits pk_pass3's answer in the copy: grade took the first file's exercise
    and said "correct" (exit 0) without a word of the duplicate load_exercises reports (break-it pass brk21probe)."""
    src = (REPO_ROOT / "fixtures" / "exercises" / "passk_lab.yaml").read_text(encoding="utf-8")
    assert "answer: 0.4666667" in src
    (tmp_path / "passk_lab.yaml").write_text(src, encoding="utf-8")
    (tmp_path / "a_passk_lab.yaml").write_text(src.replace("answer: 0.4666667", "answer: 0.9", 1), encoding="utf-8")
    assert main(["grade", "pk_pass3", "0.4666667", "--exercises", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "duplicate exercise id 'pk_pass3'" in err
    assert err.endswith("exercise pk_pass3 is defined more than once (above): not graded until one is renamed or "
                        "removed\n")


def test_other_problems_of_the_folder_are_said_and_the_exercise_still_graded(tmp_path, capsys):
    """A broken file beside the one that holds the exercise: its problem is said (it was silent), the exercise is
    graded as before."""
    src = (REPO_ROOT / "fixtures" / "exercises" / "passk_lab.yaml").read_text(encoding="utf-8")
    (tmp_path / "passk_lab.yaml").write_text(src, encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("exercises: [\n", encoding="utf-8")
    assert main(["grade", "pk_pass3", "0.4666667", "--exercises", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["correct"] is True
    assert "broken.yaml" in err and err.count("\n") >= 1
