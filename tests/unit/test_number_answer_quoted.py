"""A number answer's refusal states the answer as typed (break-it pass brk18fresh). Before: the length limit was
counted after NFKC folding, so 12 typed characters of U+FDFA were "216 characters long; a number answer may have at
most 200", and 170 typed characters "230 characters long"; the first 40 characters of a longer answer were quoted
as if they were all of it ('"111…1" is too large', the rest of the answer not named)."""

import unicodedata

import pytest

from toolcall.exercise_types.number import MAX_NUMBER_CHARS, MAX_QUOTED_CHARS
from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs

HINT_EN = " Write a decimal (0.7), a fraction (84/120) or a percentage (70%)."
HINT_ZH = "可以写小数（0.7）、分数（84/120）或百分数（70%）。"


def _feedback(text):
    ex = next(e for e in load_exercises().exercises if e.type == "number")
    result = grade(ex, text, grading_inputs(ex))
    assert (result.score, result.malformed, len(result.feedback)) == (0, True, 1)
    return result.feedback[0].render("en"), result.feedback[0].render("zh")


def test_a_short_answer_that_folds_long_is_not_called_too_long():
    text = "\ufdfa" * 12  # 12 typed; NFKC folds it to 216
    assert len(unicodedata.normalize("NFKC", text)) == 216
    assert _feedback(text) == (f'"{text}" is not a number.' + HINT_EN, f"“{text}”不是数字。" + HINT_ZH)


def test_the_length_named_is_the_typed_length():
    text = "1" * 150 + "\u3300" * 20  # 170 typed; NFKC folds each U+3300 to 4 characters: 230
    assert _feedback(text) == (f'"{"1" * 40}…" is not a number.' + HINT_EN, f"“{'1' * 40}…”不是数字。" + HINT_ZH)
    text = "\u3300" * 201
    assert _feedback(text) == (
        f'"{text[:40]}…" is 201 characters long; a number answer may have at most 200.' + HINT_EN,
        f"“{text[:40]}…”有 201 个字符，数字答案最多 200 个字符。" + HINT_ZH)


@pytest.mark.parametrize("text, en", [
    ("1" * 39 + "e999", f'"{"1" * 39}e…" is too large to compute with (beyond about 1.8 × 10³⁰⁸).'),
    ("1" * 41 + "/0", f'"{"1" * 40}…" divides by zero.'),
    ("1e999", '"1e999" is too large to compute with (beyond about 1.8 × 10³⁰⁸).'),
])
def test_a_cut_quote_ends_in_an_ellipsis(text, en):
    assert _feedback(text)[0] == en


# The next member of the kind: for every way a number answer is refused, the quote is the answer or a cut of it
# that says so, and any length named is the typed one.
@pytest.mark.parametrize("text", [
    "x" * 41, "x" * 40, "\ufdfa" * 5, "\ufdfa" * 200, "\ufdfa" * 201, "1" * 201, "0," + "1" * 60, "1" * 60 + "/0",
    "1" * 60 + "e400", "\u3300" * 60])
def test_every_refusal_quotes_the_answer_as_typed(text):
    for message in _feedback(text):
        quoted = message.split('"')[1] if message.startswith('"') else message[1:].split("”")[0]
        typed = text.strip()
        assert quoted == (typed if len(typed) <= MAX_QUOTED_CHARS else typed[:MAX_QUOTED_CHARS] + "…")
        if len(typed) > MAX_NUMBER_CHARS:
            assert f"{len(typed):,}" in message
