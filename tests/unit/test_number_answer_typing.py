"""A number answer typed the way a Chinese input method, a word processor or another country writes it is read, or
its one unreadable character is named (break-it pass brk13text). Before: "0．7" (full-width full stop) and "56／120"
(full-width slash) were "not a number. Write a decimal (0.7) …", though "８４" and "70％" were read; "−0.5" (the
minus sign U+2212 a document pastes) was "not a number"; "0。7" (the Chinese full stop, Chinese punctuation mode)
and "1 000" got the same sentence, which names none of what the student sees as a decimal."""

import pytest

from toolcall.exercise_types.number import NumberError, parse_number
from toolcall.exercises import load_exercises
from toolcall.grading import grade, grading_inputs


@pytest.mark.parametrize("text, value", [("0．7", 0.7), ("０．７", 0.7), ("56／120", 56 / 120), ("−0.5", -0.5),
                                         ("－0.5", -0.5), ("７０％", 0.7), ("７e－1", 0.7)])
def test_full_width_and_typographic_forms_are_read(text, value):
    assert parse_number(text) == value


def _number_exercise():
    return next(e for e in load_exercises().exercises if e.type == "number")


@pytest.mark.parametrize("text, char, point", [
    ("0,7", ",", "U+002C"), ("0。7", "。", "U+3002"), ("1，000", "，", "U+FF0C"), ("1 000", " ", "U+0020"),
    ("1\u00a0000", " ", "U+00A0"), ("0,7%", ",", "U+002C"), ("0٫7", "٫", "U+066B")])
def test_a_separator_this_box_does_not_read_is_named(text, char, point):
    ex = _number_exercise()
    result = grade(ex, text, grading_inputs(ex))
    assert (result.score, result.malformed) == (0, True)
    assert [f.render("en") for f in result.feedback] == [
        f'"{text}" is not a number: it holds "{char}" ({point}), which this box reads neither as a decimal point nor '
        "as part of a number. Write the decimal point as a full stop (0.7) and thousands with no separator (1000)."]
    assert [f.render("zh") for f in result.feedback] == [
        f"“{text}”不是数字：里面有“{char}”（{point}），这里既不把它当作小数点，也不把它算作数字的一部分。小数点请写成半角的 ."
        "（如 0.7），千位之间不加分隔符（如 1000）。"]


@pytest.mark.parametrize("text", ["abc", "1,2,3x", "0,7,x", "1/0,5"])
def test_other_text_is_still_not_a_number(text):
    ex = _number_exercise()
    result = grade(ex, text, grading_inputs(ex))
    assert result.malformed
    assert [f.render("en") for f in result.feedback] == [
        f'"{text}" is not a number. Write a decimal (0.7), a fraction (84/120) or a percentage (70%).']


@pytest.mark.parametrize("text", ["0.7²", "8⁴/120", "7⁰%", "⁰.7", "0.₇", "⑩", "0.7¹"])
def test_superscripts_subscripts_and_circled_digits_are_not_folded_into_digits(text):
    """Only full-width forms are folded: NFKC read "0.7²" as 0.72, "8⁴/120" as 84/120 and "7⁰%" as 70 %, numbers
    the student did not type (break-it pass brk20new)."""
    with pytest.raises(NumberError) as caught:
        parse_number(text)
    assert (caught.value.code, str(caught.value)) == ("not_number", text)


@pytest.mark.parametrize("text, char", [
    ("\u0660.\u0664\u0666\u0666\u0666\u0666\u0666\u0667", "\u0660"),  # Arabic-Indic 0.4666667
    ("\U0001d7ce.\U0001d7d2\U0001d7d4", "\U0001d7ce"),  # mathematical bold 0.46
    ("0.4\u06f66", "\u06f6"),  # one extended Arabic-Indic digit among ASCII ones
    ("\u0966.\u096d", "\u0966"),  # Devanagari 0.7
    ("\u0664/\u0665", "\u0664"),  # a fraction of Arabic-Indic digits
    ("\u0660\u066b\u0667", "\u0660")])  # Arabic-Indic digits and decimal separator: the digit is named first
def test_digits_of_other_scripts_are_named_not_read(text, char):
    """ASCII and full-width digits only, as the docstring says and the pass^k boxes read: the pattern's \\d matched
    every Unicode digit and float() read them, so these were graded (break-it pass brk21probe)."""
    ex = _number_exercise()
    result = grade(ex, text, grading_inputs(ex))
    assert (result.score, result.malformed) == (0, True)
    point = f"U+{ord(char):04X}"
    assert [f.render("en") for f in result.feedback] == [
        f'"{text}" is not a number: it holds the digit "{char}" ({point}) of another script, which this box does not '
        "read. Write digits as 0–9 (0.7)."]
    assert [f.render("zh") for f in result.feedback] == [
        f"“{text}”不是数字：里面的“{char}”（{point}）是其他文字里的数字，这里读不了。数字请写成 0–9（如 0.7）。"]
