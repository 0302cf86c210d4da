"""What a model output's shape can make the validator write is bounded: a JSON pointer is at most about
MAX_POINTER_CHARS long whatever the keys (a 50 000-character key repeated in the pointer of each of its 4 900
fields made 250 MB of pointers from a 98 000-character output), and the notes list at most MAX_LISTED
whole-number floats, then how many more (19 800 floats were 19 800 notes; under a 40 000-character key,
473 million characters and 950 MB). Memory is measured with tracemalloc, never time."""

import json
import tracemalloc

import pytest

from toolcall.judge import evaluate
from toolcall.parsing import MAX_INPUT_CHARS
from toolcall.validation import (MAX_LISTED, MAX_POINTER_CHARS, POINTER_END_KEYS, POINTER_KEY_CHARS, pointer,
                                 validate)

BOUND = 2 * POINTER_END_KEYS * (POINTER_KEY_CHARS + 2) + 2 + MAX_POINTER_CHARS  # the longest pointer() writes


def peak(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("parts", [
    [], ["a", 0, "b~/c"], ["k" * MAX_POINTER_CHARS], ["k" * 50_000, "x1"], ["k" * 70] * 64, [str(i) for i in range(400)],
    ["a"] * 600, ["ü" * 5_000, 3, "/" * 5_000],
])
def test_a_pointer_is_bounded_and_short_ones_are_exact_rfc_6901(parts):
    text = pointer(parts)
    assert len(text) <= BOUND
    exact = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    if sum(len(str(p)) + 1 for p in parts) <= MAX_POINTER_CHARS:
        assert text == exact


@pytest.mark.parametrize("key_chars", [0, 20_000, 50_000])
def test_errors_under_a_long_key_cost_memory_of_the_input_not_key_times_fields(key_chars):
    schema = {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": False}}
    fields = (MAX_INPUT_CHARS - 2_000 - key_chars) // 10
    raw = json.dumps({"P" * key_chars: {f"x{i}": 0 for i in range(fields)}}, separators=(",", ":"))
    (errors, _), used = peak(lambda: validate(json.loads(raw), schema))
    assert len(errors) == fields
    assert max(len(e.pointer) for e in errors) <= BOUND
    assert used < 40 * len(raw) + 20_000_000  # was 250 MB at 50 000


@pytest.mark.parametrize("key_chars", [0, 40_000])
def test_whole_number_floats_are_listed_up_to_the_cap_then_counted(key_chars):
    count = (MAX_INPUT_CHARS - 2_000 - key_chars) // 5
    raw = '{"' + "P" * key_chars + '":[' + ",".join(["1.0"] * count) + "]}"
    card, used = peak(lambda: evaluate(raw, {"type": "object"}, "t"))
    assert len(card.notes) == MAX_LISTED + 1 and str(count - MAX_LISTED) in card.notes[-1]
    assert sum(map(len, card.notes)) < 20 * BOUND
    assert used < 50_000_000  # was 950 MB at 40 000


def test_few_floats_are_all_listed_in_pointer_order():
    _, notes = validate({"b": 2.0, "a": [1.0, 3.0]}, {"type": "object"})
    assert [n.split(" ")[0] for n in notes] == ["/a/0", "/a/1", "/b"]
