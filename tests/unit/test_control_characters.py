"""Control characters a browser draws as nothing (C0 but tab/line feed/carriage return, DEL, C1) are shown
escaped like the zero-width ones (issue 13, invisible and look-alike kind; break-it pass brk10web).

Before: ``"damaged\\u007f"`` failed the enum and the message read 'expected one of "damaged", …; received string
"damaged"' in the browser (DEL drawn as nothing; C1 controls the same), and an exercise said '"12" is not a
number' for ``12<ESC>``."""

import json

import pytest

from toolcall.fixtures import load_tool
from toolcall.judge import evaluate
from toolcall.markdown import code, label, plain
from toolcall.text import CONTROLS, HIDDEN, escape_invisible, escape_lookalikes, reading_key, visible_json

#: Every control character but the three a text box keeps on purpose.
EVERY_CONTROL = sorted({chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))} - set("\t\n\r"))


def _escape(ch: str) -> str:
    return f"\\u{ord(ch):04x}"


def test_the_set_is_every_control_but_tab_line_feed_and_carriage_return():
    assert sorted(CONTROLS) == EVERY_CONTROL and len(EVERY_CONTROL) == 62
    assert CONTROLS <= HIDDEN


@pytest.mark.parametrize("ch", EVERY_CONTROL, ids=lambda ch: f"U+{ord(ch):04X}")
def test_every_display_helper_escapes_each_control(ch):
    text = f"damaged{ch}"
    assert escape_invisible(text) == escape_lookalikes(text) == f"damaged{_escape(ch)}"
    assert plain(text) == f"damaged\\{_escape(ch)}"  # the backslash escaped for Markdown: shows as \uXXXX
    assert code(text) == f"`damaged{_escape(ch)}`"
    assert label(text) == f"damaged{_escape(ch)}"
    assert json.loads(visible_json({"reason": text})) == {"reason": text}  # the same JSON value
    assert ch not in visible_json({"reason": text})
    assert reading_key(text) == "damaged"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ch", EVERY_CONTROL, ids=lambda ch: f"U+{ord(ch):04X}")
def test_expected_damaged_received_damaged_cannot_happen_with_a_control(lang, ch):
    tool = load_tool()
    raw = json.dumps({"order_id": "ORD-20260917", "amount_cents": 1999, "reason": f"damaged{ch}"})
    content = evaluate(raw, tool.input_schema, tool.name, lang).tool_result["content"]
    shown = json.dumps(ch)[1:-1] if ch < " " else _escape(ch)  # JSON's own escape (\b, \u0001), else ours
    assert f'"damaged{shown}"' in content and ch not in content
