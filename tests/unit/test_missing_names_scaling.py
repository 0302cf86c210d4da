"""Keywords that jsonschema reports once per missing name are explained in linear work (issue 13).

jsonschema yields one ``required`` (or ``dependentRequired``) error per missing name, and each
error carries the whole list. Explaining every one of them as the whole list made n missing names
cost n² field errors: a 165 000-character schema with 2 500 required properties kept the
playground busy for over a minute per edit (7 canned outputs, each missing all of them). Lines of
Python are counted (tests/workcount.py), never time.
"""

import pytest

from tests.workcount import growth
from toolcall.validation import validate


def _names(n):
    return [f"p{i}" for i in range(n)]


#: (case, schema for n names, instance that misses all n): every place a per-name keyword can be applied.
CASES = {
    "required": (lambda n: {"type": "object", "required": _names(n)}, {}),
    "dependentRequired": (lambda n: {"type": "object", "dependentRequired": {"a": _names(n)}}, {"a": 1}),
    "required in anyOf": (lambda n: {"anyOf": [{"required": _names(n)}, {"required": ["z"]}]}, {}),
    "required in a nested object": (
        lambda n: {"properties": {"o": {"type": "object", "required": _names(n)}}}, {"o": {}}),
    "required through $ref": (lambda n: {"$defs": {"d": {"required": _names(n)}}, "$ref": "#/$defs/d"}, {}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_missing_name_listed_once(case):
    schema_for, instance = CASES[case]
    errors, _ = validate(instance, schema_for(30))
    named = [e.field for e in errors if e.keyword in ("required", "dependentRequired")]
    if case == "required in anyOf":  # one anyOf error whose reasons are both alternatives' missing names
        named = [r.field for e in errors for r in e.reasons]
        assert sorted(named) == sorted(_names(30) + ["z"])
    else:  # errors come sorted by JSON pointer: /p0, /p1, /p10 …
        assert sorted(named) == sorted(_names(30))


@pytest.mark.parametrize("case", list(CASES))
def test_explaining_missing_names_is_linear(case):
    schema_for, instance = CASES[case]
    # Linear work grows about 4x when n does; n² work grew 13-16x here before the fix.
    assert growth(lambda n: validate(instance, schema_for(n)), 40) < 6
