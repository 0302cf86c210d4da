"""st.cache_data bounds a cache by entry count only, so what a student types must not be cached there: the
pairing page kept 16 reports and 16 conversions of up to ~1.7 MB each, keyed by the pasted text (issue 13, memory
kind); they are SizedCaches now (ui/pairing_checks.py, bounded in bytes, filled and measured by
tests/unit/test_cache_bytes.py). Every st.cache_data left is listed here with what its key is made of: a new one
is a failing test until someone says why a count bounds it."""

import re

from toolcall import REPO_ROOT

#: "path:function" of each st.cache_data, with why a count bounds it.
ALLOWED = {
    "ui/eval_lab.py:_selection": "the shipped selection set, by language and file time",
    "ui/eval_lab.py:_recorded": "a shipped recorded log, by version, language and file time",
    "ui/eval_lab.py:_analysed": "the analysis of a shipped log (~50 KB) for the student's table; left to a count: "
                                "bounded by the instructor's log, not by what the student types",
    "ui/harness_lab.py:_load": "the shipped scenarios, by file times",
    "ui/lesson_widgets.py:_load": "the shipped lessons, by language and file times",
    "ui/exercise_widgets.py:_load": "the shipped exercises, by file times",
    "pages/exercises.py:_max_score_table": "the shipped exercises' reference answers",
    "ui/strict_panel.py:_outputs": "the shipped canned outputs",
}


def _cached() -> set[str]:
    found = set()
    for folder in ("ui", "pages"):
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            text = path.read_text("utf-8")
            for name in re.findall(r"@st\.cache_data\([^)]*\)\s*\ndef (\w+)", text):
                found.add(f"{path.relative_to(REPO_ROOT).as_posix()}:{name}")
    return found


def test_every_st_cache_data_is_keyed_by_shipped_content():
    assert _cached() == set(ALLOWED)


def test_the_pairing_page_caches_nothing_by_count_only():
    assert not [name for name in _cached() if name.startswith("pages/pairing.py")]
