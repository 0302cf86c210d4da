"""uniqueItems (and the explanation's duplicate_pair) hash every item once; the hash must not be one a student can
choose. Python hashes an int as itself modulo 2**61 - 1 (and -1 as -2), so an array of 4 000 multiples of that number,
91 KB pasted into the free box, put every item in one bucket of the set: one uninterruptible keyword compared every
pair, 0.52 s of CPU against 0.04 s for other numbers of the same size, past the whole validation's budget (issue 13:
time bounded on every input path; break-it pass brk14web). Numbers now stand as text, whose hash is randomised per
process. The families below are the ones Python's own hash folds together; counted, not timed (the work is in C)."""

import pytest

from toolcall.safe_validator import _frozen
from toolcall.validation import duplicate_pair, validate

P = 2**61 - 1

#: Values Python's hash puts in one bucket: multiples of P, -1 and -2, the floats 2**(61 k) (all hash 1), and
#: arrays and objects holding them.
FAMILIES = {
    "multiples of 2**61 - 1": [P * k for k in range(1, 1001)],
    "negative multiples": [-P * k for k in range(1, 1001)],
    "minus one and minus two": [-1, -2],
    "floats of powers of 2**61": [2.0 ** (61 * k) for k in range(-16, 17)],
    "arrays of them": [[0.5, P * k] for k in range(1, 1001)],
    "objects of them": [{"a": P * k} for k in range(1, 1001)],
}


@pytest.mark.parametrize("family", FAMILIES)
def test_values_python_hashes_alike_are_hashed_apart(family):
    values = FAMILIES[family]
    if not isinstance(values[0], (list, dict)):
        assert len({hash(v) for v in values}) == 1  # the premise: one bucket for Python's own hash
    assert len({hash(_frozen(v)) for v in values}) == len(values)


@pytest.mark.parametrize(("items", "pair"), [
    ([P, 2 * P, 3 * P, 2 * P], (1, 3)),
    ([1, 2.0, 3, 2], (1, 3)),
    ([2**70, float(2**70)], (0, 1)),
    ([-0.0, 0], (0, 1)),
    ([0.1, 0.1], (0, 1)),
    ([0.1, 0.2, 0.30000000000000004, 0.3], None),
    ([1, True], None),
    ([0, False, None, "0", [0], {"0": 0}], None),
    ([-1, -2], None),
    ([{"a": [1, 2.0]}, {"a": [1.0, 2]}], (0, 1)),
    ([{"a": 1}, {"a": True}], None),
])
def test_duplicates_are_found_as_json_schema_compares(items, pair):
    assert duplicate_pair(items) == pair
    errors, _ = validate({"x": items}, {"properties": {"x": {"uniqueItems": True}}})
    assert [e.keyword for e in errors] == ([] if pair is None else ["uniqueItems"])
