"""AppTest for the walkthrough page, in both languages."""

import json

import pytest
from tests.app.conftest import fresh_app

from toolcall import REPO_ROOT
from toolcall.i18n import t

SENTENCE = {"en": "My cup from order ORD-20260917 arrived broken, refund me 19.99.",
            "zh": "订单 ORD-20260917 的杯子摔碎了，退我 19.99 元。"}


def open_page(lang):
    return fresh_app(lang, page="pages/walkthrough.py")


def shown_json(at):
    return [json.loads(c.value) for c in at.code if c.language == "json"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_first_step_shows_both_requests(lang):
    at = open_page(lang)
    assert at.title[0].value == t("walkthrough.title", lang)
    anthropic, openai = shown_json(at)
    assert anthropic["max_tokens"] == 1024 and "input_schema" in anthropic["tools"][0]
    assert openai["tools"][0]["type"] == "function"
    assert anthropic["messages"] == openai["messages"] == [{"role": "user", "content": SENTENCE[lang]}]
    assert any(t("walkthrough.explain.request_first", lang) == m.value for m in at.markdown)
    assert at.segmented_control(key="walkthrough_step").options[4] == t(
        "walkthrough.step_title", lang, n=5, title=t("walkthrough.step.response_end_turn", lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_next_reaches_the_tool_use_response(lang):
    at = open_page(lang)
    at.button(key="walkthrough_next").click().run()
    assert not at.exception
    anthropic, openai = shown_json(at)
    assert anthropic["stop_reason"] == "tool_use"
    assert openai["choices"][0]["finish_reason"] == "tool_calls"
    assert isinstance(openai["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"], str)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_failure_variant_ends_stopped_and_failed(lang):
    at = open_page(lang)
    at.session_state["walkthrough_variant"] = "failure"
    at.run()
    at.session_state["walkthrough_step"] = 9
    at.run()
    assert not at.exception
    anthropic, openai = shown_json(at)
    assert anthropic["outcome"] == openai["outcome"] == "failed"
    assert anthropic["attempts"] == 3
    assert at.error[0].value == t("walkthrough.outcome.failed", lang, retries=2)
    assert at.button(key="walkthrough_next").disabled


def test_changing_variant_resets_the_step():
    """Picking another variant starts it from step 1, whatever step was shown before."""
    at = open_page("en")
    at.session_state["walkthrough_step"] = 4
    at.run()
    assert at.success[0].value == t("walkthrough.outcome.succeeded", "en", retries=0)
    at.segmented_control(key="walkthrough_variant").set_value("correction").run()
    assert not at.exception
    assert at.session_state["walkthrough_step"] == 0
    assert len(at.segmented_control(key="walkthrough_step").options) == 8


def test_deselecting_the_step_shows_step_one():
    at = open_page("en")
    at.segmented_control(key="walkthrough_step").set_value(None).run()
    assert not at.exception
    assert shown_json(at)[0]["messages"][0]["role"] == "user"


def test_parallel_variant_step_four_has_both_results_in_one_user_message():
    at = open_page("en")
    at.session_state["walkthrough_variant"] = "parallel"
    at.session_state["walkthrough_step"] = 3
    at.run()
    anthropic, openai = shown_json(at)
    last = anthropic["messages"][-1]
    assert last["role"] == "user" and [b["type"] for b in last["content"]] == ["tool_result", "tool_result"]
    assert [m["role"] for m in openai["messages"][-2:]] == ["tool", "tool"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("form, key", [("responses", "input"), ("gemini", "contents")])
def test_the_same_step_in_another_form(lang, form, key):
    """Issue 21: the first request also shown as Responses (input items) or Gemini (contents)."""
    at = open_page(lang)
    at.segmented_control(key="walkthrough_other_form").set_value(form).run()
    assert not at.exception
    assert t(f"pairing.format.{form}", lang) in [s.value for s in at.subheader]
    assert key in shown_json(at)[-1]


def test_zh_request_shows_the_chinese_description_beside_the_english_wire_json():
    """Issue 14: the request JSON carries the English wire description; the Chinese is explained beside it."""
    from toolcall.fixtures import load_tool

    at = fresh_app("zh", page="pages/walkthrough.py")
    tool = load_tool(REPO_ROOT / "fixtures" / "tools" / "refund_order.json")
    codes = [c.value for c in at.code if c.language == "json" and '"tools"' in c.value]
    assert codes and all(tool.description in json.dumps(json.loads(c)["tools"]) or tool.description in c
                         for c in codes)
    assert not any(tool.for_lang("zh").description in c for c in codes)
    captions = [c.value for c in at.caption]
    assert t("walkthrough.tools_sent_in_english", "zh") in captions
    assert t("common.labelled", "zh", label="`refund_order`", value=tool.for_lang("zh").description) in captions


def _wire_and_own(at):
    """JSON shown on the page outside the "app's own view" expanders, and inside them."""
    own = [json.loads(c.value) for e in at.expander for c in e.code if c.language == "json"]
    return [v for v in shown_json(at) if v not in own], own


def _keys(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    return {k for v in value for k in _keys(v)} if isinstance(value, list) else set()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_steps_where_nothing_is_sent_show_the_wire_and_label_the_apps_own_view(lang):
    """Derived from every variant: the validation step shows the results as they go out in the next
    request (nothing at all when the retry cap stops the loop next) and its verdict / backend object only
    under the own-view label; the stopped step's record likewise. No internal key reaches a wire column."""
    from toolcall.fixtures import load_orders
    from toolcall.transcripts import (STOPPED, VALIDATION, build_side_by_side, load_tools, load_walkthrough,
                                      result_messages)

    fixture = load_walkthrough()
    tools, book = load_tools(fixture.tools), load_orders()
    seen = set()
    for variant in fixture.variants:
        pair = build_side_by_side(fixture, variant.id, tools, book, lang)
        for index, (a_step, o_step) in enumerate(pair.steps):
            if a_step.kind not in (VALIDATION, STOPPED):
                continue
            at = open_page(lang)
            at.session_state["walkthrough_variant"] = variant.id
            at.run()
            at.session_state["walkthrough_step"] = index
            at.run()
            assert not at.exception
            wire, own = _wire_and_own(at)
            assert own == [a_step.payload, o_step.payload]
            assert [e.label for e in at.expander].count(t("walkthrough_wire.own_view", lang)) == 2
            stops_next = index + 1 < len(pair.steps) and pair.steps[index + 1][0].kind == STOPPED
            if a_step.kind == VALIDATION and not stops_next:
                assert wire == [result_messages(fmt, [c["tool_result"] for c in step.payload["calls"]])
                                for fmt, step in (("anthropic", a_step), ("openai", o_step))]
                seen.add("sent")
            else:
                assert wire == []
                seen.add(a_step.kind if a_step.kind == STOPPED else "never_sent")
            assert not _keys(wire) & {"verdict", "backend", "errors", "outcome", "trace"}
    assert seen == {"sent", "never_sent", STOPPED}
