"""A content file's YAML value that JSON cannot hold, or that YAML 1.1 reads otherwise than written, fails check at
its file, JSON path and line (issue 13, break-it pass brk14content: content that passes check and breaks a page).

Before: ``input: {order_id: 2026-09-17}`` in a scenario's scripted call passed check (the schema says only "object")
and the harness page failed in class with "Object of type date is not JSON serializable"; ``!!binary``, ``!!set``,
``!!omap`` did the same; ``paid_cents: 0100`` passed as 64 and ``order: 010`` as 8; ``id: no`` was named only as
"False is not of type 'string'". The sweep loads every spelling of YAML 1.1's scalars and explicit tags, as a value
and as a key: each is refused or loads to what JSON holds, so the next such spelling is caught too."""

import itertools
import json
from types import SimpleNamespace

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall.fixtures import content_message
from toolcall.yaml_io import NotJson, safe_load

SCENARIO = "fixtures/scenarios/01-plain-call.yaml"
CALL = "input: {order_id: ORD-20260917, amount_cents: 1999, reason: damaged}"


def _problems(root, ending):
    return {(where, message) for file, where, message in problem_set(root) if file.endswith(ending)}


@pytest.mark.parametrize("written, message", [
    ("2026-09-17", 'YAML reads 2026-09-17 as a date, which JSON has no type for (a page would fail on it): write it '
                   'in quotes, "2026-09-17"'),
    ("!!binary T1JELTIwMjYwOTE3", "YAML reads !!binary as bytes, which JSON has no type for (a page would fail on "
                                  "it): write the text itself"),
    ("!!set {ORD-20260917}", "YAML reads !!set as a set, which JSON has no type for (a page would fail on it): write "
                             "a list"),
    ("!!omap [a: 1]", "YAML reads !!omap as a list of pairs, which JSON has no type for (a page would fail on it): "
                      "write a mapping"),
    ("!!pairs [a: 1]", "YAML reads !!pairs as a list of pairs, which JSON has no type for (a page would fail on "
                       "it): write a mapping"),
])
def test_a_scripted_call_holding_what_json_cannot_is_named_at_its_path_and_line(tmp_path, written, message):
    root = edited_copy(tmp_path, SCENARIO, CALL, CALL.replace("ORD-20260917", written))
    assert _problems(root, "01-plain-call.yaml") == {
        ("$.steps[0].model.calls[0].input.order_id", f"line 34 column 57: {message}")}


def test_a_key_yaml_reads_as_a_boolean_is_named(tmp_path):
    root = edited_copy(tmp_path, SCENARIO, CALL, CALL.replace("reason: damaged", "reason: damaged, no: 1"))
    assert _problems(root, "01-plain-call.yaml") == {
        ("$.steps[0].model.calls[0].input.no", 'line 34 column 108: YAML reads the key no as the boolean false, not as '
                                               'text, and a JSON key is text: write it in quotes, "no"')}


def test_an_amount_with_a_leading_zero_is_not_read_as_octal_without_a_word(tmp_path):
    root = edited_copy(tmp_path, "fixtures/orders/orders.yaml", "paid_cents: 1500", "paid_cents: 01500")
    assert _problems(root, "orders.yaml") == {
        ("$.orders[1].paid_cents", 'line 13 column 17: YAML 1.1 reads 01500 as an octal number, 832: write 832 for '
                                   'that number, or "01500" in quotes for text')}


def test_a_lesson_order_010_is_named_and_01_is_read_as_written(tmp_path):
    root = edited_copy(tmp_path, "lessons/en/10-be-the-loop.md", "order: 10", "order: 010")
    assert _problems(root, "en/10-be-the-loop.md") == {
        ("$.order", 'front matter line 5 column 8: YAML 1.1 reads 010 as an octal number, 8: write 8 for that number, '
                    'or "010" in quotes for text')}
    assert safe_load("order: 01", json_only=True) == {"order": 1}


def test_a_duration_written_1_30_is_named_as_base_60():
    with pytest.raises(NotJson) as refused:
        safe_load("steps:\n  - timeout: 1:30\n", json_only=True)
    assert (refused.value.path, refused.value.problem_mark.line, str(refused.value)) == (
        "$.steps[0].timeout", 1, 'YAML 1.1 reads 1:30 as a base-60 number, 90: write 90 for that number, or "1:30" '
                                 'in quotes for text')


def test_an_id_written_no_says_yaml_read_a_boolean(tmp_path):
    root = edited_copy(tmp_path, "fixtures/exercises/general.yaml", "      - id: model_runs\n", "      - id: no\n")
    assert _problems(root, "general.yaml") >= {
        ("$.exercises[1].options[0].id", "False is not of type 'string' (YAML 1.1 reads an unquoted yes, no, on, off, "
                                         "true or false as a boolean, not as text: write the text in quotes)")}


@pytest.mark.parametrize("instance, wanted, said", [
    (None, "string", "YAML reads an unquoted null, ~ or an empty value as null, not as text: write the text in quotes"),
    (20260917, "string", "YAML reads an unquoted number as a number, not as text: write it in quotes"),
    (0.5, ["string"], "YAML reads an unquoted number as a number, not as text: write it in quotes"),
    ("08", "integer", "YAML 1.1 reads 08 as text: a leading 0 makes an octal number, and 8 and 9 are no octal "
                      "digits; write 8"),
    ("-0_19", ["number", "null"], "YAML 1.1 reads -0_19 as text: a leading 0 makes an octal number, and 8 and 9 are "
                                  "no octal digits; write -19"),
])
def test_type_errors_yaml_explains_say_why(instance, wanted, said):
    error = SimpleNamespace(validator="type", validator_value=wanted, instance=instance, message="m")
    assert content_message(error) == f"m ({said})"


@pytest.mark.parametrize("instance, wanted", [(True, "integer"), ("0x", "integer"), ("18", "string"), (None, "object")])
def test_other_type_errors_keep_their_words(instance, wanted):
    error = SimpleNamespace(validator="type", validator_value=wanted, instance=instance, message="m")
    assert content_message(error) == "m"


#: Spellings of YAML 1.1 scalars (PyYAML's resolvers) and the explicit tags its safe constructors build.
SPELLINGS = ["1", "0x1F", "0b11", "017", "019", "08", "07", "1_000", "1:30", "-1:30.5", "1.5", ".inf", "-.inf", ".nan",
             "true", "no", "On", "~", "null", "", "2026-09-17", "2026-09-17 10:00:00", "2001-12-14t21:59:43.10-05:00",
             "'2026-09-17'", "text", "!!str 2026-09-17", "!!int 12", "!!float 1", "!!bool yes", "!!null ''",
             "!!binary aGk=", "!!timestamp 2026-09-17", "!!set {a, b}", "!!omap [a: 1]", "!!pairs [a: 1, a: 2]",
             "!!seq [1]", "!!map {a: 1}", "[2026-09-17]", "{a: !!binary aGk=}"]


@pytest.mark.parametrize("spelling, as_key", list(itertools.product(SPELLINGS, (False, True))))
def test_every_spelling_is_refused_or_loads_to_json(spelling, as_key):
    """Whatever a content file loads to (json_only) is a JSON value, written back the same: nothing a page's
    json.dumps fails on or changes (a non-text key), and a number read from digits is the one they say in base 10."""
    text = f"{{{spelling}: x}}" if as_key else f"x: {spelling}"
    try:
        data = safe_load(text, json_only=True)
    except NotJson as refused:
        assert refused.problem_mark is not None and refused.path.startswith("$")
        return
    except Exception:  # refused for another reason (an unhashable key): not this test's business
        return
    assert json.loads(json.dumps(data, allow_nan=True)) == data or data != data or "nan" in spelling
    if not as_key and spelling.lstrip("-+").isdigit() and isinstance(data["x"], int):  # "08" stays text
        assert data["x"] == int(spelling, 10)


def test_a_text_with_a_colon_and_a_space_is_named_with_what_to_do(tmp_path):
    """PyYAML said only "mapping values are not allowed here"; the text and the fix are named first."""
    root = edited_copy(tmp_path, "fixtures/orders/orders.yaml", 'item: {en: "Notebook", zh: "笔记本"}',
                       'item:\n      en: Notebook: A5, ruled\n      zh: "笔记本"')
    assert _problems(root, "orders.yaml") == {
        ("$", "not YAML: line 16 column 19: 'Notebook: A5, ruled' holds a colon and a space, which YAML reads as the "
              "start of another key: put the whole text in quotes (the parser: line 16 column 19: mapping values are "
              "not allowed here)")}


def test_a_lesson_summary_with_a_colon_is_named_at_its_file_line():
    from toolcall.lessons import parse_lesson

    _, problems = parse_lesson("---\ntitle: T\nsummary: Step 1: the model proposes\npage: lessons\norder: 1\n---\nx\n",
                               "01-a.md", "en", "lessons/en/01-a.md")
    assert [p.message for p in problems] == [
        "front matter is not YAML: line 3 column 16: 'Step 1: the model proposes' holds a colon and a space, which "
        "YAML reads as the start of another key: put the whole text in quotes (the parser: line 3 column 16: mapping "
        "values are not allowed here)"]


def test_a_text_starting_with_a_hash_is_named_as_a_comment(tmp_path):
    root = edited_copy(tmp_path, "fixtures/orders/orders.yaml", 'item: {en: "Notebook", zh: "笔记本"}',
                       'item:\n      en: #2 Notebook\n      zh: "笔记本"')
    assert _problems(root, "orders.yaml") == {
        ("$.orders[1].item.en", "line 16 column 10: the value is empty: YAML reads '#2 Notebook' as a comment (a # "
                                "after a space starts one); put the text in quotes, or write null for no value")}


def test_every_plain_value_of_a_shipped_file_given_a_colon_is_named():
    """Each ``key: value`` line of the order book and a scenario, with ": x" put into its plain value: whenever YAML
    refuses it as "mapping values are not allowed here", the message names the text (the next such line too)."""
    import yaml

    from toolcall import CONTENT_ROOT
    from toolcall.yaml_io import plain_colon

    named = 0
    for file in ("fixtures/orders/orders.yaml", SCENARIO):
        lines = (CONTENT_ROOT / file).read_text(encoding="utf-8").split("\n")
        for n, line in enumerate(lines):
            head, sep, value = line.partition(": ")
            if not sep or not value or value[0] in "\"'{[|>&*!#" or head.lstrip().startswith("#"):
                continue
            broken = "\n".join([*lines[:n], f"{head}: {value[:1]}: x{value[1:]}", *lines[n + 1:]])
            try:
                yaml.safe_load(broken)
            except yaml.YAMLError as exc:
                if getattr(exc, "problem", "") == "mapping values are not allowed here":
                    said = plain_colon(broken, exc)
                    assert said is not None and f"line {n + 1} " in said and "holds a colon and a space" in said
                    named += 1
    assert named > 20


HALF = ("holds \\ud800, half of a UTF-16 pair: no page can show it (YAML does not join an escaped pair such as "
        "\\ud83d\\ude00): write the character itself, or \\U0001F600 for one above U+FFFF")


def test_a_lone_surrogate_escape_in_a_label_is_named_not_a_failed_page(tmp_path):
    """``label: {en: "Missing a required field \\ud800"}`` passed check and the playground failed in class with
    "'utf-8' codec can't encode character '\\ud800'" (an exercise's title failed the exercises page the same way)."""
    root = edited_copy(tmp_path, "fixtures/outputs/refund_order.yaml", 'label: {en: "Missing a required field"',
                       'label: {en: "Missing a required field \\ud800"')
    assert _problems(root, "refund_order.yaml") == {("$.outputs[1].label.en", HALF)}


@pytest.mark.parametrize("text, path", [('{"a": ["\\ud800"]}', "$.a[0]"), ('{"\\ud800": 1}', "$.\ud800"),
                                        ('{"a": "\\ud83d\\ude00"}', None)])
def test_json_files_are_held_to_it_too_and_a_json_pair_is_one_character(tmp_path, text, path):
    from toolcall.fixtures import FixtureError, read_data

    file = tmp_path / "t.json"
    file.write_text(text, encoding="utf-8")
    if path is None:
        assert read_data(file) == {"a": "😀"}
        return
    with pytest.raises(FixtureError) as refused:
        read_data(file)
    assert [(p.path, p.message) for p in refused.value.problems] == [(path, HALF)]


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\ud83d\\ude00", "\\udbff\\udc00"])
@pytest.mark.parametrize("where", ["x: \"{}\"", "x: [\"a{}\"]", "\"k{}\": 1", "x: {{y: \"{}\"}}"])
def test_every_surrogate_escape_anywhere_is_refused(tmp_path, escape, where):
    from toolcall.fixtures import FixtureError, read_data

    file = tmp_path / "t.yaml"
    file.write_text(where.format(escape), encoding="utf-8")
    with pytest.raises(FixtureError) as refused:
        read_data(file)
    assert refused.value.problems[0].message.startswith("holds \\ud")


def test_a_lesson_title_with_a_lone_surrogate_is_named():
    from toolcall.lessons import parse_lesson

    _, problems = parse_lesson('---\ntitle: "T \\ud800"\nsummary: S\npage: lessons\norder: 1\n---\nx\n', "01-a.md",
                               "en", "lessons/en/01-a.md")
    assert [(p.path, p.message) for p in problems] == [("$.title", f"front matter {HALF}")]
