"""The pairing checker keeps at most MAX_VIOLATIONS notes and counts the rest (they were dropped without a word),
and the page lists SHOWN_ROWS of them with one line saying how many more there are."""

import json

import pytest

from toolcall.pairing import MAX_VIOLATIONS, check_pairing


def broken_arguments(calls: int) -> str:
    """An OpenAI transcript of ``calls`` calls whose arguments are not JSON, each answered: one note per call."""
    messages = [{"role": "user", "content": "go"}]
    for i in range(calls):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{"}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": "error: arguments are not JSON"})
    return json.dumps(messages)


@pytest.mark.parametrize("calls", [3, MAX_VIOLATIONS, MAX_VIOLATIONS + 7])
def test_notes_past_the_cap_are_counted(calls):
    report = check_pairing(broken_arguments(calls), "openai")
    assert len(report.notes) == min(calls, MAX_VIOLATIONS)
    assert report.notes_more == max(0, calls - MAX_VIOLATIONS)
