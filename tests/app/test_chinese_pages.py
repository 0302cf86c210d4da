"""Every page, rendered in Chinese, shows no English prose (issue 12, "Chinese without English left in").

The text a student reads (titles, headers, Markdown, captions, alerts, metric labels and values,
widget labels, options and help) is checked with tests/zh_prose.py's heuristic. Code blocks,
JSON views and the schema editor's text are code, not prose, and are not read.
"""

import json
import re

import pytest

from tests.app.conftest import PAGES, fresh_app
from tests.zh_prose import ascii_colons, english_runs
from toolcall import FIXTURES_DIR
from toolcall.fixtures import load_tool


def table_headers(at) -> list[str]:
    """Every column header of every table on the page, as shown (a column's configured label, else its name)."""
    headers = []
    for frame in at.dataframe:
        labels = {name: spec.get("label") for name, spec in json.loads(frame.proto.columns or "{}").items()}
        headers += [str(labels.get(str(c)) or c) for c in frame.value.columns]
    return headers


#: headers that are the field's own notation, the same in both languages
NOTATION = re.compile(r"(n|c|k|pass[\^@]\d+)")


@pytest.mark.parametrize("page", PAGES)
def test_every_table_header_in_chinese_is_chinese_or_notation(page):
    """The selection lab's per-tool counts were headed tool / should_call / should_not_call on the Chinese
    page (session 7): identifiers slip past the prose heuristic, so a header is read on its own."""
    at = fresh_app("zh", page=page)
    assert [h for h in table_headers(at) if not CJK.search(h) and not NOTATION.fullmatch(h)] == []


CJK = re.compile(r"[\u4e00-\u9fff]")


def visible_texts(at) -> list[str]:
    """Every string a student reads on the page, code and JSON views excepted."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "text", "info", "warning", "error", "success"):
        texts += [str(el.value) for el in getattr(at, kind)]
    for m in at.metric:
        texts += [m.label, str(m.value), m.proto.help or ""]
    for kind in ("checkbox", "button", "toggle", "number_input", "slider", "text_area", "text_input", "selectbox",
                 "radio", "multiselect", "segmented_control"):
        for w in getattr(at, kind):
            texts += [str(getattr(w, "label", "") or ""), str(getattr(w, "help", "") or "")]
            texts += [str(o) for o in getattr(w, "options", []) or []]
    texts += [e.label for e in at.expander] + [t.label for t in at.tabs]
    texts += table_headers(at)
    return [t for t in texts if t]


@pytest.mark.parametrize("english, found", [
    ("Refund a delivered order, in full or in part.", ["Refund a delivered order", "in full or in part"]),
    ("给已签收的订单退款。", []),
    ("见 *Building effective agents*（Erik Schluntz）。", []),
    ("调用 `refund_order` 的参数 ```json\n{\"a\": \"three words here\"}\n```", []),
    ("pass^k 和 pass@k 不同；tool_use 与 tool_result 成对。", []),
    ("用 stop_reason 判断", []),
    ("（解析器原文：“Unterminated string starting at”，第 1 行）", []),
    ("“Unterminated string starting at” 这句没有翻译", []),
    ("解析器说 Unterminated string starting at 第 1 行", ["Unterminated string starting at"]),
])
def test_the_heuristic(english, found):
    assert english_runs(english) == found


@pytest.mark.parametrize("page", PAGES)
def test_every_page_in_chinese_has_no_english_prose(page):
    at = fresh_app("zh")
    at.switch_page(page).run()
    assert not at.exception
    leftovers = {run: text[:120] for text in visible_texts(at) for run in english_runs(text)}
    assert leftovers == {}
    colons = {text[:120]: found for text in visible_texts(at) if (found := ascii_colons(text))}
    assert colons == {}  # "资料来源: " is English punctuation in Chinese text (issue 14)


def _leftovers(at) -> dict[str, str]:
    return {run: text[:120] for text in visible_texts(at) for run in english_runs(text)}


def test_every_walkthrough_variant_and_step_in_chinese_has_no_english_prose():
    at = fresh_app("zh")
    at.switch_page("pages/walkthrough.py").run()
    found = {}
    for variant in at.segmented_control(key="walkthrough_variant").options:
        at.segmented_control(key="walkthrough_variant").set_value(variant).run()
        for step in range(len(at.segmented_control(key="walkthrough_step").options)):
            at.segmented_control(key="walkthrough_step").set_value(step).run()
            assert not at.exception
            found.update(_leftovers(at))
            found.update({text[:120]: c for text in visible_texts(at) if (c := ascii_colons(text))})
    assert found == {}


def test_every_pairing_example_in_chinese_has_no_english_prose():
    at = fresh_app("zh")
    at.switch_page("pages/pairing.py").run()
    keys = [b.key for b in at.button if b.key and b.key.startswith("pairing_example_")]
    assert len(keys) >= 3
    found = {}
    for key in keys:
        at.button(key=key).click().run()
        assert not at.exception
        found.update(_leftovers(at))
    assert found == {}


def test_every_playground_panel_and_card_in_chinese_has_no_english_prose():
    """The playground draws one panel and one card at a time (issue 18): open each of them."""
    from tests.app.playground_views import each_card, open_panel
    from toolcall.fixtures import load_outputs
    from ui.playground_pick import PANELS

    at = fresh_app("zh", page="pages/playground.py")
    found = {}
    for _ in each_card(at, load_outputs().outputs):
        found |= _leftovers(at)
    for panel in PANELS:
        found |= _leftovers(open_panel(at, panel))
    assert found == {}


def english_tool_descriptions() -> set[str]:
    """Every English description of a fixture tool (its own and its properties') that has a Chinese translation."""
    english: set[str] = set()
    for path in sorted((FIXTURES_DIR / "tools").glob("*.json")):
        tool = load_tool(path)
        if tool.description_for("zh") != tool.description:
            english.add(tool.description)
        zh = tool.input_schema_for("zh")["properties"]
        english |= {spec["description"] for name, spec in tool.input_schema["properties"].items()
                    if isinstance(spec, dict) and "description" in spec and zh[name].get("description") != spec["description"]}
    return english


def descriptions_in(value) -> list[str]:
    """Every ``description`` string anywhere in a parsed JSON value."""
    if isinstance(value, dict):
        found = [value["description"]] if isinstance(value.get("description"), str) else []
        return found + [d for v in value.values() for d in descriptions_in(v)]
    if isinstance(value, list):
        return [d for v in value for d in descriptions_in(v)]
    return []


def test_the_fixture_tools_have_translated_descriptions_to_check():
    """The check below has something to find (the course's tools carry Chinese descriptions)."""
    assert english_tool_descriptions()


@pytest.mark.parametrize("page", PAGES)
def test_no_text_box_in_chinese_starts_from_a_tools_english_descriptions(page):
    """The schema-fix exercise's box started from refund_order's English descriptions on the Chinese page
    (newcomer pass), while the playground's editor beside it starts from the Chinese ones: every text box
    seeded from a tool shows the descriptions the fixture translates, in Chinese."""
    at = fresh_app("zh", page=page)
    english = english_tool_descriptions()
    shown = []
    for box in at.text_area:
        try:
            shown += descriptions_in(json.loads(box.value or ""))
        except ValueError:
            continue
    assert [d for d in shown if d in english] == []
