"""The pass^k lab draws the playground's description as checkboxes, bounded whatever the editor holds (issue 13:
bytes sent per rerun, time per rerun).

brk16web: the description box holds four times what the playground accepts (ui.common.box_chars). The lab read all
of it: a sentence of 20 000 "x" and zero-width spaces (40 000 characters typed, refused by the playground) was one
checkbox whose label held 140 000 characters of escapes, 137 KB sent to the browser (Chromium's websocket frame);
40 000 characters of "a. " cost 0.5 s of CPU on every rerun of the lab. The lab now reads at most
toolcall.tooldef.MAX_DESCRIPTION_CHARS characters, says so, and a label shows at most
toolcall.points.MAX_SHOWN_SENTENCE_CHARS characters of its sentence, cut before escaping."""

import pytest

from tests.app.conftest import fresh_app
from tests.app.test_pairing_page import _element_bytes
from toolcall.i18n import t
from toolcall.points import MAX_LISTED_SENTENCES, MAX_SHOWN_SENTENCE_CHARS
from toolcall.tooldef import MAX_DESCRIPTION_CHARS

#: The longest text the description box takes (its max_chars, checked below).
BOX = 4 * MAX_DESCRIPTION_CHARS
#: An escape (\uXXXX) is 6 characters: the most a label's characters can grow by when drawn.
ESCAPE = 6


def lab_after_typing(description: str, lang: str = "en"):
    at = fresh_app(lang, page="pages/playground.py")
    box = at.text_area(key="tool_description")
    assert box.max_chars == BOX
    box.input(description).run()
    assert at.text_area(key="tool_description").value == description  # the box took it: nothing was lost
    at.switch_page("pages/passk_lab.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_description_over_the_limit_is_read_up_to_it_and_said(lang):
    description = "x\u200b" * (BOX // 2)
    at = lab_after_typing(description, lang)
    warning = t("passk.description_cut", lang, size=f"{BOX:,}", limit=f"{MAX_DESCRIPTION_CHARS:,}")
    assert [w.value for w in at.warning] == [warning]
    assert warning == {
        "en": "The description in the playground's editor has 40,000 characters; the limit is 10,000, so the "
              "playground refuses it. This lab reads only its first 10,000 characters: shorten it in the "
              "playground to use all of it.",
        "zh": "练习场编辑器里的描述有 40,000 个字符，上限是 10,000，练习场不接受它。这里只读它的前 10,000 个字符；"
              "要用上全文，请先在练习场里把它缩短。"}[lang]
    # one sentence: its first 200 characters as drawn, then "…"; every zero-width space written out as \u200b (was
    # 140 000 characters; 701 cut before escaping)
    assert [c.label for c in at.checkbox] == ["x\\u200b" * 28 + "x…"]
    assert len(at.checkbox[0].label) == 28 * (1 + ESCAPE) + 2 == 198
    assert at.checkbox[0].value is True


def test_a_description_within_the_limit_says_nothing_of_it():
    at = lab_after_typing("Refund an order. " * 100)  # 1 700 characters, 100 sentences
    assert not at.warning
    assert len(at.checkbox) == MAX_LISTED_SENTENCES
    assert [c.label for c in at.checkbox][:2] == ["Refund an order.", "Refund an order."]


#: Descriptions as long as the box takes, each a different way of making many or long labels.
HOSTILE = {
    "one sentence of zero-width spaces": "x\u200b" * (BOX // 2),
    "one sentence of direction overrides": "x\u202e" * (BOX // 2),
    "one sentence of control characters": "x\x01" * (BOX // 2),
    "one line per sentence with line ends": "x\n" * (BOX // 2),
    "30 long hidden sentences": ("x\u200b" * 160 + ". ") * (BOX // 322),
    "many short sentences": "a. " * (BOX // 3),
    "Chinese sentences": "退款。" * (BOX // 3),
    "markdown in long sentences": ("*_`$[" * 60 + ". ") * (BOX // 302),
    "30 sentences of tag characters": ("x" + "\U000e0041" * 320 + ". ") * 30,  # 2 390 each, cut before escaping
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_lab_sends_bounded_checkboxes_for_any_description(name):
    """Every checkbox label is at most MAX_SHOWN_SENTENCE_CHARS characters as drawn, escapes included (twice that
    with Markdown's backslashes, one at most per character), whatever the box held: so the lab's checkboxes are
    bounded by the caps, not by what was typed."""
    at = lab_after_typing(HOSTILE[name][:BOX])
    assert len(at.checkbox) <= MAX_LISTED_SENTENCES
    assert all(len(c.label) <= 2 * MAX_SHOWN_SENTENCE_CHARS + 1 for c in at.checkbox), \
        max(len(c.label) for c in at.checkbox)
    bound = MAX_LISTED_SENTENCES * (2 * MAX_SHOWN_SENTENCE_CHARS + 1 + 400)  # + id, help and the rest
    assert _element_bytes(at).get("Checkbox", 0) <= bound
