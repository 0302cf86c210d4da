"""toolcall/lint.py: every rule fires on a triggering definition and stays quiet on a clean one;
the shipped tools get the findings the course's reading gives them; the CLI's JSON and exit codes."""

import json
import subprocess
import sys

import pytest

from toolcall import FIXTURES_DIR
from toolcall.fixtures import Tool, load_tool
from toolcall.lint import CHECKLIST, RULES, lint_set, lint_tool, score
from toolcall.i18n import catalogue, t

CLEAN_DESCRIPTION = ("Look up one order by its number. Use it when the customer asks about an order's status. "
                     "Do not use it to refund: use refund_order instead. Returns status and amount paid in cents. "
                     "Read-only: safe to retry.")


def tool(name="get_order", description=CLEAN_DESCRIPTION, **props):
    props = props or {"order_id": {"type": "string", "description": "Order number, ORD- and 8 digits."}}
    return Tool(name, description, {"type": "object", "properties": props})


def rules(t_or_list):
    tools = t_or_list if isinstance(t_or_list, list) else [t_or_list]
    return {(f.rule, f.path) for f in lint_set(tools)}


WRITE_OK = ("Cancel an order that has not shipped. Use it when the customer asks to cancel. Do not use it for a "
            "delivered order: use refund_order instead. Returns the cancelled order. Irreversible: needs "
            "approval by a person; idempotent with idempotency_key.")
WRITE_PROPS = {"order_id": {"type": "string", "description": "Order number."},
               "idempotency_key": {"type": "string", "description": "Same key, same effect."},
               "dry_run": {"type": "boolean", "description": "Preview only."}}
LIST_OK = ("Search the customer's orders. Use it when the customer does not know the number. Do not use it "
           "for one known order: use get_order instead. Returns a page of orders; results are paginated with "
           "limit and cursor. Read-only.")
LIST_PROPS = {"text": {"type": "string", "description": "Words to find."},
              "limit": {"type": "integer", "description": "Page size."},
              "cursor": {"type": "string", "description": "From the last page."}}

# (rule, path, a definition that triggers it, a clean neighbour)
CASES = [
    ("name_verb_noun", "$.name", tool("orderTool"), tool("get_order")),
    ("name_vague_verb", "$.name", tool("handle_order"), tool("get_order")),
    ("desc_missing", "$.description", tool(description=""), tool()),
    ("desc_purpose", "$.description", tool(description="Use it when the customer asks. " + CLEAN_DESCRIPTION),
     tool()),
    ("desc_when_to_use", "$.description",
     tool(description=CLEAN_DESCRIPTION.replace("Use it when the customer asks about an order's status. ", "")),
     tool()),
    ("desc_when_not_to_use", "$.description",
     tool(description=CLEAN_DESCRIPTION.replace("Do not use it to refund: use refund_order instead. ", "")), tool()),
    ("desc_alternative", "$.description",
     tool(description=CLEAN_DESCRIPTION.replace("Do not use it to refund: use refund_order instead.",
                                                "Do not use it to refund.")), tool()),
    ("desc_returns", "$.description",
     tool(description=CLEAN_DESCRIPTION.replace("Returns status and amount paid in cents. ", "")), tool()),
    ("desc_side_effects", "$.description", tool("cancel_order", WRITE_OK.replace("Irreversible: needs ", "Needs ")
                                                .replace("; idempotent with idempotency_key", ""), **WRITE_PROPS),
     tool("cancel_order", WRITE_OK, **WRITE_PROPS)),
    ("param_untyped", "$.input_schema.properties.order_id", tool(order_id={"description": "Order number."}), tool()),
    ("param_undescribed", "$.input_schema.properties.order_id", tool(order_id={"type": "string"}), tool()),
    ("param_vague_name", "$.input_schema.properties.data", tool(data={"type": "string", "description": "x"}), tool()),
    ("param_unit", "$.input_schema.properties.amount", tool(amount={"type": "integer", "description": "How much."}),
     tool(amount_cents={"type": "integer", "description": "How much."})),
    ("param_timezone", "$.input_schema.properties.paid_after",
     tool(paid_after={"type": "string", "description": "A date."}),
     tool(paid_after={"type": "string", "description": "ISO 8601 with offset, e.g. 2026-01-01T00:00:00+08:00."})),
    ("param_too_many", "$.input_schema.properties",
     tool(**{f"p{i}": {"type": "string", "description": "x"} for i in range(6)}),
     tool(**{f"p{i}": {"type": "string", "description": "x"} for i in range(5)})),
    ("param_nested", "$.input_schema.properties.address",
     tool(address={"type": "object", "description": "Where."}),
     tool(city={"type": "string", "description": "Where."})),
    ("param_free_string", "$.input_schema.properties.status",
     tool(status={"type": "string", "description": "Status."}),
     tool(status={"type": "string", "enum": ["shipped", "delivered"], "description": "Status."})),
    ("param_boolean_mode", "$.input_schema.properties",
     tool(full={"type": "boolean", "description": "x"}, partial={"type": "boolean", "description": "y"}),
     tool(scope={"type": "string", "enum": ["full", "partial"], "description": "x"})),
    ("param_oneof_mode", "$.input_schema.properties.target",
     tool(target={"oneOf": [{"type": "string"}, {"type": "integer"}], "description": "x"}),
     tool(target={"type": "string", "description": "x"})),
    ("param_misspelt_keyword", "$.input_schema.properties.order_id",
     tool(order_id={"type": "string", "patern": "^ORD-[0-9]{8}$", "description": "Order number."}),
     tool(order_id={"type": "string", "pattern": "^ORD-[0-9]{8}$", "description": "Order number."})),
    ("param_unknown_keyword", "$.input_schema.properties.order_id",
     tool(order_id={"type": "string", "validate": "strictly", "description": "Order number."}),
     tool(order_id={"type": "string", "x-validate": "an extension", "description": "Order number."})),
    ("param_identity", "$.input_schema.properties.user_id",
     tool(user_id={"type": "string", "description": "Who."}), tool()),
    ("write_idempotency_key", "$.input_schema.properties",
     tool("cancel_order", WRITE_OK, **{k: v for k, v in WRITE_PROPS.items() if k != "idempotency_key"}),
     tool("cancel_order", WRITE_OK, **WRITE_PROPS)),
    ("write_dry_run", "$.input_schema.properties",
     tool("cancel_order", WRITE_OK, **{k: v for k, v in WRITE_PROPS.items() if k != "dry_run"}),
     tool("cancel_order", WRITE_OK, **WRITE_PROPS)),
    ("irreversible_approval", "$.description",
     tool("delete_order", WRITE_OK.replace("needs approval by a person", "gone for good"), **WRITE_PROPS),
     tool("delete_order", WRITE_OK, **WRITE_PROPS)),
    ("list_pagination", "$.input_schema.properties",
     tool("search_orders", LIST_OK, text=LIST_PROPS["text"]), tool("search_orders", LIST_OK, **LIST_PROPS)),
]


@pytest.mark.parametrize("rule, path, bad, good", CASES, ids=[c[0] for c in CASES])
def test_rule_fires_on_bad_and_not_on_good(rule, path, bad, good):
    assert (rule, path) in rules(bad)
    assert not [r for r, _ in rules(good) if r == rule]


def test_every_tool_rule_has_a_case_and_every_rule_a_reason_in_both_languages():
    set_rules = {"set_duplicate_name", "set_mixed_prefix", "set_too_many", "set_overlap"}
    assert {c[0] for c in CASES} | set_rules == set(RULES)
    zh, en = catalogue("zh"), catalogue("en")
    for rule in RULES.values():
        assert f"workbench.lint.{rule.id}" in zh and f"workbench.lint.{rule.id}" in en
        assert f"workbench.course.{rule.section}" in zh and f"workbench.course.{rule.section}" in en
    assert all(f"workbench.check.{c}" in zh for c in CHECKLIST)


def test_set_rules():
    a, b = tool("get_order"), tool("get_order")
    assert ("set_duplicate_name", "$[1].name") in rules([a, b])
    assert not [r for r, _ in rules([a, tool("cancel_order", WRITE_OK, **WRITE_PROPS)]) if r.startswith("set_")]
    assert ("set_mixed_prefix", "$[1].name") in rules([tool("get_order"), tool("orders_search", LIST_OK, **LIST_PROPS)])
    many = [tool(f"get_thing{chr(97 + i)}", f"Fetch thing number {i} alone. " + "Word " * i) for i in range(21)]
    assert ("set_too_many", "$") in rules(many)
    assert not [r for r, _ in rules(many[:20]) if r == "set_too_many"]
    assert ("set_overlap", "$[1].description") in rules([tool("get_order"), tool("find_order")])
    assert ("set_overlap", "$[1].description") not in rules([tool("get_order"),
                                                             tool("cancel_order", WRITE_OK, **WRITE_PROPS)])


def test_do_stuff_gets_every_problem_the_course_names():
    """The course's list: 处理 = query, change or refund? data = JSON, id or text? when (not) to use? failure?"""
    found = [(f.rule, f.path) for f in lint_tool(load_tool(FIXTURES_DIR / "tools" / "do_stuff.json"))]
    assert found == [
        ("name_vague_verb", "$.name"),
        ("desc_when_to_use", "$.description"),
        ("desc_when_not_to_use", "$.description"),
        ("desc_returns", "$.description"),
        ("desc_side_effects", "$.description"),
        ("param_undescribed", "$.input_schema.properties.data"),
        ("param_vague_name", "$.input_schema.properties.data"),
    ]
    assert score(lint_tool(load_tool(FIXTURES_DIR / "tools" / "do_stuff.json"))) == 59


def test_refund_order_gets_only_what_a_reviewer_raises():
    """Name, description points and parameters pass; what is left is the side-effect discipline of a write."""
    found = [f.rule for f in lint_tool(load_tool())]
    assert found == ["desc_returns", "desc_side_effects", "write_idempotency_key", "write_dry_run",
                     "irreversible_approval"]
    assert not [f for f in lint_tool(load_tool()) if f.severity == "error"]


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "toolcall", "lint", *args], capture_output=True, text=True,
                          input=stdin, timeout=60)


def test_cli_lint_prints_json_and_exits_1_on_errors(tmp_path):
    bad = _cli(str(FIXTURES_DIR / "tools" / "do_stuff.json"))
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["tools"] == ["do_stuff"] and report["counts"] == {"error": 1, "warning": 5, "info": 1}
    assert report["findings"][0] == {"rule": "name_vague_verb", "severity": "error", "tool": "do_stuff",
                                     "path": "$.name", "source": "Tool design › 1. Name",
                                     "message": t("workbench.lint.name_vague_verb", "en", name="do_stuff", verb="do")}
    ok = _cli(str(FIXTURES_DIR / "tools" / "refund_order.json"))
    assert ok.returncode == 0 and json.loads(ok.stdout)["counts"]["error"] == 0
    both = [load_tool().as_openai(), load_tool(FIXTURES_DIR / "tools" / "get_order.json").as_anthropic()]
    listed = _cli("-", stdin=json.dumps(both))
    assert listed.returncode == 0 and json.loads(listed.stdout)["tools"] == ["refund_order", "get_order"]
    refused = _cli("-", stdin='[{"name": "get order", "input_schema": {"type": "object"}}]')
    assert refused.returncode == 2
    assert refused.stderr.startswith("-: $[0].name: The tool name contains ' '")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_list_is_refused_not_scored(lang, tmp_path, capsys):
    """Issue 14: ``lint`` on ``[]`` printed score 100 for zero tools."""
    from toolcall.cli import main
    from toolcall.i18n import t
    from toolcall.tooldef import parse_tool_list

    tools, problem = parse_tool_list(" [ ] ", lang)
    assert tools == [] and problem.code == "DEFINITION_LIST_EMPTY"
    assert problem.message == t("workbench.err.DEFINITION_LIST_EMPTY", lang)
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    assert main(["lint", str(empty), "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == f"{empty}: $: {problem.message}"


def test_a_misspelt_keyword_is_named_with_the_one_meant_in_both_languages():
    """"patern" in the playground's editor: the schema still read as valid and the design review said nothing,
    so the student saw only the leak (newcomer pass). The review names the keyword, what it does and the one meant."""
    bad = Tool("get_order", CLEAN_DESCRIPTION, {"type": "object", "additionalProperty": False, "properties": {
        "order_id": {"type": "string", "patern": "^ORD-[0-9]{8}$", "description": "Order number."}}})
    found = [(f.path, f.reason("en"), f.reason("zh")) for f in lint_tool(bad) if f.rule == "param_misspelt_keyword"]
    assert found == [
        ("$.input_schema", 'Parameter "input_schema": "additionalProperty" is not a JSON Schema keyword, so it checks '
         'nothing (a validator ignores it): did you mean "additionalProperties"?',
         "参数“input_schema”：“additionalProperty”不是 JSON Schema 的关键字，校验时会被直接忽略，什么也不检查。"
         "是不是想写“additionalProperties”？"),
        ("$.input_schema.properties.order_id", 'Parameter "order_id": "patern" is not a JSON Schema keyword, so it '
         'checks nothing (a validator ignores it): did you mean "pattern"?',
         "参数“order_id”：“patern”不是 JSON Schema 的关键字，校验时会被直接忽略，什么也不检查。是不是想写“pattern”？")]


@pytest.mark.parametrize("path", sorted((FIXTURES_DIR / "tools").glob("*.json")), ids=lambda p: p.name)
def test_a_shipped_tool_uses_only_json_schema_keywords(path):
    """Every keyword of every fixture tool's input_schema and properties is one JSON Schema defines (or an x- extension)."""
    assert [(f.path, f.reason("en")) for f in lint_tool(load_tool(path)) if f.rule.endswith("_keyword")] == []


def test_made_up_keywords_are_named_up_to_the_cap():
    """12 000 made-up keys took 2 s of near-match search on every rerun: a tool gets at most
    MAX_KEYWORD_FINDINGS of them, the first ones in the order written."""
    from toolcall.lint import MAX_KEYWORD_FINDINGS

    spec = {"type": "string", "description": "Order number.", **{f"patern{i}": 1 for i in range(12_000)}}
    found = [f for f in lint_tool(tool(order_id=spec)) if f.rule.endswith("_keyword")]
    assert [dict(f.params)["keyword"] for f in found] == [f"patern{i}" for i in range(MAX_KEYWORD_FINDINGS)]


@pytest.mark.parametrize("lang, reason", [
    ("en", 'The name refund_order says "refund", an action that cannot be undone, and the description does not say '
           "it needs approval."),
    ("zh", "工具名 refund_order 里的“refund”是无法撤销的操作，描述里却没写需要审批。"),
])
def test_the_approval_warning_says_the_verb_comes_from_the_name(lang, reason):
    """The course's refund_order in a Chinese session: the review read "“refund”无法撤销", an English word out of
    nowhere beside a Chinese description (newcomer pass newc19); it now names the tool name the verb is read from."""
    found = [f for f in lint_tool(load_tool(FIXTURES_DIR / "tools" / "refund_order.json"))
             if f.rule == "irreversible_approval"]
    assert [f.reason(lang) for f in found] == [reason]
