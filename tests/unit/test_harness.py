"""The harness lab's core: loading, the fake model, the step grader and runs (cases from the fixtures)."""

import json
import re
from pathlib import Path

import pytest
import yaml

from toolcall import CONTENT_ROOT
from toolcall.fixtures import FixtureError
from toolcall.harness import (STEP_COMMON_FIELDS, STEP_KIND_FIELDS, build_request, load_scenario, load_scenarios,
                              model_response, move_text, reference_move, wrong_moves)
from toolcall.harness_grading import (MAX_MOVE_CHARS, check_scenarios, grade_move, new_run, play, run_summary,
                                     step_points)
from toolcall.i18n import LANGS, t
from toolcall.wire import HARNESS_FORMATS as FORMATS

LOADED = load_scenarios()
SCENARIOS = {s.id: s for s in LOADED.scenarios}
STEP_CASES = [(s.id, step.id, fmt) for s in LOADED.scenarios for fmt in FORMATS for step in s.steps_for(fmt)]


def step_of(scenario_id, step_id):
    return next(st for st in SCENARIOS[scenario_id].steps if st.id == step_id)


SHIPPED = ["plain_call", "parallel_partial", "stop_reasons", "tool_choice", "retries_cap", "side_effects",
           "return_values"]


def test_every_scenario_loads():
    """Every file loads; the shipped scenarios come in their order (an added file may sit anywhere)."""
    assert LOADED.problems == ()
    assert [s.id for s in LOADED.scenarios if s.id in SHIPPED] == SHIPPED


@pytest.mark.parametrize("scenario_id, step_id, fmt", STEP_CASES)
@pytest.mark.parametrize("lang", LANGS)
def test_reference_move_is_right_and_wrong_moves_are_wrong(scenario_id, step_id, fmt, lang):
    """Each step's reference move earns the step; each listed wrong move fails with its codes."""
    s, step = SCENARIOS[scenario_id], step_of(scenario_id, step_id)
    right = grade_move(s, step, fmt, move_text(step, reference_move(s, step, fmt, lang)), lang)
    assert right.correct and right.findings == ()
    for move, codes in wrong_moves(s, step, fmt, lang):
        g = grade_move(s, step, fmt, move_text(step, move), lang)
        assert not g.correct
        assert set(codes) <= set(g.codes)


def test_plain_call_wrong_choice_names_its_consequence():
    s = SCENARIOS["plain_call"]
    g = grade_move(s, s.steps[0], "anthropic", "resend_same", "en")
    assert (g.correct, g.consequence, g.codes) == (False, "stuck_loop", ("choice:stuck_loop",))
    assert g.feedback.startswith("The model cannot run anything.")
    assert g.findings[0].http_400 is False


def test_parallel_only_success_is_a_400():
    s = SCENARIOS["parallel_partial"]
    g = grade_move(s, s.steps[0], "openai", "only_success", "zh")
    assert g.codes == ("choice:http_400",) and g.findings[0].http_400


def test_plain_call_exact_findings_for_a_result_without_the_echo():
    """The exact codes, in order: pairing first (HTTP 400), then the expectations."""
    s = SCENARIOS["plain_call"]
    step = s.steps[1]
    move, _ = wrong_moves(s, step, "anthropic", "en")[0]
    g = grade_move(s, step, "anthropic", json.dumps(move), "en")
    assert g.codes == ("pairing:orphan_result", "expect:echo", "expect:result")
    assert [f.http_400 for f in g.findings] == [True, False, False]
    assert g.findings[1].message == t("harness.expect.echo", "en", index=1)
    # two messages: the results' message, messages[2], does not exist, and the finding says so
    # (issue 14: "The tool result(s) must come first in messages[2]" as if it existed)
    result = t("harness.expect.result", "en", id=g.findings[2].message.split()[4], index=2)
    assert g.findings[2].message == t("harness.expect.ends_at", "en", finding=result, last=1)


@pytest.mark.parametrize("scenario_id, step_id, fmt", [c for c in STEP_CASES if step_of(*c[:2]).kind == "json"])
def test_no_finding_names_a_message_past_the_end_as_if_it_existed(scenario_id, step_id, fmt):
    """Every json step's reference move and listed wrong moves, cut to every shorter messages list:
    an expectation finding that names messages[i] past the request's end also says where the request ends."""
    s, step = SCENARIOS[scenario_id], step_of(scenario_id, step_id)
    moves = [reference_move(s, step, fmt, "en")] + [m for m, _ in wrong_moves(s, step, fmt, "en")]
    checked = 0
    for move in moves:
        for n in range(len(move["messages"]) + 1):
            cut = {**move, "messages": move["messages"][:n]}
            for f in grade_move(s, step, fmt, json.dumps(cut), "en").findings:
                past = [int(i) for i in re.findall(r"messages\[(\d+)\]", f.message) if int(i) >= n]
                if not f.code.startswith("expect:"):  # the pairing checker names the end itself (issue 14)
                    assert not past, (n, f.code, f.message)
                    continue
                end = (t("harness.expect.ends_at", "en", finding="", last=n - 1) if n
                       else t("harness.expect.no_messages", "en", finding=""))
                assert not past or f.message.endswith(end), (n, f.code, f.message)
                checked += bool(past)
    assert checked > 0 or len(moves) == 1


def test_parallel_timeout_without_retryable_fails_is_error_only():
    s = SCENARIOS["parallel_partial"]
    step = s.steps[1]
    move, _ = wrong_moves(s, step, "openai", "en")[1]
    g = grade_move(s, step, "openai", json.dumps(move), "en")
    assert g.codes == ("expect:is_error",)
    assert "retryable" in g.findings[0].message


def test_parallel_results_in_completion_order_still_pair():
    """The reference answers the timed-out call first (completion order): pairing is by id."""
    s = SCENARIOS["parallel_partial"]
    step = s.steps[1]
    ref = reference_move(s, step, "anthropic", "en")
    ids = [b["tool_use_id"] for b in ref["messages"][2]["content"]]
    calls = [b["id"] for b in ref["messages"][1]["content"] if b["type"] == "tool_use"]
    assert ids == list(reversed(calls))
    assert grade_move(s, step, "anthropic", json.dumps(ref), "en").correct


def test_pause_turn_exists_in_anthropic_only():
    s = SCENARIOS["stop_reasons"]
    assert [st.id for st in s.steps_for("anthropic")] == ["max_tokens_mid_call", "refusal", "end_turn_text", "pause_turn"]
    assert [st.id for st in s.steps_for("openai")] == ["max_tokens_mid_call", "refusal", "end_turn_text"]


def test_fake_model_maps_stop_reasons_to_openai():
    s = SCENARIOS["stop_reasons"]
    cut = model_response(s, s.steps[0], "openai", "en")
    assert cut["choices"][0]["finish_reason"] == "length"
    assert cut["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == \
        '{"order_id": "ORD-20260917", "amount_cents": 19'
    refused = model_response(s, s.steps[1], "openai", "zh")["choices"][0]
    assert (refused["finish_reason"], refused["message"]["content"], refused["message"]["refusal"]) == \
        ("stop", None, "这个请求我无法协助。")
    assert model_response(s, s.steps[1], "anthropic", "en")["stop_reason"] == "refusal"


@pytest.mark.parametrize("text, code", [("", "parse:EMPTY"), ("{", "parse:INVALID_JSON"), ("[]", "parse:NOT_A_REQUEST"),
                                        ('{"messages": [], "messages": []}', "parse:DUPLICATE_KEYS"),
                                        ('{"messages": [NaN]}', "parse:INVALID_JSON"),
                                        ("{" + " " * MAX_MOVE_CHARS + "}", "parse:TOO_LARGE")])
def test_unreadable_json_moves(text, code):
    s = SCENARIOS["plain_call"]
    g = grade_move(s, s.steps[1], "anthropic", text, "en")
    assert g.codes == (code,) and g.request is None


def test_run_scores_and_unreadable_moves_do_not_count():
    s = SCENARIOS["plain_call"]
    run = new_run(s, "openai")
    assert not play(s, run, "tell_user_done").correct
    assert play(s, run, "validate_run_return").correct
    assert play(s, run, "{oops", "en").codes == ("parse:INVALID_JSON",)
    assert play(s, run, move_text(s.steps[1], reference_move(s, s.steps[1], "openai", "en"))).correct
    assert play(s, run, "show_and_stop").correct
    assert run.done(s) and run.wrong == [1, 0, 0]
    assert run.score(s) == (2.5, 3.0)
    assert [step_points(n) for n in range(4)] == [1.0, 0.5, 0.0, 0.0]


def test_new_run_refuses_unknown_format():
    with pytest.raises(ValueError):
        new_run(SCENARIOS["plain_call"], "gemini")


def test_build_request_keeps_model_and_tools_from_the_harness():
    s = SCENARIOS["plain_call"]
    req = build_request(s, "openai", {"messages": [], "tools": "student value", "model": "x"})
    assert req["model"] == "x" and req["tools"][0]["function"]["name"] == "refund_order"


def copy_scenarios(tmp_path, edit):
    folder = tmp_path / "fixtures" / "scenarios"
    folder.mkdir(parents=True)
    src = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "01-plain-call.yaml"
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    edit(data)
    (folder / "01-plain-call.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return tmp_path


def test_check_reports_two_right_options(tmp_path):
    def edit(data):
        data["steps"][0]["options"][0]["correct"] = True
        data["steps"][0]["options"][0].pop("consequence")
    root = copy_scenarios(tmp_path, edit)
    problems = check_scenarios(root)
    assert [(p.path, p.message) for p in problems] == [
        ("$.steps[0].options", "a choice step needs exactly one correct option, found 2")]


def test_check_reports_a_correct_option_with_a_consequence(tmp_path):
    # correct: true beside a consequence passed check; the page shows the option as right and drops the consequence
    def edit(data):
        step = data["steps"][0]
        right = next(o for o in step["options"] if o.get("correct"))
        right["consequence"] = "http_400"
    root = copy_scenarios(tmp_path, edit)
    right = next(j for j, o in enumerate(yaml.safe_load((root / "fixtures" / "scenarios" / "01-plain-call.yaml")
                                                        .read_text(encoding="utf-8"))["steps"][0]["options"])
                 if o.get("correct"))
    assert [(p.path, p.message) for p in check_scenarios(root)] == [
        (f"$.steps[0].options[{right}].consequence", "the correct option names the consequence 'http_400', which the "
         "page never shows for a right move: remove it, or make the option wrong")]


def _choice_steps():
    """(file, step index) of every choice step of the scenarios in the content root."""
    return [(f.name, i) for f in sorted((CONTENT_ROOT / "fixtures" / "scenarios").glob("*.yaml"))
            for i, st in enumerate(yaml.safe_load(f.read_text(encoding="utf-8"))["steps"]) if st["kind"] == "choice"]


@pytest.mark.parametrize("name, index", _choice_steps())
def test_check_reports_a_consequence_on_every_right_option(tmp_path, name, index):
    src = CONTENT_ROOT / "fixtures" / "scenarios" / name
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    options = data["steps"][index]["options"]
    right = next(j for j, o in enumerate(options) if o.get("correct"))
    options[right]["consequence"] = next(o["consequence"] for o in options if not o.get("correct"))
    folder = tmp_path / "fixtures" / "scenarios"
    folder.mkdir(parents=True)
    (folder / src.name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert [p.path for p in check_scenarios(tmp_path)] == [f"$.steps[{index}].options[{right}].consequence"]


def test_check_reports_a_hint_on_a_choice_step(tmp_path):
    # explain on a choice step passed check; only json steps show it, so the hint never reached a student
    def edit(data):
        step = next(s for s in data["steps"] if s["kind"] == "choice")
        step["explain"] = {"en": "Look at the ids.", "zh": "看 id。"}
    root = copy_scenarios(tmp_path, edit)
    at = next(i for i, s in enumerate(load_scenario(CONTENT_ROOT / "fixtures" / "scenarios" / "01-plain-call.yaml")
                                      .steps) if s.kind == "choice")
    assert [(p.path, p.message) for p in check_scenarios(root)] == [
        (f"$.steps[{at}].explain", "a choice step never reads 'explain' (it reads options besides the common fields): "
         "remove it, or change the kind")]


def _foreign_step_fields():
    """(file, step index, field) for every shipped step and every field only the other kind reads."""
    out = []
    for f in sorted((CONTENT_ROOT / "fixtures" / "scenarios").glob("*.yaml")):
        for i, st in enumerate(yaml.safe_load(f.read_text(encoding="utf-8"))["steps"]):
            other = set().union(*STEP_KIND_FIELDS.values()) - STEP_KIND_FIELDS[st["kind"]]
            out += [(f.name, i, field) for field in sorted(other)]
    return out


def test_the_step_kinds_share_out_every_field_of_the_schema():
    schema = json.loads((CONTENT_ROOT / "fixtures" / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    step = schema["$defs"]["step"]
    assert set(step["properties"]) == STEP_COMMON_FIELDS | set().union(*STEP_KIND_FIELDS.values())
    assert set(STEP_KIND_FIELDS) == set(step["properties"]["kind"]["enum"])


@pytest.mark.parametrize("name, index, field", _foreign_step_fields())
def test_check_reports_every_field_the_step_kind_never_reads(tmp_path, name, index, field):
    src = CONTENT_ROOT / "fixtures" / "scenarios" / name
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    other = next(s for s in data["steps"] if field in s) if any(field in s for s in data["steps"]) else None
    feedback = {"en": "F", "zh": "反"}
    sample = {"options": [{"id": "x", "label": {"en": "X", "zh": "甲"}, "correct": True, "feedback": feedback},
                          {"id": "y", "label": {"en": "Y", "zh": "乙"}, "consequence": "crash", "feedback": feedback}],
              "answer": {}, "expect": [], "wrong_moves": [], "history": [], "explain": {"en": "E", "zh": "解"}}
    data["steps"][index][field] = other[field] if other else sample[field]
    folder = tmp_path / "fixtures" / "scenarios"
    folder.mkdir(parents=True)
    (folder / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert f"$.steps[{index}].{field}" in [p.path for p in check_scenarios(tmp_path)]


def test_check_reports_a_wrong_move_that_passes(tmp_path):
    def edit(data):
        data["steps"][1]["wrong_moves"][0]["move"] = data["steps"][1]["answer"]["anthropic"]
    root = copy_scenarios(tmp_path, edit)
    problems = check_scenarios(root)
    assert {p.path for p in problems} == {"$.steps[1].wrong_moves"}
    assert len(problems) == 2  # once per language


def test_loader_names_the_json_path_of_a_typo(tmp_path):
    root = copy_scenarios(tmp_path, lambda d: d["steps"][0].update(kind="radio"))
    with pytest.raises(FixtureError) as exc:
        load_scenario(root / "fixtures" / "scenarios" / "01-plain-call.yaml")
    assert exc.value.problems[0].path == "$.steps[0].kind"


def test_scenarios_export_like_exercises(tmp_path):
    """A scenario's row in the instructor's export: id harness:<id>, page harness_lab, its points."""
    from toolcall.harness_grading import progress_entries
    from toolcall.progress import ProgressStore, export_rows

    store = ProgressStore(tmp_path)
    store.record("ann", "harness:stop_reasons", '{"format": "openai"}', 2.5, 3)
    entries = progress_entries(LOADED.scenarios)
    rows = {r["exercise_id"]: r for r in export_rows("ann", entries, store.all("ann"), "zh",
                                                      {e.id: e.max_score for e in entries})}
    assert list(rows) == [f"harness:{s.id}" for s in LOADED.scenarios]
    done = rows["harness:stop_reasons"]
    assert (done["page"], done["type"], done["title"], done["best_score"], done["max_score"], done["tries"]) == \
        ("harness_lab", "harness", "停止原因", 2.5, 3.0, 1)
    assert (rows["harness:plain_call"]["max_score"], rows["harness:plain_call"]["tries"]) == (3.0, 0)
    assert next(e for e in entries if e.id == "harness:stop_reasons").max_score == 4.0
    store.close()


def test_an_openai_echo_copied_with_null_fields_still_counts():
    """Students copy the response's message as shown, "refusal": null included."""
    s = SCENARIOS["plain_call"]
    step = s.steps[1]
    move = reference_move(s, step, "openai", "en")
    move["messages"][1] = dict(model_response(s, step, "openai", "en")["choices"][0]["message"])
    assert move["messages"][1]["refusal"] is None
    assert grade_move(s, step, "openai", json.dumps(move), "en").correct
    move["messages"][1]["content"] = "changed"
    assert grade_move(s, step, "openai", json.dumps(move), "en").codes == ("expect:echo",)


def test_check_requires_pause_turn_to_be_anthropic_only(tmp_path):
    def edit(data):
        data["steps"][2]["model"]["stop_reason"] = "pause_turn"
    root = copy_scenarios(tmp_path, edit)
    assert [(p.path, p.message) for p in check_scenarios(root)] == [
        ("$.steps[2].formats", "pause_turn exists in the Anthropic API only: list formats: [anthropic]")]


@pytest.mark.parametrize("bad_id", [5, None, ["c1"], {"id": "c1"}, True])
def test_a_tool_call_id_that_is_not_a_string_is_a_type_error_not_missing(bad_id):
    """Issue 14: ``"tool_call_id": 5`` was reported as a missing tool_call_id; it is present, and
    must be a string. Derived from each OpenAI step's reference move: every tool message's id replaced."""
    s = SCENARIOS["plain_call"]
    step = next(st for st in s.steps_for("openai") if st.kind != "choice")
    move = reference_move(s, step, "openai", "zh")
    tools = [m for m in move["messages"] if isinstance(m, dict) and m.get("role") == "tool"]
    assert tools, "the reference move has a tool message"
    for m in tools:
        m["tool_call_id"] = bad_id
    g = grade_move(s, step, "openai", json.dumps(move), "zh")
    assert "pairing:missing_tool_call_id" not in g.codes
    assert "pairing:wrong_content_type" in g.codes
    finding = next(f for f in g.findings if f.code == "pairing:wrong_content_type")
    assert "tool_call_id" in finding.message and t("type.string", "zh") in finding.message


def _finished(scenario, fmt, wrong):
    run = new_run(scenario, fmt)
    run.wrong, run.step = list(wrong), len(wrong)
    return run


@pytest.mark.parametrize("first, then, best, solved", [
    # Anthropic 4/4 then OpenAI 2/3: the best stays 4 of 4 (was "4 of 3")
    (("anthropic", [0, 0, 0, 0]), ("openai", [0, 0, 2]), 4.0, True),
    # OpenAI 3/3 then Anthropic 3.5/4: still solved (was un-solved: 3.5 of 4)
    (("openai", [0, 0, 0]), ("anthropic", [0, 0, 0, 1]), 4.0, True),
    # OpenAI 2/3 then Anthropic 3.5/4: 3.5 is the better fraction
    (("openai", [0, 0, 2]), ("anthropic", [0, 0, 0, 1]), 3.5, False),
])
def test_runs_in_both_formats_share_one_scale(tmp_path, first, then, best, solved):
    """Issue 13: stop_reasons has 4 Anthropic steps and 3 OpenAI steps; every finished run is recorded
    on the scale of progress_max (4), whatever format it was played in."""
    from toolcall.harness_grading import progress_max, progress_score
    from toolcall.progress import ProgressStore

    scenario = SCENARIOS["stop_reasons"]
    assert [len(scenario.steps_for(f)) for f in ("anthropic", "openai")] == [4, 3] and progress_max(scenario) == 4.0
    store = ProgressStore(tmp_path)
    for fmt, wrong in (first, then):
        run = _finished(scenario, fmt, wrong)
        earned, points = run.score(scenario)
        score, top = progress_score(scenario, run)
        assert top == 4.0 and score == pytest.approx(earned / points * 4)
        rec = store.record("ann", scenario.progress_id, run_summary(scenario, run), score, top)
    assert (rec.best_score, rec.max_score, rec.solved) == (best, 4.0, solved)
    store.close()


# --- newcomer session 7: the dashboard reads a stored run as wrong moves by step ----------------------

@pytest.mark.parametrize("lang, shown", [
    ("en", "Anthropic · wrong moves: step 1 ×1, step 3 ×2"),
    ("zh", "Anthropic · 走错的步骤：第 1 步 ×1、第 3 步 ×2"),
])
def test_a_stored_run_reads_as_its_wrong_moves_by_step(lang, shown):
    from toolcall.dashboard import normalize_answer
    from toolcall.harness_grading import readable_summary

    stored = json.dumps({"format": "anthropic", "wrong_per_step": [1, 0, 2], "moves": ["validate_run_return"] * 40})
    assert readable_summary(stored, lang) == shown
    # as the dashboard groups it: case-folded and cut to its first characters (the moves come last)
    assert readable_summary(normalize_answer(stored), lang) == shown
    assert readable_summary(stored[:70], lang) == shown
    none = json.dumps({"format": "openai", "wrong_per_step": [0, 0], "moves": []})
    assert readable_summary(none, lang) == {"en": "OpenAI · no wrong move", "zh": "OpenAI · 没有走错"}[lang]
    for other in ("", "0.5", '["a"]', '{"format": "anthropic"', "harness"):
        assert readable_summary(other, lang) == other


def test_every_finished_run_of_every_scenario_reads_without_json():
    """The next scenario too: the summary of a run through any shipped scenario, in any format, with a wrong
    move at each step, reads as text (no brace, no field name) in both languages."""
    from toolcall.harness_grading import new_run, readable_summary, run_summary

    for scenario in load_scenarios().scenarios:
        for fmt in ("anthropic", "openai"):
            if not scenario.steps_for(fmt):
                continue
            run = new_run(scenario, fmt)
            run.wrong = [1] * len(run.wrong)
            for lang in ("en", "zh"):
                text = readable_summary(run_summary(scenario, run), lang)
                assert "{" not in text and "wrong_per_step" not in text, (scenario.id, fmt, text)


def test_the_retries_scenario_names_the_expected_type_in_chinese():
    """Newcomer session 12 read "校验结果：amount_cents 应为 integer，收到的是小数 19.99" (the schema's word in English in
    the middle of a Chinese sentence whose other type, 小数, is Chinese); the playground says 类型为整数."""
    scenario = next(s for s in load_scenarios().scenarios if s.id == "retries_cap")
    said = [step.world["zh"] for step in scenario.steps if step.world and "amount_cents" in step.world["zh"]]
    assert said == ["校验结果：amount_cents 应为整数（integer），收到的是字符串 '19.99'。",
                    "校验结果：amount_cents 应为整数（integer），收到的是小数 19.99。这是第二次不合法的调用。",
                    "校验结果：amount_cents 应为整数（integer），收到的是字符串 '1999 cents'。第三次不合法：两次重试都用完了。"]
    assert [step.world["en"] for step in scenario.steps if step.world and "amount_cents" in step.world["en"]] == [
        "Validation: amount_cents: '19.99' is not of type 'integer'.",
        "Validation: amount_cents: 19.99 is not of type 'integer'. This is the second invalid call.",
        "Validation: amount_cents: '1999 cents' is not of type 'integer'. Third invalid call: both retries are used up."]


JSON_STEP_CASES = [c for c in STEP_CASES if step_of(c[0], c[1]).kind == "json"]


@pytest.mark.parametrize("scenario_id, step_id, fmt", JSON_STEP_CASES)
@pytest.mark.parametrize("began, page", [("en", "zh"), ("zh", "en")])
def test_a_move_begun_in_one_language_is_right_after_a_language_switch(scenario_id, step_id, fmt, began, page):
    """The editor is the student's in both languages: a student who began a step on the English page and then
    switched to Chinese still holds the English customer's sentence. The reference move written from it was
    told "已有的对话要原样保留：前 1 条消息不能改。" (newcomer session 14): the conversation so far is kept, in the
    language it began in."""
    from toolcall.harness_grading import conversation_lang

    scenario, step = SCENARIOS[scenario_id], step_of(scenario_id, step_id)
    move = reference_move(scenario, step, fmt, began)
    grade = grade_move(scenario, step, fmt, move_text(step, move), page)
    assert (grade.correct, grade.findings) == (True, ())
    assert conversation_lang(scenario, step, fmt, move["messages"], page) == began


def test_a_changed_history_is_still_wrong_in_either_language():
    """Accepting the other language's history word for word accepts nothing else: a first message changed
    from both is told so, in the page's language."""
    from toolcall.harness_grading import conversation_lang

    scenario, step = SCENARIOS["plain_call"], step_of("plain_call", "write_followup")
    move = reference_move(scenario, step, "anthropic", "en")
    move["messages"][0]["content"] = "Refund me."
    grade = grade_move(scenario, step, "anthropic", move_text(step, move), "zh")
    assert [(f.code, f.message) for f in grade.findings] == [("expect:history", "已有的对话要原样保留：前 1 条消息不能改。")]
    assert conversation_lang(scenario, step, "anthropic", move["messages"], "zh") == "zh"
