"""A tool description split into the points the course's description template asks for.

The course's template (tool-design chapter, "2. Description") lists: purpose, when to use, when NOT
to use, parameters, returns, side effects; its refund example adds the unit of an amount and its
limit. Each sentence of a description (``passk.split_sentences``) is given the set of points it
states, by fixed English and Chinese cue words (:data:`CUES`), so the mapping is deterministic and
can be read in one table:

- ``purpose``: the first sentence, unless it is a when-to-use or when-not-to-use sentence;
- the other points: the sentence contains one of the point's cue words (case-insensitive).

A sentence may state several points ("Use it when …; to refund, use refund_order." is both when to
use and when not to use). The pass^k lab counts each expected point that no kept sentence states
as one more ambiguity m (:func:`missing_points`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolcall.passk import split_sentences

#: Sentences the pass^k lab lists, one checkbox each; the rest stay kept and are counted in a note.
MAX_LISTED_SENTENCES = 30
#: Characters of a sentence its checkbox label shows, as drawn (hidden characters counted as their escapes,
#: markdown.label_head), then "…": a sentence of 20 000 "x" and zero-width spaces was a 140 000-character label,
#: sent whole on every rerun (brk16web); cut before escaping, 200 tag characters were 2 390 (brk17new).
MAX_SHOWN_SENTENCE_CHARS = 200

PURPOSE = "purpose"
WHEN_TO_USE = "when_to_use"
WHEN_NOT = "when_not_to_use"
UNIT = "unit"
LIMIT = "limit"
RETURNS = "returns"
SIDE_EFFECTS = "side_effects"
#: Every point, in the order the course's template lists them.
POINTS: tuple[str, ...] = (PURPOSE, WHEN_TO_USE, WHEN_NOT, UNIT, LIMIT, RETURNS, SIDE_EFFECTS)
#: What a description should state when there is no reference to compare with (the course's
#: checklist: "purpose, when to use / not to use, returns, side effects").
TEMPLATE_POINTS: frozenset[str] = frozenset({PURPOSE, WHEN_TO_USE, WHEN_NOT, RETURNS, SIDE_EFFECTS})

#: Cue words per point (English as regular expressions on word boundaries, Chinese as substrings).
CUES: dict[str, tuple[str, ...]] = {
    WHEN_NOT: (r"\binstead\b", r"\bdo not (use|call)\b", r"\bdon't (use|call)\b", r"\bnever (use|call)\b",
               r"\bnot for\b", r"\bto \w+, use\b", r"\bnot when\b", r"\buse [a-z0-9]+_[a-z0-9_]+\b",
               "请用", "改用", "不要用", "不要使用", "不要调用", "不该", "不适用", "而不是", "何时不要"),
    # "use it / call this … when|if|for" on one line. Written so the engine commits to the line's first "use it"
    # (the atomic group) instead of scanning the rest of the line once per "use it": ".*" after each one made a
    # 56 000-character sentence of "use it use it …" cost 7 s of CPU (brk10web3); now linear in the text.
    WHEN_TO_USE: (r"(?m)^(?>[^\n]*?\b(?:use|call) (?:it|this)\b)[^\n]*\b(?:when|if|for)\b", r"\bonly when\b",
                  r"\bwhen the (user|customer)\b",
                  "时才?调用", "时才?使用", "何时使用", "适用于", "用户提供了", "用户问"),
    UNIT: (r"\bin cents\b", r"\bcents\b", r"\byuan\b", r"\bunits?\b", r"\btime ?zone\b", r"\bUTC\b", r"\bISO ?8601\b",
           r"\bseconds\b", r"\bcurrency\b", "单位", "时区", "元", "分钟", "秒"),
    LIMIT: (r"\bnever exceed", r"\bcannot exceed", r"\bcan't exceed", r"\bat most\b", r"\bup to\b", r"\bno more than\b",
            r"\bmaximum\b", r"\blimit\b", "不能超过", "不超过", "最多", "上限", "至多"),
    RETURNS: (r"\breturns?\b", r"\bresult is\b", r"\bgives back\b", "返回"),
    SIDE_EFFECTS: (r"\bread-only\b", r"\bread only\b", r"\birreversible\b", r"\bcannot be undone\b", r"\bidempotent\b",
                   r"\bsafe to retry\b", r"\bside effects?\b", r"\bnever changes?\b", r"\bchanges nothing\b",
                   "只读", "不可逆", "无法撤销", "幂等", "副作用", "可安全重试", "不会修改"),
}
_COMPILED = {point: [re.compile(cue, re.IGNORECASE) for cue in cues] for point, cues in CUES.items()}


@dataclass(frozen=True)
class Sentence:
    """One sentence of a description and the points (a subset of POINTS) it states."""

    text: str
    points: frozenset[str]


def sentence_points(sentence: str, first: bool) -> frozenset[str]:
    """The points ``sentence`` states; ``first`` says whether it opens the description."""
    found = {point for point, cues in _COMPILED.items() if any(c.search(sentence) for c in cues)}
    if first and not found & {WHEN_TO_USE, WHEN_NOT}:
        found.add(PURPOSE)
    return frozenset(found)


def description_points(description: str) -> list[Sentence]:
    """The description's sentences, each with its points ([] for a blank description)."""
    return [Sentence(s, sentence_points(s, i == 0)) for i, s in enumerate(split_sentences(description))]


def stated(sentences: list[Sentence], kept: list[bool] | None = None) -> frozenset[str]:
    """Every point stated by the kept sentences (all of them when ``kept`` is None)."""
    kept = kept if kept is not None else [True] * len(sentences)
    return frozenset().union(*(s.points for s, k in zip(sentences, kept) if k))


def missing_points(expected: frozenset[str] | set[str], sentences: list[Sentence],
                   kept: list[bool] | None = None) -> tuple[str, ...]:
    """The expected points no kept sentence states, in POINTS order; their count is the extra m."""
    have = stated(sentences, kept)
    return tuple(p for p in POINTS if p in expected and p not in have)
