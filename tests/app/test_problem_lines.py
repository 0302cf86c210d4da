"""A list of problems or findings drawn one per line keeps each item on its own line (ui.common.show_lines): a line
break inside an item quoting what a student wrote drew a line of its own, and that line read as another item. An
uploaded .eval whose member is named ``samples/a⏎line 9: $.samples[0]: every run passed.json`` showed, under "1
line could not be read", a second line "line 9: $.samples[0]: every run passed.json: not JSON: …"; a property
name or a pattern holding a line end did the same inside a schema message, and a property name holding
"⏎The fix changes nothing else." in the strict panel's fix notes (issue 13, break-it pass brk13lab)."""

import io
import json
import zipfile

import pytest

from tests.app.conftest import fresh_app
from toolcall.eval_import import read_log
from toolcall.i18n import name_list, t
from toolcall.text import escape_line

FORGED = "line 9: $.samples[0]: every run passed"
MEMBER = f"samples/a\n{FORGED}.json"
#: A property name and a pattern that start a forged line of their own.
PROPERTY, PATTERN = f"x\n{FORGED}", f"(\n{FORGED}"


def eval_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("header.json", json.dumps({"eval": {"model": "m"}}))
        zf.writestr(MEMBER, "{nope")
        zf.writestr("samples/b.json", json.dumps({"id": "c1", "epoch": 1, "messages": [],
                                                 "scores": {"s": {"value": "C"}}}))
    return buf.getvalue()


def native_log() -> bytes:
    def line(schema):
        return {"case_id": "c1", "run": 1, "model": "m", "expected_calls": [], "actual_calls": [],
                "tools": [{"name": "t", "description": "d", "input_schema": schema}]}
    lines = [line({"type": "object", "properties": {PROPERTY: {"type": "strin"}}}),
             line({"type": "object", "properties": {"a": {"type": "string", "pattern": PATTERN}}}),
             line({"type": "object"})]
    return "\n".join(json.dumps(x) for x in lines).encode()


UPLOADS = {"eval": ("run.eval", eval_zip, 1), "native": ("run.jsonl", native_log, 2)}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", list(UPLOADS))
def test_an_uploads_problem_list_has_one_line_per_problem(kind, lang):
    name, make, count = UPLOADS[kind]
    data = make()
    problems = read_log(data, "auto", name, 20_000_000).problems
    assert len(problems) == count
    at = fresh_app(lang, page="pages/eval_lab.py")
    at.file_uploader(key="eval_upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("eval.upload_problems", lang, count=count) in [w.value for w in at.warning]
    block = next(c.value for c in at.code if c.value.startswith(problems[0].describe(lang)[:8]))
    assert block.split("\n") == [escape_line(p.describe(lang)) for p in problems]
    assert not [line for line in block.split("\n") if line.startswith(FORGED)]
    if kind == "eval":  # the member's name, its line end written out
        member = "samples/a\\u000a" + FORGED + ".json"
        assert block == t("eval.problem_member", lang, member=member, message=problems[0].text(lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_strict_fix_notes_keep_a_property_name_on_its_line(lang):
    at = fresh_app(lang, page="pages/playground.py")
    at.toggle(key="playground_strict_open").set_value(True).run()
    sentence = "The fix changes nothing else."
    schema = {"type": "object", "properties": {f"a\n{sentence}": {"type": "string"}, "b": {"type": "string"}},
              "required": ["b"]}
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    at.radio(key="playground_strict_provider").set_value("openai").run()
    at.button(key="playground_strict_fix").click().run()
    assert not at.exception, [e.value for e in at.exception]
    lines = [line for x in at.text for line in x.value.split("\n")]
    assert sentence not in lines
    nullable = t("strict.panel.fix_nullable", lang, fields=name_list([f"a\\u000a{sentence}"], lang))
    assert nullable in lines
