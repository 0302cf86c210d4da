"""A "duplicate keys" message names at most MAX_NAMED_KEYS keys, each cut to MAX_KEY_CHARS characters, then how many
more (issue 13: at most a dozen ids per message). 4 500 keys written twice (88 KB typed) made the hint under a json
exercise, the playground card and the message sent back to the model 30 KB of key names."""

import pytest

from toolcall import parsing
from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs
from toolcall.parsing import StrictJSONError, strict_loads

MANY = "{" + ",".join(f'"k{i}":1,"k{i}":1' for i in range(4500)) + "}"
NAMED = "k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, … (+4488)"


def test_strict_loads_names_a_dozen_keys_and_counts_the_rest():
    with pytest.raises(StrictJSONError) as caught:
        strict_loads(MANY)
    assert str(caught.value) == f"duplicate keys: {NAMED}"
    assert caught.value.hint.params == {"keys": NAMED}


def test_a_long_key_is_cut():
    key = "x" * 500
    with pytest.raises(StrictJSONError) as caught:
        strict_loads(f'{{"{key}": 1, "{key}": 2}}')
    assert str(caught.value) == "duplicate keys: " + "x" * parsing.MAX_KEY_CHARS + "…"


def test_a_json_exercise_says_it_in_both_languages():
    exercise = next(e for e in load_exercises().exercises if e.type == "json")
    feedback = grade(exercise, MANY, grading_inputs(exercise)).feedback
    assert [f.render("en") for f in feedback] == [f"Not a JSON object (DUPLICATE_KEYS): duplicate keys: {NAMED}.",
                                                  f"Your answer names these keys twice: {NAMED}. Write each key once."]
    assert [f.render("zh") for f in feedback] == [f"不是一个 JSON 对象（DUPLICATE_KEYS）：键重复：{NAMED}。",
                                                  f"你的答案里这些键写了两遍：{NAMED}。每个键只写一次。"]
