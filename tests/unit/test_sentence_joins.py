"""Two translated sentences are joined with toolcall.i18n.sentence_gap, never with a literal space: a
Chinese sentence ends with 。 and a space after it reads as a stray gap ("2 / 3 分。 已记入", newcomer
session 7). The scan covers every page and ui module, so the next such join is caught too."""

import re
from pathlib import Path

from toolcall.i18n import sentence_gap, t

REPO = Path(__file__).resolve().parents[2]
#: A literal space glued to a translated text: ``tr(…) + " "``, ``" " + tr(…)``, a ``+ " "`` line of its
#: own (black's layout of a long join), ``" ".join((tr(…), …))`` and ``f"{tr(…)} {tr(…)}"``.
SPACE_JOINS = re.compile(r'^\s*\+ " "\s*(\+|$)|\btr\(.*\)\s*\+\s*" "|" "\s*\+\s*tr\(|" "\.join\(\(?\s*tr\(|'
                         r'\{tr\([^{}]*\)\} \{tr\(')


def _sources():
    return sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/**/*.py"), REPO / "app.py"])


def test_no_page_joins_translated_sentences_with_a_literal_space():
    found = [f"{path.relative_to(REPO)}:{n}: {line.strip()}" for path in _sources()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if SPACE_JOINS.search(line)]
    assert found == []


def test_the_scan_catches_each_form_of_space_join():
    caught = ['text = tr("a") + " " + tr("b")', '        + " "', 'x = " " + tr("b")', '" ".join((tr("a"), tr("b")))',
              'f"{tr(\'a\')} {tr(\'b\')}"']
    assert [line for line in caught if not SPACE_JOINS.search(line)] == []
    assert not SPACE_JOINS.search('sentence_gap(lang()).join((tr("a"), tr("b")))')


def test_the_harness_finish_line_joins_without_a_gap_in_chinese():
    joined = sentence_gap("zh").join((t("harness.done", "zh", score="2", max="3"),
                                      t("harness.done_saved", "zh", id="harness:plain_call")))
    assert joined == "场景完成：2 / 3 分。已记入你的进度；在练习页下载的进度里，它的编号是 harness:plain_call。"
    assert sentence_gap("en").join((t("harness.done", "en", score="2", max="3"),
                                    t("harness.done_saved", "en", id="harness:plain_call"))) == (
        "Scenario finished: 2 of 3 points. Saved to your progress; the progress you download on the "
        "Exercises page lists it as harness:plain_call.")
