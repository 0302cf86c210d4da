"""A key that reads as a wire key without being it (Cyrillic о in ``rоle``, a zero-width space after ``content``,
fullwidth letters) is named where the student typed it: the pairing checker adds a note, the harness lab lists it
first among a move's findings, and a move whose ``messages`` key is such a key says so instead of "write one JSON
object with a messages list" (break-it pass brk12web2: the page read "role must be "user" / "assistant", not null"
over a transcript showing "role": "user")."""

import json

import pytest

from toolcall.harness import load_scenarios, starter
from toolcall.harness_grading import grade_move
from toolcall.pairing import check_pairing
from toolcall.text import reads_as

DETAIL = {"en": 'The key {written} reads as "{word}" but is not it: it holds a look-alike letter or an invisible '
                'character, so the API (and this checker) finds no {word} here.',
          "zh": "键 {written} 看起来是“{word}”，其实不是：里面有形近字母或看不见的字符，所以 API（和这个检查器）在这里找不到 {word}。"}
ADVICE = {"en": "Type the key {word} again in plain letters.", "zh": "用普通字母重新输入键 {word}。"}
TITLE = {"en": "A key that reads as a wire key but is not it", "zh": "看起来像接口字段、其实不是的键"}


@pytest.mark.parametrize("text, word", [("rоle", "role"), ("role\u200b", "role"), ("ｒｏｌｅ", "role"),
                                        ("functiоnCall", "functionCall"), ("tуpe", "type"), ("role", None),
                                        ("жжжж", None), ("rolex", None), ("内容", None)])
def test_reads_as(text, word):
    assert reads_as(text, frozenset({"role", "type", "functionCall"})) == word


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pairing_notes_name_each_lookalike_key(lang):
    messages = [{"rоle": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]},
                {"role": "user", "content\u200b": [{"tуpe": "tool_result", "tool_use_id": "t1", "content": "x"}]}]
    report = check_pairing(json.dumps(messages, ensure_ascii=False), "anthropic", lang)
    assert [(n.rule, n.message_index, n.detail, n.advice) for n in report.notes] == [
        ("lookalike_key", 0, DETAIL[lang].format(written="r\\u043ele", word="role"), ADVICE[lang].format(word="role")),
        ("lookalike_key", 2, DETAIL[lang].format(written="content\\u200b", word="content"),
         ADVICE[lang].format(word="content")),
        ("lookalike_key", 2, DETAIL[lang].format(written="t\\u0443pe", word="type"), ADVICE[lang].format(word="type"))]


def test_plain_keys_get_no_note():
    messages = [{"role": "user", "content": [{"type": "text", "text": "rоle"}]}]  # a value, not a key
    assert check_pairing(json.dumps(messages, ensure_ascii=False), "anthropic").notes == []


def _json_step():
    scenario = load_scenarios().by_id("plain_call")
    return scenario, next(s for s in scenario.steps_for("anthropic") if s.kind == "json")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_harness_move_lists_the_lookalike_key_first(lang):
    scenario, step = _json_step()
    move = starter(scenario, step, "anthropic", lang).replace('"role"', '"rоle"', 1)
    grade = grade_move(scenario, step, "anthropic", move, lang)
    first = grade.findings[0]
    sep = ": " if lang == "en" else "："
    assert (first.code, first.message, first.http_400) == (
        "pairing:lookalike_key", TITLE[lang] + sep + DETAIL[lang].format(written="r\\u043ele", word="role"), False)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_harness_move_with_a_lookalike_messages_key(lang):
    scenario, step = _json_step()
    move = starter(scenario, step, "anthropic", lang).replace('"messages"', '"messagеs"', 1)
    grade = grade_move(scenario, step, "anthropic", move, lang)
    assert grade.unreadable and [(f.code, f.message) for f in grade.findings] == [
        ("parse:NOT_A_REQUEST", DETAIL[lang].format(written="messag\\u0435s", word="messages"))]
