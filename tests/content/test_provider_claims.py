"""Provider rules stated as the documentation states them (issue 12, item 3). Sources:
https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use (disable_parallel_tool_use:
auto → at most one tool, any/tool → exactly one; all results together in the next user message, tool_result
blocks first); Bedrock's Converse API rejects results split across messages (ValidationException,
https://github.com/crewAIInc/crewAI/pull/4766); the course chapter (../shared/seeds/) for the tool count."""

from toolcall import REPO_ROOT
from toolcall.i18n import t


def _lesson(lang: str, name: str) -> str:
    return (REPO_ROOT / "lessons" / lang / name).read_text("utf-8")


def test_disable_parallel_tool_use_is_at_most_one_with_auto_and_exactly_one_with_any_or_tool():
    en = _lesson("en", "05-tool-choice.md")
    assert "Any of them can carry" not in en
    assert "With `auto` the reply then\nholds **at most one** tool call; with `any` or `tool`, **exactly one**" in en
    zh = _lesson("zh", "05-tool-choice.md")
    assert "以上任何一种都可以加上" not in zh
    assert "配 `auto` 时，一次回复**最多**调一个工具；配 `any` 或 `tool` 时，**正好**调一个" in zh
    assert "课程正文说任何取值都能加" in zh and "The course chapter says any value can carry it" in en


def test_the_tool_choice_exercise_states_the_documented_rule():
    from toolcall.exercises import load_exercises
    exercise = next(e for e in load_exercises().exercises if e.id == "wt_tool_choice")
    text = exercise.explanation
    assert "with auto the reply then holds at most one tool call, with any or tool exactly one" in text["en"]
    assert "配 auto 时一次回复最多调一个工具，配 any 或 tool 时正好调一个" in text["zh"]


def test_split_parallel_results_are_not_called_an_error_of_the_api():
    en, zh = t("walkthrough.explain.request_results_parallel", "en"), t("walkthrough.explain.request_results_parallel", "zh")
    assert "would be an error" not in en and "会报错" not in zh
    assert "make Claude stop calling tools in parallel" in en and "Anthropic documents ONE user message" in en and "Bedrock's Converse API, reject them" in en
    assert "Bedrock 的 Converse API）会直接拒绝" in zh and "不再并行调用工具" in zh


def test_tool_count_guidance_is_the_courses():
    en, zh = _lesson("en", "09-misconceptions.md"), _lesson("zh", "09-misconceptions.md")
    assert "a dozen or two" not in en and "一二十个" not in zh
    assert "about 5–15 tools;\n  past 20" in en and "5–15 个工具比较舒适；超过 20 个" in zh
