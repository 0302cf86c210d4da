"""The class dashboard's answer cells (most common wrong answers, a learner's last answer and tries) never let
two different answers read the same, and never let one answer read as several.

Before: the common-wrong cell joined raw answers with `` · `` and ``(×N)``, so a student whose wrong answer was
``0.5 (×30) · 0.7`` showed the instructor a made-up second answer and count; and ``["а"]`` (Cyrillic а, the
choice grader's unknown id, counted apart from ``["a"]``) read exactly like ``["a"]``. Cases are derived: every
look-alike letter found by its Unicode name in the escaped blocks, every hidden character, every character the
cell itself uses as punctuation."""

import json
import unicodedata

import pytest

from toolcall.dashboard import common_wrong_cell, shown_answer
from toolcall.text import HIDDEN, LOOKALIKE_BLOCKS


def _lookalikes() -> list[tuple[str, str]]:
    """(Latin letter, look-alike) for every letter of LOOKALIKE_BLOCKS whose name is "<script> SMALL/CAPITAL LETTER
    <one Latin letter>" (CYRILLIC SMALL LETTER A, GREEK CAPITAL LETTER A, FULLWIDTH LATIN SMALL LETTER A …)."""
    pairs = []
    for lo, hi in LOOKALIKE_BLOCKS:
        for code in range(lo, hi + 1):
            name = unicodedata.name(chr(code), "")
            words = name.split()
            if len(words) >= 4 and words[-2] == "LETTER" and len(words[-1]) == 1 and words[-1].isalpha():
                latin = words[-1].lower() if "SMALL" in words else words[-1]
                pairs.append((latin, chr(code)))
    return pairs


LOOKALIKES = _lookalikes()


def _decode(cell: str) -> list[dict]:
    """The cell read back: a JSON string, `` (×N)``, then `` · `` and the next."""
    decoder, entries, at = json.JSONDecoder(), [], 0
    while at < len(cell):
        answer, at = decoder.raw_decode(cell, at)
        count_end = cell.index(")", at)
        assert cell[at:at + 3] == " (×", cell[at:]
        entries.append({"answer": answer, "count": int(cell[at + 3:count_end])})
        at = count_end + 1
        if at < len(cell):
            assert cell[at:at + 3] == " · ", cell[at:]
            at += 3
    return entries


def test_the_derivation_finds_the_usual_lookalikes():
    found = {alike for _, alike in LOOKALIKES}
    assert {"\u0430", "\u043e", "\u0410", "\uff41"} <= found  # Cyrillic а о А, fullwidth ａ
    assert len(LOOKALIKES) > 60


@pytest.mark.parametrize("alike", ["\u03bf", "\u039f", "\u0391", "\u037e"])  # Greek ο Ο Α, the Greek question mark
def test_greek_lookalikes_the_names_do_not_find_are_escaped_too(alike):
    assert shown_answer(f"x{alike}") == f"x\\u{ord(alike):04x}"


@pytest.mark.parametrize("latin, alike", LOOKALIKES, ids=[f"U+{ord(a):04X}" for _, a in LOOKALIKES])
def test_an_answer_with_a_lookalike_letter_reads_differently(latin, alike):
    plain, odd = f'["{latin}"]', f'["{alike}"]'
    assert shown_answer(plain) != shown_answer(odd)
    assert alike not in shown_answer(odd) and alike not in common_wrong_cell([{"answer": odd, "count": 1}])
    cell = common_wrong_cell([{"answer": plain, "count": 2}, {"answer": odd, "count": 1}])
    assert _decode(cell) == [{"answer": plain, "count": 2}, {"answer": odd, "count": 1}]


def test_chinese_text_and_its_punctuation_are_kept():
    answer = "先校验参数，再调用（不要重试）！ pass^k 从 0.9 降到 0.73"
    assert shown_answer(answer) == answer
    assert common_wrong_cell([{"answer": answer, "count": 3}]) == f'"{answer}" (×3)'


PUNCTUATION = [" · ", " (×30)", '"', "\\", "\\u0430", ") · \"x\" (×9"]


@pytest.mark.parametrize("piece", PUNCTUATION + sorted(HIDDEN)[::7],
                         ids=lambda p: p.encode("unicode_escape").decode())
def test_one_answer_never_reads_as_several_and_reads_back_exactly(piece):
    entries = [{"answer": f"0.5{piece}0.7", "count": 1}, {"answer": "0.5", "count": 4}]
    cell = common_wrong_cell(entries)
    assert _decode(cell) == entries
    assert not any(ch in HIDDEN for ch in cell)


def test_the_shipped_example_cell():
    assert common_wrong_cell([{"answer": "0.5 (×30) · 0.7", "count": 1}, {"answer": "0.5", "count": 2}]) == \
        '"0.5 (×30) · 0.7" (×1) · "0.5" (×2)'
