"""Text a message quotes is cut as it is drawn, escapes included (toolcall.text.escaped_head), never cut and then
escaped, nor escaped and then cut (issue 13, floods; the kind of brk16web's ids).

Cut at N characters and then escaped, a quoted name of zero-width spaces was drawn six times as long (twelve for a
character past U+FFFF): the design review's and strict panel's names, an exercise's unknown options and items, the
learner id in the sidebar and the dashboard. Escaped and then cut, a column of ``eval``'s table ended inside an
escape (``\\u20``) and two case ids that differ past the column read the same. The source test below fails on the
next quote written either way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolcall.cli import MAX_TABLE_ID_CHARS, main
from toolcall.exercise_types.base import ERROR
from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.lint import MAX_SHOWN_NAME_CHARS, MAX_SHOWN_PATH_CHARS, shown_name, shown_path

REPO = Path(__file__).resolve().parents[2]
ZW = "\u200b"  # drawn as \u200b, 6 characters
TAG = "\U000e0041"  # drawn as \udb40\udc41, 12 characters

#: The escapes, and Markdown's label and plain, which escape hidden characters too (the pass^k lab's
#: label(clip(sentence, 200)) drew 200 tag characters as 2 390: break-it pass brk17new).
ESCAPES = r"(?:escape_(?:identifier|invisible|lookalikes|line|terminal)|\blabel|\bplain)"
#: escape_x(text[:n]), escape_x(clip(text, n)), and escape_x(text)[:n]
CUT_THEN_ESCAPED = re.compile(rf"{ESCAPES}\((?:clip\(|[^()\n]*\[:)")
ESCAPED_THEN_CUT = re.compile(rf"{ESCAPES}\([^()\n]*(?:\([^()\n]*\))?[^()\n]*\)\[:")
#: repr is an escape too: f"{text[:80]!r}" and repr(text[:40]) drew 40 tag characters as 400 and Cyrillic а as
#: itself (the progress store's schema_version and id errors, a transcript's and a form's raw arguments; break-it
#: pass brk17new): toolcall.text.quoted_head.
REPR_OF_CUT = re.compile(r"\[:[^\]\n]*\]!r\}|repr\([^()\n]*\[:")


def _sources():
    for folder in ("toolcall", "ui", "pages", "deploy"):
        yield from sorted((REPO / folder).rglob("*.py"))
    yield REPO / "app.py"


def test_no_quote_is_cut_before_or_after_it_is_escaped():
    found = [f"{path.relative_to(REPO)}:{n}: {line.strip()}" for path in _sources()
             for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
             if CUT_THEN_ESCAPED.search(line) or ESCAPED_THEN_CUT.search(line) or REPR_OF_CUT.search(line)]
    assert found == [], "cut a quote as drawn: toolcall.text.escaped_head(text, limit, escape)\n" + "\n".join(found)


@pytest.mark.parametrize("line", [
    'item=escape_identifier(k[:40])',
    'return escape_lookalikes(clip(value, MAX_SHOWN_NAME_CHARS))',
    'shown = escape_line(text[:40]) + ("…" if len(text) > 40 else "")',
    'case = escape_line(escape_lookalikes(r["case_id"]))[:28]',
    'tool = escape_identifier(r["expected_tool"] or "?")[:16]',
    'kept = [st.checkbox(label(clip(s.text, MAX_SHOWN_SENTENCE_CHARS)), value=True)',
    'st.caption(plain(name[:80]))',
    'raise ValueError(f"invalid learner id {str(learner)[:80]!r}")',
    'shown = repr(value) if not isinstance(value, str) or len(value) <= 40 else repr(value[:40]) + "…"',
])
def test_the_source_test_finds_each_way_it_was_written(line):
    """The lines this change replaced, as they were: the source test above would have named each."""
    assert CUT_THEN_ESCAPED.search(line) or ESCAPED_THEN_CUT.search(line) or REPR_OF_CUT.search(line)


@pytest.mark.parametrize("cut, limit, expected", [
    (shown_name, MAX_SHOWN_NAME_CHARS, "\\u200b" * 10 + "…"),  # 60 of 64; an 11th is 66
    (shown_path, MAX_SHOWN_PATH_CHARS, "\\u200b" * 16 + "…"),  # 96 of 96
])
def test_review_names_and_paths_are_cut_as_drawn(cut, limit, expected):
    assert (MAX_SHOWN_NAME_CHARS, MAX_SHOWN_PATH_CHARS) == (64, 96)
    assert cut(ZW * 500) == expected
    assert len(cut(TAG * 500)) <= limit + 1 and cut(TAG * 500).endswith("\\udc41…")
    assert cut("note") == "note" and cut("n\u043ete") == "n\\u043ete"  # Cyrillic о still shows as itself


def _shipped(kind):
    found = [ex for ex in load_exercises().exercises if ex.type == kind]
    assert found, f"no shipped {kind} exercise"
    return found[0]


def test_an_unknown_option_is_quoted_at_most_40_characters_as_drawn():
    ex = _shipped("choice")
    result = grade(ex, json.dumps([ZW * 100]), grading_inputs(ex))
    assert result.malformed
    assert [(f.level, f.key, f.params) for f in result.feedback] == \
        [(ERROR, "exercises.fb.unknown_option", {"option": "\\u200b" * 6 + "…"})]


def test_an_unknown_item_and_category_are_quoted_at_most_40_characters_as_drawn():
    ex = _shipped("classify")
    result = grade(ex, json.dumps({TAG * 50: TAG * 50}), grading_inputs(ex))
    assert result.malformed
    shown = "\\udb40\\udc41" * 3 + "…"  # 36 of 40; a 4th is 48
    assert [(f.key, f.params) for f in result.feedback[:2]] == [
        ("exercises.fb.unknown_item", {"item": shown}), ("exercises.fb.unknown_category", {"category": shown})]


def _eval_table(tmp_path, capsys, case_ids):
    first = json.loads((REPO / "fixtures" / "eval_runs" / "shop_good.en.jsonl").read_text("utf-8").splitlines()[0])
    log = tmp_path / "runs.jsonl"
    log.write_text("".join(json.dumps({**first, "case_id": c, "run": 1}) + "\n" for c in case_ids), "utf-8")
    assert main(["eval", str(log), "--k", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    return lines[1], lines[2:2 + len(case_ids)]


def test_eval_table_ids_that_differ_past_the_old_column_read_apart(tmp_path, capsys):
    header, rows = _eval_table(tmp_path, capsys, ["x" * 30 + "a", "x" * 30 + "b"])
    assert header.startswith("case" + " " * 27 + " expected ")  # the column is as wide as the longest id, 31
    assert [row[:32] for row in rows] == ["x" * 30 + "a ", "x" * 30 + "b "]


def test_eval_table_never_ends_a_column_inside_an_escape(tmp_path, capsys):
    assert MAX_TABLE_ID_CHARS == 48
    _, rows = _eval_table(tmp_path, capsys, ["c" * 25 + ZW, ZW * 100])
    # escaped then cut at 28, the first read "ccc…c\u20" and the second "\u200b\u200b\u200b\u200b\u2"
    assert rows[0].split(" ")[0] == "c" * 25 + "\\u200b"
    assert rows[1].split(" ")[0] == "\\u200b" * 8 + "…"  # 48 of 48 drawn


def test_a_sentence_label_is_cut_as_drawn():
    """label_head counts each hidden character as its escape: 200 tag characters were a 2 390-character label."""
    from toolcall.markdown import label_head
    assert label_head("x" + TAG * 320, 200) == "x" + "\\udb40\\udc41" * 16 + "…"
    assert label_head("x" + ZW * 320, 200) == "x" + "\\u200b" * 33 + "…"
    assert label_head("*_a_* www.x @y", 200) == "\\*\\_a\\_\\* www\u2060.x @\u2060y"  # as label(): nothing cut
    assert len(label_head("*" * 500, 200)) == 401  # Markdown's backslashes are not drawn: one per character at most


def test_a_quoted_value_is_cut_as_drawn_with_look_alikes_escaped():
    """quoted_head, for what repr quoted cut: a value of tag characters drawn at most 40 characters (repr of its first
    40: 402), Cyrillic а escaped (repr drew it as a Latin a)."""
    from toolcall.text import quoted_head
    assert quoted_head(TAG * 100, 40) == "'" + "\\udb40\\udc41" * 3 + "…'"
    assert quoted_head("tw\u043e\n", 40) == "'tw\\u043e\\u000a'"
    assert quoted_head("two", 40) == "'two'"
