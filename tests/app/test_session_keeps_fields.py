"""What a session keeps of the playground's editor after the student leaves the page is the text they typed, not the
objects it parses to (issue 13: memory bounded on every input path, including what is kept per session). Each session
kept its last check and last good definition as parsed Python objects: a schema of 25 000 nested empty lists (175 KB
typed) kept 6.2 MB in the session after a visit to another page, 35 times the text (break-it pass brk14web). The
checked definitions now sit in one cache shared by every session and bounded in bytes (ui.tool_editor._definitions,
tests/unit/test_cache_bytes.py); the session keeps the fields of its last good definition."""

import json

from tests.app.conftest import fresh_app
from toolcall import memsize
from toolcall.fixtures import Tool
from ui.tool_editor import checked_definition


def test_leaving_the_playground_keeps_the_typed_text_only():
    text = json.dumps({"type": "object", "default": [[[[]]]] * 25_000}, separators=(",", ":"))
    at = fresh_app("en", page="pages/playground.py")
    name, description = at.text_input(key="tool_name").value, at.text_area(key="tool_description").value
    at.text_area(key="schema_editor").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("pages/exercises.py").run()
    assert not at.exception, [e.value for e in at.exception]
    fields = at.session_state["playground_last_good"]
    assert fields == (name, description, text, "en")
    kept = {key: memsize.retained_bytes(at.session_state[key], 10 ** 9)
            for key in ("playground_last_good", "schema_editor", "tool_description", "tool_name")}
    assert all(size < 2 * len(text) for size in kept.values()), kept
    assert not any(isinstance(at.session_state[key], Tool) for key in ("playground_last_good",))
    tool = checked_definition(*fields).tool  # rebuilt from the shared cache, or checked again after an eviction
    assert (tool.name, tool.input_schema) == (name, json.loads(text))


def test_the_cards_follow_the_last_good_definition_while_the_editor_shows_an_error():
    at = fresh_app("en", page="pages/playground.py")
    good = json.dumps({"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]})
    at.text_area(key="schema_editor").input(good).run()
    at.text_area(key="schema_editor").input("{not json").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["playground_last_good"][2] == good
    at.switch_page("pages/exercises.py").run()
    at.switch_page("pages/playground.py").run()
    assert at.text_area(key="schema_editor").value == "{not json"  # nothing lost: the box keeps what was typed
