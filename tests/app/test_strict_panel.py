"""The strict-mode panel on the playground through AppTest: off by default, findings per
provider, the leak matrix, the OpenAI fix and its diff, in both languages; the note on refusals the
SDK turns into description text and the key-order-blind diff (issue 14)."""

import json
import re

import pytest

from tests.app.conftest import fresh_app
from tests.app.markdown_tables import tables
from toolcall.i18n import t


def panel(lang="en"):
    at = fresh_app(lang).switch_page("pages/playground.py").run()
    at.toggle(key="playground_strict_open").set_value(True).run()
    assert not at.exception
    return at


def findings(at, lang="en"):
    """The strict panel's findings table (found by its columns, not its position on the page): a list of rows."""
    return next(rows for rows in tables(at) if t("strict.panel.col_message", lang) in rows[0]
                and t("strict.panel.col_path", lang) in rows[0])


def matrix(at, lang="en"):
    """The leak matrix: a dict output label -> row."""
    rows = next(rows for rows in tables(at) if t("strict.panel.col_output", lang) in rows[0])
    return {row[t("strict.panel.col_output", lang)]: row for row in rows}


def column(rows, name):
    return [row[name] for row in rows]


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
    assert column(table, "Keyword") == ["minimum", "maxLength"]
    assert set(column(table, "What the provider does")) == {"refused (400)"}
    assert "Docs vs SDK" not in table[0]  # no finding has a docs/SDK note: no column of empty cells
    others = next(rows for rows in tables(at) if "Docs vs SDK" in rows[0])  # the pattern's note has its own table
    assert column(others, "Keyword") == ["pattern"]
    zero = matrix(at)["probe: amount_cents: 0"]
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
    assert table[0]["JSON path"] == "/properties/note" and table[0]["Keyword"] == "required"
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
    assert column(findings(at, "zh"), "关键字") == ["additionalProperties"]
    assert not any('"parametersJsonSchema"' in c.value for c in at.code)  # written out in full only when asked
    at.toggle(key="playground_strict_full").set_value(True).run()
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
    assert {row["Anthropic (SDK transform)"] for row in matrix(at).values()} == {"(no schema)"}


def _note(lang):
    # names listed as each language lists them (newcomer session 7: "（maxLength, minimum）" in Chinese)
    keywords = {"en": "maxLength, minimum", "zh": "maxLength、minimum"}[lang]
    return t("strict.panel.described_note", lang, keywords=keywords, sdk="Anthropic transform_schema")


def test_the_reference_schema_says_why_its_refusal_is_expected():
    """Issue 14: on the untouched refund_order the refusal comes only from minimum and maxLength, which
    transform_schema moves into the description: a note says so, in both languages; not under OpenAI (its
    refusal is about `required`), and not once the schema has a refusal of another kind."""
    for lang in ("en", "zh"):
        at = panel(lang)
        infos = [i.value for i in at.info]
        assert _note(lang) in infos, infos
        at.radio(key="playground_strict_provider").set_value("openai").run()
        assert not any(v.startswith(_note(lang)[:20]) for v in (i.value for i in at.info))
    assert _note("en").startswith("Expected for the course's schema: it uses validation keywords this strict mode "
                                  "does not support (maxLength, minimum), so sent as they are, the request is refused. "
                                  "Anthropic transform_schema moves them into the description")
    at = panel()
    schema = json.loads(at.text_area(key="schema_editor").value)
    schema["additionalProperties"] = True  # refused by the docs; the SDK forces false, it does not describe it
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert not at.exception
    assert "Anthropic (strict tools, JSON outputs) would refuse this schema." in [e.value for e in at.error]
    assert _note("en") not in [i.value for i in at.info]


def _anthropic_diff(at):
    return next(c.value for c in at.code if c.value.startswith("--- original\n+++ anthropic"))


def test_the_diff_ignores_key_order_and_shows_the_moves():
    """Issue 14: the diff showed additionalProperties removed and re-added only because transform_schema
    rebuilds each object in another key order. With the keys of the editor's schema reversed everywhere,
    the diff is the same, has no additionalProperties line, and still shows minimum and maxLength leaving."""
    at = panel()
    shown = _anthropic_diff(at)
    lines = shown.splitlines()
    assert "additionalProperties" not in shown
    assert '-      "minimum": 1,' in lines and '-      "maxLength": 200,' in lines
    assert any(line.startswith("+") and "{minimum: 1}" in line for line in lines)

    def reverse(node):
        if isinstance(node, dict):
            return {k: reverse(node[k]) for k in reversed(list(node))}
        return [reverse(v) for v in node] if isinstance(node, list) else node

    schema = json.loads(at.text_area(key="schema_editor").value)
    at.text_area(key="schema_editor").input(json.dumps(reverse(schema), indent=2)).run()
    assert not at.exception
    assert _anthropic_diff(at) == shown


def test_sources_are_links_with_short_text():
    """The Source column showed whole addresses that broke mid-word in its narrow cells; every finding of
    every provider now cites a link whose text is the host and the page's last part."""
    at = panel()
    sources = []
    for provider in [o for o in at.radio(key="playground_strict_provider").options]:
        at.radio(key="playground_strict_provider").set_value(provider).run()
        sources += column(findings(at), "Source")
    assert len(sources) >= 4
    assert [s for s in sources if not re.fullmatch(r"\[[^\]]{3,48}\]\(https://[^()\s|]+\)", s)] == []
    assert "[platform.claude.com › json-schema-limitations](" in sources[0]


def test_the_harness_lab_sources_are_links():
    at = fresh_app("zh").switch_page("pages/harness_lab.py").run()
    cited = [c.value for c in at.caption if "](https://" in c.value]
    assert cited and all("https://" not in re.sub(r"\]\(https://[^)]+\)", "]", c) for c in cited)


def test_a_schema_of_many_constrained_properties_gets_bounded_tables_and_is_computed_once(monkeypatch):
    """150 properties with a maxLength each: the OpenAI findings table lists SHOWN_ROWS rows and says how many
    there are (7 224 findings were a 3.6 MB table per rerun), the leak matrix probes MAX_PROBES constraints and
    says how many it left (400 took 82 s per rerun), and picking providers back and forth computes the report,
    the matrix and the fix once (they were computed on every rerun)."""
    import ui.strict_panel as panel_module
    from toolcall.strict import MAX_PROBES, report

    built = []
    real = panel_module.leak_matrix
    monkeypatch.setattr(panel_module, "leak_matrix", lambda *a, **k: built.append(1) or real(*a, **k))
    panel_module._computed.clear()
    n = 150
    schema = {"type": "object", "properties": {f"a{i}": {"type": "string", "maxLength": 5} for i in range(n)}}
    at = panel("zh")
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    at.radio(key="playground_strict_provider").set_value("openai").run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(findings(at, "zh")) == panel_module.SHOWN_ROWS
    captions = [c.value for c in at.caption]
    total = len(report(schema, "openai").findings)
    assert total > panel_module.SHOWN_ROWS
    assert t("strict.panel.rows_shown", "zh", shown=panel_module.SHOWN_ROWS, total=f"{total:,}") in captions
    assert t("strict.panel.unprobed", "zh", count=n - MAX_PROBES, limit=MAX_PROBES) in captions
    before = len(built)  # one matrix for the reference schema, one for this one
    for provider in ("anthropic", "openai", "gemini", "openai"):
        at.radio(key="playground_strict_provider").set_value(provider).run()
        assert not at.exception
    assert before == 2 and len(built) == before


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_schema_past_the_panel_caps_is_not_checked_and_the_panel_says_why(lang, monkeypatch):
    """issue 13: 2 800 constrained properties cost 9.7 s of server CPU per edit with the panel open, and every
    session on that process waited. Past MAX_PANEL_SUBSCHEMAS the panel computes nothing and says why."""
    import toolcall.strict as strict
    import ui.strict_panel as panel_module

    at = panel(lang)
    computed = []
    monkeypatch.setattr(panel_module, "report", lambda *a, **k: computed.append(a) or strict.report(*a, **k))
    schema = {"type": "object", "properties": {f"p{i}": {"type": "integer", "minimum": i}
                                               for i in range(strict.MAX_PANEL_SUBSCHEMAS)}}
    at.text_area(key="schema_editor").input(json.dumps(schema)).run()
    assert not at.exception
    assert t("strict.panel.too_large", lang, nodes=200, chars="16,000") in [i.value for i in at.info]
    assert computed == []
    assert not [rows for rows in tables(at) if t("strict.panel.col_output", lang) in rows[0]]  # no leak matrix
