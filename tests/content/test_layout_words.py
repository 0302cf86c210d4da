"""Words that place things side by side ("on the left", "beside", 左边, 并排) are false on a phone,
where Streamlit stacks columns (issue 14: the step-through's intro said "on the left / on the right"
at 390 px). Every string a student reads (UI catalogues, lessons, fixture texts) is held to that;
the few uses that mean something else are listed below with the reason.

"above" / "below" stay allowed: stacked columns keep their order, so what was above still is.
"""

import re
from pathlib import Path

import pytest
import yaml

from toolcall import FIXTURES_DIR, LESSONS_DIR
from toolcall.i18n import LOCALES_DIR

#: Horizontal placement, English (case-insensitive) and Chinese.
PATTERNS = (
    re.compile(r"\b(?:on|to|at) the (?:left|right)\b|\b(?:left|right)[- ](?:hand|column|side|pane|panel)\b"
               r"|\bleft/right\b|\bbeside\b|\bside by side\b|\bnext to\b", re.IGNORECASE),
    re.compile(r"左边|右边|左侧|右侧|左栏|右栏|左列|右列|并排|旁边"),
)

#: (file name, phrase) pairs where the word is no layout, each with why.
ALLOWED = {
    ("eval_lab.yaml", "moves it to the right tool"): "right = correct",
    ("pairing_advice.yaml", "next to the other results of that turn"): "a message's position in the transcript",
    ("zh.yaml", "并排在任何文字之前"): "block order inside one message",
    ("09-misconceptions.md", "cheap next to a wrong refund"): "a comparison of costs",
}

#: Fixture folders whose text is data, not prose a student reads as page text.
SKIP_DIRS = {"schemas", "eval_runs"}


def _strings(value):
    """Every string inside a loaded YAML document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _texts() -> list[tuple[Path, str]]:
    """(file, text) for every catalogue, fixture text and lesson (YAML comments are not shown, so not read)."""
    found = []
    for path in sorted(LOCALES_DIR.rglob("*.yaml")):
        found += [(path, s) for s in _strings(yaml.safe_load(path.read_text(encoding="utf-8")))]
    for path in sorted(FIXTURES_DIR.rglob("*.yaml")):
        if not SKIP_DIRS & set(path.relative_to(FIXTURES_DIR).parts):
            found += [(path, s) for s in _strings(yaml.safe_load(path.read_text(encoding="utf-8")))]
    found += [(path, path.read_text(encoding="utf-8")) for path in sorted(LESSONS_DIR.rglob("*.md"))]
    return found


def layout_words(path: Path, text: str) -> list[str]:
    """The placement phrases in ``text`` (with a little context), minus the allowed ones."""
    hits = []
    for pattern in PATTERNS:
        for m in pattern.finditer(text):
            context = text[max(0, m.start() - 30): m.end() + 30].replace("\n", " ")
            if not any(name == path.name and phrase in text[max(0, m.start() - 60): m.end() + 60]
                       for name, phrase in ALLOWED):
                hits.append(context)
    return hits


def test_no_text_places_things_side_by_side():
    """Fails naming the file and the phrase; reword it so it holds on a 390 px screen (or, when the
    word means something else, add it to ALLOWED with the reason)."""
    found = [f"{path.relative_to(path.parents[2])}: …{hit}…" for path, text in _texts()
             for hit in layout_words(path, text)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("text", ["Anthropic on the left, OpenAI on the right.", "the table beside the editor",
                                  "左边是 Anthropic，右边是 OpenAI", "两家 API 并排对照", "Left/right columns"])
def test_the_check_catches_placement(text):
    assert layout_words(Path("x/y/new.yaml"), text)


def test_every_allowed_phrase_is_still_used():
    """An allow-list entry whose phrase is gone would hide the next real use of the word."""
    texts = _texts()
    for name, phrase in ALLOWED:
        assert any(path.name == name and phrase in text for path, text in texts), (name, phrase)
