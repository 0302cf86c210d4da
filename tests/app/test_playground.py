"""The playground page through AppTest: presets, edits, bad schema text, the free box."""

import json

import pytest

from tests.app.conftest import fresh_app
from tests.app.markdown_tables import tables
from tests.app.playground_views import each_card, show_free, show_output
from toolcall.fixtures import load_outputs
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.parsing import localized_detail, parse_tool_input

OUTPUTS = load_outputs().outputs
N = len(OUTPUTS)
#: The canned output the extra-field preset lets through: the one additionalProperties catches.
EXTRA = next(o for o in OUTPUTS if o.catches == "additionalProperties")
TRUNCATED = next(o for o in OUTPUTS if o.stop_reason == "max_tokens")


def playground(lang="en"):
    at = fresh_app(lang)
    return at.switch_page("pages/playground.py").run()


def texts(elements):
    return [e.value for e in elements]


def test_reference_schema_all_as_expected():
    at = playground()
    assert not at.exception
    assert f"**{N} of {N} outputs got their expected verdict.**" in texts(at.markdown)
    assert "No bad output leaks through this schema." in texts(at.success)


def test_no_additional_properties_preset_flags_extra_field_leaked():
    at = playground()
    at.selectbox(key="playground_preset").select("no_additional_properties").run()
    at.button(key="playground_apply_preset").click().run()
    assert not at.exception
    assert '"additionalProperties"' not in at.text_area(key="schema_editor").value
    assert f"**{N - 1} of {N} outputs got their expected verdict.**" in texts(at.markdown)
    assert "Leaked \\(bad output accepted\\)\\: Extra field the schema does not define\\." in texts(at.error)
    show_output(at, EXTRA.id)
    errors = texts(at.error)
    assert ("LEAKED\\: this bad output passes the edited schema\\. \\\"additionalProperties\\\" would have "
            "caught it\\.") in errors


def test_editing_the_schema_by_hand_changes_the_summary_and_reset_restores():
    at = playground()
    schema = json.loads(at.text_area(key="schema_editor").value)
    del schema["required"]
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert f"**{N - 1} of {N} outputs got their expected verdict.**" in texts(at.markdown)
    assert "Leaked \\(bad output accepted\\)\\: Missing a required field\\." in texts(at.error)
    at.button(key="playground_reset").click().run()
    assert f"**{N} of {N} outputs got their expected verdict.**" in texts(at.markdown)


def test_invalid_json_in_editor_shows_error_and_keeps_last_good_result():
    at = playground()
    at.selectbox(key="playground_preset").select("enum_removed").run()
    at.button(key="playground_apply_preset").click().run()
    at.text_area(key="schema_editor").input('{"type": "object",\n  "properties": }').run()
    assert not at.exception
    # the place to fix in plain words, then the parser's message (json_explain)
    detail = localized_detail(parse_tool_input('{"type": "object",\n  "properties": }'), "en")
    assert detail.startswith('A value is expected at line 2, column 17: "properties": }')
    assert plain(t("schema.not_json_value", "en", detail=detail)) in texts(at.error)
    assert any("stale" in w for w in texts(at.warning))
    shown = [str(e.value) for kind in ("warning", "caption", "info", "markdown", "error") for e in getattr(at, kind)]
    assert sum(t("playground.stale", "en") in s for s in shown) == 1  # once, not in both columns (issue 14)
    # the cards still show the last good (enum removed) schema's verdicts
    assert f"**{N - 1} of {N} outputs got their expected verdict.**" in texts(at.markdown)


def test_not_a_schema_names_keyword_and_path():
    at = playground()
    at.text_area(key="schema_editor").input('{"type": "object", "properties": {"note": {"maxLength": "200"}}}').run()
    assert not at.exception
    assert any(e.startswith("Not a valid Draft 2020\\-12 schema\\: at /properties/note/maxLength, keyword "
                            "\\\"maxLength\\\"") for e in texts(at.error))


def test_free_box_judges_pasted_output_in_openai_format():
    at = playground()
    at.radio(key="playground_format").set_value("openai").run()
    show_free(at)
    at.text_area(key="playground_free_input").input("{'order_id': 'ORD-20260917', 'amount_cents': 1999}").run()
    assert not at.exception
    codes = [json.loads(c.value) for c in at.code if c.language == "json" and c.value.startswith("{\n  \"role\"")]
    assert codes and all(c["role"] == "tool" for c in codes)
    assert any("This looks like a Python dict" in i for i in texts(at.info))


def test_chinese_page():
    at = playground("zh")
    assert not at.exception
    assert at.title[0].value == t("playground.title", "zh")
    assert f"**{N} 个输出中有 {N} 个得到了预期的结论。**" in texts(at.markdown)


def test_chinese_page_switches_format_and_preset():
    """Labels are bound before the widget, so AppTest (which calls format_func outside the run) agrees."""
    at = playground("zh")
    at.radio(key="playground_format").set_value("openai").run()
    at.selectbox(key="playground_preset").select("enum_removed").run()
    at.button(key="playground_apply_preset").click().run()
    assert not at.exception
    assert at.radio(key="playground_format").value == "openai"
    assert f"**{N} 个输出中有 {N - 1} 个得到了预期的结论。**" in texts(at.markdown)


def test_choosing_a_preset_applies_it_at_once():
    """The caption and the editor never disagree: picking a preset rewrites the schema."""
    at = playground()
    at.selectbox(key="playground_preset").select("nothing_required").run()
    assert '"required"' not in at.text_area(key="schema_editor").value
    assert "Leaked \\(bad output accepted\\)\\: Missing a required field\\." in texts(at.error)


def test_user_text_never_becomes_markdown_links_or_headings():
    at = playground()
    show_free(at)
    at.text_area(key="playground_free_input").input(
        '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", '
        '"www.example.org": 1, "x\\n# H1": "![i](http://127.0.0.1:9/i.png)"}').run()
    assert not at.exception
    md = "\n".join(texts(at.markdown))
    assert "www\u2060\\.example\\.org" in md and "x\\\\n\\# H1" in md
    assert "http://" not in md and "](" not in md


def test_caption_says_when_the_schema_was_edited_by_hand():
    """The preset's lesson no longer claims "every bad output is caught" once the schema is edited."""
    at = playground()
    captions = texts(at.caption)
    assert "The schema as the course defines it: every bad output is caught." in captions
    schema = json.loads(at.text_area(key="schema_editor").value)
    del schema["required"]
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    captions = texts(at.caption)
    assert "The schema as the course defines it: every bad output is caught." not in captions
    assert 'You have edited the reference definition: the results are for your version. "Reset to reference" ' \
        'restores it.' in captions
    at.button(key="playground_apply_preset").click().run()
    assert "The schema as the course defines it: every bad output is caught." in texts(at.caption)


def test_a_key_ending_in_a_space_is_still_bold():
    at = playground()
    show_free(at)
    at.text_area(key="playground_free_input").input(
        '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "a ": 1}').run()
    md = "\n".join(texts(at.markdown))
    assert "- **/a \u2060**" not in md and "**\u2060/a \u2060**" in md


def test_format_toggle_asserts_format_in_the_free_box():
    at = playground()
    schema = json.loads(at.text_area(key="schema_editor").value)
    schema["properties"]["note"]["format"] = "email"
    at.text_area(key="schema_editor").set_value(json.dumps(schema)).run()
    show_free(at)
    at.text_area(key="playground_free_input").set_value(
        '{"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged", "note": "not an email"}').run()
    assert not at.exception
    shown = " ".join(texts(at.markdown) + texts(at.caption) + texts(at.info))
    assert "it was not checked" in shown
    at.toggle(key="playground_assert_format").set_value(True).run()
    assert not at.exception
    shown = " ".join(texts(at.markdown) + texts(at.caption) + texts(at.info) + texts(at.error))
    assert 'a string in the format \\"email\\"' in shown or 'a string in the format "email"' in shown


def test_the_order_book_names_items_in_the_page_language():
    """The order book's item column shows the item in the session's language, never the {en, zh} record."""
    from toolcall.fixtures import load_orders
    book = load_orders()
    for lang in ("en", "zh"):
        at = playground(lang)
        table = next(rows for rows in tables(at) if "item" in rows[0] and "order_id" in rows[0])
        assert [row["item"] for row in table] == [o.item_for(lang) for o in book.orders]
        assert [row["order_id"] for row in table] == [o.order_id for o in book.orders]


def test_truncated_card_shows_the_re_request_and_the_free_box_asks_the_stop_reason():
    """Issue 12 item 1: max_tokens → no tool_result, max_tokens 64 → 128; the free box lets the student pick."""
    at = show_output(playground(), TRUNCATED.id)
    assert not at.exception
    warnings = texts(at.warning)
    assert any("**no tool_result is sent**" in w and "from 64 to 128" in w for w in warnings)
    assert '{\n  "max_tokens": 128\n}' in [c.value for c in at.code]
    at.radio(key="playground_format").set_value("openai").run()
    assert '{\n  "max_completion_tokens": 128\n}' in [c.value for c in at.code]
    show_free(at)
    at.text_area(key="playground_free_input").input('{"order_id": "ORD-2026').run()
    before = len([w for w in texts(at.warning) if "no tool_result is sent" in w])
    at.radio(key="playground_free_stop_reason").set_value("max_tokens").run()
    assert not at.exception
    assert len([w for w in texts(at.warning) if "no tool_result is sent" in w]) == before + 1


def test_replay_table_shows_the_re_issue_paid_twice_only_when_keyed_by_id():
    at = playground()
    table = next(rows for rows in tables(at) if "Keyed by tool_use id" in rows[0])
    assert [row["Keyed by tool_use id"] for row in table] == ["paid 1000 cents (RF-20260917-001)",
                                                   "first refund returned (RF-20260917-001), nothing paid",
                                                   "paid 1000 cents (RF-20260917-002)"]
    assert [row["Keyed by order id + amount"] for row in table] == ["paid 1000 cents (RF-20260917-001)"] + [
        "first refund returned (RF-20260917-001), nothing paid"] * 2
    assert "Keyed by tool_use id: 2 refunds paid, 2000 cents in total." in texts(at.error)
    assert "Keyed by order id + amount: 1 refund paid, 1000 cents in total." in texts(at.success)


def test_every_card_says_where_its_result_lands_in_mcp():
    """Issue 21: truncated JSON lands as a JSON-RPC -32602 error, a schema refusal as a CallToolResult
    with isError; each card says so in the page's language."""
    from toolcall.i18n import t

    for lang in ("en", "zh"):
        at = playground(lang)
        at.radio(key="playground_format").set_value("mcp").run()
        assert not at.exception
        captions, rpc = [], []
        for _ in each_card(at, OUTPUTS):  # one card drawn at a time: gather them all
            captions += texts(at.caption)
            rpc += [json.loads(c.value) for c in at.code if c.language == "json" and '"jsonrpc"' in c.value]

        def lands(key, lang=lang):
            return t("common.labelled", lang, label=t("wire.lands_label", lang), value=t(key, lang))

        assert lands("wire.lands.mcp_jsonrpc_error") in captions
        assert lands("wire.lands.mcp_is_error") in captions
        assert any(m.get("error", {}).get("code") == -32602 for m in rpc)
        assert any(m.get("result", {}).get("isError") is True for m in rpc)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hand_edit_of_the_reference_says_reset_restores_it(lang):
    """Issue 14: "Edited by hand since this preset was applied ... Apply again" read oddly for the
    reference schema, which is no loosening preset; a loosening preset keeps its own caption."""
    at = playground(lang)
    at.text_input(key="tool_name").input("refund_order_v2").run()
    captions = texts(at.caption)
    assert t("playground.reference_edited", lang, reset=t("playground.reset", lang)) in captions
    assert t("playground.preset_edited", lang) not in captions
    at.selectbox(key="playground_preset").select("enum_removed").run()
    at.text_input(key="tool_name").input("refund_order_v3").run()
    assert t("playground.preset_edited", lang) in texts(at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_lists_at_most_max_shown_errors_and_says_how_many_more(lang):
    """A schema requiring hundreds of fields: every card's error list is cut at MAX_SHOWN_ERRORS (it was the
    whole list, 240 KB per card and 1.7 MB per edit for 2 500 fields), the heading keeps the full count."""
    from ui.cards import MAX_SHOWN_ERRORS

    n = MAX_SHOWN_ERRORS * 5
    at = playground(lang)
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)},
              "required": [f"p{i}" for i in range(n)]}
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert not at.exception
    heading = "**" + t("playground.errors", lang, count=n) + "**"
    lists = []
    for _ in each_card(at, OUTPUTS):  # one card drawn at a time
        lists += [m.value for m in at.markdown if m.value.startswith(heading)]
    assert len(lists) >= N // 2  # every card whose output parses to an object misses all n
    for body in lists:
        bullets = [line for line in body.splitlines() if line.startswith("- ")]
        assert len(bullets) == MAX_SHOWN_ERRORS + 1
        assert bullets[-1] == "- " + t("card.errors_more", lang, count=n - MAX_SHOWN_ERRORS)
        assert len(body) < 200 * MAX_SHOWN_ERRORS


def _switch_language(at, language):
    at.selectbox(key="app_lang").set_value(language).run()
    assert not at.exception
    return at


def _note(at):
    """The preset's note above the fields (the first caption of the editor column)."""
    return [c.value for c in at.caption]


@pytest.mark.parametrize("preset", ["reference", "nothing_required"])
def test_untouched_fields_follow_a_language_switch(preset):
    """A fixture tool with a preset applied and nothing typed is written again in the new language, and the
    note is the preset's own (it claimed "you edited it by hand" after a switch; newcomer pass, session 6)."""
    from toolcall.presets import apply_preset, schema_text
    from ui.tool_editor import fixture_tool

    at = playground()
    if preset != "reference":
        at.selectbox(key="playground_preset").select(preset).run()
    _switch_language(at, "zh")
    zh = fixture_tool("refund_order", "zh")
    assert at.text_area(key="tool_description").value == zh.description
    assert at.text_area(key="schema_editor").value == schema_text(apply_preset(zh.input_schema, preset))
    notes = _note(at)
    assert t("playground.preset_edited", "zh") not in notes
    assert t("playground.reference_edited", "zh", reset=t("playground.reset", "zh")) not in notes
    assert t(f"playground.preset_lesson.{preset}", "zh") in notes
    _switch_language(at, "en")  # and back
    assert at.text_area(key="tool_description").value == fixture_tool("refund_order", "en").description


def test_fields_edited_by_hand_stay_through_a_language_switch():
    """What the student typed is never replaced: the edited description stays, and the note says it was edited."""
    at = playground()
    mine = "Refund an order. My own words."
    at.text_area(key="tool_description").input(mine).run()
    _switch_language(at, "zh")
    assert at.text_area(key="tool_description").value == mine
    assert t("playground.reference_edited", "zh", reset=t("playground.reset", "zh")) in _note(at)


@pytest.mark.parametrize("lang, intro", [
    ("en", "These `refund_order` calls are all valid against the course's schema (the reference, not the one in the "
           "editor above), yet the refund must not happen."),
    ("zh", "下面这些 `refund_order` 调用都符合课程给的参考 schema（不是上面编辑器里的那份），但退款绝不能执行。"),
])
def test_the_business_cases_say_which_tool_and_schema_they_are_valid_against(lang, intro):
    """Newcomer session 14: with search_orders picked (or refund_order's schema stripped) the section said
    "These calls are all schema-valid" over refund_order calls judged against the reference schema."""
    at = playground(lang)
    at.selectbox(key="playground_tool").select("search_orders").run()
    assert not at.exception
    assert [m for m in texts(at.markdown) if m.startswith(intro)] == [t("playground.business_intro", lang)]


NOTES = {  # the note above the fields, by language (newcomer pass, session 16)
    "en": {"reference": "The schema as the course defines it: every bad output is caught.",
           "no_outputs": "The schema as the course defines it.",
           "unchanged": "get_order's schema has nothing this preset removes: it is unchanged.",
           "edited": 'You have edited the reference definition: the results are for your version. "Reset to reference" '
                     'restores it.',
           "nothing_required": "Without required, a call that leaves out a field passes, and your code has to invent a "
                               "default."},
    "zh": {"reference": "课程里定义的 schema：所有坏输出都会被拦下。",
           "no_outputs": "课程里定义的 schema。",
           "unchanged": "get_order 的 schema 里没有这个预设要去掉的东西，所以它没有变。",
           "edited": "你改过参考定义：现在的结果对应你改过的版本。点“恢复参考 schema”可以恢复。",
           "nothing_required": "没有 required，漏填字段的调用也能通过，你的代码只好自己编一个默认值。"},
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_note_claims_only_what_the_picked_tool_shows(lang):
    """A tool with no canned outputs (cancel_order, the course's bad do_stuff) was told "every bad output is
    caught", get_order with enum removed got the refund lesson about reason "broken" for a schema the
    preset left as it was, and get_order without required the one about a call that forgets the reason."""
    notes = NOTES[lang]
    at = playground(lang)
    assert notes["reference"] in _note(at)
    for tool in ("cancel_order", "do_stuff"):
        at.selectbox(key="playground_tool").select(tool).run()
        assert not at.exception
        assert notes["no_outputs"] in _note(at) and notes["reference"] not in _note(at)
    description = at.text_area(key="tool_description")
    description.input(description.value + " x").run()  # an edit is still named as one
    assert notes["edited"] in _note(at) and notes["no_outputs"] not in _note(at)
    at.selectbox(key="playground_tool").select("get_order").run()
    assert notes["reference"] in _note(at)  # its canned outputs are all caught
    at.selectbox(key="playground_preset").select("enum_removed").run()
    assert notes["unchanged"] in _note(at)
    assert t("playground.preset_lesson.enum_removed", lang) not in _note(at)
    at.selectbox(key="playground_preset").select("nothing_required").run()  # this one does loosen it, and says
    assert notes["nothing_required"] in _note(at)  # so without refund_order's "forgets the reason"
    assert t("playground.preset_lesson.nothing_required", lang) not in _note(at)
