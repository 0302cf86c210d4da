"""The converter's report of losses is capped (issue 13, floods): a line per kind of loss naming at most a
dozen source messages, then an exact count of the rest; at most MAX_LOSS_LINES lines, then an exact count of
the kinds left out. Before, the page drew one line per loss (up to 100: 14.6 KB for a 690 KB Chat
Completions paste shown as MCP) and the cached result kept every loss."""

import pytest

from toolcall.convert import LOSSES, MAX_LOSS_LINES, MAX_LOSS_MESSAGES, Loss, LossLine, convert, loss_lines, \
    loss_report
from toolcall.i18n import t
from toolcall.wire import ANTHROPIC, FORMATS, MCP


def test_a_kind_of_loss_names_a_dozen_messages_and_counts_the_rest_once_each():
    # 13 messages, message 4 twice: 13 distinct, not 14
    losses = [Loss("text_dropped_mcp", k, k) for k in range(13)] + [Loss("text_dropped_mcp", 99, 4)]
    assert loss_lines(losses) == ([LossLine("text_dropped_mcp", tuple(range(12)), 1)], 0)
    assert loss_lines(losses[:12]) == ([LossLine("text_dropped_mcp", tuple(range(12)), 0)], 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_report_lines_read_exactly(lang):
    losses = [Loss("text_moved", k, k) for k in range(40, 0, -2)] + [Loss("is_error_in_text", 3, 7),
                                                                     Loss("changed", None, None)]
    refs = t("convert.message_sep", lang).join(t("convert.message_ref", lang, message=m) for m in range(2, 26, 2))
    assert loss_report(losses, lang) == [
        t("convert.loss_line_many", lang, messages=refs + t("convert.messages_more", lang, count=8),
          text=t("convert.loss.text_moved", lang)),
        t("convert.loss_line", lang, message=7, text=t("convert.loss.is_error_in_text", lang)),
        t("convert.loss_line_whole", lang, text=t("convert.loss.changed", lang))]
    assert loss_report([], lang) == []


def test_the_exact_wording_in_both_languages():
    losses = [Loss("text_dropped_mcp", k, k) for k in range(14)]
    assert loss_report(losses, "en")[0].startswith(
        "messages[0], messages[1], messages[2], messages[3], messages[4], messages[5], messages[6], messages[7], "
        "messages[8], messages[9], messages[10], messages[11] … and 2 more messages: MCP carries only")
    assert loss_report(losses, "zh")[0].startswith(
        "messages[0]、messages[1]、messages[2]、messages[3]、messages[4]、messages[5]、messages[6]、messages[7]、"
        "messages[8]、messages[9]、messages[10]、messages[11]……另有 2 条消息：MCP 只承载工具往来")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_past_the_line_cap_the_kinds_left_out_are_counted(lang):
    """Every code once for a message and once for the whole transcript: 22 lines' worth, 12 shown."""
    losses = [Loss(code, k, k) for k, code in enumerate(LOSSES)] + [Loss(code) for code in LOSSES]
    lines, left = loss_lines(losses)
    assert [(x.code, x.messages) for x in lines] == [(c, (k,)) for k, c in enumerate(LOSSES)] + [(LOSSES[0], ())]
    assert left == 2 * len(LOSSES) - MAX_LOSS_LINES == 10
    report = loss_report(losses, lang)
    assert len(report) == MAX_LOSS_LINES + 1
    assert report[-1] == t("convert.losses_more", lang, count=10)
    assert t("convert.losses_more", "en", count=10) == "… and 10 more kinds of loss, not listed here."
    assert t("convert.losses_more", "zh", count=10) == "……另有 10 类损失，这里不再列出。"


def test_caps_below_one_are_refused():
    with pytest.raises(ValueError, match="lines and ids must be at least 1, not 0 and 12"):
        loss_lines([], lines=0)


def _flood(turns: int) -> list[dict]:
    """Every turn loses something in most pairs: a text (MCP drops it), an error flag (Chat Completions and
    Responses lose it), a user's text between a call and its result (moved)."""
    messages: list[dict] = []
    for k in range(turns):
        messages += [{"role": "assistant", "content": [{"type": "text", "text": "on it"},
                                                       {"type": "tool_use", "id": f"t{k}", "name": "f", "input": {}}]},
                     {"role": "user", "content": "hurry"},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{k}", "content": "x",
                                                   "is_error": True}]}]
    return messages


@pytest.mark.parametrize("target", [f for f in FORMATS if f != ANTHROPIC])
def test_a_flood_of_losses_is_a_few_lines_each_naming_at_most_a_dozen_messages(target):
    """The next member of the kind: whatever the form pair, the report of 3 000 lossy messages is at most
    MAX_LOSS_LINES + 1 lines and no line names more than MAX_LOSS_MESSAGES messages."""
    _, losses = convert(_flood(1000), ANTHROPIC, target)
    assert len(losses) >= 1000
    report = loss_report(losses, "en")
    assert 1 <= len(report) <= MAX_LOSS_LINES + 1
    assert max(line.count("messages[") for line in report) == MAX_LOSS_MESSAGES
    kinds = {x.code for x in losses}
    assert len(report) == len(kinds)
    if target == MCP:
        assert "text_dropped_mcp" in kinds
