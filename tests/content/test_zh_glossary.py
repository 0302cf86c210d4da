"""One Chinese rendering per course term (newcomer session 6, item 2): "wire format" was 线上格式 (read as
"online"), 消息格式 and 接口格式 on three pages; the walkthrough was 分步演示 in one note and 一次调用，逐步拆开
in the sidebar; the failure taxonomy 失败分类 and 失败分层; pass^k "连续" (consecutive) passes. Every zh UI
string, lesson (front matter too) and fixture zh field is checked against the glossary."""

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
}


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


def test_the_texts_are_found():
    assert len(zh_texts()) > 500 and (REPO_ROOT / "lessons" / "zh").is_dir()
