"""Chinese text has no space after its full-width punctuation, and no "：" closing a "key: value" (newcomer session 7,
item 4: "真实情况会是这样： API 会以……", built by joining two strings with a newline that Markdown draws as a space;
"minimum: 1：Anthropic……" in the strict-mode table, where the table drops the backticks around `minimum: 1`).

Every zh UI string is rendered with sample parameters; strings a page joins are joined as the page joins them
(toolcall.i18n.sentence_gap); tests/app/test_zh_spacing_pages.py and test_harness_lab_page.py check the pages."""

import re
import string

import pytest

from tests.content.test_chinese_text import TEXTS
from tests.zh_prose import _FENCED
from toolcall.i18n import catalogue, sentence_gap

#: A full-width mark that carries its own spacing, then a space or tab (a newline inside Markdown is drawn as one too).
SPACE_AFTER_MARK = re.compile(r"[：，。；！？、][ \t]")
#: "key: value" right before a full-width colon: two colons in one clause ("minimum: 1：Anthropic").
COLON_AFTER_COLON = re.compile(r"[^\s：，。；（(]+: [^\s：，。；）)]*`?：")


def stray_spacing(text: str) -> list[str]:
    """What in ``text`` breaks one of the two rules (the mark and its space; the "key: value：")."""
    return [m.group() for rx in (SPACE_AFTER_MARK, COLON_AFTER_COLON) for m in rx.finditer(text)]


def rendered(template: str) -> str:
    """``template`` filled with sample values: "1" where a format spec asks for a number, else "甲"."""
    params = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            params[re.split(r"[.\[]", name)[0]] = 1 if spec else "甲"
    return template.format(**params)


ZH = catalogue("zh")


def test_every_zh_string_is_checked():
    assert len(ZH) > 1000 and all(rendered(v) is not None for v in ZH.values())


def test_no_zh_ui_string_has_a_space_after_full_width_punctuation_or_a_colon_after_a_colon():
    found = {key: places for key, value in ZH.items() if (places := stray_spacing(rendered(value)))}
    assert found == {}


def test_no_zh_lesson_or_fixture_text_breaks_the_rules():
    """Lessons (body, code blocks aside) and every zh field of the fixtures, as tests/content/test_chinese_text.py reads them."""
    found = {where: places for where, text in TEXTS
             if not where.startswith("toolcall/") and (places := stray_spacing(_FENCED.sub(" ", text)))}
    assert found == {}


@pytest.mark.parametrize("text, places", [
    ("这一步不对。真实情况会是这样： API 会以 HTTP 400 拒绝", ["： "]),        # as reported
    ("minimum: 1：Anthropic 的 strict 模式不支持数值约束", ["minimum: 1："]),            # as reported
    ("`minimum: 1`：Anthropic", ["`minimum: 1`："]),
    ("一个 CallToolResult（isError: false）：宿主程序", []),     # a bracket closes the pair
    ("`minimum` 为 1：Anthropic 的 strict 模式", []),
    ("第一句。第二句，第三句", []),
])
def test_the_rules_find_the_reported_cases(text, places):
    assert stray_spacing(text) == places


def test_the_strict_rule_texts_read_key_then_value():
    assert rendered(ZH["strict.rule.anthropic.numeric"]).startswith("`甲` 为 甲：Anthropic")


def test_the_harness_lab_heading_and_400_join_without_a_space():
    """ui/harness_lab.py joins them with sentence_gap: nothing in Chinese, a space in English."""
    joined = ZH["harness.wrong"] + sentence_gap("zh") + ZH["harness.http_400"]
    assert stray_spacing(joined) == [] and "： " not in joined
    assert sentence_gap("en") == " "
