"""Two entries listed side by side under the same title are named by ``check``: a lesson copied to start a new one,
its title left as it was, passed, and the table of contents showed two lines reading the same (so did a scenario in
the scenario picker, and two exercises of one page)."""

import pytest
import yaml

from tests.content_copy import copy_content, problem_set
from toolcall.fixtures import display_name, same_title_problems

SAME = "students cannot tell the two apart"


def _same(root):
    return sorted(p for p in problem_set(root) if SAME in p[2] and "the same title as" in p[2])


def test_a_copied_lesson_keeping_its_title_is_named_in_each_language(tmp_path):
    root = copy_content(tmp_path)
    for lang in ("en", "zh"):
        text = (root / "lessons" / lang / "05-tool-choice.md").read_text(encoding="utf-8")
        (root / "lessons" / lang / "13-new-lesson.md").write_text(text.replace("order: 5", "order: 13", 1),
                                                                  encoding="utf-8")
    titles = {lang: yaml.safe_load((root / "lessons" / lang / "05-tool-choice.md").read_text(encoding="utf-8")
                                   .split("---")[1])["title"] for lang in ("en", "zh")}
    assert _same(root) == [
        (f"lessons/{lang}/13-new-lesson.md", "$.title",
         f"the same title as lessons/{lang}/05-tool-choice.md $.title ({titles[lang]!r}): both are listed in the "
         f"lessons' table of contents, and {SAME}") for lang in ("en", "zh")]


def test_a_scenario_with_another_ones_title_is_named(tmp_path):
    root = copy_content(tmp_path)
    folder = root / "fixtures" / "scenarios"
    data = yaml.safe_load((folder / "01-plain-call.yaml").read_text(encoding="utf-8"))
    data["id"], data["order"] = "plain_call_again", 8
    data["title"]["zh"] = "另一个标题"
    (folder / "08-again.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    first, again = display_name(folder / "01-plain-call.yaml"), display_name(folder / "08-again.yaml")
    assert _same(root) == [(again, "$.title.en", f"the same title as {first} $.title.en ({data['title']['en']!r}): "
                                                 f"both are listed in the scenario picker, and {SAME}")]


def test_two_exercises_of_one_page_with_one_title_white_space_and_case_aside(tmp_path):
    root = copy_content(tmp_path)
    path = root / "fixtures" / "exercises" / "general.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    first, second = data["exercises"][0], data["exercises"][1]
    assert first["page"] == second["page"]
    second["title"]["en"] = "  " + first["title"]["en"].upper()
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    name = display_name(path)
    assert _same(root) == [(name, "$.exercises[1].title.en",
                            f"the same title as {name} $.exercises[0].title.en ({second['title']['en']!r}): both are "
                            f"listed in the {first['page']} page and the exercises' table, and {SAME}")]


def test_the_shipped_titles_differ():
    from toolcall import CONTENT_ROOT

    assert _same(CONTENT_ROOT) == []


@pytest.mark.parametrize("second", ["Sort the fail\u0435d runs",  # a Cyrillic е
                                    "\uff33ort the failed runs",  # a full-width Ｓ
                                    "Sort the fail\u200bed runs",  # a zero-width space
                                    "SORT  the failed runs"])  # case and white space, as before
def test_titles_that_only_look_different_are_the_same_title(second):
    """A look-alike letter of another script, a full-width form or a hidden character passed as another title
    (break-it pass brk21probe): the table still showed two rows reading the same."""
    entries = [("general.yaml", ["exercises", 0, "title"], {"en": "Sort the failed runs"}),
               ("general.yaml", ["exercises", 1, "title"], {"en": second})]
    assert [(p.file, p.path) for p in same_title_problems(entries, "the exercises page")] == [
        ("general.yaml", "$.exercises[1].title.en")]


def test_titles_that_read_differently_stay_apart():
    entries = [("a.yaml", ["title"], {"en": "Sort the failed runs", "zh": "整理失败的运行"}),
               ("b.yaml", ["title"], {"en": "Sort the failed run", "zh": "整理失败运行"})]
    assert same_title_problems(entries, "the exercises page") == []
