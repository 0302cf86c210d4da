"""JSON that does not parse is explained in plain words at the place to fix, in en and zh, everywhere
(toolcall/json_explain.py): newcomer session 6, item 1. Cases derive from the decoder's own messages."""

import inspect
import json
import json.decoder
import json.scanner
import re
from string import Formatter

import pytest

from tests.conftest import unit_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.i18n import LANGS, catalogue, t
from toolcall.json_explain import EXCERPT_CHARS, KINDS, explain, message_kind, words_without_place
from toolcall.pairing import check_pairing
from toolcall.parsing import localized_detail, parse_tool_input

#: The newcomer's answer to "Send the error back": the comma after "is_error": true left out on line 4.
NO_COMMA = '{\n  "type": "tool_result",\n  "tool_use_id": "toolu_01",\n  "is_error": true\n  "content": "x"\n}'

#: One text per kind that explain() returns (a new kind without a sample fails test_every_kind_has_a_sample).
SAMPLES = {
    "expecting_property_name": '{"a": 1, b: 2}',
    "expecting_colon": '{"a" 1}',
    "expecting_comma": NO_COMMA,
    "trailing_comma": '{"a": [1, 2,], "b": 3}',
    "single_quotes": "{'a': 1}",
    "not_a_value": '{"a": True}',
    "ends_early": '{"a": [1, ',
    "unterminated_string": '{"a": "xyz',
    "invalid_control_character": '{"a": "x\ny"}',
    "invalid_escape": '{"a": "C:\\dir"}',
    "invalid_unicode_escape": '{"a": "\\u12"}',
    "extra_data": '{"a": 1} {"b": 2}',
    "bom": '\ufeff{"a": 1}',
    "lookalike_punctuation": '{"order_id"\uff1a "A1"}',
    "odd_space": '{"a":\u00a01}',
    "hidden_character": '{"a": 1}\u200b',
}


def decoder_messages() -> list[str]:
    """Every message CPython's pure-Python json decoder and scanner raise, their ``{0!r}`` parts
    dropped (the C scanner raises the same messages without them)."""
    source = "".join(inspect.getsource(m) for m in (json, json.decoder, json.scanner))
    found = re.findall(r'(?:JSONDecodeError\(|msg = )\s*"((?:[^"\\]|\\.)*)"', source)
    cleaned = {re.sub(r":? ?\{0!r\}", "", m.encode().decode("unicode_escape")).strip() for m in found}
    return sorted(cleaned)


def decode_errors(text: str) -> list[json.JSONDecodeError]:
    """The error of the C decoder and of the pure-Python one (their messages differ) on ``text``."""
    errors = []
    pure = json.JSONDecoder()
    pure.parse_string = json.decoder.py_scanstring
    pure.parse_object = json.decoder.JSONObject
    pure.scan_once = json.scanner.py_make_scanner(pure)
    for decode in (json.loads, pure.decode):
        with pytest.raises(json.JSONDecodeError) as caught:
            decode(text)
        errors.append(caught.value)
    return errors


def test_the_decoder_messages_are_found():
    assert {"Expecting ',' delimiter", "Expecting value", "Extra data",
            "Invalid \\uXXXX escape"} <= set(decoder_messages())


@pytest.mark.parametrize("msg", decoder_messages())
def test_every_decoder_message_has_a_kind(msg):
    assert message_kind(msg) != "unknown", f"json raises {msg!r}: explain it in toolcall/json_explain.py"


def test_every_kind_has_a_sample():
    assert set(SAMPLES) == set(KINDS) - {"unknown"}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_worded_in_both_languages_with_the_same_fields(kind):
    fields = {lang: {f for _, f, _, _ in Formatter().parse(catalogue(lang)[f"json_error.explain.{kind}"]) if f}
              for lang in LANGS}
    assert fields["en"] == fields["zh"]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_sample_is_explained_as_its_kind_by_both_decoders(kind):
    text = SAMPLES[kind]
    for exc in decode_errors(text.removeprefix("\ufeff") if kind != "bom" else text):
        if kind == "bom" and exc.msg != "Unexpected UTF-8 BOM (decode using utf-8-sig)":
            continue  # the pure decoder reads the BOM as a stray character
        assert explain(text, exc).kind == kind, exc.msg


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_what_the_student_reads_names_the_place_and_keeps_the_parser_words_as_a_detail(kind):
    parsed = parse_tool_input(SAMPLES[kind])
    assert not parsed.ok
    for lang in LANGS:
        shown = localized_detail(parsed, lang)
        assert shown.startswith(t(f"json_error.explain.{kind}", lang, **parsed.detail_params)), shown
        assert shown.endswith(t("json_error.explain_raw", lang, **parsed.detail_params)), shown
        if kind != "bom":
            assert f"{parsed.line}" in shown and parsed.detail_params["excerpt"] in shown


def test_a_missing_comma_points_after_the_value_before_it():
    parsed = parse_tool_input(NO_COMMA)
    assert (parsed.line, parsed.column, parsed.pos) == (4, 18, NO_COMMA.index('"content"'))
    assert parsed.detail_params["excerpt"] == '"is_error": true'
    assert localized_detail(parsed, "en") == (
        'A comma is missing after this, at line 4, column 18: "is_error": true — put a , right after it (if the '
        "object or list ends there, close it with } or ]). (Parser's message: Expecting ',' delimiter)")
    assert localized_detail(parsed, "zh").startswith('这里后面少了一个逗号（第 4 行第 18 列）："is_error": true')


def test_the_exercise_says_where_the_comma_goes_and_quotes_no_lone_quote():
    ex = unit_exercises().by_id()["pg_error_result"]
    shown = {lang: [f.render(lang) for f in grade(ex, NO_COMMA, grading_inputs(ex)).feedback] for lang in LANGS}
    assert shown["en"][0].startswith('Your answer is not a JSON object yet. A comma is missing after this, at line 4, '
                                     'column 18: "is_error": true')
    assert not any(s.endswith(': "') or s.endswith('：“') or s.endswith('："') for lang in LANGS for s in shown[lang])


def test_the_pairing_checker_says_a_truncated_paste_stops_early():
    whole = json.dumps([{"role": "user", "content": "refund ORD-1"}, {"role": "assistant", "content": "ok"}])
    text = whole[:whole.index('{"role": "assistant"')]  # cut after a comma: the paste stops early
    comma = len(text.rstrip())  # 1-based column of the comma, the last thing typed
    report = check_pairing(text)
    assert report.error.startswith(f"Not JSON: The text stops at line 1, column {comma}, before the JSON is complete: "
                                   f"{text.rstrip()[-EXCERPT_CHARS:]} — it was cut off")
    assert check_pairing(text, "auto", "zh").error.startswith(f"不是 JSON：文本在第 1 行第 {comma} 列就结束了")


#: How each language writes a place in a text (line and column), as the json_error wordings do.
PLACES = {"en": re.compile(r"line (\d+), column (\d+)"), "zh": re.compile(r"第 (\d+) 行第 (\d+) 列")}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_what_the_student_reads_names_one_place(kind):
    """Newcomer pass: "stops at line 1, column 96" then "(Parser's message: …, line 1, column 97)", two
    columns for one mistake (the parser gives up one past a cut-off text, and at the next key after a missing
    comma). Every kind, in both languages, names exactly the place to fix and no other (none for a BOM)."""
    parsed = parse_tool_input(SAMPLES[kind])
    for lang in LANGS:
        shown = localized_detail(parsed, lang)
        expected = [] if kind == "bom" else [(str(parsed.line), str(parsed.column))]
        assert PLACES[lang].findall(shown) == expected, shown


@pytest.mark.parametrize("msg", decoder_messages())
def test_a_parser_message_shown_without_its_place_reads_as_words(msg):
    """Without its place, "Unterminated string starting at" read "(Parser's message: Unterminated string starting
    at)": every decoder message is shown with no dangling preposition."""
    shown = words_without_place(msg)
    assert not re.search(r"\b(at|starting)$", shown) and shown.startswith(msg.split(" starting")[0].removesuffix(" at"))


@pytest.mark.parametrize("lang, detail", [("en", "(Parser's message: Unterminated string)"),
                                          ("zh", "（解析器原文：“Unterminated string”）")])
def test_the_truncated_text_quotes_the_parser_without_a_dangling_at(lang, detail):
    parsed = parse_tool_input(SAMPLES["unterminated_string"])
    assert localized_detail(parsed, lang).endswith(detail)


#: Text a Chinese input method, a word processor or a paste puts where JSON's own punctuation or white space goes,
#: and what was said of it before: the ASCII character named as missing, or the text called cut off
#: (break-it pass brk13text). Each is now named, with its code point and the ASCII character to type.
STRAY = [
    ('{"order_id"\uff1a "A1"}',
     "At line 1, column 12: {\"order_id\"\uff1a — \uff1a (U+FF1A) is a full-width or typographic character, and JSON "
     "reads only the ASCII :: type : in its place (an input method in Chinese or full-width punctuation mode types "
     "\uff1a). (Parser's message: Expecting ':' delimiter)",
     "第 1 行第 12 列：{\"order_id\"\uff1a —— \uff1a（U+FF1A）是全角或排版用的符号，JSON 只认半角的 :，请在这里改成 :"
     "（输入法处在中文或全角标点模式时会打出 \uff1a）。（解析器原文：“Expecting ':' delimiter”）"),
    ('{"a": 1\uff0c "b": 2}',
     "At line 1, column 8: {\"a\": 1\uff0c — \uff0c (U+FF0C) is a full-width or typographic character, and JSON reads "
     "only the ASCII ,: type , in its place (an input method in Chinese or full-width punctuation mode types \uff0c). "
     "(Parser's message: Expecting ',' delimiter)",
     "第 1 行第 8 列：{\"a\": 1\uff0c —— \uff0c（U+FF0C）是全角或排版用的符号，JSON 只认半角的 ,，请在这里改成 ,"
     "（输入法处在中文或全角标点模式时会打出 \uff0c）。（解析器原文：“Expecting ',' delimiter”）"),
    ('{\u201corder_id\u201d: "A1"}',
     "At line 1, column 2: {\u201c — \u201c (U+201C) is a full-width or typographic character, and JSON reads only "
     "the ASCII \": type \" in its place (an input method in Chinese or full-width punctuation mode types \u201c). "
     "(Parser's message: Expecting property name enclosed in double quotes)",
     "第 1 行第 2 列：{\u201c —— \u201c（U+201C）是全角或排版用的符号，JSON 只认半角的 \"，请在这里改成 \"（输入法处在"
     "中文或全角标点模式时会打出 \u201c）。（解析器原文：“Expecting property name enclosed in double quotes”）"),
    ('{"a": 1}\u3000',
     "At line 1, column 9 there is a space JSON does not read as one (U+3000): {\"a\": 1} — type an ordinary space "
     "in its place, or delete it (it comes along when text is pasted from a document or typed by an input method). "
     "(Parser's message: Extra data)",
     "第 1 行第 9 列有一个 JSON 不认作空白的空格（U+3000）：{\"a\": 1} —— 请换成普通空格，或者删掉（从文档里粘贴文字或用"
     "输入法打字时会带进来）。（解析器原文：“Extra data”）"),
    ('{"a":\u00a01}',
     "At line 1, column 6 there is a space JSON does not read as one (U+00A0): {\"a\": — type an ordinary space in "
     "its place, or delete it (it comes along when text is pasted from a document or typed by an input method). "
     "(Parser's message: Expecting value)",
     "第 1 行第 6 列有一个 JSON 不认作空白的空格（U+00A0）：{\"a\": —— 请换成普通空格，或者删掉（从文档里粘贴文字或用"
     "输入法打字时会带进来）。（解析器原文：“Expecting value”）"),
    ('{"a": 1}\x85',
     "At line 1, column 9 there is an invisible character (U+0085): {\"a\": 1} — delete it (it comes along when "
     "text is pasted from a document or a web page). (Parser's message: Extra data)",
     "第 1 行第 9 列有一个看不见的字符（U+0085）：{\"a\": 1} —— 请删掉它（从文档或网页里粘贴文字时会带进来）。"
     "（解析器原文：“Extra data”）"),
]


@pytest.mark.parametrize("text, en, zh", STRAY)
def test_a_stray_character_is_named_not_the_ascii_one_it_replaces(text, en, zh):
    parsed = parse_tool_input(text)
    assert (localized_detail(parsed, "en"), localized_detail(parsed, "zh")) == (en, zh)


def test_full_width_punctuation_after_a_whole_value_is_extra_text():
    """Typing the ASCII character there ('{"a": 1},') would not fix it: the text is still extra."""
    parsed = parse_tool_input('{"a": 1}\uff0c')
    assert parsed.detail_key == "explain.extra_data"


def test_a_text_cut_off_before_json_white_space_is_still_cut_off():
    """Only JSON's four white-space characters end a text: the check for a cut-off text used str.strip()."""
    parsed = parse_tool_input('{"a": [1, \n\t ')
    assert parsed.detail_key == "explain.ends_early"
