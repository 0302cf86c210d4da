"""validate's explanations cost work per missing name, not per sentence lookup or schema walk (issue 13: one edit's
CPU is every session's wait). A schema of 5 000 required properties near the editor's cap was judged against the
seven canned outputs with 2.76 million calls (10 000 catalogue lookups and a walk of the whole schema for
``format`` per output); now 1.31 million. Counted, not timed."""

import toolcall.validation as validation
from toolcall.validation import validate


def requiring(n: int) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)},
            "required": [f"p{i}" for i in range(n)]}


def test_the_sentences_of_missing_names_are_looked_up_once(monkeypatch):
    lookups = []
    real = validation.t
    monkeypatch.setattr(validation, "t", lambda key, *a, **k: lookups.append(key) or real(key, *a, **k))
    errors, _ = validate({}, requiring(1000))
    assert len(errors) == 1000
    assert [e.pointer for e in errors[:2]] == ["/p0", "/p1"]
    assert {(e.keyword, e.expected, e.received) for e in errors} == {
        ("required", real("expected.required", "en"), real("received.missing", "en"))}
    assert lookups.count("expected.required") == 1 and lookups.count("received.missing") == 1


def test_a_schema_without_the_word_format_is_not_walked_for_formats(monkeypatch):
    walked = []
    real = validation.formats_used
    monkeypatch.setattr(validation, "formats_used", lambda schema: walked.append(1) or real(schema))
    assert validate({}, requiring(50))[1] == []
    assert walked == []
    _, notes = validate("x", {"type": "string", "format": "email"})
    assert walked == [1] and len(notes) == 1
