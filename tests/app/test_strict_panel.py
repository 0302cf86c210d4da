"""The strict-mode panel on the playground through AppTest: off by default, findings per
provider, the leak matrix, the OpenAI fix and its diff, in both languages."""

import json

from tests.app.conftest import fresh_app


def panel(lang="en"):
    at = fresh_app(lang).switch_page("pages/playground.py").run()
    at.toggle(key="playground_strict_open").set_value(True).run()
    assert not at.exception
    return at


def frames(at):
    return [d.value for d in at.dataframe]


def findings(at, lang="en"):
    """The strict panel's findings table (found by its column, not its position on the page)."""
    from toolcall.i18n import t
    return next(f for f in frames(at) if t("strict.panel.col_keyword", lang) in f.columns
                and t("strict.panel.col_path", lang) in f.columns)


def test_panel_is_closed_and_computes_nothing_by_default():
    at = fresh_app().switch_page("pages/playground.py").run()
    assert not at.exception
    assert at.toggle(key="playground_strict_open").value is False
    assert not at.get("radio") or all(r.key != "playground_strict_provider" for r in at.radio)


def test_anthropic_findings_and_the_amount_zero_leak():
    at = panel()
    assert at.radio(key="playground_strict_provider").value == "anthropic"
    assert "Anthropic (strict tools, JSON outputs) would refuse this schema." in [e.value for e in at.error]
    table = findings(at)
    assert list(table["Keyword"]) == ["minimum", "maxLength"]
    assert set(table["What the provider does"]) == {"refused (400)"}
    matrix = next(f for f in frames(at) if "Output" in f.columns)
    zero = matrix[matrix["Output"] == "probe: amount_cents: 0"].iloc[0]
    assert zero["Anthropic (SDK transform)"] == "accepted"
    assert zero["Original (local check)"] == "rejected (minimum)"
    texts = "\n".join(t.value for t in at.text)
    assert ("probe: amount_cents: 0: leaks under Anthropic (SDK transform); your local validation still rejects "
            "it (minimum).") in texts


def test_openai_findings_and_the_fix():
    at = panel()
    at.radio(key="playground_strict_provider").set_value("openai").run()
    assert not at.exception
    table = findings(at)
    assert list(table["JSON path"])[0] == "/properties/note" and list(table["Keyword"])[0] == "required"
    at.button(key="playground_strict_fix").click().run()
    assert not at.exception
    diff = next(c.value for c in at.code if c.value.startswith("--- original\n+++ fixed"))
    assert '+    "note"' in diff
    texts = "\n".join(t.value for t in at.text)
    assert 'The canned output "Valid call" was valid and is now rejected: it leaves out note; it must send `note: null`.' in texts
    at.button(key="playground_strict_fix_apply").click().run()
    assert not at.exception
    assert json.loads(at.text_area(key="schema_editor").value)["properties"]["note"]["type"] == ["string", "null"]


def test_gemini_and_chinese():
    at = panel("zh")
    at.radio(key="playground_strict_provider").set_value("gemini").run()
    assert not at.exception
    assert "Gemini（函数声明）会拒绝这个 schema。" in [e.value for e in at.error]
    assert list(findings(at, "zh")["关键字"]) == ["additionalProperties"]
    assert any('"parametersJsonSchema"' in c.value for c in at.code)


def test_a_schema_the_sdk_cannot_transform_is_explained_not_crashed():
    """A type list makes Anthropic's transform_schema fail: the panel says so where the transform would be."""
    at = panel()
    schema = json.loads(at.text_area(key="schema_editor").value)
    schema["properties"]["note"]["type"] = ["string", "null"]
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert not at.exception
    assert "The SDK helper fails on this schema: /properties/note/type: type [\"string\", \"null\"] is not one of " \
           "object, array, string, integer, number, boolean, null" in [t.value for t in at.text]
    matrix = next(d.value for d in at.dataframe if "Output" in d.value.columns)
    assert set(matrix["Anthropic (SDK transform)"]) == {"(no schema)"}
