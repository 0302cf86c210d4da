"""The playground's whole-definition editor through AppTest: name and description edits reach the
cards, the review and the pass^k lab; bad definitions keep the last good state; share links."""

import json
import re

import pytest

from tests.app.conftest import fresh_app
from tests.app.playground_views import each_card, open_panel, show_free
from toolcall import CONTENT_ROOT
from toolcall.fixtures import load_outputs, load_tool
from toolcall.i18n import t
from toolcall.markdown import plain
from toolcall.tooldef import MAX_DESCRIPTION_CHARS, share_token


def playground(lang="en", query=None):
    return fresh_app(lang, query).switch_page("pages/playground.py").run()


def texts(elements):
    return [e.value for e in elements]


def tool_results(at):
    return [json.loads(c.value) for c in at.code if c.language == "json" and '"tool_use"' in c.value]


def test_editing_the_name_reaches_every_tool_use_and_tool_result():
    at = playground()
    at.text_input(key="tool_name").input("issue_refund").run()
    assert not at.exception
    assert "Definition OK: a name both providers accept and a valid Draft 2020-12 input_schema." in texts(at.success)
    outputs = load_outputs().outputs
    calls, contents = [], []
    for _ in each_card(at, outputs):  # one card drawn at a time
        calls += tool_results(at)
        contents += [c.value for c in at.code if c.language in (None, "plaintext") and "input_schema" in c.value]
    assert len(calls) == len(outputs) and {c["name"] for c in calls} == {"issue_refund"}   # one per canned card
    # every card the schema rejects names the tool (text that is not JSON is answered without the schema)
    assert len(contents) == sum(o.expected == "rejected" and o.catches != "INVALID_JSON" for o in outputs)
    assert all("against the issue_refund input_schema" in v and "call issue_refund again" in v for v in contents)


def test_a_refused_name_is_an_error_at_the_editor_and_the_cards_go_stale():
    at = playground()
    at.text_input(key="tool_name").input("refund order").run()
    assert not at.exception
    assert ("\\$\\.name\\: The tool name contains \\' \\' \\(U\\+0020\\)\\: providers accept only letters a\\-z, A\\-Z, digits, \\_ and "
            "\\-\\.") in texts(at.error)
    assert any("stale" in w for w in texts(at.warning))
    assert {c["name"] for c in tool_results(at)} == {"refund_order"}   # last good definition


def test_removing_when_not_to_use_shows_in_the_review_and_in_the_lab():
    at = playground()
    description = at.text_area(key="tool_description").value
    cut = description.replace(" If the order has not shipped yet, use cancel_order instead.", "")
    assert cut != description
    at.text_area(key="tool_description").input(cut).run()
    open_panel(at, "review")
    assert not at.exception
    warnings = "\n".join(texts(at.warning))
    assert "does not say when NOT to use it" in warnings
    at.switch_page("pages/passk_lab.py").run()
    assert not at.exception
    assert len(at.checkbox) == 4
    assert [m.value for m in at.metric if m.label == "m, ambiguities now"] == ["4"]
    assert any(c.value == "With these cuts pass^k lies between 3.4% (independent runs) and 65.6% (fully correlated)."
               for c in at.caption)


def test_lab_alone_uses_the_reference_description():
    at = fresh_app().switch_page("pages/passk_lab.py").run()
    assert [m.value for m in at.metric if m.label == "m, ambiguities now"] == ["3"]
    assert any(c.value == "With these cuts pass^k lies between 8.0% (independent runs) and 72.9% (fully correlated)."
               for c in at.caption)


def test_description_presets_and_picking_do_stuff():
    at = open_panel(playground(), "review")
    at.selectbox(key="playground_preset").select("vague_name").run()
    assert at.text_input(key="tool_name").value == "do_stuff"
    assert any("do\\_stuff" in e and "vague verb" in e for e in texts(at.error))
    at.selectbox(key="playground_preset").select("description_removed").run()
    assert at.text_area(key="tool_description").value == ""
    assert any("No description" in e for e in texts(at.error))
    at.selectbox(key="playground_tool").select("do_stuff").run()
    assert not at.exception
    assert at.text_input(key="tool_name").value == "do_stuff"
    assert any("No canned outputs exist for do_stuff" in i for i in texts(at.info))
    show_free(at)
    at.text_area(key="playground_free_input").input('{"data": "ORD-20260917"}').run()
    assert not at.exception and tool_results(at)[-1]["name"] == "do_stuff"


def test_huge_description_and_pasted_definitions_never_crash():
    at = playground()
    box = at.text_area(key="tool_description")
    assert box.max_chars == 4 * MAX_DESCRIPTION_CHARS  # the browser takes no more
    box.input("x" * 5_000_000).run()  # AppTest, like the browser, drops a change over max_chars
    assert at.text_area(key="tool_description").value != "x" * 5_000_000
    at.text_area(key="tool_description").input("x" * (MAX_DESCRIPTION_CHARS + 1)).run()
    assert not at.exception
    assert any(e.startswith("\\$\\.description\\: The description has 10001 characters") for e in texts(at.error))
    at.button(key="playground_reset").click().run()
    assert texts(at.success)[0].startswith("Definition OK")
    open_panel(at, "definition")
    at.text_area(key="workbench_definition_text").input('{"name": "get_order"}').run()
    at.button(key="workbench_apply_definition").click().run()
    assert "\\$\\: The definition has no input\\_schema \\(OpenAI\\'s form calls it parameters\\)\\." in texts(at.error)
    openai = json.dumps({"type": "function", "function": {"name": "lookup", "description": "Look up.",
                                                         "parameters": {"type": "object", "properties": {}}}})
    at.text_area(key="workbench_definition_text").input(openai).run()
    at.button(key="workbench_apply_definition").click().run()
    assert not at.exception
    assert at.text_input(key="tool_name").value == "lookup"


def test_share_link_opens_that_definition_and_a_broken_one_says_so():
    tool = load_tool()
    edited = type(tool)("refund_it", "Refund it.", tool.input_schema)
    at = playground(query={"tool": share_token(edited)})
    assert not at.exception
    assert at.text_input(key="tool_name").value == "refund_it"
    broken = playground(query={"tool": "eNrLSM3JyVcozy/KSQEAGgQEXQ"[:-5]})
    assert not broken.exception
    assert any("damaged" in e for e in texts(broken.error))
    assert broken.text_input(key="tool_name").value == "refund_order"


def test_chinese_editor():
    at = playground("zh")
    assert not at.exception
    at.text_input(key="tool_name").input("退款").run()
    assert any("工具名里有 \\'退\\'" in e for e in texts(at.error))


def test_picking_get_order_shows_its_own_canned_outputs():
    from toolcall import FIXTURES_DIR
    from toolcall.fixtures import load_outputs

    outputs = load_outputs(FIXTURES_DIR / "outputs" / "get_order.yaml").outputs
    at = playground()
    at.selectbox(key="playground_tool").select("get_order").run()
    assert not at.exception
    assert f"**{len(outputs)} of {len(outputs)} outputs got their expected verdict.**" in texts(at.markdown)
    assert {c["name"] for c in tool_results(at)} == {"get_order"}


def test_review_paths_show_as_written_in_both_languages():
    """Each finding's JSON path, rendered by a CommonMark parser, reads as the path itself (``$.description``),
    not with the Markdown escapes the review once put inside its code spans (``\\$\\.description``)."""
    import re

    from markdown_it import MarkdownIt

    from toolcall.lint import lint_tool


    md = MarkdownIt("commonmark")
    for lang in ("en", "zh"):
        at = playground(lang)
        at.text_area(key="tool_description").input("Refunds.").run()
        open_panel(at, "review")
        assert not at.exception
        boxes = "\n".join(md.render(b.value) for b in [*at.error, *at.warning, *at.info])
        paths = re.findall(r"<code>(.*?)</code>", boxes)
        tool = load_tool()
        want = {f.path for f in lint_tool(type(tool)(tool.name, "Refunds.", tool.input_schema))}
        assert want and want <= set(paths), (lang, want, paths)
        assert "$.description" in paths and not any("\\" in p for p in paths)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shared_course_tool_keeps_its_canned_outputs_so_the_leak_shows(lang):
    """A newcomer's pass: a shared refund_order with amount_cents loosened to "number" opened as "Your own"
    with no canned outputs ("No canned outputs exist for custom", an id) under the caption "every bad output
    is caught"; the leak the link was meant to show was gone."""
    tool = load_tool()
    schema = json.loads(json.dumps(tool.input_schema))
    schema["properties"]["amount_cents"] = {"type": "number"}
    at = playground(lang, query={"tool": share_token(type(tool)("refund_order", tool.description, schema))})
    assert not at.exception
    assert at.selectbox(key="playground_tool").value == "refund_order"
    assert t("playground.preset_lesson.reference", lang) not in texts(at.caption)
    assert t("playground.reference_edited", lang, reset=t("playground.reset", lang)) in texts(at.caption)
    from toolcall import FIXTURES_DIR
    from toolcall.markdown import plain

    yuan = next(o for o in load_outputs(FIXTURES_DIR / "outputs" / "refund_order.yaml").outputs
                if o.id == "yuan_not_cents")
    leaked = [e for e in texts(at.error) if e.startswith(plain(t("playground.summary_leaked", lang, ids="")).rstrip(
        "\\.。"))]  # the leaked outputs by label (an instructor's added output may leak too)
    assert len(leaked) == 1 and plain(yuan.label[lang]) in leaked[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shared_tool_of_its_own_name_says_it_has_no_outputs_without_an_id(lang):
    tool = load_tool()
    at = playground(lang, query={"tool": share_token(type(tool)("refund_it", "Refund it.", tool.input_schema))})
    assert not at.exception
    assert at.selectbox(key="playground_tool").value == "custom"
    assert t("workbench.custom_lesson", lang) in texts(at.caption)
    assert t("playground.preset_lesson.reference", lang) not in texts(at.caption)
    assert [i.value for i in at.info if "custom" in i.value] == []
    assert t("workbench.no_outputs_custom", lang) in [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_misspelt_keyword_in_the_editor_is_named_by_the_review(lang):
    """"patern" for "pattern" left the definition "fine" and the review silent: the leak was the only clue
    (newcomer pass). The review's warnings name the misspelt keyword and the one meant."""
    at = playground(lang)
    schema = at.text_area(key="schema_editor").value
    assert '"pattern"' in schema
    at.text_area(key="schema_editor").input(schema.replace('"pattern"', '"patern"', 1)).run()
    open_panel(at, "review")
    assert not at.exception
    reason = t("workbench.lint.param_misspelt_keyword", lang, param="order_id", keyword="patern", near="pattern")
    assert [w for w in texts(at.warning) if plain(reason) in w or reason in w]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_definition_being_edited_is_not_replaced_when_the_fields_change(lang):
    """The definition box followed the fields until applied: a student who typed a definition there and then picked
    the other form (or edited a field) lost it without a word, the box refilled from the fields (break-it pass
    brk12web). Now their text stays, the page says the fields changed since, and a button starts the box again from
    the fields; after Apply the box follows the fields again."""
    at = playground(lang)
    open_panel(at, "definition")
    mine = '{"name": "mine", "description": "Typed by the student.", "input_schema": {"type": "object"}}'
    at.text_area(key="workbench_definition_text").input(mine).run()
    at.radio(key="workbench_form").set_value("openai").run()
    assert not at.exception
    assert at.text_area(key="workbench_definition_text").value == mine
    assert t("workbench.definition_kept", lang) in [c.value for c in at.caption]
    at.button(key="workbench_definition_refill").click().run()
    refilled = at.text_area(key="workbench_definition_text").value
    assert json.loads(refilled)["type"] == "function"  # the fields, in the form now picked
    assert t("workbench.definition_kept", lang) not in [c.value for c in at.caption]
    at.text_area(key="workbench_definition_text").input(mine.replace("mine", "applied")).run()
    at.button(key="workbench_apply_definition").click().run()
    assert at.text_input(key="tool_name").value == "applied"
    at.radio(key="workbench_form").set_value("course").run()  # applied: the box follows the fields again
    assert json.loads(at.text_area(key="workbench_definition_text").value)["name"] == "applied"
    assert "input_schema" in json.loads(at.text_area(key="workbench_definition_text").value)


#: The tools the course ships (fixtures/tools/*.json): the review's exact scores are pinned for this set.
SHIPPED_TOOLS = {"cancel_order", "do_stuff", "get_order", "refund_order", "search_orders", "update_shipping"}


@pytest.mark.parametrize("lang, tool, line", [
    ("en", "do_stuff", "**Score 59/100 · 1 error, 5 warnings, 1 suggestion**"),
    ("en", "search_orders", "**Score 94/100 · 0 errors, 1 warning, 1 suggestion**"),
    ("zh", "do_stuff", "**得分 59/100 · 1 个错误，5 个警告，1 条建议**"),
])
def test_the_review_score_line_of_the_course_tools_agrees_with_its_counts(lang, tool, line):
    """On main the review of the course's own do_stuff read "1 errors, 5 warnings, 1 suggestions". The review
    weighs a tool against the others (an instructor's added tool that reads like search_orders costs it points),
    so the exact line is pinned for the shipped tools only; with more, each count still agrees with its noun."""
    at = open_panel(playground(lang), "review")
    at.selectbox(key="playground_tool").select(tool).run()
    assert not at.exception
    shown = [x for x in texts(at.markdown) if x.startswith(line.split(" ")[0] + " ")]
    assert len(shown) == 1, shown
    if {p.stem for p in (CONTENT_ROOT / "fixtures" / "tools").glob("*.json")} == SHIPPED_TOOLS:
        assert shown[0] == line
    else:
        nouns = {"en": [("error", "errors"), ("warning", "warnings"), ("suggestion", "suggestions")],
                 "zh": [("个错误", "个错误"), ("个警告", "个警告"), ("条建议", "条建议")]}[lang]
        counts = [int(n) for n in re.findall(r"(\d+) ?[^\d/,，*·]+", shown[0].split("· ", 1)[1])]
        words = re.findall(r"\d+ ?([^\d/,，*·]+?)(?:[,，]|\*\*)", shown[0].split("· ", 1)[1])
        assert [w.strip() for w in words] == [one if n == 1 else many for n, (one, many) in zip(counts, nouns)]
