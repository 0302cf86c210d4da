"""The selection lab under AppTest: the shipped set passes its checks, both versions are
graded, the drill-down shows raw arguments, and a log uploaded through the file uploader is read."""

import json

import pandas as pd
import pytest

from tests.app.conftest import fresh_app
from toolcall import FIXTURES_DIR
from toolcall.eval_import import read_native
from toolcall.evaluation import analyse
from toolcall.i18n import t
from toolcall.selection import load_set

PAGE = "pages/eval_lab.py"


def lab(lang="en"):
    at = fresh_app(lang)
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric(at, label):
    return [m.value for m in at.metric if m.label == label]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_set_checks_and_both_versions(lang):
    at = lab(lang)
    cases = len(load_set(FIXTURES_DIR / "selection" / f"shop.{lang}.yaml").cases)  # 31 shipped; an added case counts
    assert at.success[0].value == t("eval.set_ok", lang, cases=cases, need=5)
    expected = []
    for version in ("vague", "good"):
        result = analyse(read_native((FIXTURES_DIR / "eval_runs" / f"shop_{version}.{lang}.jsonl").read_bytes()), 3)
        right = sum(int(result.confusion.loc[n, n]) for n in result.confusion.index)
        expected.append(t("eval.metric_right_value", lang, right=right, runs=int(result.confusion.values.sum())))
    assert metric(at, t("eval.metric_right", lang)) == expected
    assert "simulated" in at.info[0].value or "模拟" in at.info[0].value


def test_k_above_n_is_refused_per_case():
    """k = 5 on a log with 3 trials per task: every case is refused, and says why."""
    at = lab()
    at.file_uploader(key="eval_upload").set_value(("results.json", tau_file(), "application/json")).run()
    at.slider(key="eval_k").set_value(5).run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table["pass^5"]) == ["—", "—"]
    assert table["note"][0].startswith("refused: k = 5 is larger than n = 3")
    assert metric(at, "Mean pass^5 over cases")[-1] == "—"


def test_drill_down_shows_raw_arguments():
    at = lab()
    assert at.radio(key="eval_drill_version").value == "vague"
    at.selectbox(key="eval_drill_case").set_value("ro_wrong_item").run()
    runs = next(d.value for d in at.dataframe if "raw arguments" in d.value.columns)
    assert len(runs) == 10 and int(runs["passed"].sum()) == 6
    assert set(runs["error type"]) - {""} <= {"wrong_type", "schema_invalid"}


def tau_file() -> bytes:
    rewards = {"t1": [1.0, 1.0, 0.0], "t2": [1.0, 1.0, 1.0]}
    return json.dumps([{"task_id": task, "trial": i, "reward": r, "info": {}, "traj": []}
                       for task, rs in rewards.items() for i, r in enumerate(rs)]).encode()


def test_upload_tau_bench_results():
    """An instructor drops a τ-bench results file: pass^k per task, no confusion matrix."""
    at = lab()
    at.file_uploader(key="eval_upload").set_value(("results.json", tau_file(), "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("eval.upload_loaded", "en", runs=6, cases=2, fmt=t("eval.format_tau", "en")) in [s.value for s in at.success]
    # the format's own name, and a count that reads right for one as for many
    assert "Read from this log (τ-bench / τ²-bench): cases 2, runs 6." in [s.value for s in at.success]
    assert t("eval.upload_no_matrix", "en") in [i.value for i in at.info]
    table = at.dataframe[-1].value
    assert list(table["case"]) == ["t1", "t2"] and list(table["pass^3"]) == ["0%", "100.0%"]


def test_upload_native_with_a_bad_line_in_chinese():
    lines = (FIXTURES_DIR / "eval_runs" / "shop_good.zh.jsonl").read_text(encoding="utf-8").splitlines()[:20]
    lines.insert(5, '{"case_id": 3}')
    at = lab("zh")
    at.file_uploader(key="eval_upload").set_value(("mine.jsonl", "\n".join(lines).encode(), "text/plain")).run()
    assert not at.exception
    assert at.warning[0].value == t("eval.upload_problems", "zh", count=1)
    assert any("第 6 行：$.run：缺少必填字段" in c.value for c in at.code)
    assert t("eval.upload_loaded", "zh", runs=20, cases=2, fmt=t("eval.format_native", "zh")) in [s.value for s in at.success]
    assert "从这份日志（本项目 JSONL）读到：用例 2 条，运行 20 次。" in [s.value for s in at.success]


def test_a_malformed_log_on_the_chinese_page_lists_chinese_problems_with_line_numbers():
    """Each kind of bad line, read on the zh page: every problem is listed in Chinese with its
    line number and field, built from the same codes the core emits; no English message leaks."""
    from toolcall.evaluation import LineProblem

    good = (FIXTURES_DIR / "eval_runs" / "shop_good.zh.jsonl").read_text(encoding="utf-8").splitlines()[:12]
    first = json.loads(good[1])
    bad = {3: "不是 json {", 5: json.dumps({**first, "run": -1}), 7: json.dumps({**first, "passed": "yes"}),
           9: json.dumps({**first, "actual_calls": [{"name": "get_order"}]})}
    lines = [bad.get(i + 1, text) for i, text in enumerate(good)]
    at = lab("zh")
    at.file_uploader(key="eval_upload").set_value(("mine.jsonl", "\n".join(lines).encode(), "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.warning[0].value == t("eval.upload_problems", "zh", count=4)
    shown = next(c.value for c in at.code if "第 3 行" in c.value).splitlines()
    assert [line.split("：")[0] for line in shown] == ["第 3 行", "第 5 行", "第 7 行", "第 9 行"]
    assert shown[1:] == [LineProblem(5, "$.run", "bad_run").describe("zh"),
                         LineProblem(7, "$.passed", "bad_passed").describe("zh"),
                         LineProblem(9, "$.actual_calls[0]", "call_needs_arguments").describe("zh")]
    assert shown[1] == "第 5 行：$.run：必须是 ≥ 0 的整数"
    assert shown[0].startswith("第 3 行：$：不是 JSON：")
    assert t("eval.upload_loaded", "zh", runs=8, cases=2, fmt=t("eval.format_native", "zh")) in [s.value for s in at.success]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_upload_over_the_size_cap_is_refused_in_the_pages_language(monkeypatch, lang):
    import ui.eval_lab

    monkeypatch.setattr(ui.eval_lab, "UPLOAD_LIMIT_MB", 1)
    at = lab(lang)
    at.file_uploader(key="eval_upload").set_value(("big.jsonl", b"x" * 2_500_000, "text/plain")).run()
    assert not at.exception
    assert at.error[-1].value == t("eval.upload_too_large", lang, size="2,500,000", limit=1, limit_bytes="1,000,000")
    # the browser refuses an oversized file itself, in Streamlit's English: the label states the cap
    assert at.get("file_uploader")[0].label == t("eval.upload_label", lang, limit=1)
    assert "1 MB" in at.get("file_uploader")[0].label
    assert ("limit of 1 MB" in at.error[-1].value) if lang == "en" else ("超过了 1 MB" in at.error[-1].value)


@pytest.mark.parametrize("lang, expected", [
    ("en", "This file is 1,000,001 bytes, more than the limit of 1 MB (1,000,000 bytes). Cut it into smaller logs."),
    ("zh", "这个文件有 1,000,001 字节，超过了 1 MB（1,000,000 字节）的上限，请拆成几个小一点的日志。"),
])
def test_an_upload_one_byte_over_the_cap_reads_larger_than_the_cap(monkeypatch, lang, expected):
    """On main a size rounded to 0.1 MB read "This file is 1.0 MB; the limit is 1 MB": the refusal named a file the
    size of the limit (20 000 001 to 20 049 999 bytes at the real 20 MB, which pass Streamlit's own check in MiB)."""
    import ui.eval_lab

    monkeypatch.setattr(ui.eval_lab, "UPLOAD_LIMIT_MB", 1)
    at = lab(lang)
    at.file_uploader(key="eval_upload").set_value(("big.jsonl", b"x" * 1_000_001, "text/plain")).run()
    assert not at.exception
    assert at.error[-1].value == expected


def test_upload_unreadable():
    at = lab()
    at.selectbox(key="eval_format").set_value("tau").run()
    at.file_uploader(key="eval_upload").set_value(("x.json", b"{nope", "application/json")).run()
    assert not at.exception
    assert at.error[-1].value.startswith("This file cannot be read as τ-bench / τ²-bench: not JSON")


def test_upload_unreadable_in_chinese():
    at = lab("zh")
    at.selectbox(key="eval_format").set_value("inspect").run()
    at.file_uploader(key="eval_upload").set_value(("x.json", b"[1, 2]", "application/json")).run()
    assert not at.exception
    assert at.error[-1].value == t("eval.upload_unreadable", "zh", format=t("eval.format_inspect", "zh"),
                                   detail=t("eval.error.inspect_shape", "zh"))


@pytest.mark.parametrize("method", [8, 93], ids=["deflate", "zstd"])
def test_upload_inspect_eval_zip(method):
    """An Inspect .eval log, deflate or Zstandard (as current Inspect writes it): samples × epochs become runs;
    expected calls in metadata give a matrix."""
    from tests.unit.test_eval_import import eval_zip, inspect_log

    at = lab()
    at.file_uploader(key="eval_upload").set_value(("run.eval", eval_zip(inspect_log()["samples"], method=method),
                                                   "application/zip")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("eval.upload_loaded", "en", runs=5, cases=2, fmt=t("eval.format_inspect", "en")) in [s.value for s in at.success]
    assert metric(at, t("eval.metric_right", "en"))[-1] == t("eval.metric_right_value", "en", right=2, runs=2)
    table = at.dataframe[-1].value
    assert list(table["case"]) == ["s1", "s2"] and list(table["n"]) == [3, 2] and list(table["c"]) == [2, 1]


class _Editor:
    """st.data_editor as Streamlit keeps it (AppTest cannot edit a data_editor): a widget's edits
    live as long as its identity (key, data, column labels) and only while it is drawn on every
    run; a changed identity is a fresh editor showing its data. ``add`` is the student adding a row
    to the editor drawn last."""

    def __init__(self):
        self.identity, self.added, self.shown = None, [], None

    def __call__(self, data, *, key, column_config=None, **kwargs):
        identity = (key, data.to_json(), repr(column_config))
        if identity != self.identity:
            self.identity, self.added = identity, []
        self.shown = pd.concat([data, pd.DataFrame(self.added, columns=data.columns)], ignore_index=True)
        return self.shown


def test_a_row_the_student_added_survives_a_language_switch(monkeypatch):
    """Issue 14: the editor was keyed by language, so switching to 中文 and back lost the student's rows."""
    import streamlit
    editor = _Editor()
    monkeypatch.setattr(streamlit, "data_editor", editor)
    at = lab("en")
    row = {"id": "my_case", "expected_tool": "get_order", "request": "Where is ORD-20260917?",
           "expected_arguments": '{"order_id": ["ORD-20260917"]}', "should_not_call": ""}
    editor.added.append(row)
    at.run()
    assert "my_case" in list(editor.shown["id"])
    for lang in ("zh", "en"):
        at.selectbox(key="app_lang").set_value(lang).run()
        assert not at.exception, [e.value for e in at.exception]
        assert list(editor.shown["id"]).count("my_case") == 1, lang
    assert editor.shown[editor.shown["id"] == "my_case"].iloc[0].to_dict() == row


def test_without_edits_a_language_switch_shows_that_languages_set(monkeypatch):
    import streamlit
    editor = _Editor()
    monkeypatch.setattr(streamlit, "data_editor", editor)
    at = lab("en")
    at.selectbox(key="app_lang").set_value("zh").run()
    zh = load_set(FIXTURES_DIR / "selection" / "shop.zh.yaml").cases
    assert list(editor.shown["request"]) == [c.request for c in zh]


def test_drill_down_in_chinese():
    """The zh drill-down: every run's detail is the core's code in Chinese, and the validator's
    errors are in Chinese too (no English sentence from the grader)."""
    import re

    at = lab("zh")
    at.selectbox(key="eval_drill_case").set_value("ro_wrong_item").run()
    runs = next(d.value for d in at.dataframe if t("eval.col_raw", "zh") in d.value.columns)
    details = set(runs[t("eval.col_detail", "zh")])
    assert t("eval.detail.correct", "zh") in details and len(details) > 1
    assert all(re.search(r"[\u4e00-\u9fff]", d) for d in details)
    checks = [v for v in runs[t("eval.col_validation", "zh")] if v]
    assert checks and all(re.search(r"[\u4e00-\u9fff]", v) for v in checks), checks


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_field_named_column_has_a_label_in_the_page_language(lang):
    """Issue 14: the selection table's headers read `id | expected_tool | 请求 | expected_arguments`.
    Every column of the set's editor whose data is named by a field (snake_case) shows a label in the page's
    language instead, the field name kept in its help; the tool column's help lists the tools."""
    import json as _json
    import re as _re

    at = fresh_app(lang, page="pages/eval_lab.py")
    found = {}
    frames = [f for f in at.dataframe if "expected_tool" in f.value.columns]  # the editable selection set
    for frame in frames:
        config = _json.loads(frame.proto.columns or "{}")
        for name in frame.value.columns:
            if not _re.fullmatch(r"[a-z][a-z_]*", str(name)):
                continue
            label = config.get(name, {}).get("label") or name
            if label == name or (lang == "zh" and not _re.search(r"[\u4e00-\u9fff]", label)):
                found[name] = label
            elif name not in (config[name].get("help") or ""):
                found[name] = "help without the field name"
    assert found == {} and len(frames) == 1
    tool_help = _json.loads(at.dataframe[0].proto.columns)["expected_tool"]["help"]
    assert "refund_order" in tool_help and "(no tool)" in tool_help


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_upload_is_called_empty_not_unusable(lang):
    """An Inspect log without samples read with no problem: the page said "No usable runs in this file." with
    nothing listed as unusable (tests/unit/test_eval_empty_logs.py derives the other formats)."""
    at = lab(lang)
    at.file_uploader(key="eval_upload").set_value(("empty.json", b'{"samples": []}', "application/json")).run()
    assert not at.exception
    assert [e.value for e in at.error] == [t("eval.empty_log", lang, format=t("eval.format_inspect", lang))]


def _lookalike_log() -> tuple[bytes, str, str]:
    """The shipped good log's first 20 lines with the second case's id changed to the first's written with a
    Cyrillic letter (``с``, U+0441, for ``c`` when the id has one, else ``о`` for ``o``…)."""
    from tests.unit.test_dashboard_answer_cells import LOOKALIKES

    lines = (FIXTURES_DIR / "eval_runs" / "shop_good.en.jsonl").read_text(encoding="utf-8").splitlines()[:20]
    runs = [json.loads(line) for line in lines]
    first, second = dict.fromkeys(r["case_id"] for r in runs)
    latin, alike = next((a, b) for a, b in LOOKALIKES if a in first)
    twin = first.replace(latin, alike, 1)
    for r in runs:
        if r["case_id"] == second:
            r["case_id"] = twin
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in runs).encode(), first, twin


def test_a_lookalike_case_id_is_a_row_that_reads_differently():
    """Two cases whose ids differ by a Cyrillic letter were two rows reading the same id (escape_invisible
    leaves letters alone): the second now shows its letter as \\uXXXX, in the table and the CLI's."""
    import io
    import sys as _sys

    from toolcall.cli import main

    data, first, twin = _lookalike_log()
    at = lab()
    at.file_uploader(key="eval_upload").set_value(("mine.jsonl", data, "text/plain")).run()
    assert not at.exception
    shown = list(at.dataframe[-1].value.iloc[:, 0])
    assert len(shown) == 2 and len(set(shown)) == 2 and first in shown and twin not in shown
    old_stdin = _sys.stdin
    try:
        _sys.stdin = io.TextIOWrapper(io.BytesIO(data))
        out = io.StringIO()
        old_stdout, _sys.stdout = _sys.stdout, out
        try:
            main(["eval", "-", "--k", "1"])
        finally:
            _sys.stdout = old_stdout
    finally:
        _sys.stdin = old_stdin
    table = out.getvalue()
    assert twin not in table and sum(line.startswith(first[:28]) for line in table.splitlines()) == 1


def test_a_rerun_that_leaves_the_table_alone_checks_nothing_again(monkeypatch):
    """The set's check ran on every rerun (any click on the page): now once per table."""
    import toolcall.selection as selection

    calls = []
    real = selection.validate
    monkeypatch.setattr(selection, "validate", lambda *a, **k: calls.append(1) or real(*a, **k))
    at = lab()
    first = len(calls)
    assert first > 0
    at.run()
    at.run()
    assert len(calls) == first


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_upload_with_more_cases_than_the_table_lists_says_so_and_sends_a_bounded_table(lang):
    """The per-case table lists at most SHOWN_CASES rows (an upload may hold 200 000 cases, 8.9 MB of table per
    rerun at 100 000), and says how many there are; the session keeps only those rows (the whole analysis of a
    20 MB upload held about 40 MB per session); the matrix of a log naming more tools than it keeps says how
    many names it summed."""
    from toolcall.evaluation import MAX_MATRIX_TOOLS
    from ui.eval_lab import SHOWN_CASES

    total = SHOWN_CASES + 3
    tools = [{"name": "t", "input_schema": {"type": "object"}}]
    lines = [json.dumps({"case_id": f"c{i}", "run": 1, "model": "m", "expected_calls": [{"name": f"e{i % 30}"}],
                         "actual_calls": [{"name": "t", "arguments": {}}], **({"tools": tools} if i == 0 else {})})
             for i in range(total)]
    at = lab(lang)
    at.file_uploader(key="eval_upload").set_value(("many.jsonl", "\n".join(lines).encode(), "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("eval.upload_loaded", lang, runs=total, cases=total, fmt=t("eval.format_native", lang)) in [s.value for s in at.success]
    assert at.dataframe[-1].value.shape[0] == SHOWN_CASES
    captions = [c.value for c in at.caption]
    assert t("eval.cases_not_shown", lang, shown=f"{SHOWN_CASES:,}", total=f"{total:,}") in captions
    folded = 30 - (MAX_MATRIX_TOOLS - 1)
    assert t("eval.matrix_folded", lang, kept=MAX_MATRIX_TOOLS - 1, expected=folded, chosen=0) in captions
    kept, cases = at.session_state["eval_upload_result"][-1][:2]  # what the session holds: no row per run
    assert kept.graded is None and len(kept.cases) == SHOWN_CASES and cases == total


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_uploaded_logs_analysis_is_still_shown_after_a_visit_to_another_page(lang):
    """Streamlit lets go of an uploaded file when a run does not draw its box: after a visit to another page the
    upload's analysis was gone from the page, while the session still held it (break-it pass brk12web). Now it is
    shown again, said to be of that file and that k; taking the file out of the box drops it."""
    at = lab(lang)
    at.slider(key="eval_k").set_value(2).run()
    at.file_uploader(key="eval_upload").set_value(("results.json", tau_file(), "application/json")).run()
    loaded = t("eval.upload_loaded", lang, runs=6, cases=2, fmt=t("eval.format_tau", lang))
    assert loaded in [s.value for s in at.success]
    table = at.dataframe[-1].value
    at.switch_page("pages/lessons.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.file_uploader(key="eval_upload").value is None
    from toolcall.markdown import plain

    assert t("eval.upload_kept", lang, name=plain("results.json"), k=2) in [i.value for i in at.info]
    assert loaded in [s.value for s in at.success]
    assert at.dataframe[-1].value.equals(table)
    at.file_uploader(key="eval_upload").set_value(("results.json", tau_file(), "application/json")).run()
    at.file_uploader(key="eval_upload").set_value(None).run()  # taken out of the box: nothing kept
    assert loaded not in [s.value for s in at.success] and "eval_upload_result" not in at.session_state


@pytest.mark.parametrize("lang, label, help_text", [
    ("en", "Download a sample log to try it",
     "This page's recorded runs for the vague descriptions (simulated, in our native JSONL): drop the file back "
     "here, or edit it first."),
    ("zh", "下载一份示例日志来试试",
     "本页录好的“含糊的描述”运行记录（模拟生成，本项目的 JSONL 格式）：下载后再拖回这里，也可以先改一改。"),
])
def test_the_upload_offers_the_pages_own_runs_as_a_sample(lang, label, help_text):
    """Newcomer session 14: a student in a browser had no log to try the upload with (the README and the page
    name files of the repository). The page offers its own recorded runs, in the page's language."""
    at = lab(lang)
    assert not at.exception
    [button] = [b for b in at.get("download_button") if b.proto.id.endswith("eval_sample_download")] or [None]
    assert button is not None
    assert (button.proto.label, button.proto.help) == (label, help_text)


@pytest.mark.parametrize("lang, shown", [
    ("en", ["Detect", "Native JSONL", "τ-bench / τ²-bench", "Inspect AI"]),
    ("zh", ["自动识别", "本项目 JSONL", "τ-bench / τ²-bench", "Inspect AI"]),
])
def test_the_log_format_choices_read_as_names(lang, shown):
    """The upload's Format choices start with a capital, as the pairing page's "Detect" does: the English list
    read "detect", "native JSONL" beside "Inspect AI" (newcomer pass newc19)."""
    at = lab(lang)
    assert list(at.selectbox(key="eval_format").options) == shown
    assert at.selectbox(key="eval_format").value == "auto"
