"""python -m toolcall eval: per-case table, confusion matrix, CSV/JSON, errors."""

import json
import subprocess
import sys

from toolcall import FIXTURES_DIR, REPO_ROOT

GOOD = FIXTURES_DIR / "eval_runs" / "shop_good.en.jsonl"
#: The log's runs and cases, read from the log (an instructor's added case adds runs): 310 and 31 as shipped.
RUNS = [json.loads(line) for line in GOOD.read_text("utf-8").splitlines()]
CASES = len({r["case_id"] for r in RUNS})


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "toolcall", "eval", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, input=stdin, timeout=120)


def test_table_and_matrix():
    out = run(str(GOOD), "--k", "3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"native: {len(RUNS)} runs, {CASES} cases, k = 3")
    assert "confusion matrix (rows: expected tool, columns: chosen tool)" in out.stdout
    assert "failure taxonomy: called_when_should_not" in out.stdout


def test_json_matches_the_core():
    from toolcall.eval_import import read_log
    from toolcall.evaluation import analyse

    data = json.loads(run(str(GOOD), "--k", "2", "--out", "json").stdout)
    core = analyse(read_log(GOOD.read_bytes()), 2)
    assert [c["pass^k"] for c in data["cases"]] == [c.pass_hat_k for c in core.cases]
    assert data["confusion"]["counts"] == core.confusion.values.tolist() and data["taxonomy"] == core.taxonomy


def test_k_above_n_refused_per_case_and_csv():
    out = run(str(GOOD), "--k", "11", "--out", "csv")
    header, first = out.stdout.splitlines()[:2]
    assert header == "case_id,expected_tool,n,c,k,pass^k,pass@k,naive,refused"
    assert first.endswith(",,,,k = 11 is larger than n = 10: the unbiased estimators need at least k runs; "
                          "add runs (missing: 1) or lower k")


def test_bad_lines_to_stderr_and_unreadable_exit_2(tmp_path):
    text = GOOD.read_text().splitlines()
    bad = tmp_path / "runs.jsonl"
    bad.write_text("\n".join(text[:3] + ["{oops"] + text[3:10]))
    out = run(str(bad), "--k", "1")
    assert out.returncode == 0 and "line 4: $: not JSON" in out.stderr
    assert run(str(tmp_path / "missing.jsonl"), "--k", "1").returncode == 2
    assert run("-", "--k", "1", "--format", "tau", stdin="{nope").returncode == 2


def test_selection_override():
    out = run(str(GOOD), "--k", "1", "--out", "json", "--selection",
              str(FIXTURES_DIR / "selection" / "shop.en.yaml"))
    assert out.returncode == 0 and json.loads(out.stdout)["runs"] == len(RUNS)


def test_k_out_of_range_is_an_argument_error():
    """k below 1 or above passk's N_MAX is argparse's error (exit 2), not a traceback."""
    from toolcall.passk import N_MAX

    for k in ("0", "-1", str(N_MAX + 1), "99999999999999999999", "two"):
        out = run(str(GOOD), "--k", k)
        assert out.returncode == 2 and "argument --k: k must be" in out.stderr and "Traceback" not in out.stderr


def test_exit_1_when_every_case_is_refused():
    out = run(str(GOOD), "--k", "11")
    assert out.returncode == 1
    assert out.stderr.endswith("nothing could be estimated: every case was refused for k = 11\n")


def test_case_ids_with_terminal_controls_are_escaped(tmp_path):
    """ESC, BEL, C1 and bidi controls in a log never reach the terminal raw, in any output form."""
    log = tmp_path / "esc.json"
    log.write_text(json.dumps([{"task_id": "\x1b]0;x\x07\x9b31m", "trial": 0, "reward": 1.0},
                               {"task_id": "a\u202eb", "trial": 0, "reward": 1.0}]))
    for form in ("table", "csv", "json"):
        out = run(str(log), "--k", "1", "--out", form)
        assert out.returncode == 0
        assert not any(ch in out.stdout for ch in "\x1b\x07\x9b\u202e")
        assert "\\u001b]0;x\\u0007\\u009b31m" in out.stdout.replace("\\\\", "\\") and "a\\u202eb" in out.stdout


def test_problems_and_refusals_in_chinese_with_lang_zh(tmp_path):
    """--lang zh: every bad line on stderr is the core's code in Chinese, with its line number;
    a refused case says why in Chinese; English stays the default."""
    from toolcall.evaluation import LineProblem
    from toolcall.i18n import t

    lines = GOOD.read_text().splitlines()
    bad = tmp_path / "runs.jsonl"
    bad.write_text("\n".join(["not json", lines[0], '{"case_id": "x"}', *lines[1:]]) + "\n")
    out = run(str(bad), "--k", "11", "--out", "csv", "--lang", "zh")
    problems = [line.split(": ", 1)[1] for line in out.stderr.splitlines()]
    assert problems[0].startswith("第 1 行：$：不是 JSON：")
    assert problems[1] == LineProblem(3, "$.run", "required_missing").describe("zh") == "第 3 行：$.run：缺少必填字段"
    assert problems[2] == t("eval.cli.nothing_estimated", "zh", k=11)
    first = out.stdout.splitlines()[1]
    assert first.endswith(t("passk.err.k_above_n", "zh", k=11, n=10, more=1))
    english = run(str(bad), "--k", "11", "--out", "csv")
    assert english.stderr.splitlines()[1].endswith("line 3: $.run: required field missing")


def test_csv_cells_from_the_log_never_start_like_a_formula(tmp_path):
    """A case id or tool name that starts with = + - @ is prefixed with ' in the CSV (as the progress export
    does), so opening eval's CSV in a spreadsheet never runs it (issue 13)."""
    lines = [json.loads(line) for line in GOOD.read_text(encoding="utf-8").splitlines()]
    formulas = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"]
    renamed = {case: formulas[i % len(formulas)] + f"_{i}"
               for i, case in enumerate(dict.fromkeys(line["case_id"] for line in lines))}
    for line in lines:
        line["case_id"] = renamed[line["case_id"]]
    log = tmp_path / "formulas.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    out = run(str(log), "--k", "3", "--out", "csv")
    assert out.returncode == 0, out.stderr
    import csv
    import io

    cells = [cell for row in list(csv.reader(io.StringIO(out.stdout)))[1:] for cell in row]
    assert sorted(cell for cell in cells if cell[:2] in {"'" + f[0] for f in formulas}) == sorted(
        "'" + name for name in renamed.values())
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@") or cell.startswith("-2")]
