"""AppTest for the pairing checker page, in both languages."""

import json

import pytest
from tests.app.conftest import fresh_app
from tests.app.markdown_tables import read_table, tables

from toolcall.i18n import t
from toolcall.parsing import localized_detail, parse_tool_input
from toolcall.pairing import load_examples


def open_page(lang):
    return fresh_app(lang, page="pages/pairing.py")


def violations(at, lang="en"):
    """The rows of the violations table (the first Markdown table with an advice column)."""
    return next((rows for rows in tables(at) if t("pairing.col_advice", lang) in rows[0]), [])


def rules_shown(at, lang="en"):
    """The rule column of the violations table."""
    return [row[t("pairing.col_rule", lang)] for row in violations(at, lang)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_empty_page_invites_a_paste(lang):
    at = open_page(lang)
    assert at.title[0].value == t("pairing.title", lang)
    assert any(c.value == t("pairing.empty_input", lang) for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_example_button_fills_the_text_area_and_lists_the_violation(lang):
    at = open_page(lang)
    example = next(e for e in load_examples() if e.id == "anthropic_split")
    at.button(key="pairing_example_anthropic_split").click().run()
    assert not at.exception
    assert at.text_area(key="pairing_input").value == example.text[lang]
    assert rules_shown(at, lang) == ["results_split_across_messages"]
    assert at.error[0].value == t("pairing.violations", lang, count=1)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["pairing_example_valid_anthropic", "pairing_example_valid_openai"])
def test_valid_examples_pass(lang, key):
    at = open_page(lang)
    at.button(key=key).click().run()
    assert not at.exception
    assert at.success[0].value == t("pairing.no_violations", lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_not_json_gets_a_clear_message(lang):
    at = open_page(lang)
    at.text_area(key="pairing_input").input("[{\"role\": \"user\",").run()
    assert not at.exception
    # the text ends after the comma: "stops before the JSON is complete", at the comma (json_explain)
    expected = t("pairing.error.not_json_value", lang,
                 detail=localized_detail(parse_tool_input("[{\"role\": \"user\","), lang))
    assert at.error[0].value.replace("\\", "") == expected


def test_user_text_is_never_markdown():
    """An id full of Markdown shows literally in the table, and nothing is rendered as a link."""
    at = open_page("en")
    at.text_area(key="pairing_input").input('[{"role": "user", "content": [{"type": "tool_result", '
                                            '"tool_use_id": "[x](http://evil.example) **b**", "content": "c"}]}]').run()
    assert not at.exception
    assert rules_shown(at) == ["orphan_result"]
    assert "[x](http://evil.example) **b**" in violations(at)[0]["detail"]  # read back: shown literally
    assert at.markdown and all("](" not in m.value and "http://" not in m.value and "**b" not in m.value
                               for m in at.markdown)  # escaped: no link, no bold, no autolink


def test_chosen_format_overrides_detection():
    at = open_page("en")
    at.button(key="pairing_example_anthropic_orphan").click().run()
    at.radio(key="pairing_format").set_value("anthropic").run()
    assert not at.exception
    assert any(c.value.startswith("Checked 3 messages as Anthropic.") for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_transcript_in_the_other_format_is_never_green(lang):
    """Issue 12, item 4: an Anthropic transcript (two real errors) checked as OpenAI once showed
    "No pairing problems"; it must say it does not look like OpenAI and what it looks like. The converter
    below reads it as what it is (Anthropic), not as the form chosen for the check (issue 14)."""
    at = open_page(lang)
    at.button(key="pairing_example_anthropic_id_mismatch").click().run()
    at.radio(key="pairing_format").set_value("openai").run()
    assert not at.exception
    assert t("pairing.no_violations", lang) not in [s.value for s in at.success]
    assert at.selectbox(key="convert_source").value == "anthropic"
    assert at.error[0].value.replace("\\", "") == t("pairing.error.format_mismatch", lang,
                                                    chosen=t("pairing.format.openai", lang),
                                                    looks=t("pairing.format.anthropic", lang))


def test_a_flood_is_checked_once_and_the_page_sends_a_capped_table(monkeypatch):
    """Issue 13: a 960 KB paste (10 000 calls, 7 000 unmatched results) once sent 89 MB per rerun
    and was rechecked on every click. Now at most 100 rows are drawn and the report is cached."""
    import json
    import toolcall.pairing as pairing

    uses = [{"type": "tool_use", "id": f"toolu_{k:05d}", "name": "f", "input": {}} for k in range(10_000)]
    results = [{"type": "tool_result", "tool_use_id": f"flood{k:05d}"} for k in range(7_000)]
    text = json.dumps([{"role": "user", "content": "go"}, {"role": "assistant", "content": uses},
                       {"role": "user", "content": results}], separators=(",", ":"))
    calls = []
    real = pairing.check_pairing
    monkeypatch.setattr(pairing, "check_pairing", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    at = open_page("en")
    at.text_area(key="pairing_input").input(text).run()
    assert not at.exception
    assert len(violations(at)) == 100
    assert any(c.value == t("pairing.shown_rows", "en", shown=100, total=17_000) for c in at.caption)
    assert not at.text  # the table only: the rows are not repeated as text (issue 14)
    at.radio(key="pairing_format").set_value("auto").run()  # another rerun, same input
    at.run()
    # the paste once; the converter below does not convert a paste past MAX_PAGE_CONVERT_CHARS (CPU per rerun)
    assert calls == [text]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_converter_shows_a_transcript_in_another_form_and_what_is_lost(lang):
    """Issue 21: Anthropic is_error into Chat Completions: the text stays, the flag is lost, said plainly."""
    import json

    from toolcall.convert import Loss, convert
    from toolcall.pairing import read_transcript

    text = json.dumps([{"role": "user", "content": "refund"},
                       {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
                       {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                                     "content": "refund service down"}]}])
    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("openai").run()
    at.text_area(key="convert_input").input(text).run()
    assert not at.exception
    converted, losses = convert(read_transcript(text)[0], "anthropic", "openai")
    assert losses == [Loss("is_error_in_text", 2)]
    assert [json.loads(c.value) for c in at.code if c.value.startswith("[")][-1] == converted
    warning = at.warning[-1].value
    assert warning.startswith(t("convert.losses_title", lang))
    assert t("convert.loss.is_error_in_text", lang)[:20] in warning.replace("\\", "")

    assert t("convert.loss_line", lang, message=2, text="")[:11] in warning.replace("\\", "")  # the pasted message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_converter_never_says_nothing_lost_when_it_changed_something(lang):
    """Newcomer report: an object as a tool_result's content and a text block before the tool_result, read as
    Anthropic and shown as Chat Completions, was "Nothing lost". Both changes are now listed, naming messages[2]."""
    import json

    from tests.unit.test_convert_round_trip import NEWCOMER

    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("openai").run()
    at.text_area(key="convert_input").input(json.dumps(NEWCOMER)).run()
    assert not at.exception and not at.success
    warning = at.warning[-1].value.replace("\\", "")
    for code in ("text_moved", "content_not_text"):
        assert t("convert.loss_line", lang, message=2, text=t(f"convert.loss.{code}", lang)) in warning


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_lost_but_broken_says_the_mistakes_came_along(lang):
    """A broken transcript converted faithfully is not a green "nothing lost": the output keeps the mistakes."""
    example = next(e for e in load_examples() if e.id == "anthropic_no_result")
    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("openai").run()
    at.text_area(key="convert_input").input(example.text[lang]).run()
    assert not at.exception and not at.success
    assert at.warning[-1].value == t("convert.no_loss_broken", lang, count=1, form=t("pairing.format.openai", lang))


def _texts_outside_tables(at) -> list[str]:
    """Every piece of text the page shows outside its tables (markdown, captions, alerts, code, text)."""
    kinds = ("markdown", "caption", "text", "code", "error", "warning", "info", "success")
    return [str(e.value) for kind in kinds for e in getattr(at, kind)
            if not (kind == "markdown" and read_table(e.value) is not None)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_violation_is_shown_once(lang):
    """Issue 14: the results came twice, as a table and then the same lines as text. For every
    example with violations, each violation is one row of the table, and its detail and advice
    appear nowhere else on the page."""
    from toolcall.pairing import check_pairing

    at = open_page(lang)
    checked = 0
    for example in load_examples():
        report = check_pairing(example.text[lang], "auto", lang)
        if not report.violations:
            continue
        at.button(key=f"pairing_example_{example.id}").click().run()
        assert not at.exception
        table = violations(at, lang)
        details = [row[t("pairing.col_detail", lang)] for row in table]
        assert len(table) == len(report.violations), example.id
        outside = "\n".join(_texts_outside_tables(at))
        for v in report.violations:
            assert details.count(v.detail) == sum(w.detail == v.detail for w in report.violations), example.id
            assert v.detail not in outside, (example.id, v.detail)
            assert v.advice not in outside, (example.id, v.advice)
        checked += 1
    assert checked


# --- issue 14: the converter starts from the transcript above, in another form -----------------------------

def _first_of_each_form():
    seen = {}
    for example in load_examples():
        seen.setdefault(example.fmt, example)
    return list(seen.values())


@pytest.mark.parametrize("example", _first_of_each_form(), ids=lambda e: e.id)
def test_the_converter_reads_the_transcript_above_and_shows_the_next_form(example):
    """Read as follows the form of the transcript above (detected), Show as is the next form in
    toolcall/wire.py's FORMATS, and the transcript is offered as the converter's input."""
    from toolcall.wire import FORMATS

    at = open_page("en")
    assert (at.selectbox(key="convert_source").value, at.selectbox(key="convert_target").value) == FORMATS[:2]
    at.button(key=f"pairing_example_{example.id}").click().run()
    assert not at.exception
    nxt = FORMATS[(FORMATS.index(example.fmt) + 1) % len(FORMATS)]
    assert (at.selectbox(key="convert_source").value, at.selectbox(key="convert_target").value) == (example.fmt, nxt)
    assert at.text_area(key="convert_input").value == example.text["en"]
    assert not at.info or all(i.value != t("convert.same_form", "en", form=t(f"pairing.format.{example.fmt}", "en"))
                              for i in at.info)


def test_the_converter_keeps_what_the_student_typed_and_the_forms_they_picked():
    examples = {e.fmt: e for e in reversed(load_examples())}
    at = open_page("en")
    at.text_area(key="convert_input").input("[]").run()
    at.selectbox(key="convert_target").set_value("mcp").run()
    at.button(key=f"pairing_example_{examples['openai'].id}").click().run()
    assert not at.exception
    assert at.text_area(key="convert_input").value == "[]"  # not replaced
    assert (at.selectbox(key="convert_source").value, at.selectbox(key="convert_target").value) == ("anthropic", "mcp")
    at.button(key="convert_use_above").click().run()  # offered, and replaces only when asked
    assert at.text_area(key="convert_input").value == examples["openai"].text["en"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_form_twice_is_said_not_copied(lang):
    at = open_page(lang)
    at.text_area(key="convert_input").input('[{"role": "user", "content": "hi"}]').run()
    at.selectbox(key="convert_target").set_value("anthropic").run()
    assert not at.exception
    assert [i.value for i in at.info] == [t("convert.same_form", lang, form=t("pairing.format.anthropic", lang))]
    assert not [c for c in at.code if c.value.startswith("[")]  # no identical copy


# --- issue 14: the example buttons are grouped by what the fixture expects ---------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_example_buttons_are_grouped_by_their_expected_result(lang):
    """Valid examples (``expect: []`` in fixtures/pairing/examples.yaml, plus the two built from the
    walkthrough) come first under their heading; every example that breaks a rule comes under the other."""
    at = open_page(lang)
    box = next(e for e in at.expander if e.label == t("pairing.examples", lang))
    headings = [m.value for m in box.markdown]
    assert headings == [f"**{t('pairing.group.valid', lang)}**", f"**{t('pairing.group.broken', lang)}**"]
    valid = {b.key for c in box.columns[:3] for b in c.button}
    broken = {b.key for c in box.columns[3:] for b in c.button}
    examples = load_examples()
    assert valid == {"pairing_example_valid_anthropic", "pairing_example_valid_openai"} | {
        f"pairing_example_{e.id}" for e in examples if not e.expect}
    assert broken == {f"pairing_example_{e.id}" for e in examples if e.expect}
    assert len(box.columns) == 6


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_transcript_of_many_notes_lists_some_and_counts_the_rest(lang):
    """600 calls with broken arguments: 100 notes listed and one line for the other 500 (the checker's 500 kept
    and the 100 it counted); before, 500 were kept and the rest dropped without a word."""
    import ast
    from pathlib import Path

    from tests.unit.test_pairing_notes_caps import broken_arguments

    source = (Path(__file__).resolve().parents[2] / "pages" / "pairing.py").read_text(encoding="utf-8")
    SHOWN_ROWS = next(node.value.value for node in ast.parse(source).body if isinstance(node, ast.Assign)
                      and getattr(node.targets[0], "id", "") == "SHOWN_ROWS")  # the page's constant, not imported
    calls = 600
    at = open_page(lang)
    at.text_area(key="pairing_input").input(broken_arguments(calls)).run()
    assert not at.exception, [e.value for e in at.exception]
    box = next(i.value for i in at.info if i.value.startswith(t("pairing.notes_title", lang)))
    assert box.count("messages\\[") == SHOWN_ROWS
    assert t("pairing.notes_more", lang, count=calls - SHOWN_ROWS) in box


def _element_bytes(at) -> dict[str, int]:
    """Serialised bytes of the page's elements, by kind (what a run sends the browser, before compression)."""
    sizes: dict[str, int] = {}

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "ByteSize"):
            sizes[type(node).__name__] = sizes.get(type(node).__name__, 0) + proto.ByteSize()
        for child in (getattr(node, "children", None) or {}).values():
            walk(child)
    walk(at._tree)
    return sizes


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_flood_of_losses_is_a_line_per_kind_and_the_page_sends_little_besides_the_transcripts(lang):
    """Issue 13: 1 000 turns read as Anthropic, shown as MCP, lose 2 000 texts in 2 000 messages (and 1 000 are
    merged read back); the page drew a line per loss (100 of them, 14.6 KB for a 690 KB paste). Now a line per
    kind naming 12 messages and counting the rest: the warning is under 1 KB, and everything but the converted
    JSON and the pasted box under 16 KB (the page's own buttons and text are 11.6 KB)."""
    import json

    from tests.unit.test_convert_loss_caps import _flood
    from toolcall.markdown import plain

    text = json.dumps(_flood(1000), separators=(",", ":"))
    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("mcp").run()
    at.text_area(key="convert_input").input(text).run()
    assert not at.exception
    refs = t("convert.message_sep", lang).join(t("convert.message_ref", lang, message=m)
                                                for m in (0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16))
    line = t("convert.loss_line_many", lang, messages=refs + t("convert.messages_more", lang, count=1988),
             text=t("convert.loss.text_dropped_mcp", lang))
    changed = t("convert.loss_line_many", lang, messages=t("convert.message_sep", lang).join(
        t("convert.message_ref", lang, message=m) for m in range(2, 36, 3)) + t("convert.messages_more", lang,
                                                                                    count=988),
        text=t("convert.loss.changed", lang))  # "hurry" and the result: two user messages, merged read back
    assert at.warning[-1].value == t("convert.losses_title", lang) + "\n\n" + plain(line) + "\n\n" + plain(changed)
    sizes = _element_bytes(at)
    assert sizes["Code"] > len(text) // 2  # the converted transcript itself (capped by show_json at MAX_CHARS)
    assert sizes["Warning"] < 1_000, sizes  # was 14 657 bytes
    assert sum(size for kind, size in sizes.items() if kind not in ("Code", "TextArea")) < 16_000, sizes  # was 26 KB


def test_a_rerun_does_not_send_the_pasted_transcript_back_in_the_converter_box():
    """The converter's box, pre-filled with the transcript above, was set again on every rerun, so every click
    serialised the whole paste into the page again (921 KB for a 921 KB paste; Streamlit then sends a
    reference when the browser has it, after hashing it). Now it is set when the transcript above changes."""
    import json

    from tests.unit.test_convert_loss_caps import _flood

    text = json.dumps(_flood(200), separators=(",", ":"))
    at = open_page("en")
    at.text_area(key="pairing_input").input(text).run()
    assert not at.exception
    assert _element_bytes(at)["TextArea"] > len(text)  # the first time, the box's new text goes to the browser
    at.run()
    assert at.text_area(key="convert_input").value == text
    assert _element_bytes(at)["TextArea"] < 2_000  # the two boxes' labels and settings only
    at.text_area(key="pairing_input").input(text[:-1] + " ]").run()  # the transcript above changed: followed
    assert at.text_area(key="convert_input").value == text[:-1] + " ]"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_lost_is_not_green_when_the_converted_transcript_cannot_be_checked(lang, monkeypatch):
    """A form can be longer than the paste (Chat Completions spells out "type": "function" for every call):
    a paste just under the checker's limit, converted, was over it; the checker's refusal counted as "no
    problems", and the page said "Nothing lost" in green for a transcript nobody checked."""
    import json

    import toolcall.pairing as pairing
    from toolcall.markdown import plain

    messages = [{"role": "user", "content": "refund the broken mug"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_unchecked", "name": "refund_order",
                                                   "input": {"order_id": "ORD-1", "reason": "damaged"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_unchecked",
                                              "content": "refunded"}]}]
    text = json.dumps(messages, separators=(",", ":"))
    monkeypatch.setattr(pairing, "MAX_CHARS", len(text) + 10)  # the paste fits; its Chat Completions form not
    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("openai").run()
    at.text_area(key="convert_input").input(text).run()
    assert not at.exception
    assert not at.success and not at.warning
    reason = t("pairing.error.too_large", lang, size=338, limit=len(text) + 10)
    assert at.info[-1].value == plain(t("convert.no_loss_unchecked", lang, reason=reason))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("text", ["[]", '{"messages": []}', '{"input": []}'])
def test_an_empty_transcript_is_not_a_green_verdict(lang, text):
    """`[]` read "Checked 0 messages" and a green "No pairing problems": nothing was checked."""
    at = open_page(lang)
    at.text_area(key="pairing_input").input(text).run()
    assert not at.exception
    assert [i.value for i in at.info][:1] == [t("pairing.no_messages", lang)]
    assert t("pairing.no_violations", lang) not in [s.value for s in at.success]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_transcript_that_does_not_read_shows_its_error_once(lang):
    """A newcomer's pass: the checker's error was shown again under the converter, which reads the same text."""
    at = open_page(lang)
    at.text_area(key="pairing_input").input("[{\"role\": \"user\",").run()
    assert not at.exception
    assert len(at.error) == 1
    assert t("convert.above_unreadable", lang) in [i.value for i in at.info]
    at.text_area(key="convert_input").input("{nope").run()  # another text below: its own error
    assert len(at.error) == 2 and t("convert.above_unreadable", lang) not in [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_converter_converts_nothing_past_its_page_cap_and_says_so(lang, monkeypatch):
    """Issue 13: a 1 MB paste took 0.5-0.7 s of server CPU to convert (the page's rerun 1.1-1.7 s with the checker),
    and every session on that process waited. Past MAX_PAGE_CONVERT_CHARS the page converts nothing and says why;
    one character less is converted."""
    import json

    import toolcall.convert as convert_module
    from toolcall.convert import MAX_PAGE_CONVERT_CHARS

    converted = []
    real = convert_module.convert
    monkeypatch.setattr(convert_module, "convert", lambda *a, **k: converted.append(a) or real(*a, **k))
    head = [{"role": "user", "content": "go"}, {"role": "assistant", "content": "x"}]
    pad = MAX_PAGE_CONVERT_CHARS - len(json.dumps(head, separators=(",", ":")))
    text = json.dumps([head[0], {"role": "assistant", "content": "x" * (pad + 2)}], separators=(",", ":"))
    assert len(text) == MAX_PAGE_CONVERT_CHARS + 1
    at = open_page(lang)
    at.selectbox(key="convert_source").set_value("anthropic").run()
    at.selectbox(key="convert_target").set_value("openai").run()
    at.text_area(key="convert_input").input(text).run()
    assert not at.exception
    assert at.info[-1].value == t("convert.too_large", lang, size=f"{MAX_PAGE_CONVERT_CHARS + 1:,}",
                                  limit=f"{MAX_PAGE_CONVERT_CHARS:,}")
    assert converted == []
    at.text_area(key="convert_input").input(text[:-len('x"}]')] + '"}]').run()  # one character shorter
    assert not at.exception and len(converted) == 1


# --- newcomer pass: the examples' customer text is in the page's language ----------------------------------

def _prose(value) -> list[str]:
    """The words of a transcript: its string leaves that are not identifiers, enum values or JSON, whole or
    cut short (``"toolu_A"``, ``"damaged"``, ``"tools/call"``, ``"{\\"status\\": …}"`` are left out)."""
    import json
    import re

    if isinstance(value, dict):
        return [w for v in value.values() for w in _prose(v)]
    if isinstance(value, list):
        return [w for v in value for w in _prose(v)]
    if (not isinstance(value, str) or not re.search(r"[A-Za-z]", value) or re.fullmatch(r"[\w\-/.:]+", value)
            or value.lstrip().startswith(("{", "["))):
        return []
    try:
        json.loads(value)
    except ValueError:
        return [value]
    return []


def test_the_chinese_page_shows_no_english_example_text():
    """Newcomer pass: the Chinese page filled the box with "My cup from order …" while the step-through
    page spoke Chinese. Every example button on the zh page puts in its zh text, whose every sentence has
    Chinese in it and none of the en version's sentences (derived from fixtures/pairing/examples.yaml)."""
    import json
    import re

    at = open_page("zh")
    checked = 0
    for example in load_examples():
        at.button(key=f"pairing_example_{example.id}").click().run()
        assert not at.exception
        shown = at.text_area(key="pairing_input").value
        assert shown == example.text["zh"], example.id
        english = _prose(json.loads(example.text["en"]))
        assert [w for w in english if w in shown] == [], example.id
        assert [w for w in _prose(json.loads(shown)) if not re.search(r"[\u4e00-\u9fff]", w)] == [], example.id
        checked += bool(english)
    assert checked  # some example has customer text at all


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_transcript_above_past_the_converter_cap_is_not_copied_into_the_converter(lang):
    """Break-it pass brk12web: a paste above longer than the converter converts (MAX_PAGE_CONVERT_CHARS) was still
    copied into the converter's box, so the page sent the student's paste back to the browser a second time (1 MB
    typed: 2 MB of box text), only to say under it that it is too large to convert. Now the box is left as it
    is, there is no "Use the transcript above" button, and the page says why, with the size and the cap."""
    import json

    import toolcall.convert as convert_module

    cap = convert_module.MAX_PAGE_CONVERT_CHARS
    head = [{"role": "user", "content": "go"}, {"role": "assistant", "content": ""}]
    pad = cap + 1 - len(json.dumps(head, separators=(",", ":")))
    text = json.dumps([head[0], {"role": "assistant", "content": "x" * pad}], separators=(",", ":"))
    assert len(text) == cap + 1
    at = open_page(lang)
    at.text_area(key="pairing_input").input(text).run()
    assert not at.exception
    assert at.text_area(key="convert_input").value == ""
    assert "convert_use_above" not in [b.key for b in at.button]
    assert at.info[-1].value == t("convert.above_too_large", lang, size=f"{cap + 1:,}", limit=f"{cap:,}")
    shorter = text[:-len('x"}]')] + '"}]'  # at the cap: copied, as before
    at.text_area(key="pairing_input").input(shorter).run()
    assert at.text_area(key="convert_input").value == shorter
    assert t("convert.above_too_large", lang, size=f"{cap + 1:,}", limit=f"{cap:,}") not in [i.value for i in at.info]


@pytest.mark.parametrize("first, second", [("en", "zh"), ("zh", "en")])
@pytest.mark.parametrize("key", ["pairing_example_anthropic_split", "pairing_example_valid_openai"])
def test_a_loaded_example_follows_a_language_switch_and_an_edited_one_stays(key, first, second):
    """Newcomer session 14: an example loaded on the English page stayed English ("…refund me…") after a
    switch to Chinese. Left as it was, it is the same example in the page's language; edited, it is the
    student's and stays."""
    at = open_page(first)
    at.button(key=key).click().run()
    loaded = at.text_area(key="pairing_input").value
    at.session_state["app_lang"] = second
    at.run()
    assert not at.exception
    now = at.text_area(key="pairing_input").value
    if key == "pairing_example_anthropic_split":
        assert now == next(e for e in load_examples() if e.id == "anthropic_split").text[second]
        assert rules_shown(at, second) == ["results_split_across_messages"]
    else:
        said = {"en": "My cup from order ORD-20260917 arrived broken, refund me 19.99. And where is my desk lamp, "
                      "order ORD-20261102?",
                "zh": "订单 ORD-20260917 的杯子摔碎了，退我 19.99 元。另外，订单 ORD-20261102 的台灯到哪儿了？"}
        assert json.loads(loaded)["messages"][0] == {"role": "user", "content": said[first]}
        assert json.loads(now)["messages"][0] == {"role": "user", "content": said[second]}
    edited = now + "\n"
    at.text_area(key="pairing_input").input(edited).run()
    at.session_state["app_lang"] = first
    at.run()
    assert at.text_area(key="pairing_input").value == edited


def test_following_the_language_builds_no_transcript_of_its_own(monkeypatch):
    """The follow-up is read from what the example button put in the box: a rerun with the student's own text
    builds the two valid requests the example buttons show, and nothing more (each build is about 3 ms)."""
    import toolcall.transcripts

    real, built = toolcall.transcripts.build_transcript, []
    monkeypatch.setattr(toolcall.transcripts, "build_transcript", lambda *a, **k: built.append(a[2]) or real(*a, **k))
    at = open_page("en")
    at.text_area(key="pairing_input").input('[{"role": "user", "content": "hi"}]').run()
    built.clear()
    at.session_state["app_lang"] = "zh"
    at.run()
    assert not at.exception and built == ["anthropic", "openai"]
