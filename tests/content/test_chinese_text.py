"""Every Chinese string in the content (UI catalogue, lessons, fixtures' zh fields, tool
translations, order items) is Chinese prose: no English sentence fragment left in (see
tests/zh_prose.py), and one term for "prompt", the course's 提示词."""

import json
import re

import yaml

from tests.zh_prose import _FENCED, ascii_colons, english_runs, prose
from toolcall import CONTENT_ROOT, FIXTURES_DIR, LESSONS_DIR, REPO_ROOT


def _zh_values(node, where):
    """(where, text) for every value under a ``zh`` key (and every string below it)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "zh":
                yield from _strings(value, f"{where}.zh")
            else:
                yield from _zh_values(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _zh_values(value, f"{where}[{i}]")


def _strings(node, where):
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, f"{where}[{i}]")


def chinese_texts():
    out = []
    for path in sorted((REPO_ROOT / "toolcall" / "locales").rglob("*.yaml")):
        rel = path.relative_to(REPO_ROOT)
        if path.name == "zh.yaml" or "zh" in path.parent.name:
            out += _strings(yaml.safe_load(path.read_text("utf-8")), str(rel))
    for path in sorted((LESSONS_DIR / "zh").glob("*.md")):
        out.append((str(path.relative_to(CONTENT_ROOT)), path.read_text("utf-8").split("\n---", 1)[-1]))
    for path in sorted(FIXTURES_DIR.rglob("*.yaml")):
        out += _zh_values(yaml.safe_load(path.read_text("utf-8")), str(path.relative_to(CONTENT_ROOT)))
    for path in sorted((FIXTURES_DIR / "tools").glob("*.json")):
        out += _zh_values(json.loads(path.read_text("utf-8")), str(path.relative_to(CONTENT_ROOT)))
    return out


TEXTS = chinese_texts()


def test_there_is_chinese_content_to_check():
    assert len(TEXTS) > 500
    assert any(where.startswith("fixtures/tools/refund_order.json") for where, _ in TEXTS)
    assert any(where.startswith("fixtures/orders/orders.yaml") for where, _ in TEXTS)


def test_no_english_sentence_fragment_in_chinese_content():
    leftovers = {where: runs for where, text in TEXTS if (runs := english_runs(text))}
    assert leftovers == {}


def test_prompt_is_called_tishici_as_in_the_course():
    """The course calls it 提示词 (and the lessons do); "prompt" as an English word in Chinese text is inconsistent."""
    found = [where for where, text in TEXTS if re.search(r"(?<![\w`])prompts?(?![\w`])", re.sub(r"`[^`]*`", "", text))]
    assert found == []


# --- issue 14: the app's own English terms are not left in Chinese text ------------------------------

def _app_terms() -> list[str]:
    """Short English terms the app translates (catalogue values of 2 to 3 words whose zh differs,
    e.g. "(no tool)", "correctly declined", "Wrong tool"): each has a Chinese wording to use."""
    from toolcall.i18n import catalogue

    en, zh = catalogue("en"), catalogue("zh")
    term = re.compile(r"^\(?[A-Za-z]+(?: [A-Za-z]+){1,2}\)?$")
    return sorted({v for k, v in en.items() if isinstance(v, str) and term.match(v) and zh.get(k) != v})


def _en_zh_pairs(node, where):
    """(where, en, zh) for every dict holding both an ``en`` and a ``zh`` string."""
    if isinstance(node, dict):
        if isinstance(node.get("en"), str) and isinstance(node.get("zh"), str):
            yield where, node["en"], node["zh"]
        for key, value in node.items():
            yield from _en_zh_pairs(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _en_zh_pairs(value, f"{where}[{i}]")


def _contains(text: str, term: str) -> bool:
    return re.search(r"(?<![\w])" + re.escape(term.lower()) + r"(?![\w])", prose(text).lower()) is not None


def test_the_apps_english_terms_are_not_left_in_chinese_text():
    """Two-word terms slip past english_runs (three words): "expected_tool 是 (no tool)", "correctly
    declined". Outside `code`, Chinese text uses the catalogue's Chinese for them."""
    terms = _app_terms()
    assert "(no tool)" in terms and "correctly declined" in terms
    found = {where: hits for where, text in TEXTS if (hits := [term for term in terms if _contains(text, term)])}
    assert found == {}


def test_a_term_quoted_in_english_is_translated_in_chinese():
    """A term the English quotes ("called anyway") is named in the Chinese text in Chinese; covers every
    en/zh pair in the fixtures (exercise prompts, options, explanations, feedback)."""
    quoted = re.compile(r"\"([A-Za-z]+(?: [A-Za-z]+){1,2})\"")
    found = []
    for path in sorted(FIXTURES_DIR.rglob("*.yaml")):
        for where, en, zh in _en_zh_pairs(yaml.safe_load(path.read_text("utf-8")), str(path.relative_to(CONTENT_ROOT))):
            found += [(where, term) for term in quoted.findall(en) if _contains(zh, term)]
    assert found == []


def test_chinese_text_uses_the_full_width_colon():
    """"资料来源: " reads as English punctuation: after a Chinese word the colon is "：" (issue 14)."""
    assert ascii_colons("资料来源: a · b") == ["源: "] and ascii_colons("资料来源：a") == []
    assert ascii_colons("见 `a: b` 和 https://x.y/a:b") == []
    found = {where: runs for where, text in TEXTS if (runs := ascii_colons(text))}
    assert found == {}


#: Word-for-word renderings of English found in the Chinese text (a reviewer's pass over the pass^k lab,
#: session 6), each with what a Chinese reader writes instead. A pattern here catches the next copy anywhere.
CALQUES = {
    r"带子": "the chart's \"band\" is 范围 (the legend's word), not a ribbon",
    r"没有任何(保留的)?句子说到": "\"no kept sentence states\": 保留的句子里都没说到",
    r"每有一点没有": "\"each point that no … states\": 每漏掉一点",
    r"对任何 ?k 的": "\"for every k\": 不论 k 取多少",
    r"再产生后果的场景": "\"before anything happens\": say who checks the result first",
    r"掩盖了该修什么": "\"hides what to fix\": 看不出该修什么",
    r"值得同等用心": "\"deserves the same care\": say the same as what",
}


def test_no_word_for_word_renderings_in_chinese_text():
    found = {where: [p for p in CALQUES if re.search(p, text)] for where, text in TEXTS}
    assert {where: hits for where, hits in found.items() if hits} == {}


#: A line break inside a Chinese paragraph: Markdown shows it as a space ("全过了； 它没有偏差"), which no
#: Chinese typesetting has. A break before a list item, heading, table row or display math is Markdown's own.
SOFT_BREAK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]\n(?![ \t]*(?:[-*+] |\d+\. |#|\||\$\$|\n))(?=[ \t]*\S)")


def test_chinese_paragraphs_have_no_line_breaks_that_show_as_spaces():
    found = [where for where, text in TEXTS if SOFT_BREAK.search(_FENCED.sub(" ", text))]
    assert found == []


def test_chinese_quotes_are_the_curly_ones():
    """Chinese text quotes with “” (the course's and the rest of the app's marks); the selection lab and its
    exercises used 「」 beside pages that use “” (newcomer pass): one style, the one Chinese readers here expect."""
    found = {where: re.findall(r"[「」『』]", text) for where, text in TEXTS if re.search(r"[「」『』]", text)}
    assert found == {}
