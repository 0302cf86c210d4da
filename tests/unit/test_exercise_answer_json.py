"""A student's own malformed JSON answer gets hints about *their answer* (where it breaks, in their
language), never the advice written for a model's truncated output (raise ``max_tokens``): issue 14."""

from string import Formatter

import pytest

from toolcall.exercise_types.base import answer_hints
from toolcall.exercises import load_exercises
from toolcall.grading import EXERCISE_TYPES, grade, grading_inputs
from toolcall.i18n import LANGS, catalogue
from toolcall.parsing import Hint

#: Words of the model-output advice that a student's answer must never get.
MODEL_WORDS = {"en": ("max_tokens", "stop_reason", "the model", "tool call", "arguments"),
               "zh": ("max_tokens", "stop_reason", "模型", "参数")}

#: (answer text, line, column of the place to fix, what the student is told is wrong with it in en)
MALFORMED = [('{"a": 1', 1, 7, "before the JSON is complete"),
             ("{'a':1}", 1, 2, "Python dict"),
             ('{"a": 1,}', 1, 8, "delete that last comma"),
             ('[\n  "send",\n  "run"', 3, 7, "before the JSON is complete")]


def one_exercise_per_type():
    """A shipped exercise of every type whose answer text is JSON (every type but number)."""
    found = {}
    for ex in load_exercises().exercises:
        found.setdefault(ex.type, ex)
    assert set(found) == set(EXERCISE_TYPES), "every exercise type has a shipped exercise"
    return [found[name] for name in sorted(found) if name != "number"]


@pytest.mark.parametrize("ex", one_exercise_per_type(), ids=lambda ex: ex.type)
@pytest.mark.parametrize("text,line,column,cause", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_answer_is_told_where_it_breaks_and_why(ex, text, line, column, cause):
    result = grade(ex, text, grading_inputs(ex))
    assert result.malformed and result.score == 0
    shown = {lang: [item.render(lang) for item in result.feedback] for lang in LANGS}
    for lang, words in MODEL_WORDS.items():
        assert not [line_ for line_ in shown[lang] for w in words if w in line_], shown[lang]
    assert any(f"line {line}, column {column}" in s for s in shown["en"]), shown["en"]
    assert any(cause in s for s in shown["en"]), shown["en"]
    assert any(f"第 {line} 行第 {column} 列" in s for s in shown["zh"]), shown["zh"]


def hint_keys():
    """Every parser hint the catalogue words (``hint.<key>``), so a new one is checked too."""
    return sorted(k.removeprefix("hint.") for k in catalogue("en") if k.startswith("hint."))


@pytest.mark.parametrize("key", hint_keys())
def test_no_parser_hint_reaches_a_student_in_the_model_output_wording(key):
    templates = [catalogue(lang)[f"hint.{key}"] for lang in LANGS] + [
        catalogue(lang).get(f"exercises.answer_hint.{key}", "") for lang in LANGS]
    params = {name: "array" if name == "type" else "x"
              for template in templates for _, name, _, _ in Formatter().parse(template) if name}
    (item,) = answer_hints([Hint(key, params)])
    for lang, words in MODEL_WORDS.items():
        text = item.render(lang)
        assert not [w for w in words if w in text], (key, lang, text)


def test_the_json_type_in_a_hint_is_in_the_students_language():
    ex = next(e for e in load_exercises().exercises if e.type == "json")
    result = grade(ex, "[1, 2]", grading_inputs(ex))
    zh = [item.render("zh") for item in result.feedback]
    assert any(s.startswith("你的答案是") and "array" not in s for s in zh), zh


@pytest.mark.parametrize("answer, en, zh", [
    ('{"a": NaN}', "NaN is not valid JSON", "NaN 不是合法的 JSON"),
    ('{"a": "x", "a": "y"}', "duplicate keys: a", "键重复：a"),
    ('{"a": 1e999}', "number 1e999 overflows a double", "数字 1e999 超出了双精度浮点数的范围")])
def test_an_answer_the_parser_gives_no_place_for_is_not_put_at_line_1_column_1(answer, en, zh):
    """NaN, a key written twice or a number past a double has no place from the parser; the choice, order and
    classify formats said "(line 1, column 1: NaN is not valid JSON)", pointing at the answer's first character."""
    from toolcall.exercises import load_exercises
    from toolcall.grading import grade, grading_inputs

    exercise = next(e for e in load_exercises().exercises if e.type == "classify")
    first = grade(exercise, answer, grading_inputs(exercise)).feedback[0]
    assert first.render("en") == (f"This answer cannot be read. {en}. Expected a JSON object mapping each item id to "
                                  "a category id.")
    assert first.render("zh") == f"读不懂这个答案。{zh}。应该是把每个条目 id 对应到类别 id 的 JSON 对象。"


def test_a_schema_fix_answer_that_is_not_json_names_its_place_once():
    """The schema checker's message quotes the parser's explanation with its place; json_trouble then added
    "Your answer breaks at line 1, column 17, just after: …", the same place a second time."""
    exercise = next(e for e in load_exercises().exercises if e.type == "schema_fix")
    feedback = grade(exercise, '{"type": "object" "properties": {}}', grading_inputs(exercise)).feedback
    assert [f.render("en") for f in feedback] == [
        'Not JSON: A comma is missing after this, at line 1, column 17: {"type": "object" — put a , right after it '
        "(if the object or list ends there, close it with } or ]). (Parser's message: Expecting ',' delimiter)."]
    assert [f.render("zh") for f in feedback] == [
        '不是合法的 JSON：这里后面少了一个逗号（第 1 行第 17 列）：{"type": "object" —— 在它后面紧接着加上 ,'
        "（如果对象或列表到这里结束，就用 } 或 ] 把它关上）。（解析器原文：“Expecting ',' delimiter”）。"]
