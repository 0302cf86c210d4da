"""A course file typed with a Chinese input method in full-width mode: ``tolerance：0.005`` (a full-width colon) was
"not YAML: line 11 column 5: could not find expected ':'", a line below, naming as missing the colon the instructor
sees; ``{en: "x"，zh: "y"}`` "expected ',' or '}'" (break-it pass brk13text). The full-width character is named first,
at its own line and column, with the parser's words after it."""

import pytest

from toolcall.fixtures import FixtureError, _read_data
from toolcall.lessons import parse_lesson

EXERCISE = "schema_version: 1\nexercises:\n  - id: x\n    tolerance{colon}0.005\n    answer: 1\n"


@pytest.mark.parametrize("text, said", [
    (EXERCISE.format(colon="\uff1a"),
     "not YAML: line 4 column 14 holds \uff1a (U+FF1A), a full-width character where YAML needs the ASCII : (the "
     "parser: line 5 column 5: could not find expected ':')"),
    ('title: {en: "x"\uff0c zh: "y"}\n',
     "not YAML: line 1 column 16 holds \uff0c (U+FF0C), a full-width character where YAML needs the ASCII , (the "
     "parser: line 1 column 16: expected ',' or '}', but got '<scalar>')"),
    ('items: [1, "a］", 2\uff3d\nnext: 1\n',
     "not YAML: line 1 column 19 holds \uff3d (U+FF3D), a full-width character where YAML needs the ASCII ] (the "
     "parser: line 2 column 5: expected ',' or ']', but got ':')"),
])
def test_a_full_width_character_is_named_where_it_is(tmp_path, text, said):
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FixtureError) as caught:
        _read_data(path)
    assert [p.message for p in caught.value.problems] == [said]


def test_other_yaml_errors_read_as_before(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(EXERCISE.format(colon=" "), encoding="utf-8")  # "tolerance 0.005": no colon at all
    with pytest.raises(FixtureError) as caught:
        _read_data(path)
    assert [p.message for p in caught.value.problems] == ["not YAML: line 5 column 5: could not find expected ':'"]


def test_a_lesson_front_matter_names_it_at_the_file_line():
    text = "---\ntitle: 模型只提议\nsummary\uff1a模型从来不会执行函数。\npage: walkthrough\n---\nBody.\n"
    lesson, problems = parse_lesson(text, "01-x", "zh", "lessons/zh/01-x.md")
    assert lesson is None
    assert [p.message for p in problems] == [
        "front matter is not YAML: line 3 column 8 holds \uff1a (U+FF1A), a full-width character where YAML needs the "
        "ASCII : (the parser: line 4 column 1: could not find expected ':')"]
