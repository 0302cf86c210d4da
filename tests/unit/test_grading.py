"""Each exercise grader with right, wrong and malformed answers (tests/unit)."""

import json
from math import comb

import pytest

from tests.conftest import unit_exercises
from toolcall.exercise_types.number import NumberError
from toolcall.fixtures import load_outputs
from toolcall.i18n import t
from toolcall.text import clip
from toolcall.grading import (MAX_ANSWER_CHARS, FeedbackItem, Grade, answer_text, answer_value, grade, grading_inputs,
                              parse_number)

EX = unit_exercises().by_id()


def g(ex_id: str, text: str) -> Grade:
    return grade(EX[ex_id], text, grading_inputs(EX[ex_id]))


def levels(result: Grade) -> list[str]:
    return [f.level for f in result.feedback]


def english(result: Grade) -> list[str]:
    return [f.render("en") for f in result.feedback]


# --- choice --------------------------------------------------------------------------

def test_choice_single_right_wrong_and_bare_id():
    """A single id may be given bare, quoted, or in a list; only the right one scores."""
    for text in ('silent', '"silent"', '["silent"]'):
        assert (g("pg_enum_case", text).score, g("pg_enum_case", text).max_score) == (1, 1)
    wrong = g("pg_enum_case", '["api_error"]')
    assert (wrong.score, wrong.correct, wrong.malformed) == (0, False, False)
    assert levels(wrong) == ["wrong"]
    assert english(wrong)[0].startswith("Not this one: The API would have returned an error")


def test_choice_multiple_needs_the_exact_set_and_counts_missed():
    assert g("ex_misconceptions", '["strict_validate", "cap_retries", "downstream"]').correct
    partial = g("ex_misconceptions", '["strict_validate", "model_runs"]')
    assert (partial.score, partial.max_score) == (0, 1)
    assert levels(partial) == ["ok", "wrong", "info"]
    assert english(partial)[-1] == "Correct options left out: 2."


def test_choice_known_wrong_answer_gets_targeted_feedback_first():
    result = g("pg_strict_keywords", '["minimum", "max_length", "enum"]')
    assert result.score == 0
    assert english(result)[0].startswith("enum is fine in strict mode")


@pytest.mark.parametrize("text, key", [
    ("", "exercises.fb.empty"), ("[1, 2]", "exercises.fb.wrong_shape"), ('["zzz"]', "exercises.fb.unknown_option"),
    ('["silent", "api_error"]', "exercises.fb.single_only"), ("[silent", "exercises.fb.bad_format_explained"),
    ("[]", "exercises.fb.empty"),
])
def test_choice_malformed(text, key):
    result = g("pg_enum_case", text)
    assert (result.score, result.malformed) == (0, True)
    assert result.feedback[0].key == key


# --- number ----------------------------------------------------------------------------

def test_number_pass3_matches_the_unbiased_estimator():
    """pass^3 from 8 of 10 is C(8,3)/C(10,3) = 56/120 ≈ 0.467 in every accepted spelling."""
    assert comb(8, 3) / comb(10, 3) == 56 / 120 == 7 / 15
    for text in ("0.467", ".4667", "56/120", "7/15", "46.7%", " 46.67 % ", "4.667e-1", "0.47"):
        assert g("pk_pass3", text).correct, text
    for text in ("0.46", "0.475", "0.7", "84/120"):
        assert not g("pk_pass3", text).correct, text


def test_number_plug_in_gets_targeted_feedback():
    result = g("pk_pass3", "0.512")
    assert (result.score, result.malformed) == (0, False)
    assert english(result) == ["That is the plug-in (c/n)^k = 0.8^3, which overestimates: it treats the observed "
                               "80% as the true rate."]
    assert g("pk_pass3", str(0.8 ** 3)).feedback == result.feedback


def test_number_unknown_wrong_value():
    result = g("pk_pass3", "0.5")
    assert english(result) == ["0.5 is not the expected value. Check each step of the calculation."]


def test_number_other_exercises_use_exact_arithmetic():
    assert g("pk_retries", str(0.3 ** 3)).correct
    assert not g("pk_retries", str(0.2 ** 3)).correct  # the lab's default, not this exercise
    assert g("pk_ambiguity", str(0.95 ** 20)).correct
    assert not g("pk_ambiguity", str(0.9 ** 24)).correct  # the lab's default, not this exercise
    assert g("pk_ambiguity", str(0.95 ** 2)).feedback[0].text["en"].startswith("q^m = 0.95^2 is one run")


@pytest.mark.parametrize("text", ["abc", "1/0", "nan", "inf", "0x10", "1e999", "", "70%%", "--1"])
def test_number_malformed(text):
    result = g("pk_pass3", text)
    assert (result.score, result.malformed) == (0, True)


def test_parse_number():
    # a Chinese input method's full-width mode, and the minus sign U+2212: "０．７" was "not a number" while
    # "８４/120" passed (float() reads any Unicode digit, not the full-width point, slash or minus)
    typed = ("０．７", "８４／１２０", "７０％", "－０．５", "−0.5", "1e−1", "．７")
    assert [parse_number(s) for s in typed] == [0.7, 0.7, 0.7, -0.5, -0.5, 0.1, 0.7]
    with pytest.raises(NumberError) as refused:
        parse_number("\ufdfa" * 20)  # NFKC makes 18 characters of each (360): not a number, and 20 characters typed
    assert refused.value.code == "not_number"
    with pytest.raises(NumberError) as refused:
        parse_number("\ufdfa" * 201)  # too long as typed: folded only when short
    assert (refused.value.code, refused.value.params) == ("number_too_long", {"length": 201, "limit": 200})
    assert [parse_number(s) for s in ("0.7", "84/120", "70%", "７0％".replace("７", "7"))] == [0.7, 0.7, 0.7, 0.7]
    # a decimal comma is ambiguous (0,7 or 7?): refused, never silently read as 7
    for text in ("seven", "0,7", "1,000", "0.7" + " " * 200 + "garbage"):
        with pytest.raises(ValueError):
            parse_number(text)


# --- json ------------------------------------------------------------------------------

REF_RESULT = {"type": "tool_result", "tool_use_id": "toolu_01A", "is_error": True,
              "content": "amount_cents: expected an integer, received \"19.99\""}


def test_json_right_answer():
    result = g("pg_error_result", json.dumps(REF_RESULT))
    assert (result.score, result.max_score, english(result)) == (1, 1, ["Your JSON satisfies every rule."])


def test_json_wrong_answer_lists_the_failing_paths():
    bad = dict(REF_RESULT, tool_use_id="toolu_99")
    del bad["is_error"]
    result = g("pg_error_result", json.dumps(bad))
    assert (result.score, result.malformed) == (0, False)
    assert english(result) == [
        '/is_error: expected this required field; received nothing: the field is missing.',
        '/tool_use_id: expected exactly "toolu_01A"; received string "toolu_99".',
    ]
    assert result.feedback[0].render("zh").startswith("/is_error：期望")


def test_json_each_missing_field_is_reported_once():
    result = g("pg_error_result", '{"type": "tool_result"}')
    assert english(result) == [f"/{name}: expected this required field; received nothing: the field is missing."
                               for name in ("content", "is_error", "tool_use_id")]


def test_json_not_json_gets_position_and_hints_not_an_exception():
    result = g("pg_error_result", "{'type': 'tool_result', 'is_error': True}")
    assert (result.score, result.malformed) == (0, True)
    assert english(result)[0] == (
        "Your answer is not a JSON object yet. Single quotes at line 1, column 2: {' — JSON writes strings and keys in "
        "double quotes (\"). (Parser's message: Expecting property name enclosed in double quotes).")
    assert result.feedback[1].key == "hint.python_dict"


@pytest.mark.parametrize("text", ["", "[]", '"x"', '{"a": 1, "a": 2}', "{" * 100 + "}" * 100, "\x00"])
def test_json_malformed_never_raises(text):
    result = g("pg_error_result", text)
    assert (result.score, result.malformed) == (0, True)


def test_a_5_mb_paste_is_refused_with_a_message():
    result = g("pg_error_result", "x" * 5_000_000)
    assert english(result) == [f"The answer is 5000000 characters; answers are graded up to {MAX_ANSWER_CHARS}."]


def test_parallel_results_need_both_in_order():
    ref = EX["wt_parallel_results"]
    assert grade(ref, answer_text(ref, ref.answer), grading_inputs(ref)).correct
    swapped = {"role": "user", "content": list(reversed(ref.answer["content"]))}
    result = grade(ref, json.dumps(swapped), grading_inputs(ref))
    assert result.score == 0
    assert "/content/0/tool_use_id: expected exactly \"toolu_01A\"; received string \"toolu_01B\"." in english(result)


# --- schema_fix ------------------------------------------------------------------------

N_CANNED = len(load_outputs().outputs)

def test_schema_fix_reference_scores_every_canned_output():
    ex = EX["pg_fix_schema"]
    result = grade(ex, answer_text(ex, ex.answer), grading_inputs(ex))
    assert (result.score, result.max_score) == (N_CANNED, N_CANNED)
    assert english(result) == [f"{N_CANNED} of {N_CANNED} canned outputs get their expected verdict."]


def test_schema_fix_starter_leaks_every_bad_output_the_schema_must_catch():
    from toolcall.fixtures import load_tool
    from toolcall.presets import apply_preset, schema_text
    starter = schema_text(apply_preset(load_tool().input_schema, "all_constraints_stripped"))
    result = g("pg_fix_schema", starter)
    schema_caught = [o for o in load_outputs().outputs if o.expected == "rejected" and o.catches != "INVALID_JSON"]
    assert (result.score, result.max_score) == (N_CANNED - len(schema_caught), N_CANNED)
    assert english(result)[0] == f"{N_CANNED - len(schema_caught)} of {N_CANNED} canned outputs get their expected verdict."
    assert english(result)[1] == 'Leaked: "Missing a required field" is accepted, but it should be rejected.'
    assert len(result.feedback) == 1 + len(schema_caught)


def test_schema_fix_over_rejection_is_reported():
    schema = dict(EX["pg_fix_schema"].answer, maxProperties=2)
    result = g("pg_fix_schema", json.dumps(schema))
    assert (result.score, result.max_score) == (N_CANNED - 1, N_CANNED)  # every bad output is still rejected
    assert 'Over-rejected: "Valid call" is valid, but your schema rejects it.' in english(result)


@pytest.mark.parametrize("text", ["", "{not json", "[]", '{"type": 12}'])
def test_schema_fix_malformed(text):
    result = g("pg_fix_schema", text)
    assert (result.score, result.max_score, result.malformed) == (0, N_CANNED, True)


# --- order -----------------------------------------------------------------------------

def test_order_right_wrong_malformed():
    right = g("wt_order", '["send", "tool_use", "run", "result", "final"]')
    assert (right.score, right.max_score) == (5, 5)
    wrong = g("wt_order", '["final", "tool_use", "run", "result", "send"]')
    assert (wrong.score, wrong.max_score) == (3, 5)
    assert english(wrong)[0] == "3 of 5 steps are in their place."
    assert english(wrong)[1].startswith("Position 1 should not hold: The model reads the result")
    for text in ('["send"]', '["send", "send", "run", "result", "final"]', '{"a": 1}', "send, run"):
        assert g("wt_order", text).malformed, text


# --- classify --------------------------------------------------------------------------

TAXONOMY = {"cancel": "wrong_tool", "string_amount": "invalid", "hundredfold": "wrong_value",
            "claimed": "no_call", "bad_reason": "invalid", "digits_swapped": "wrong_value"}


def test_classify_right_wrong_malformed():
    assert g("ex_failure_taxonomy", json.dumps(TAXONOMY)).score == 6
    wrong = g("ex_failure_taxonomy", json.dumps(dict(TAXONOMY, claimed="wrong_tool")))
    assert (wrong.score, wrong.max_score) == (5, 6)
    assert english(wrong)[1] == ('"The customer gave an order number and asked for a refund; the model answered '
                                 '"refund submitted" without any tool_use block" is not: Wrong tool')
    assert english(wrong)[2] == "Nothing ran. Check every reply for a tool_use block; fix the prompt."
    missing = g("ex_failure_taxonomy", json.dumps({"cancel": "wrong_tool"}))
    assert missing.malformed and len(missing.feedback) == 5
    unknown = g("ex_failure_taxonomy", json.dumps(dict(TAXONOMY, cancel="nope", extra="invalid")))
    assert [f.key for f in unknown.feedback] == ["exercises.fb.unknown_item", "exercises.fb.unknown_category"]
    assert g("ex_failure_taxonomy", "[1]").malformed


# --- shared ----------------------------------------------------------------------------

def test_feedback_renders_both_languages_and_params_per_language():
    item = FeedbackItem("ok", "exercises.fb.option_right", {"option": {"en": "Yes", "zh": "是"}})
    assert (item.render("en"), item.render("zh")) == ("Right: Yes", "选对了：是")
    assert Grade(1, 1, (item,)).to_dict() == {"score": 1, "max_score": 1, "correct": True, "malformed": False,
                                             "feedback": [{"level": "ok", "en": "Right: Yes", "zh": "选对了：是"}]}


def test_answer_value_reads_stored_text_back():
    assert answer_value(EX["wt_order"], '["send", "tool_use", "run", "result", "final"]')[0] == "send"
    assert answer_value(EX["pg_enum_case"], "silent") == ["silent"]
    assert answer_value(EX["ex_failure_taxonomy"], json.dumps(TAXONOMY)) == TAXONOMY
    assert answer_value(EX["wt_order"], "garbage") is None
    assert answer_value(EX["pk_pass3"], "70%") == "70%"


def test_huge_integers_and_surrogates_in_json_answers_are_malformed_not_raised():
    ex = next(e for e in EX.values() if e.type == "choice")
    for text in ("1" * 5000, '"\\ud800"'):
        result = grade(ex, text, grading_inputs(ex))
        assert result.malformed and result.score == 0


def test_malformed_json_feedback_is_in_chinese_on_the_chinese_page():
    """The parser's own message is translated too, not left in English inside a Chinese sentence."""
    result = g("pg_error_result", "{'type': 'tool_result', 'is_error': True}")
    zh = result.feedback[0].render("zh")
    assert "Expecting" not in zh.split("（解析器原文")[0]  # the parser's own words only as a detail at the end
    assert zh.startswith("你的答案还不是一个 JSON 对象。第 1 行第 2 列用了单引号：{' —— JSON 的字符串和键都要用双引号")
    choice = g("pg_enum_case", "[silent")
    assert "Expecting" not in choice.feedback[0].render("zh").split("（解析器原文")[0]
    assert "Expecting" in choice.feedback[0].render("en")


def test_every_exercise_type_is_one_registry_entry_and_the_schema_enum_agrees():
    from toolcall.exercises import SCHEMA_PATH
    from toolcall.grading import EXERCISE_TYPES

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert sorted(EXERCISE_TYPES) == sorted(schema["properties"]["exercises"]["items"]["properties"]["type"]["enum"])
    read = {}
    for name, kind in EXERCISE_TYPES.items():
        ex = next(e for e in EX.values() if e.type == name)
        read[name] = []
        kind.inputs(ex, lambda what, relative, name=name: read[name].append((what, relative)))
    tool = next(e for e in EX.values() if e.type == "schema_fix").spec["tool"]
    assert {name: files for name, files in read.items() if files} == {
        "schema_fix": [("tool", f"tools/{tool}.json"), ("outputs", f"outputs/{tool}.yaml")]}


def test_each_type_is_one_module_and_checks_its_own_fixture_block():
    """The registry is discovered from toolcall/exercise_types/: one module per type, none left out."""
    import pkgutil

    import toolcall.exercise_types as package
    from toolcall.grading import EXERCISE_TYPES

    modules = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name != "base")
    assert len(modules) == len(EXERCISE_TYPES) == 6
    assert sorted(EXERCISE_TYPES) == sorted(
        {"json_object": "json"}.get(m, m) for m in modules)
    bad_choice = {"type": "choice", "options": [{"id": "a"}, {"id": "a"}], "answer": ["a", "z"], "multiple": False}
    assert EXERCISE_TYPES["choice"].check(bad_choice) == [
        (["options"], "duplicate options ids"), (["answer"], "unknown option ids ['z']"),
        (["answer"], "a single-choice exercise needs exactly one correct option")]
    assert EXERCISE_TYPES["number"].check({"type": "number", "answer": 1}) == []


def test_grade_is_pure_a_schema_fix_without_its_tool_is_refused():
    (ex,) = [e for e in EX.values() if e.type == "schema_fix"][:1]
    with pytest.raises(ValueError, match="schema_fix needs the tool"):
        grade(ex, "{}")


def test_totals_and_max_scores_come_from_the_core():
    from types import SimpleNamespace

    from toolcall.grading import max_scores, totals

    exercises = list(EX.values())[:3]
    records = {exercises[0].id: SimpleNamespace(solved=True, best_score=2.0, max_score=2.0, tries=1),
               exercises[1].id: SimpleNamespace(solved=False, best_score=0.5, max_score=3.0, tries=2)}
    assert totals(exercises, records) == (1, 2.5, 5.0)
    table = max_scores(exercises, grading_inputs)
    assert table == {ex.id: grade(ex, answer_text(ex, ex.answer), grading_inputs(ex)).max_score for ex in exercises}


# --- issue 14: a number answer that cannot be read says why, in en and zh ---------------------------

@pytest.mark.parametrize("answer, code, params", [
    ("1e400", "number_too_large", {}),
    ("-1e309", "number_too_large", {}),
    ("1e400%", "number_too_large", {}),
    ("1" * 5000, "number_too_long", {"length": 5000, "limit": 200}),
    ("1/0", "number_zero_denominator", {}),
    ("abc", "not_number", {}),
])
def test_an_unreadable_number_gives_the_real_reason(answer, code, params):
    from toolcall.exercises import load_exercises
    exercise = load_exercises().by_id()["pk_pass3"]
    result = grade(exercise, answer, grading_inputs(exercise))
    assert result.malformed and len(result.feedback) == 1
    item = result.feedback[0]
    assert item.key == f"exercises.fb.{code}"
    for lang in ("en", "zh"):
        assert item.render(lang) == t(item.key, lang, text=clip(answer.strip(), 40), **params)
    if code != "not_number":
        assert "is not a number" not in item.render("en") and "不是数字" not in item.render("zh")


@pytest.mark.parametrize("answer, shown", [
    ("1e308", "1e+308"), ("5e-324", "4.940656458e-324"), ("-1.7976931348623157e308", "-1.797693135e+308"),
    ("123456789012345678901234567890", "1.23456789e+29"), ("1e-9", "0.000000001"), ("1e-13", "1e-13"),
    ("9999999999", "9999999999"), ("12345678900", "1.23456789e+10"),
    ("0.000001", "0.000001"), ("0.1234567890123", "0.123456789")])
def test_a_wrong_number_is_quoted_no_longer_than_it_needs(answer, shown):
    """"1e308" came back as 309 digits, 5e-324 as 324 zeros, and a 30-digit number as another number ending in zeros."""
    from toolcall.exercises import load_exercises
    exercise = load_exercises().by_id()["pk_pass3"]
    result = grade(exercise, answer, grading_inputs(exercise))
    assert [f.render("en") for f in result.feedback] == [
        f"{shown} is not the expected value. Check each step of the calculation."]
    assert [f.render("zh") for f in result.feedback] == [f"{shown} 不是预期的结果，逐步检查一下计算过程。"]


def test_negative_zero_is_echoed_without_a_sign():
    from toolcall.exercises import load_exercises
    exercise = load_exercises().by_id()["pk_pass3"]
    result = grade(exercise, "-0.0", grading_inputs(exercise))
    assert result.feedback[0].render("en") == t("exercises.fb.number_off", "en", value="0")


# --- newcomer session 7: a scenario run to its end below full marks is "finished", not "in progress" ------

def _rec(best, top, tries=1, revealed=False):
    from types import SimpleNamespace

    return SimpleNamespace(best_score=best, max_score=top, tries=tries, revealed=revealed,
                           solved=top > 0 and best >= top)


def test_status_says_finished_for_a_scenario_below_full_marks_and_in_progress_for_an_exercise():
    from types import SimpleNamespace

    from toolcall.grading import finished_short, status

    scenario, exercise = SimpleNamespace(id="harness:plain_call", type="harness"), SimpleNamespace(id="x", type="number")
    assert status(scenario, _rec(2, 3)) == ("finished", {"score": "2", "max": "3"})
    assert status(scenario, _rec(2.5, 3)) == ("finished", {"score": "2.5", "max": "3"})
    assert status(scenario, _rec(3, 3)) == ("solved", {})
    assert status(scenario, None) == ("todo", {})
    assert status(exercise, _rec(0, 1, tries=2)) == ("tried", {})
    assert status(exercise, _rec(0, 1, tries=2, revealed=True)) == ("revealed", {})
    assert status(exercise, _rec(0, 1, tries=0, revealed=True)) == ("todo", {})
    records = {"harness:plain_call": _rec(2, 3), "x": _rec(0, 1)}
    assert finished_short([scenario, exercise], records) == 1


def test_every_status_has_a_label_in_both_languages():
    """The next status a core function returns must be said on the page: every key, both languages,
    with the params it is given."""
    from types import SimpleNamespace

    from toolcall.grading import status

    cases = [(SimpleNamespace(type=ty), rec) for ty in ("harness", "number", "choice")
             for rec in (None, _rec(1, 1), _rec(0.5, 1), _rec(0, 1, revealed=True))]
    for lang in ("en", "zh"):
        for entry, rec in cases:
            key, params = status(entry, rec)
            assert t(f"exercises.status.{key}", lang, **params)
    assert t("exercises.status.finished", "en", score="2", max="3") == "Finished, 2 of 3"
    assert t("exercises.status.finished", "zh", score="2", max="3") == "已完成，2/3 分"
