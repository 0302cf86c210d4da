"""The lesson loader, the pass^k figures lessons quote, and check_lessons on broken content."""

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from toolcall.pages_registry import LESSON_PAGE_IDS

from toolcall import CONTENT_ROOT as REPO_ROOT
from toolcall.lesson_check import check_lessons
from toolcall.passk import equivalent_q, pass_k
from toolcall.lessons import (all_fail, load_lessons, naive_pass_k, parse_lesson,
                              parse_source, pass_hat_k, quoted_in, split_front_matter, value_problem)

GOOD = "---\ntitle: T\nsummary: S\npage: playground\norder: 1\n---\nBody 72.9%.\n"


def test_a_good_lesson_parses_into_a_dataclass():
    lesson, problems = parse_lesson(GOOD, "01-t.md", "en", "lessons/en/01-t.md")
    assert problems == []
    assert (lesson.title, lesson.summary, lesson.page, lesson.order, lesson.body, lesson.slug) == \
        ("T", "S", "playground", 1, "Body 72.9%.\n", "01-t")


@pytest.mark.parametrize("text, expected", [
    ("no front matter\n", ["lessons/en/03-x.md: $: no front matter: the file must start with a line '---', "
                           "then YAML, then a line '---'"]),
    ("---\ntitle: T\nsummary: S\npage: playground\norder: 1\n", ["lessons/en/03-x.md: $: no front matter: the file "
                                                                 "must start with a line '---', then YAML, then a "
                                                                 "line '---'"]),
    ("---\nsummary: S\npage: playground\norder: 1\n---\nBody\n", ["lessons/en/03-x.md: $: 'title' is a required property"]),
    ("---\ntitle: T\nsummary: S\npage: nowhere\norder: 1\n---\nBody\n",
     [f"lessons/en/03-x.md: $.page: 'nowhere' is not one of {list(LESSON_PAGE_IDS)}"]),
    ("---\ntitle: T\nsummary: S\npage: lessons\norder: one\n---\nBody\n",
     ["lessons/en/03-x.md: $.order: 'one' is not of type 'integer'"]),
    ("---\ntitle: T\nsummary: S\npage: lessons\norder: 1\n---\n\n", ["lessons/en/03-x.md: $: the lesson has no body "
                                                                    "after its front matter"]),
    ("---\ntitle: [T\n---\nBody\n", ["lessons/en/03-x.md: $: front matter is not YAML: line 3 column 1: "
                                     "expected ',' or ']', but got '<stream end>'"]),
])
def test_a_malformed_lesson_names_file_and_path(text, expected):
    """An instructor's typo must point at the file and the front-matter field."""
    lesson, problems = parse_lesson(text, "03-x.md", "en", "lessons/en/03-x.md")
    assert lesson is None
    assert [str(p) for p in problems] == expected


def test_front_matter_split_ignores_a_bom_and_keeps_later_rules():
    assert split_front_matter("\ufeff---\na: 1\n---\nx\n---\ny\n") == ("a: 1\n", "x\n---\ny\n")


@pytest.mark.parametrize("value, computed, expected", [
    ("72.9%", naive_pass_k(0.9, 3), None),
    ("73%", naive_pass_k(0.9, 3), None),
    ("72.8%", naive_pass_k(0.9, 3), "computed 72.9%"),
    ("84/120", pass_hat_k(10, 9, 3), None),
    ("7/10", pass_hat_k(10, 9, 3), None),
    ("729/1000", pass_hat_k(10, 9, 3), "computed 7/10"),
    ("0.729", naive_pass_k(0.9, 3), None),
    ("52", 52, None),
    ("51", 52, "computed 52"),
    ("abc", "abc", None),
    ("about 70", pass_hat_k(10, 9, 3), "a number must be quoted as 72.9%, 84/120 or 0.729"),
])
def test_value_problem(value, computed, expected):
    assert value_problem(value, computed) == expected


def test_pass_k_figures_are_exact():
    """The numbers the course quotes, from the chapter's own examples."""
    assert naive_pass_k(0.9, 3) == Fraction(729, 1000)
    assert pass_hat_k(10, 9, 3) == Fraction(84, 120)
    # the ambiguity model is toolcall.passk's float arithmetic: equal to 1e-12
    assert pass_k(0.9, 3, 8, rho=1) == pytest.approx(0.729, abs=1e-12)
    assert pass_k(0.9, 3, 8) == pytest.approx(0.9 ** 24, abs=1e-12)
    assert value_problem("8.0%", pass_k(0.9, 3, 8)) is None
    assert round(equivalent_q(0.9, 3), 6) == 0.932170
    assert all_fail(0.2, 3) == pytest.approx(0.008, abs=1e-12)


def test_pass_hat_k_rejects_impossible_counts():
    with pytest.raises(ValueError):
        pass_hat_k(10, 11, 3)


@pytest.mark.parametrize("source", ["__import__('os')", "f(1)", "f(**x)", "f(a=b)", "a.b(x=1)", "f(", "1 + 1"])
def test_parse_source_never_evaluates(source):
    with pytest.raises(ValueError):
        parse_source(source)


def test_parse_source_reads_literal_keywords():
    assert parse_source('parse_error(output="truncated", field="column")') == \
        ("parse_error", {"output": "truncated", "field": "column"})


def test_quoted_in_accepts_json_escaped_text():
    assert quoted_in('say "hi"\nbye', '{"content": "say \\"hi\\"\\nbye"}')
    assert not quoted_in("absent", "present")


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A copy of the repo's fixtures and lessons to break."""
    shutil.copytree(REPO_ROOT / "fixtures", tmp_path / "fixtures")
    shutil.copytree(REPO_ROOT / "lessons", tmp_path / "lessons")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_repo_copy_is_clean(content):
    assert check_lessons(content) == []


def test_a_lesson_in_one_language_only_is_reported(content):
    (content / "lessons" / "zh" / "09-misconceptions.md").unlink()
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/zh/09-misconceptions.md: $: missing: lessons/en/09-misconceptions.md has no zh version"]


def test_a_wrong_figure_is_reported(content):
    _edit(content / "lessons" / "en" / "08-contract-tests-and-evals.md", '{value: "70%"', '{value: "75%"')
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/en/08-contract-tests-and-evals.md: $.figures[1].value: '75%' is wrong: computed 70%"]


def test_a_figure_missing_from_the_text_is_reported(content):
    _edit(content / "lessons" / "zh" / "04-descriptions-are-prompts.md", "提到 93.2%", "提到 93%")
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/zh/04-descriptions-are-prompts.md: $.figures[2].value: '93.2%' does not appear in the lesson"]


def test_a_figure_read_inside_a_longer_number_is_reported(content):
    # "18.0%" in the text used to count as quoting the figure "8.0%". Every quote of it becomes "18.0%", not only
    # the shipped one: an instructor's sentence quoting 8.0% again made this test fail (newcomer session 14)
    path = content / "lessons" / "en" / "04-descriptions-are-prompts.md"
    head, sep, body = path.read_text(encoding="utf-8").partition("\n---\n")
    assert "from 8.0% (independent" in body
    path.write_text(head + sep + re.sub(r"(?<![0-9.])8\.0%", "18.0%", body), encoding="utf-8")
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/en/04-descriptions-are-prompts.md: $.figures[1].value: '8.0%' does not appear in the lesson"]


def test_a_figure_quoted_twice_is_reported_only_when_no_quote_is_left(content):
    """The same test with the figure quoted a second time, as an instructor might (newcomer session 14)."""
    path = content / "lessons" / "en" / "04-descriptions-are-prompts.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nWith q = 0.9 and m = 3, pass^8 is 8.0% if the runs are "
                    "independent.\n", encoding="utf-8")
    assert check_lessons(content) == []
    test_a_figure_read_inside_a_longer_number_is_reported(content)


@pytest.mark.parametrize("value, body, expected", [
    ("8.0%", "from 18.0% to", False), ("0.8%", "is 10.8%.", False), ("52", "column 152", False),
    ("52", "column 52.5", False), ("52", "column 52.", True), ("52", "(column 52)", True),
    ("72.9%", "为72.9%。", True), ("84/120", "= 84/1200", False), ("70%", "= 70%", True),
])
def test_quoted_in_needs_the_whole_number(value, body, expected):
    assert quoted_in(value, body) is expected


def _numeric_figures():
    """(lang, file name, figure index, value, glued) for every figure of the shipped lessons that starts or
    ends with a digit; ``glued`` is the value with a digit stuck to it."""
    for lang in ("en", "zh"):
        for lesson in load_lessons(lang).lessons:
            for i, figure in enumerate(lesson.figures):
                value = str(figure.value)
                if value[:1].isdigit():
                    yield lang, lesson.name, i, value, "1" + value
                elif value[-1:].isdigit():
                    yield lang, lesson.name, i, value, value + "5"


@pytest.mark.parametrize("lang, name, index, value, glued", list(_numeric_figures()))
def test_every_numeric_figure_glued_to_a_digit_is_reported(content, lang, name, index, value, glued):
    path = content / "lessons" / lang / name
    head, sep, body = path.read_text(encoding="utf-8").partition("\n---\n")
    assert value in body
    path.write_text(head + sep + body.replace(value, glued), encoding="utf-8")
    assert f"lessons/{lang}/{name}: $.figures[{index}].value: {value!r} does not appear in the lesson" in \
        [str(p) for p in check_lessons(content)]


def test_a_changed_app_message_breaks_the_quoting_lesson(content):
    """Lessons quote the app's real tool_result; if the core's wording changes, the check fails."""
    _edit(content / "fixtures" / "outputs" / "refund_order.yaml", '"amount_cents": "19.99"', '"amount_cents": "29.99"')
    problems = [str(p) for p in check_lessons(content)]
    assert [p.split(": $.")[0] for p in problems] == ["lessons/en/07-errors-back.md", "lessons/zh/07-errors-back.md"]
    assert all(".figures[0].value: " in p and "is wrong: the app computes" in p for p in problems)


def test_a_stale_parser_message_is_reported(content):
    """The parser's internal message ("Unterminated string starting at") is not what the app
    prints; a lesson that quotes it fails the check (issue 12: CI passed with such a quote)."""
    from toolcall.parsing import localized_detail, parse_tool_input
    truncated = parse_tool_input('{"order_id": "ORD-20260917", "amount_cents": 1999, "rea')
    for lang in ("en", "zh"):
        lesson = content / "lessons" / lang / "07-errors-back.md"
        text = lesson.read_text("utf-8")
        stale = """  - {value: "Unterminated string starting at", source: 'parse_error(output="truncated", field="detail")'}\n"""
        lesson.write_text(text.replace("figures:\n", "figures:\n" + stale, 1), "utf-8")
    assert [str(p) for p in check_lessons(content)] == [
        f"lessons/{lang}/07-errors-back.md: $.figures[0].value: 'Unterminated string starting at' is wrong: "
        f"the app computes {localized_detail(truncated, lang)!r}" for lang in ("en", "zh")]


def test_sources_must_be_https_urls(content):
    """Provider claims cite their documentation in ``sources``: a list of https URLs."""
    _edit(content / "lessons" / "en" / "05-tool-choice.md",
          "  - https://platform.openai.com/docs/guides/function-calling\n",
          "  - http://platform.openai.com/docs/guides/function-calling\n  - not a url\n")
    problems = [str(p) for p in check_lessons(content)]
    assert [p.split(": ")[1] for p in problems] == ["$.sources[2]", "$.sources[3]"]
    assert all(p.startswith("lessons/en/05-tool-choice.md: ") and "does not match" in p for p in problems)


def test_the_lessons_with_provider_rules_cite_their_sources():
    """Lessons 02, 05 and 09 state provider rules and tool-count guidance; each cites where it comes from."""
    for lang in ("en", "zh"):
        for name in ("02-five-steps.md", "05-tool-choice.md", "09-misconceptions.md"):
            text = (REPO_ROOT / "lessons" / lang / name).read_text("utf-8").split("\n---", 1)[0]
            assert "sources:\n  - https://" in text, (lang, name)


def test_lesson_03_quotes_the_tool_description_in_its_own_language(content):
    """Each lesson shows the definition in its language; editing the Chinese description breaks only zh."""
    _edit(content / "fixtures" / "tools" / "refund_order.json", "退款金额不能超过实付金额。", "退款金额不得超过实付金额。")
    problems = [str(p) for p in check_lessons(content)]
    assert [p.split(": $.")[0] for p in problems] == ["lessons/zh/03-tool-definition.md"]
    assert "$.figures[0].value: " in problems[0] and "退款金额不得超过实付金额。" in problems[0]


def test_an_unknown_figure_function_is_reported(content):
    _edit(content / "lessons" / "en" / "07-errors-back.md", "all_fail(", "all_fails(")
    (problem,) = check_lessons(content)
    assert str(problem).startswith("lessons/en/07-errors-back.md: $.figures[3].source: all_fails(p_fail=0.2, "
                                   "attempts=3): unknown figure function 'all_fails'")


def test_page_and_order_must_agree_across_languages(content):
    _edit(content / "lessons" / "zh" / "05-tool-choice.md", "order: 5", "order: 50")
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/zh/05-tool-choice.md: $.order: 50 differs from 5 in lessons/en/05-tool-choice.md"]


def test_a_badly_named_file_is_reported(content):
    shutil.copy(content / "lessons" / "en" / "01-model-proposes.md", content / "lessons" / "en" / "Intro.md")
    shutil.copy(content / "lessons" / "zh" / "01-model-proposes.md", content / "lessons" / "zh" / "Intro.md")
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/en/Intro.md: $: file name must look like NN-slug.md (two digits, lowercase words)",
        "lessons/zh/Intro.md: $: file name must look like NN-slug.md (two digits, lowercase words)"]


def test_no_lessons_folder_means_nothing_to_check(tmp_path):
    assert check_lessons(tmp_path) == []


def test_lessons_load_sorted_with_their_pages():
    lessons = load_lessons("en")
    assert lessons.problems == ()
    orders = [lesson.order for lesson in lessons.lessons]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    shipped = ["03-tool-definition", "06-structured-outputs", "07-errors-back"]  # pinned by slug; others may join
    assert [s for s in (lesson.slug for lesson in lessons.for_page("playground")) if s in shipped] == shipped


@pytest.mark.parametrize("source", ["naive_pass_k(p=0.9, k=10000000)", "naive_pass_k(p=0.9, k=[3])"])
def test_figure_sources_are_bounded(source):
    with pytest.raises(ValueError):
        parse_source(source)


#: A valid value of every argument a playground figure function takes (the sweep below needs one per argument).
VALID_FIGURE_ARGUMENTS = {"output": "truncated", "format": "anthropic", "field": "code", "tool": "refund_order"}


def _figure_sweep():
    import inspect

    from toolcall.lesson_check import PLAYGROUND_FIGURES
    for name, function in sorted(PLAYGROUND_FIGURES.items()):
        params = list(inspect.signature(function).parameters)[2:]  # after (root, lang)
        for bad in params:
            for value in ("nope", "../outputs/refund_order", 1):
                args = ", ".join(f"{p}={json.dumps(value if p == bad else VALID_FIGURE_ARGUMENTS[p])}" for p in params)
                yield f"{name}({args})"


@pytest.mark.parametrize("source", list(_figure_sweep()))
def test_a_figure_argument_naming_nothing_is_reported_at_the_lesson(content, source):
    """tool_description(tool="refund_ordr") was reported as 'fixtures/tools/refund_ordr.json: $: cannot read file: no
    such file', naming neither the lesson nor its figure. Every argument of every playground figure function, given a
    value that names nothing, is reported at the lesson's $.figures[0].source and only there."""
    lesson = content / "lessons" / "en" / "03-tool-definition.md"
    _edit(lesson, "figures:\n", "figures:\n  - {value: \"x\", source: '" + source + "'}\n")
    problems = [str(p) for p in check_lessons(content)]
    assert len(problems) == 1 and problems[0].startswith(f"lessons/en/03-tool-definition.md: $.figures[0].source: "
                                                         f"{source}: "), problems


def test_a_missing_tool_in_a_figure_lists_the_tools(content):
    _edit(content / "lessons" / "en" / "03-tool-definition.md", 'tool="refund_order"', 'tool="refund_ordr"')
    tools = sorted(p.stem for p in (content / "fixtures" / "tools").glob("*.json"))  # an instructor's added tool too
    assert "refund_order" in tools and "cancel_order" in tools
    assert [str(p) for p in check_lessons(content)] == [
        "lessons/en/03-tool-definition.md: $.figures[0].source: tool_description(tool=\"refund_ordr\"): no tool "
        f"'refund_ordr': fixtures/tools/ holds {tools}"]


@pytest.mark.parametrize("target", ["05-tool-choice.md", "img/figure.png", "/playground", "#anchor",
                                    "javascript:alert(1)", "data:text/html,x", "ftp://example.com/x"])
@pytest.mark.parametrize("form", ["[the lesson]({})", "![a figure]({})", "[the lesson](<{}>)"])
def test_a_link_that_is_no_web_address_is_reported(content, target, form):
    """[tool choice](05-tool-choice.md) and ![](img/x.png) passed check and were a dead link or a broken image in
    class: the app serves no files beside the lessons. Every link or image target but http(s) is named."""
    lesson = content / "lessons" / "en" / "02-five-steps.md"
    lesson.write_text(lesson.read_text("utf-8") + "\nSee " + form.format(target) + ".\n", "utf-8")
    (problem,) = check_lessons(content)
    assert (problem.file, problem.path) == ("lessons/en/02-five-steps.md", "$.body")
    assert problem.message.startswith(f"link to {target.split(')')[0]!r}: the app serves no files beside the lessons")


def test_web_links_and_links_shown_as_code_are_not_reported(content):
    for lang in ("en", "zh"):  # both: a code block in one language only is a problem of its own
        lesson = content / "lessons" / lang / "02-five-steps.md"
        lesson.write_text(lesson.read_text("utf-8") + "\n[docs](https://example.com/a_(b)) and `[a](b.md)`.\n\n"
                          "```\n[c](d.md)\n```\n", "utf-8")
    assert check_lessons(content) == []
