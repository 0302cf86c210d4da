"""Moving the selection lab's k slider after an upload estimates again from the counts the page kept; it neither
reads nor grades the upload again (break-it pass brk12web2: the page read and analysed the whole file for every k,
and grading a log made to be slow stops only at evaluation.ANALYSIS_BUDGET, 10 s of CPU per slider move)."""

import pytest
from tests.app.test_eval_lab_page import lab, tau_file

import ui.eval_lab
from toolcall.evaluation import analyse, summary_rates
from toolcall.eval_import import read_log
from toolcall.i18n import t
from toolcall.numfmt import percent


def _native_file() -> bytes:
    """Five cases of four runs each, c = 0, 1, 2, 3, 4, and a case of two runs (refused for k past 2)."""
    import json
    tools = [{"name": "t", "input_schema": {"type": "object"}}]
    lines = []
    for case, c in enumerate([0, 1, 2, 3, 4]):
        for run in range(4):
            lines.append({"case_id": f"c{case}", "run": run, "model": "m", "expected_calls": [],
                          "actual_calls": [] if run < c else [{"name": "t", "arguments": {}}]})
    lines += [{"case_id": "short", "run": r, "model": "m", "expected_calls": [], "actual_calls": []} for r in (0, 1)]
    lines[0]["tools"] = tools
    return "\n".join(json.dumps(x) for x in lines).encode()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name, data", [("results.json", tau_file()), ("runs.jsonl", _native_file())])
def test_another_k_is_estimated_not_graded_again(lang, name, data, monkeypatch):
    calls = []
    real_read, real_analyse = ui.eval_lab.read_log, ui.eval_lab.analyse
    monkeypatch.setattr(ui.eval_lab, "read_log", lambda *a, **kw: calls.append("read") or real_read(*a, **kw))

    def counted_analyse(*args, **kwargs):
        if "progress" in kwargs:  # the upload's (the recorded runs' analyses have no progress bar)
            calls.append("analyse")
        return real_analyse(*args, **kwargs)

    monkeypatch.setattr(ui.eval_lab, "analyse", counted_analyse)
    at = lab(lang)
    at.slider(key="eval_k").set_value(2).run()
    at.file_uploader(key="eval_upload").set_value((name, data, "application/octet-stream")).run()
    for k in (3, 1, 4):
        at.slider(key="eval_k").set_value(k).run()
        assert not at.exception, [e.value for e in at.exception]
        assert calls == ["read", "analyse"]
        whole = analyse(read_log(data, "auto", name), k)
        means = summary_rates(whole.cases)
        show = lambda x: "—" if x is None else percent(x, lang)  # noqa: E731
        for key, label in (("pass^k", "eval.metric_passk"), ("naive", "eval.metric_naive"),
                           ("pass@k", "eval.metric_passat")):
            assert [m.value for m in at.metric if m.label == t(label, lang, k=k)][-1] == show(means[key])
        table = at.dataframe[-1].value
        assert table[t("eval.col_case", lang)].tolist() == [c.case_id for c in whole.cases]
        assert table[t("eval.col_passk", lang, k=k)].tolist() == [
            "—" if c.refused is not None else percent(c.pass_hat_k, lang) for c in whole.cases]
