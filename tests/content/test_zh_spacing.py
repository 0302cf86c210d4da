"""Chinese text has no space after its full-width punctuation, and no "：" closing a "key: value" (newcomer session 7,
item 4: "真实情况会是这样： API 会以……", built by joining two strings with a newline that Markdown draws as a space;
"minimum: 1：Anthropic……" in the strict-mode table, where the table drops the backticks around `minimum: 1`).

Also: bold that CommonMark cannot close next to full-width punctuation ("**Anthropic：**先是" shows its asterisks; the
fix for the 400 above, run on as "**……会是这样：**API", did the same). Every zh UI string is rendered with sample
parameters, lessons and fixture zh fields are read whole; tests/app/test_zh_spacing_pages.py and
test_harness_lab_page.py check the pages as drawn."""

import json
import re
import string
import unicodedata

import pytest

from tests.content.test_chinese_text import TEXTS
from tests.zh_prose import _FENCED, _INLINE
from toolcall.i18n import catalogue, fill

#: A full-width mark that carries its own spacing, then a space or tab (a newline inside Markdown is drawn as one too).
SPACE_AFTER_MARK = re.compile(r"[：，。；！？、][ \t]")
#: "key: value" right before a full-width colon: two colons in one clause ("minimum: 1：Anthropic").
COLON_AFTER_COLON = re.compile(r"[^\s：，。；（(]+: [^\s：，。；）)]*`?：")
#: Names listed with an ASCII ", " inside full-width brackets ("（maxLength, minimum）"): Chinese lists them with "、"
#: (toolcall.i18n.name_list). A formula's own brackets, C(n, k), are left alone.
ASCII_LIST = re.compile(r"（[^（）()\n]*\w, \w[^（）()\n]*）")


def stray_spacing(text: str) -> list[str]:
    """What in ``text`` breaks one of the rules (the mark and its space; the "key: value："; the bracketed list)."""
    return ([m.group() for rx in (SPACE_AFTER_MARK, COLON_AFTER_COLON) for m in rx.finditer(text)]
            + ASCII_LIST.findall(_INLINE.sub("c", text)))  # `to refund, use` is a quotation, not a list


def _punctuation(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"  # CommonMark's Unicode punctuation: categories P and S


def unclosed_bold(text: str) -> list[str]:
    """The ``**`` runs in ``text`` (code aside) that CommonMark cannot use as the bold they open or close: an opener
    must be left-flanking, a closer right-flanking (a closer after "：" must be followed by a space or punctuation,
    so "**会是这样：**API" and "**Anthropic：**先是" keep their asterisks). Openers and closers alternate."""
    text = _INLINE.sub("c", _FENCED.sub(" ", text))
    bad = []
    for n, m in enumerate(re.finditer(r"(?<!\*)\*\*(?!\*)", text)):
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        inner, outer = (after, before) if n % 2 == 0 else (before, after)
        if inner.isspace() or (_punctuation(inner) and not (outer.isspace() or _punctuation(outer))):
            bad.append(text[max(0, m.start() - 5):m.end() + 2])
    return bad


def rendered(template: str) -> str:
    """``template`` filled with sample values: "1" where a format spec asks for a number, else "甲"."""
    params = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            params[re.split(r"[.\[]", name)[0]] = 1 if spec else "甲"
    return fill(template, **params)


ZH = catalogue("zh")


def test_every_zh_string_is_checked():
    assert len(ZH) > 1000 and all(rendered(v) is not None for v in ZH.values())


def test_no_zh_ui_string_has_a_space_after_full_width_punctuation_or_a_colon_after_a_colon():
    found = {key: places for key, value in ZH.items() if (places := stray_spacing(rendered(value)))}
    assert found == {}


def test_no_zh_lesson_or_fixture_text_breaks_the_rules():
    """Lessons (body, code blocks aside) and every zh field of the fixtures, as tests/content/test_chinese_text.py reads them."""
    found = {where: places for where, text in TEXTS
             if not where.startswith("toolcall/") and (places := [p for prose in _prose(text) for p in stray_spacing(prose)])}
    assert found == {}


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []


def _prose(text: str) -> list[str]:
    """What of ``text`` is read as Chinese prose: a JSON text (a pairing example's transcript) is its string values
    ('"message": "未知工具：x"' is a key and a value, not a "key: value：" clause), anything else is the text with its
    code fences blanked."""
    try:
        return _strings(json.loads(text))
    except ValueError:
        return [_FENCED.sub(" ", text)]


@pytest.mark.parametrize("text, places", [
    ("这一步不对。真实情况会是这样： API 会以 HTTP 400 拒绝", ["： "]),        # as reported
    ("minimum: 1：Anthropic 的 strict 模式不支持数值约束", ["minimum: 1："]),            # as reported
    ("`minimum: 1`：Anthropic", ["`minimum: 1`："]),
    ("一个 CallToolResult（isError: false）：宿主程序", []),     # a bracket closes the pair
    ("`minimum` 为 1：Anthropic 的 strict 模式", []),
    ("第一句。第二句，第三句", []),
    ("它用了不支持的校验关键字（maxLength, minimum），原样发出去", ["（maxLength, minimum）"]),   # as seen in Chromium
    ("它用了不支持的校验关键字（maxLength、minimum），原样发出去", []),
    ("都除以 C(num_trials, k)）", []),
])
def test_the_rules_find_the_reported_cases(text, places):
    assert stray_spacing(text) == places


def test_the_strict_rule_texts_read_key_then_value():
    assert rendered(ZH["strict.rule.anthropic.numeric"]).startswith("`甲` 为 甲：Anthropic")


def test_every_bold_in_zh_text_can_close():
    found = {key: bad for key, value in ZH.items() if (bad := unclosed_bold(rendered(value)))}
    found |= {where: bad for where, text in TEXTS if not where.startswith("toolcall/") and (bad := unclosed_bold(text))}
    assert found == {}


@pytest.mark.parametrize("text, bad", [
    ("**这一步不对。真实情况会是这样：**API 会以 HTTP 400 拒绝", ["会是这样：**AP"]),   # the 400 run on
    ("两条消息。**Anthropic：**先是 `x`", ["opic：**先是"]),                              # a scenario's explanation
    ("**Anthropic**：先是", []),
    ("**这一步不对。**\n\nAPI 会以", []),
    ("同一个请求跑 **k** 次，**每一次**都得对", []),
    ("（`in cents`、单位、元……）、**上限**（`never exceed`）", []),
])
def test_the_bold_rule_finds_the_reported_cases(text, bad):
    assert unclosed_bold(text) == bad


#: Two Chinese characters with a space between them: a template's space meant for a Latin name ("按 {format}")
#: met a Chinese one ("本项目 JSONL").
CJK_SPACE_CJK = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")


def test_a_log_format_name_fills_its_templates_without_a_space_between_chinese_characters():
    """The selection lab's upload error read "无法按 本项目 JSONL 读取这个文件" (newcomer pass): every zh template
    of the selection lab that names a log format is rendered with every format a log is read as (ui/eval_lab.py:
    the detected one, never "auto")."""
    zh = catalogue("zh")
    names = [value for key, value in zh.items()
             if key.startswith("eval.format_") and key not in ("eval.format_label", "eval.format_auto")]
    templates = {key: value for key, value in zh.items()
                 if key.startswith("eval.") and ("{format}" in value or "{fmt}" in value)}
    assert names and templates
    rendered = {(key, name): string.Formatter().vformat(template, (), _Fill(format=name, fmt=name))
                for key, template in templates.items() for name in names}
    assert {where: text for where, text in rendered.items() if CJK_SPACE_CJK.search(text)} == {}


class _Fill(dict):
    """Format arguments: the given ones, and any other placeholder as "1"."""

    def __missing__(self, key):
        return "1"
