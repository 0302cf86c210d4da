"""The pairing checker is linear in every wire form, not only the one the first flood test used
(issue 13, quadratic work in checkers): Gemini matched each functionResponse against every call
of the turn, so 4 000 calls and responses cost 16 times 1 000. Cases: every wire form of
toolcall.wire, each transcript converted from one Anthropic transcript; answered and unanswered."""

import gc
import json
import time

import pytest

from toolcall.convert import convert
from toolcall.pairing import check_pairing
from toolcall.wire import ANTHROPIC, FORMATS


def _transcript(n: int, fmt: str, answered: bool) -> str:
    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{k}", "name": f"tool_{k % 7}",
                                                   "input": {"k": k}} for k in range(n)]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{k + (0 if answered else n)}",
                                              "content": "ok"} for k in range(n)]}]
    return json.dumps(messages if fmt == ANTHROPIC else convert(messages, ANTHROPIC, fmt)[0], separators=(",", ":"))


def _cpu(text: str, fmt: str) -> float:
    gc.disable()
    try:
        start = time.process_time()
        report = check_pairing(text, fmt)
        assert report.error is None
        return time.process_time() - start
    finally:
        gc.enable()


@pytest.mark.parametrize("answered", [True, False], ids=["answered", "unanswered"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_checking_is_linear_in_the_number_of_calls(fmt, answered):
    small, large = _transcript(1000, fmt, answered), _transcript(4000, fmt, answered)
    ratio = min(_cpu(large, fmt) for _ in range(2)) / max(min(_cpu(small, fmt) for _ in range(2)), 1e-3)
    assert ratio < 8, ratio  # about 4 when linear, 16 when every response scans every call
