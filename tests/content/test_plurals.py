"""A count and its noun agree in English: "1 error", never "1 errors".

Round 9 of issue 13 (text that misleads) measured on main: the design review of the course's own do_stuff read
"Score 59/100 · 1 errors, 5 warnings, 1 suggestions" (get_order's "1 suggestions", search_orders's
"1 warnings, 1 suggestions"), a validation card for ``"maxItems": 1`` read "at most 1 items", a one-message
transcript "Checked 1 messages", and the catalogue had 40 more such templates. A template writes a count's noun
with both forms (``{n} {n:plural:error|errors}``, toolcall.i18n.fill); the last test finds the next one.
"""

from __future__ import annotations

import re

import pytest

from toolcall.i18n import catalogue, fill, t


@pytest.mark.parametrize("value, expected", [
    (1, "1 error"), (1.0, "1.0 error"), ("1", "1 error"), (" 1 ", " 1  error"), (0, "0 errors"), (2, "2 errors"),
    ("1,000", "1,000 errors"), (-1, "-1 errors"), (True, "True errors"), ("1.5", "1.5 errors"),
])
def test_fill_picks_the_form_by_the_count(value, expected):
    assert fill("{n} {n:plural:error|errors}", n=value) == expected


def test_fill_keeps_every_other_format_spec_and_nested_fields():
    assert fill("{n:,} {n:plural:byte|bytes}", n=1234) == "1,234 bytes"
    assert fill("{m:plural:the one|all {m}} kept", m=1) == "the one kept"
    assert fill("{m:plural:the one|all {m}} kept", m=3) == "all 3 kept"
    assert fill("{a} {{literal}}", a=1) == "1 {literal}"
    with pytest.raises(ValueError):
        fill("{n:plural:no bar}", n=1)


def test_the_design_review_score_line():
    key = "workbench.review_score"
    assert t(key, "en", score=59, errors=1, warnings=5, infos=1) == "Score 59/100 · 1 error, 5 warnings, 1 suggestion"
    assert t(key, "en", score=94, errors=0, warnings=1, infos=2) == "Score 94/100 · 0 errors, 1 warning, 2 suggestions"
    assert t(key, "zh", score=59, errors=1, warnings=5, infos=1) == "得分 59/100 · 1 个错误，5 个警告，1 条建议"


@pytest.mark.parametrize("key, params, en, zh", [
    ("pairing.detected", {"count": 1, "fmt": "Anthropic"}, "Checked 1 message as Anthropic (detected).",
     "按 Anthropic 格式检查了 1 条消息（自动识别）。"),
    ("pairing.chosen", {"count": 2, "fmt": "OpenAI"}, "Checked 2 messages as OpenAI.", "按 OpenAI 格式检查了 2 条消息。"),
    ("expected.minItems", {"value": 1}, "at least 1 item", "至少 1 项"),
    ("expected.maxLength", {"value": 1.0}, "at most 1.0 character", "最多 1.0 个字符"),
    ("expected.anyOf", {"count": 1}, "a value matching at least one of 1 alternative", None),
    ("workbench.hidden_chars", {"field": "description", "count": 1, "places": "line 1"},
     "The description box holds 1 character a page shows as nothing, and the model reads it: line 1. A copy from a "
     "document or a shared link can bring it along; delete it unless you mean the model to read it.", None),
    ("passk.equiv_remove", {"m": 1, "m1": 0, "q": "90%", "q2": "95%", "value": "50%"},
     "Removing one ambiguity (m from 1 to 0, one line of description) is worth as much as raising the accuracy of "
     "**every** reading from **90%** to **95%**, with the one ambiguity kept: both give 50% per call, and the same "
     "pass^k for every k at either end of the band. The second usually takes a stronger model.",
     "消掉一处歧义（m 从 1 降到 0，只需改一行描述），效果相当于保留这 1 处歧义、把**每一处**的猜对率从 **90%** 提到 "
     "**95%**：两种做法下，单次调用全对的概率都是 50%；不论 k 取多少，范围两端的 pass^k 也完全一样。可要把猜对率提上去，"
     "往往得换更强的模型。"),
    ("passk.retry_independent", {"attempts": 1}, "The one attempt fails, independent", "仅有的 1 次尝试失败（相互独立）"),
    ("passk.retry_independent", {"attempts": 3}, "All 3 attempts fail, independent", "3 次全失败（相互独立）"),
    ("passk.err.c_above_n", {"c": 2, "n": 1}, "c = 2 passes cannot be more than n = 1 run.", None),
    ("eval.set_rows_not_added", {"count": "1", "limit": "500"},
     "1 added row was not kept: the table holds at most 500 rows. Split a larger set into several.", None),
    ("cli.check_more", {"count": 1}, "… and 1 more problem not shown (--all lists every one)", None),
    ("exercises.total", {"solved": 1, "total": 9, "score": "1", "max": "1"},
     "Solved 1 of 9 exercises · 1 of 1 point on the ones tried", None),
    ("backend.AMOUNT_EXCEEDS_PAID", {"amount": 1, "order_id": "ORD-1", "left": 0, "paid": 1999},
     "Refund of 1 cent exceeds what is left to refund on ORD-1: 0 cents of 1999 paid. Ask the customer to confirm "
     "the amount.", None),
    ("replay.total.business", {"paid": 1, "cents": 1999}, "Keyed by order id + amount: 1 refund paid, 1999 cents in "
     "total.", None),
    ("walkthrough.outcome.succeeded", {"retries": 1}, "Outcome: succeeded after 1 retry.", None),
    ("harness.done", {"score": "0.5", "max": "1"}, "Scenario finished: 0.5 of 1 point.", "场景完成：0.5 / 1 分。"),
])
def test_a_count_of_one_reads_in_the_singular(key, params, en, zh):
    assert t(key, "en", **params) == en
    if zh is not None:
        assert t(key, "zh", **params) == zh


#: A count placeholder followed by a plural noun, possibly after one of these words.
COUNTED = re.compile(r"\{(\w+)(?::[^}]*)?\}\s+(?:(?:more|expected|added|later|matching|unsaved|canned|failed|"
                     r"should-call|should-not-call)\s+)?([a-z]+s)\b")
#: Words after a placeholder that are not a plural noun ("{name} is", "{id} was", "{tool} has").
NOT_NOUNS = {"is", "was", "has", "does", "gives", "needs", "lists", "holds", "fails", "sits", "comes", "gets",
             "moves", "reads", "starts", "applies", "accepts", "uses", "exceeds", "overflows", "ends", "says", "its", "this",
             "as", "in"}
#: Placeholders that are never 1 wherever they are used: a limit, or a size or depth over one.
NEVER_ONE = {"limit", "limit_bytes", "size", "length", "chars", "nodes", "depth", "digits", "need", "needed", "high", "low", "min",
             "max"}
#: Per template, counts that are not 1 where it is used, and why.
NEVER_ONE_IN = {
    # a total shown only when it is larger than what is listed
    "common.escapes_cut": "total", "common.raw_cut": "total", "dashboard.attempts_shown": "total",
    "dashboard.learners_shown": "total", "eval.cases_not_shown": "total", "pairing.shown_rows": "total",
    "strict.panel.diff_cut": "total", "strict.panel.rows_shown": "total",
    # a count over a limit
    "eval.set.too_many": "count", "eval.set.too_many_names": "count", "schema.too_many_parts": "count",
    "workbench.lint.param_too_many": "count", "workbench.lint.set_too_many": "count",
    "progress.caps.attempts_kept": "tries", "storage.pending_full": "n", "dashboard.export_on_server": "learners",
    # a row number, not a count ("row 3 names learner …")
    "dashboard.name_map.duplicate_learner": "row",
    # course content with more than one: ordering steps, canned outputs, the exercises of the page
    "exercises.fb.canned_count": "total", "exercises.fb.not_permutation": "count", "exercises.fb.order_count": "total",
    "exercises.total": "total", "exercises.total_finished": "total", "exercises.total_untried": "total",
    "playground.summary": "total",
    # constants: 10 000 simulated trials, the replay's 1999-cent refund, a token count of a whole tool set
    "passk.chart.monte_carlo": "trials", "passk.metric_mc": "trials", "replay.paid": "cents",
    "replay.total.business": "cents", "replay.total.call_id": "cents", "workbench.tokens_total": "openai",
    # "pts" is an abbreviation, written the same for one
    "numbers.points": "value",
}


def test_every_english_count_of_a_noun_has_its_singular():
    """The next "1 items": a placeholder followed by a plural noun is written with the plural spec, unless the
    count cannot be 1 where the template is used (NEVER_ONE, NEVER_ONE_IN, with their reasons)."""
    missing = []
    for key, template in sorted(catalogue("en").items()):
        plain = re.sub(r"\{\w+:plural:(?:[^{}]|\{[^{}]*\})*\}", "", template)
        for m in COUNTED.finditer(plain):
            name, noun = m.groups()
            if noun in NOT_NOUNS or name in NEVER_ONE or NEVER_ONE_IN.get(key) == name:
                continue
            if f"{{{name}:plural:" not in template:
                missing.append(f"{key}: {m.group(0)}")
    assert missing == []


def test_cli_passk_names_one_run_in_the_singular(capsys):
    """On main: "passk: c = 2 passes cannot exceed n = 1 runs" (toolcall.passk's own English message)."""
    from toolcall.cli import main

    assert main(["passk", "--n", "1", "--c", "2", "--k", "1"]) == 2
    assert capsys.readouterr().err == "passk: c = 2 passes cannot exceed n = 1 run\n"


def test_cli_eval_header_counts_one_run_and_one_case(tmp_path, capsys):
    """On main the table's first line read "native: 1 runs, 1 cases, k = 1" for a log of one line."""
    from toolcall import REPO_ROOT
    from toolcall.cli import main

    log = tmp_path / "one.jsonl"
    log.write_text((REPO_ROOT / "fixtures/eval_runs/shop_vague.en.jsonl").read_text(encoding="utf-8").splitlines()[0]
                   + "\n", encoding="utf-8")
    main(["eval", str(log), "--k", "1"])
    assert capsys.readouterr().out.splitlines()[0] == "native: 1 run, 1 case, k = 1"
    main(["eval", str(REPO_ROOT / "fixtures/eval_runs/shop_vague.en.jsonl"), "--k", "3"])
    assert capsys.readouterr().out.splitlines()[0] == "native: 310 runs, 31 cases, k = 3"


#: An f-string in the code that puts a count before a plural noun (English the CLI prints as it is).
CODE_COUNTED = re.compile(r"f[\"'][^\"'\n]*\{[^{}\n]+\} (?:more )?(runs|cases|calls|passes|attempts|errors|messages|"
                          r"problems|items|tools|steps|answers|tries|retries|rows|values)\b")


def test_no_code_string_counts_a_noun_without_its_singular():
    """The next "1 runs" written in code rather than the catalogue."""
    from toolcall import REPO_ROOT

    found = [f"{path.relative_to(REPO_ROOT)}: {m.group(0)}"
             for folder in ("toolcall", "ui", "pages", "scripts", "deploy") for path in (REPO_ROOT / folder).rglob("*.py")
             for m in CODE_COUNTED.finditer(path.read_text(encoding="utf-8"))]
    # n is above N_MAX there; MAX_EXPANDED_NODES is a limit
    assert sorted(found) == ['toolcall/passk.py: f"n = {n} runs', 'toolcall/yaml_io.py: f"more than {MAX_EXPANDED_NODES} values']


def test_the_retry_loop_asks_for_one_attempt_in_the_singular():
    from toolcall.transcripts import retry_loop

    with pytest.raises(ValueError) as caught:
        retry_loop([], lambda attempt, index: [], max_retries=0)
    assert str(caught.value) == "attempts: only 0, all with errors: need a success or 1 attempt to reach the cap"
