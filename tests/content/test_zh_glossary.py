"""One Chinese rendering per course term (newcomer session 6, item 2): "wire format" was 线上格式 (read as
"online"), 消息格式 and 接口格式 on three pages; the walkthrough was 分步演示 in one note and 一次调用，逐步拆开
in the sidebar; the failure taxonomy 失败分类 and 失败分层; pass^k "连续" (consecutive) passes. Every zh UI
string, lesson (front matter too) and fixture zh field is checked against the glossary."""

import re

import pytest

from tests.zh_prose import prose
from toolcall import CONTENT_ROOT, LESSONS_DIR, REPO_ROOT
from toolcall.i18n import t
from tests.content.test_chinese_text import TEXTS

#: English term -> (the one zh rendering, the variants a zh text must not use for it).
GLOSSARY = {
    "wire format": ("接口格式", ("线上格式", "消息格式")),
    # "on the wire": what is actually sent and received; 线上 reads as "online", 线路 as a cable
    "on the wire": ("实际收发", ("线上实际", "线上传输", "线路上")),
    "walkthrough (the page)": ("一次调用，逐步拆开", ("分步演示",)),
    "failure taxonomy": ("失败分类", ("失败分层",)),
    # pass^k is the chance that all k runs pass: the runs are independent, not "in a row"
    "pass^k": ("全部通过", ("连续通过", "连续三次", "连续 k 次")),
    # newcomer session 7: the harness lab's page was 你来当循环 (word for word "you come act as the loop")
    "Be the loop (the page)": ("你来驱动调用循环", ("你来当循环",)),
}

#: English course terms left in Chinese prose (newcomer session 7, item 2: "保留下面的 trace", "课程的 fixture", "你的
#: harness"): the one zh rendering of each. The English word may follow its rendering once, in brackets, where the
#: term is explained (调用循环（harness）); anywhere else in the prose (code spans, paths and keys aside) it is an error.
ENGLISH_TERMS = {
    "trace": "调用轨迹",
    "fixture": "示例数据",
    "harness": "调用循环",
}


def english_terms_left(text: str) -> list[str]:
    """Each English glossary term in the prose of ``text`` (tests/zh_prose.prose: no code, no URLs), outside the
    bracket after its own rendering; a path (fixtures/…), key (harness:<id>) or identifier (trace_id) is no word."""
    found = []
    for term, zh in ENGLISH_TERMS.items():
        bare = prose(text).replace(f"{zh}（{term}）", zh)
        found += re.findall(rf"(?<![\w/.:<`-]){term}s?(?![\w/.:`_-])", bare, flags=re.I)
    return found


def zh_texts() -> list[tuple[str, str]]:
    """(where, text) for every zh UI string and fixture zh field, and each zh lesson whole."""
    lessons = [(str(p.relative_to(CONTENT_ROOT)), p.read_text("utf-8")) for p in sorted((LESSONS_DIR / "zh").glob("*.md"))]
    return [(w, text) for w, text in TEXTS if not w.startswith("lessons/")] + lessons


def test_no_zh_text_uses_a_rejected_variant():
    found = [(where, term, variant) for where, text in zh_texts() for term, (_, variants) in GLOSSARY.items()
             for variant in variants if variant in text]
    assert found == [], "use the glossary's rendering (tests/content/test_zh_glossary.py)"


def test_each_chosen_rendering_is_in_use():
    texts = [text for _, text in zh_texts()]
    assert [term for term, (zh, _) in GLOSSARY.items() if not any(zh in text for text in texts)] == []


def test_the_walkthrough_is_named_as_in_the_sidebar():
    assert t("walkthrough.nav", "zh") == GLOSSARY["walkthrough (the page)"][0]


def test_no_english_course_term_is_left_in_zh_prose():
    found = [(where, words) for where, text in zh_texts() if (words := english_terms_left(text))]
    assert found == [], "use the rendering in ENGLISH_TERMS (tests/content/test_zh_glossary.py)"


@pytest.mark.parametrize("text, left", [
    ("终止任务，保留下面的 trace，这条用例记为失败。", ["trace"]),        # walkthrough step 10, as reported
    ("id 和模型的文字来自课程的 fixture。", ["fixture"]),                  # walkthrough caption, as reported
    ("选出 harness 的下一步", ["harness"]),                               # the harness lab, as reported
    ("从 Traces 里统计", ["Traces"]),
    ("真正干活的是调用循环（harness）：你写的那段程序", []),              # the one explanation
    ("见 fixtures/scenarios/ 和 `harness:<id>`、harness:<场景>，字段 trace_id", []),
])
def test_the_term_check_finds_the_reported_words(text, left):
    assert english_terms_left(text) == left


def test_each_english_term_rendering_is_in_use_and_explained():
    texts = [text for _, text in zh_texts()]
    assert [term for term, zh in ENGLISH_TERMS.items() if not any(zh in text for text in texts)] == []
    assert any("调用循环（harness）" in text for text in texts)
    assert "调用循环（harness）" in t("harness.intro", "zh")


def test_the_harness_lab_is_named_as_in_the_sidebar():
    """The page's nav title, its exercise-table name and its title all use the glossary's name."""
    name = GLOSSARY["Be the loop (the page)"][0]
    assert t("harness.nav", "zh") == name == t("exercises.page.harness_lab", "zh")
    assert t("harness.title", "zh").startswith(name)


def test_the_texts_are_found():
    assert len(zh_texts()) > 500 and (REPO_ROOT / "lessons" / "zh").is_dir()
