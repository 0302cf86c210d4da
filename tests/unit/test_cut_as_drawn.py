"""Text a message quotes is cut as it is drawn, escapes included (toolcall.text.escaped_head), never cut and then
escaped, nor escaped and then cut (issue 13, floods; the kind of brk16web's ids).

Cut at N characters and then escaped, a quoted name of zero-width spaces was drawn six times as long (twelve for a
character past U+FFFF): the design review's and strict panel's names, an exercise's unknown options and items, the
learner id in the sidebar and the dashboard. Escaped and then cut, a column of ``eval``'s table ended inside an
escape (``\\u20``) and two case ids that differ past the column read the same. The source test below fails on the
next quote written either way.
"""

from __future__ import annotations

import ast
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


#: The escapes and repr by name, for the syntax-tree test below.
ESCAPE_CALLS = re.compile(r"^(?:repr|escape_(?:identifier|invisible|lookalikes|line|terminal)|label|plain)$")


def _call_name(node: ast.AST) -> str:
    if not isinstance(node, ast.Call):
        return ""
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def _head(node: ast.AST) -> bool:
    """``x[:n]``: the start of x."""
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.lower is None
            and node.slice.upper is not None)


def _own_nodes(scope: ast.AST):
    """The nodes of ``scope`` outside the functions and classes defined in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield node
            stack.extend(ast.iter_child_nodes(node))


def cuts_as_written(source: str) -> list[int]:
    """The lines of ``source`` where a function cuts what an escape or repr drew (``repr(v)[:40]``, or ``t = repr(v)``
    then ``t[:120]``), or escapes what it cut, however the call nests (``repr(t if len(t) <= n else t[:n] + "…")``):
    the line patterns above read one line and no nested parentheses, and missed check's quote of a too-long value,
    the progress store's and the lesson checks' (break-it pass brk19new)."""
    found = set()
    for scope in ast.walk(ast.parse(source)):  # the module (a page's script) and each function, on its own
        if not isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        nodes = list(_own_nodes(scope))
        drawn = {target.id for node in nodes if isinstance(node, ast.Assign)
                 and ESCAPE_CALLS.match(_call_name(node.value)) for target in node.targets
                 if isinstance(target, ast.Name)}
        for node in nodes:
            if _head(node) and (ESCAPE_CALLS.match(_call_name(node.value))
                                or isinstance(node.value, ast.Name) and node.value.id in drawn):
                found.add(node.lineno)
            if ESCAPE_CALLS.match(_call_name(node)) and any(_head(part) for arg in node.args for part in ast.walk(arg)):
                found.add(node.lineno)
    return sorted(found)


def test_no_function_cuts_what_was_drawn_or_draws_what_was_cut():
    found = [f"{path.relative_to(REPO)}:{n}" for path in _sources() if path.name != "text.py"  # escaped_head's own
             for n in cuts_as_written(path.read_text("utf-8"))]
    assert found == [], "cut a quote as drawn: toolcall.text.escaped_head, quoted_head or repr_head\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    'def f(value):\n    text = repr(value)\n    return text[:MAX_QUOTED] + "…" if len(text) > MAX_QUOTED else text\n',
    'def f(e):\n    quoted = repr(e.instance)\n    if len(quoted) > 9:\n        m = m.replace(quoted, quoted[:9] + "…")\n',
    'def f(value):\n    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"\n',
    'def f(url):\n    shown = escape_invisible(url)\n    return f"\'{shown if len(shown) <= 6 else shown[:6]}\'"\n',
    'def f(text):\n    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")\n',
    'def f(who):\n    st.warning(plain(tr("dashboard.no_such_learner", learner=who[:80])))\n',
])
def test_the_syntax_tree_test_finds_each_way_it_was_written(source):
    """The lines brk19new replaced, as they were."""
    assert cuts_as_written(source) != []


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


def test_check_s_too_long_quote_ends_at_a_whole_escape(tmp_path):
    """jsonschema's "'…' is too long" quotes repr of the value, which check cut at 120 characters: a title of zero-width
    spaces ended ``\\u20…``, an escape cut in half (break-it pass brk19new). Cut as drawn (toolcall.text.repr_head)."""
    from tests.content_copy import edited_copy, problem_set

    root = edited_copy(tmp_path, "fixtures/selection/shop.en.yaml", "title: Shop tools",
                       'title: "x' + "\\u200b" * 200 + '"')
    quoted = "'x" + "\\u200b" * 19 + "…"  # 2 + 19 × 6 = 116 of 120; a 20th escape would pass it
    assert {(path, message) for _, path, message in problem_set(root) if path == "$.title"} >= {
        ("$.title", f"{quoted} is too long (201 characters; at most 120)")}


def test_a_value_changed_outside_the_app_is_quoted_as_drawn(tmp_path):
    """The progress store's setup error quoted repr(value)[:40] and the exercise id whole with repr: a text of bidi
    controls cut inside an escape, a 100 000-character exercise id in one line, and a Cyrillic а drawn as itself."""
    import sqlite3

    from toolcall.progress import ProgressStore, StorageError

    store = ProgressStore(tmp_path)
    try:
        store.record("swift-otter-0123456789", "pk_pass3", "0.7", 1, 1)
        with sqlite3.connect(store.path) as db:
            db.execute("UPDATE progress SET best_score = ?, exercise_id = ?", ("\u202e" * 100, "p\u043a" * 50_000))
        db.close()
        with pytest.raises(StorageError) as refused:
            store.class_progress()
        assert str(refused.value) == (
            f"{store.path}: a row of progress (exercise '" + "p\\u043a" * 5 + "p…') holds '"
            + "\\u202e" * 6 + "…' in best_score, where this app writes a number: it was changed outside the app; "
            "correct or delete that row")
    finally:
        store.close()


def test_markdown_hazards_quote_as_drawn():
    """A source address and raw HTML were escaped and then cut (``\\u20…``) or cut and then drawn by repr (60 tag
    characters drawn as 600)."""
    from toolcall.markdown_hazards import _short, quoted_source, source_problems

    assert quoted_source("https://a.example/" + ZW * 100) == "'https://a.example/" + "\\u200b" * 7 + "…'"
    assert _short("<b>" + TAG * 100) == "'<b>" + "\\udb40\\udc41" * 4 + "…'"  # 51 of 60
    host = "https://" + "\u0430" * 500 + ".example/"
    assert len(source_problems(host)[-1]) < 400
