"""The pairing checker: one broken example per rule, the built transcripts pass, bad input never raises."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.transcript_builders import ARGS, INPUT, USER, assistant, call, calls, result, tool, use, user
from toolcall.fixtures import load_orders
from toolcall.i18n import t
from toolcall.pairing import (MAX_CHARS, MAX_VIOLATIONS, RULES, check_pairing, detect_format, load_examples,
                              shown)
from toolcall.transcripts import build_transcript, load_tools, load_walkthrough

def rules(messages, fmt="auto"):
    report = check_pairing(json.dumps(messages), fmt)
    assert report.error is None
    return [(v.rule, v.message_index, v.block_index) for v in report.violations]


# --- Anthropic, one rule each ---------------------------------------------------------------

def test_correct_anthropic_pairs():
    assert rules([USER, assistant(use("a"), use("b")), user(result("a"), result("b"), {"type": "text", "text": "x"})]) == []


def test_tool_use_without_result():
    assert rules([USER, assistant(use()), {"role": "user", "content": "well?"}]) == [
        ("tool_use_without_result", 1, 0)]


def test_tool_use_at_the_end_has_no_result():
    assert rules([USER, assistant(use())]) == [("tool_use_without_result", 1, 0)]


def test_results_split_across_messages():
    assert rules([USER, assistant(use("a"), use("b")), user(result("a")), user(result("b"))]) == [
        ("results_split_across_messages", 3, 0)]


def test_text_before_tool_result():
    assert rules([USER, assistant(use()), user({"type": "text", "text": "here"}, result())]) == [
        ("text_before_tool_result", 2, 0)]


def test_id_mismatch():
    assert rules([USER, assistant(use("a")), user(result("z"))]) == [
        ("id_mismatch", 2, 0), ("tool_use_without_result", 1, 0)]


def test_orphan_result():
    assert rules([user(result("a"))]) == [("orphan_result", 0, 0)]


def test_duplicate_result():
    assert rules([USER, assistant(use()), user(result(), result())]) == [("duplicate_result", 2, 1)]


@pytest.mark.parametrize("bad, where", [
    (assistant({"type": "tool_use", "id": "toolu_A", "name": "refund_order", "input": ARGS}), (1, 0)),
    (assistant(use(), "just a string"), (1, 1)),


    ({"role": "assistant", "content": 42}, (1, None)),
    ({"role": "robot", "content": "hi"}, (1, None)),
    ("not an object", (1, None)),
])
def test_wrong_content_type(bad, where):
    found = rules([USER, bad, user(result())] if "tool_use" in json.dumps(bad) else [USER, bad])
    assert ("wrong_content_type", *where) in found


def test_tool_result_content_of_the_wrong_type():
    assert rules([USER, assistant(use()), user(result(content={"ok": True}))]) == [("wrong_content_type", 2, 0)]


def test_tool_result_in_an_assistant_message():
    assert ("wrong_content_type", 2, 0) in rules([USER, assistant(use()), assistant(result())])


# --- OpenAI ------------------------------------------------------------------------------------

def test_correct_openai_pairs():
    assert rules([USER, calls(call("a"), call("b")), tool("b"), tool("a")]) == []


def test_openai_tool_call_without_result():
    assert rules([USER, calls(call()), USER]) == [("tool_use_without_result", 1, 0)]


def test_openai_text_between_calls_and_results():
    assert rules([USER, calls(call()), USER, tool()]) == [("text_before_tool_result", 2, None),
                                                           ("tool_without_tool_calls", 3, None)]


def test_openai_tool_without_tool_calls():
    assert rules([USER, tool()]) == [("tool_without_tool_calls", 1, None)]


def test_openai_id_mismatch():
    assert rules([USER, calls(call("a")), tool("z")]) == [("id_mismatch", 2, None), ("tool_use_without_result", 1, 0)]


def test_openai_duplicate():
    assert rules([USER, calls(call("a")), tool("a"), tool("a")]) == [("duplicate_result", 3, None)]


def test_openai_missing_tool_call_id():
    assert rules([USER, calls(call()), {"role": "tool", "content": "ok"}]) == [
        ("missing_tool_call_id", 2, None), ("tool_use_without_result", 1, 0)]


def test_openai_arguments_not_a_string():
    assert rules([USER, calls(call(args=INPUT)), tool()]) == [("arguments_not_string", 1, 0)]


@pytest.mark.parametrize("args", ['{"order_id": "ORD-20260917", "amo', "[1, 2]", '"{\\"a\\": 1}"', ""])
def test_openai_arguments_not_one_json_object_is_a_note_not_a_violation(args):
    """Answering broken arguments with an error is what the course prescribes (issue 12, item 5)."""
    assert rules([USER, calls(call(args=args)), tool()]) == []
    report = check_pairing(json.dumps([USER, calls(call(args=args)), tool()]))
    assert [(n.rule, n.message_index, n.block_index) for n in report.notes] == [("arguments_invalid_json", 1, 0)]
    assert 'finish_reason was "length"' in report.notes[0].advice and report.ok


def test_openai_content_of_the_wrong_type():
    assert rules([USER, calls(call()), tool(content={"ok": True})]) == [("wrong_content_type", 2, None)]


# --- every rule has a broken example, every built transcript passes -------------------------

def test_every_rule_is_covered_by_a_fixture_example():
    covered = {rule for example in load_examples() for rule in example.expect}
    assert covered == set(RULES)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("example", load_examples(), ids=lambda e: e.id)
def test_fixture_example_breaks_exactly_its_rules(example, language):
    report = check_pairing(example.text[language])
    assert report.fmt == example.fmt
    assert tuple(v.rule for v in report.violations) == example.expect


def _verdict(report):
    return (report.fmt, report.error, report.more, [(v.rule, v.message_index, v.block_index, v.detail)
                                                    for v in report.violations],
            [(n.rule, n.message_index, n.detail) for n in report.notes])


@pytest.mark.parametrize("ui", ["en", "zh"])
@pytest.mark.parametrize("example", load_examples(), ids=lambda e: e.id)
def test_an_example_gets_the_same_verdict_in_both_languages(example, ui):
    """Newcomer pass: the examples got Chinese customer text; only the words change, so the checker must
    find the same violations at the same places (and the same notes) in the en and zh versions."""
    assert set(example.text) == {"en", "zh"}
    assert _verdict(check_pairing(example.text["zh"], "auto", ui)) == _verdict(check_pairing(example.text["en"], "auto", ui))


FIXTURE = load_walkthrough()
TOOLS = load_tools(FIXTURE.tools)


@pytest.mark.parametrize("variant", [v.id for v in FIXTURE.variants])
@pytest.mark.parametrize("fmt", ["anthropic", "openai"])
def test_every_built_request_has_zero_violations(variant, fmt):
    built = build_transcript(FIXTURE, variant, fmt, TOOLS, load_orders())
    for request in built.of_kind("request"):
        report = check_pairing(json.dumps(request))
        assert (report.fmt, report.violations) == (fmt, [])
    if built.outcome == "succeeded":
        assert check_pairing(json.dumps(list(built.messages)), fmt).violations == []


# --- input that cannot be checked ---------------------------------------------------------------

@pytest.mark.parametrize("text, start", [
    ("{not json", "Not JSON: A key is expected at line 1, column 2: {n — a key is text in double quotes"),
    ("", "The text is empty."),
    ('"hello"', "Expected a messages list (a JSON array) or a request object; this is a JSON string."),
    ('{"model": "x"}', 'This object has no "messages" field.'),
    ('{"messages": 5}', "Expected a messages list (a JSON array) or a request object; this is a JSON integer."),
    ("[" * 100_000 + "]" * 100_000, "The JSON is nested 100000 levels deep; the limit is 64."),
    ("[" + " " * MAX_CHARS + "]", f"The text is {MAX_CHARS + 2} characters; the limit is {MAX_CHARS}."),
])
def test_unusable_input_gets_a_clear_message(text, start):
    report = check_pairing(text)
    assert report.error is not None and report.error.startswith(start)
    assert report.violations == []


def test_errors_are_translated():
    assert check_pairing("", lang="zh").error == "文本是空的。"


def test_violations_are_capped():
    messages = [user(result(f"t{i}")) for i in range(MAX_VIOLATIONS + 7)]
    report = check_pairing(json.dumps(messages), "anthropic")
    assert len(report.violations) == MAX_VIOLATIONS and report.more == 7


def test_format_is_detected_or_chosen():
    assert detect_format([USER, calls(call())]) == "openai"
    assert detect_format([USER, assistant(use())]) == "anthropic"
    assert detect_format([USER]) is None
    plain = check_pairing(json.dumps([USER]))
    assert (plain.fmt, plain.detected) == ("anthropic", True)
    chosen = check_pairing(json.dumps([USER]), "openai")
    assert (chosen.fmt, chosen.detected) == ("openai", False)
    with pytest.raises(ValueError):
        check_pairing("[]", "bedrock")


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["role", "content", "type", "id", "tool_use_id", "tool_calls",
                                                "tool_call_id", "input", "function", "arguments"]), inner,
                               max_size=5), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["auto", "anthropic", "openai"]))
def test_never_raises_on_any_json(value, fmt):
    """Whatever JSON arrives, the checker answers with a report, never an exception."""
    check_pairing(json.dumps(value), fmt)


def test_command_line_reports_violations_and_exit_codes(capsys, tmp_path):
    """python -m toolcall pairing FILE: JSON on stdout, exit 1 on violations, 0 when clean, 2 when unreadable."""
    from toolcall.cli import main

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([USER, assistant(use())]), encoding="utf-8")
    assert main(["pairing", str(broken)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "anthropic" and out["messages"] == 2
    assert out["violations"] == [{"rule": "tool_use_without_result", "message_index": 1, "block_index": 0,
                                  "detail": "Call toolu_A gets no result. The transcript ends at messages[1]; the "
                                            "next user message must answer it.",
                                  "advice": "Answer it: add a user message after messages[1] whose first block is a "
                                            "tool_result with tool_use_id toolu_A."}]
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps([USER, calls(call()), tool()]), encoding="utf-8")
    assert main(["pairing", str(clean)]) == 0
    broken.write_text("{oops", encoding="utf-8")
    assert main(["pairing", str(broken)]) == 2
    assert capsys.readouterr().err.startswith(f"FILE {broken}: Not JSON: A key is expected at line 1, column 2: {{o")


def test_every_pairing_error_names_its_file(capsys, tmp_path, monkeypatch):
    """"Not JSON: …" alone did not say which file it was about (a script checking twenty transcripts): every
    error of `pairing FILE` starts with FILE and its name, as the read errors do, in en and zh."""
    import io
    import sys

    from toolcall.cli import main

    path = tmp_path / "t.json"
    path.write_text("{oops", encoding="utf-8")
    assert main(["pairing", str(path)]) == 2
    assert capsys.readouterr().err == (f"FILE {path}: Not JSON: A key is expected at line 1, column 2: {{o — a key "
                                       "is text in double quotes, like \"name\". (Parser's message: Expecting property name "
                                       "enclosed in double quotes).\n")
    path.write_text(json.dumps([USER, assistant(use("a")), user(result("a"))]), encoding="utf-8")
    assert main(["pairing", str(path), "--format", "openai", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == (f"FILE {path}: {check_pairing(path.read_text(), 'openai', 'zh').error}\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"nope"), encoding="utf-8"))
    assert main(["pairing", "-", "--lang", "zh"]) == 2
    assert capsys.readouterr().err == f"FILE - （标准输入）: {check_pairing('nope', 'auto', 'zh').error}\n"


def test_non_string_tool_call_id_is_reported_not_raised():
    """A list as tool_call_id once crashed the checker (unhashable in a set lookup)."""
    text = ('[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},'
            '{"role":"user","content":"hi"},{"role":"tool","tool_call_id":["x"],"content":"r"}]')
    report = check_pairing(text, "auto", "en")
    assert report.error is None
    # present but not a string: a field of the wrong type, not a missing one (issue 14)
    assert [v.rule for v in report.violations] == ["wrong_content_type", "tool_use_without_result"]
    assert report.violations[0].detail == "tool_call_id must be a string, not an array."


def test_lone_surrogate_and_huge_integer_are_refused_with_a_message():
    report = check_pairing('[{"role":"assistant","content":[{"type":"tool_use","id":"\\ud800","name":"f","input":{}}]}]',
                           "auto", "zh")
    assert report.error == "不是 JSON：落单的代理项 U+D800。"
    report = check_pairing('[{"role": "user", "content": ' + "1" * 5000 + "}]", "auto", "en")
    assert report.error == "Not JSON: integer with 5000 digits exceeds the 1000-digit limit."


def test_a_byte_order_mark_is_tolerated():
    assert check_pairing("\ufeff[]", "auto", "en").error is None


def test_invalid_arguments_detail_is_in_the_report_language():
    """The parser's message inside the rule detail is translated, not Python's English."""
    text = json.dumps([USER, calls(call(args='{"order_id": "ORD-2026')), tool()])
    zh = check_pairing(text, "auto", "zh").notes[0].detail
    en = check_pairing(text, "auto", "en").notes[0].detail
    assert "从第 1 行第 14 列开始的字符串没有结束" in zh and "Unterminated" not in zh.split("（解析器原文")[0]
    assert "The string that starts at line 1, column 14 never ends" in en


def test_wrong_content_type_detail_in_chinese_uses_chinese_phrases():
    text = json.dumps([USER, calls(call()), {"role": "tool", "tool_call_id": "call_A", "content": 5}])
    details = [v.detail for v in check_pairing(text, "openai", "zh").violations if v.rule == "wrong_content_type"]
    assert details == ["content 应该是字符串或文本片段数组，而不是数字。"]
    en = [v.detail for v in check_pairing(text, "openai", "en").violations if v.rule == "wrong_content_type"]
    assert en == ["content must be a string or an array of text parts, not a number."]


def _wrong_type(messages: list, fmt: str, lang: str) -> list[tuple[str, str]]:
    report = check_pairing(json.dumps(messages), fmt, lang)
    return [(v.detail, v.advice) for v in report.violations if v.rule == "wrong_content_type"]


def test_wrong_content_type_in_chinese_spaces_only_around_latin():
    """Newcomer session 12: "tool_use.input must be object, not string." (no article) and "tool_use.input 应该是
    对象，而不是 字符串。" (a space between Chinese words, as no
    Chinese text is written) and "把 role 改成"user" / "assistant"。" (none before the Latin); the OpenAI
    assistant content's "string / array / null" was left in English in Chinese."""
    string_input = [USER, {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_A", "name": "refund_order", "input": "{}"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "ok"}]}]
    assert _wrong_type(string_input, "anthropic", "zh") == [
        ("tool_use.input 应该是对象，而不是字符串。", "把 tool_use.input 改成对象。")]
    assert _wrong_type(string_input, "anthropic", "en") == [
        ("tool_use.input must be an object, not a string.", "Change tool_use.input so that it is an object.")]
    bad_role = [USER, {"role": "robot", "content": "x"}]
    assert _wrong_type(bad_role, "anthropic", "zh") == [
        ('role 应该是 "user" / "assistant"，而不是 "robot"。', '把 role 改成 "user" / "assistant"。')]
    number_content = [USER, {"role": "assistant", "content": 5, "tool_calls": []}]
    assert _wrong_type(number_content, "openai", "zh") == [
        ("content 应该是字符串、数组或 null，而不是数字。", "把 content 改成字符串、数组或 null。")]
    assert _wrong_type(number_content, "openai", "en") == [
        ("content must be a string, an array or null, not a number.",
         "Change content so that it is a string, an array or null.")]


# --- issue 14: a transcript that ends with unanswered calls names no message past its end -----------------

def _call_ids(m, fmt):
    """The ids of the tool calls message/item ``m`` (form ``fmt``) makes, read straight from the wire shape
    (a Gemini call without an id by its name)."""
    if not isinstance(m, dict):
        return []
    if fmt == "anthropic":
        content = m.get("content") if isinstance(m.get("content"), list) else []
        return [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
    if fmt == "openai":
        return [c.get("id") for c in m.get("tool_calls") or []]
    if fmt == "responses":
        return [m.get("call_id")] if m.get("type") == "function_call" else []
    if fmt == "mcp":
        return [m.get("id")] if m.get("method") == "tools/call" else []
    calls = [p["functionCall"] for p in m.get("parts", []) if "functionCall" in p]  # gemini
    return [c.get("id", c.get("name")) for c in calls]


def _ending_with_calls():
    """Every example cut right after each message that makes a call (the example itself when it already
    ends there): transcripts whose last message holds calls nobody answered (none of its ids appears earlier:
    responses_output_first answers its call before making it)."""
    for example in load_examples():
        messages = json.loads(example.text["en"])
        for k, m in enumerate(messages):
            ids = _call_ids(m, example.fmt)
            if ids and not any(json.dumps(i) in json.dumps(messages[:k]) for i in ids):
                yield pytest.param(example.fmt, messages[:k + 1], id=f"{example.id}[:{k + 1}]")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("fmt", "messages"), list(_ending_with_calls()))
def test_unanswered_calls_at_the_end_name_the_last_message(fmt, messages, lang):
    """"messages[2] must answer it" for a two-message transcript named a message that does not exist:
    every index a detail or advice names is inside the transcript, and each unanswered call of the last
    message says where the transcript ends (Anthropic, Gemini: "ends at messages[N]; the next user
    message/turn must answer it")."""
    last = len(messages) - 1
    report = check_pairing(json.dumps(messages), fmt, lang)
    assert report.error is None
    for v in report.violations + report.notes:
        cited = [int(n) for n in re.findall(r"messages\[(\d+)", v.detail + v.advice)]
        assert all(n <= last for n in cited), (v.rule, v.detail, v.advice)
    at_end = [v for v in report.violations if v.rule == "tool_use_without_result" and v.message_index == last]
    assert at_end  # the last message's calls are unanswered
    for v in at_end:
        assert f"messages[{last}]" in v.detail + v.advice
        if fmt in ("anthropic", "gemini"):
            key = "tool_use_without_result_at_end" if fmt == "anthropic" else "function_call_without_response_at_end"
            assert v.key == key
            assert v.detail == t(f"pairing.rule_detail.{key}", lang, **{k: shown(x) if isinstance(x, str) else x
                                                                         for k, x in v.params.items()})


def test_unanswered_call_at_the_end_pinned():
    report = check_pairing(json.dumps([USER, assistant(use())]), "anthropic")
    assert [v.detail for v in report.violations] == [
        "Call toolu_A gets no result. The transcript ends at messages[1]; the next user message must answer it."]
    report = check_pairing(json.dumps([USER, assistant(use()), {"role": "user", "content": "well?"}]), "anthropic")
    assert [v.detail for v in report.violations] == ["Call toolu_A gets no result. messages[2] must answer it."]


def test_every_example_that_breaks_no_rule_is_labelled_valid_in_both_languages():
    """Newcomer session 12: under the heading "Valid: no rule broken" five buttons read "Valid: …" and one, from fixtures/pairing/examples.yaml,
    "Correct: broken arguments answered with INVALID_JSON (OpenAI)", as if it were a different kind."""
    valid = [e for e in load_examples() if not e.expect]
    assert [e.id for e in valid] == ["openai_arguments_truncated", "responses_valid", "mcp_valid", "gemini_valid"]
    assert [e.label["en"].split(": ")[0] for e in valid] == ["Valid"] * 4
    assert [e.label["zh"].split("：")[0] for e in valid] == ["正确"] * 4


def test_arguments_sent_as_an_object_names_the_type_in_chinese():
    """Newcomer session 12, the example "OpenAI：arguments 写成对象而不是字符串": "function.arguments 必须是 JSON
    字符串，而不是 object。" (the JSON type in English in a Chinese sentence); Responses' "这里却是object" and Gemini's
    "这里却是string" too."""
    openai = [USER, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_A", "type": "function", "function": {"name": "x", "arguments": {"a": 1}}}]},
        {"role": "tool", "tool_call_id": "call_A", "content": "ok"}]
    details = {lang: [v.detail for v in check_pairing(json.dumps(openai), "openai", lang).violations]
               for lang in ("en", "zh")}
    assert details == {"en": ["function.arguments must be a JSON string, not an object."],
                       "zh": ["function.arguments 必须是 JSON 字符串，而不是对象。"]}
    responses = [{"type": "function_call", "call_id": "call_A", "name": "x", "arguments": [1]},
                 {"type": "function_call_output", "call_id": "call_A", "output": "ok"}]
    details = {lang: [v.detail for v in check_pairing(json.dumps(responses), "responses", lang).violations]
               for lang in ("en", "zh")}
    assert details == {"en": ["arguments must be a JSON string, not an array."],
                       "zh": ["arguments 必须是 JSON 字符串，这里却是数组。"]}
    gemini = next(e for e in load_examples() if e.id == "gemini_response_not_object")
    details = {lang: [v.detail for v in check_pairing(gemini.text[lang], gemini.fmt, lang).violations]
               for lang in ("en", "zh")}
    assert details == {"en": ['response must be a JSON object (for example {"output": …}), not a string.'],
                       "zh": ['response 必须是 JSON 对象（例如 {"output": …}），这里却是字符串。']}


def test_a_block_in_the_wrong_role_says_where_it_belongs():
    """Newcomer session 12: a tool_use in a user message read "tool_use must be assistant message, not user." and
    "Change tool_use so that it is assistant message." (zh "把 tool_use 改成 assistant 消息"): a block is not a
    message; it belongs in one."""
    use_in_user = [{"role": "user", "content": [{"type": "tool_use", "id": "toolu_A", "name": "x", "input": {}}]}]
    result_in_assistant = [USER, {"role": "assistant", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_A", "content": "ok"}]}]
    got = {lang: [_wrong_type(use_in_user, "anthropic", lang)[0], _wrong_type(result_in_assistant, "anthropic", lang)[0]]
           for lang in ("en", "zh")}
    assert got == {
        "en": [("A tool_use block belongs in an assistant message; this one is in a user message.",
                "Move the tool_use block into the assistant message of the model's turn."),
               ("A tool_result block belongs in a user message; this one is in an assistant message.",
                "Move the tool_result block into the user message right after the assistant message that holds "
                "its tool_use.")],
        "zh": [("tool_use 块只能放在 assistant 消息里，这个却在 user 消息里。",
                "把这个 tool_use 块移到模型那一轮的 assistant 消息里。"),
               ("tool_result 块只能放在 user 消息里，这个却在 assistant 消息里。",
                "把这个 tool_result 块移到紧跟在它的 tool_use 所在 assistant 消息之后的 user 消息里。")]}
