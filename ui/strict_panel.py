"""The playground's strict-mode panel: findings per provider, the SDK transforms beside the
original, the leak matrix and the OpenAI fix, for the schema in the editor.

Everything is computed only while the panel's toggle is on, so the edit loop stays as fast
as before. User-derived text (property names, values, labels) goes into Markdown tables escaped
cell by cell (``toolcall.markdown.table``), ``st.code`` or ``st.text``. The panel is drawn the page's
full width below the editor (pages/playground.py); its tables and code blocks wrap instead of cutting
text off (issue 14). The core is ``toolcall.strict``.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

import toolcall.strict
from toolcall.fixtures import load_outputs
from toolcall.i18n import name_list, t
from toolcall.markdown import link, table
from toolcall.strict import (COLUMNS, MAX_PANEL_CHARS, MAX_PANEL_SUBSCHEMAS, MAX_PROBES, described_refusals,
                             finding_message, leak_matrix, openai_fix, panel_too_large, report, schema_diff)
from toolcall.strict.transforms import MAX_DIFF_LINES
from toolcall.strict.rules import PROVIDERS
from toolcall.lint import shown_name
from toolcall.safe_validator import SizedCache
from toolcall.text import PRETTY, bounded_json, editable_json, escaped_tail
from toolcall.validation import MAX_LISTED, MAX_SCHEMA_CHARS
from ui.common import PERSIST, show_code, show_lines, show_text
from ui.widgets import translated

PREFIX = "playground_strict"
# Markdown table cells wrap at words; the first and last columns (a JSON pointer, a source link; the leak
# matrix's output and last column) may break anywhere, except a JSON pointer in the findings: it is never cut
# inside a name (it read "/properties/amount_cents/minimu" + "m" before session 7). A table still wider than its
# box (a deep pointer, a phone) scrolls sideways inside its own box instead of widening the page (issue 14).
_P = ".st-key-playground_strict_panel"
_WRAP_CSS = (f"<style>{_P} table {{ width: 100%; }} {_P} td, {_P} th {{ overflow-wrap: break-word; min-width: 5em; }} "
             f"{_P} td:first-child, {_P} td:last-child {{ overflow-wrap: anywhere; min-width: 7em; }} "
             f"{_P} .st-key-playground_strict_findings td:first-child {{ overflow-wrap: normal; }} "
             f"{_P} .st-key-playground_strict_findings td:last-child {{ min-width: 10.5em; }} "
             f"{_P} [data-testid=stMarkdownContainer]:has(table) {{ overflow-x: auto; }}</style>")


#: What the panel computes, by its inputs (the schema as JSON first): a rerun that leaves the schema as it was (a
#: provider picked, the fix button, a click anywhere on the page) computes nothing again. A schema of 1 600
#: constrained properties cost 18 s of CPU per leak matrix. Bounded by entries and by bytes.
_computed = SizedCache(max_entries=128, max_bytes=16 * 1024 ** 2)


def _memo(key: tuple, build):
    """``build()``, once per ``key`` while it stays in _computed (charged the bytes key and result hold)."""
    hit = _computed.get(key)
    if hit is None:
        hit = (build(),)
        _computed.put(key, hit)
    return hit[0]


@st.cache_data(show_spinner=False)
def _outputs(_marker: str = "refund_order"):
    return load_outputs().outputs


#: Rows a findings or disagreements table lists: a schema of 7 000 properties had 7 224 OpenAI findings, a 3.6 MB
#: table sent on every rerun of the open panel; at 100 rows of long paths the table alone was 39 KB per rerun. 40, as
#: the design review lists per severity (ui.tool_editor.MAX_SHOWN_FINDINGS).
SHOWN_ROWS = 40


#: Characters of a JSON pointer a table shows, its end kept after "…" (toolcall.text.escaped_tail): in objects nested 25
#: deep with long names each finding's path held every name above it, a table of about 50 000 characters on every rerun
#: when the names were zero-width spaces drawn as 6-character escapes (break-it pass brk14web).
SHOWN_PATH_CHARS = 120


def _rows_left(total: int, lang: str) -> None:
    """The caption under a table cut at SHOWN_ROWS rows, saying how many rows it has."""
    if total > SHOWN_ROWS:
        st.caption(t("strict.panel.rows_shown", lang, shown=SHOWN_ROWS, total=f"{total:,}"))


def _show_js(value: Any, lang: str) -> None:
    """A schema or declaration as JSON: indented while that stays within MAX_SCHEMA_CHARS characters (a schema
    nested 58 deep, 199 000 characters, was a 12.6 MB block on every edit), else on one line (a caption says so)."""
    text, how = bounded_json(value, MAX_SCHEMA_CHARS)
    show_code(text, language="json", wrap_lines=True)
    if how != PRETTY:
        st.caption(t(f"common.json_{how}", lang, limit=f"{MAX_SCHEMA_CHARS:,}"))


#: Session-state key: set by _apply_fixed when the editor changed between drawing the fix and the click.
_FIX_STALE = f"{PREFIX}_fix_stale"


def _apply_fixed(source: str, text: str) -> None:
    """Put the fixed schema ``text`` in the editor, unless the editor no longer holds ``source``, the text the
    fix was drawn from: an edit sent with the click (typed, then the button pressed without leaving the box
    first) would be overwritten by the fix of the schema before it, losing the edit without a word. Then
    nothing is applied and the next run says so above the fix of the edited schema."""
    state = st.session_state
    if state.get("schema_editor") != source:
        state[_FIX_STALE] = True
        return
    state["schema_editor"] = text


def _findings(schema: dict[str, Any], provider: str, tool_name: str, lang: str) -> None:
    name = t(f"strict.panel.provider_{provider}", lang)
    text = json.dumps(schema, ensure_ascii=False)
    rep = _memo(("report", text, provider, tool_name), lambda: report(schema, provider, tool_name))
    if rep.refused:
        st.error(t("strict.panel.refused", lang, provider=name), icon="🚫")
    else:
        st.success(t("strict.panel.accepted", lang, provider=name), icon="✅")
    if provider == "gemini" and rep.refused:
        st.info(t("strict.panel.gemini_note", lang))
    described = described_refusals(rep)
    if described:
        st.info(t("strict.panel.described_note", lang, keywords=name_list(described, lang),
                  sdk=t(f"strict.panel.{provider}_sdk", lang)), icon="ℹ️")
    st.markdown("**" + t("strict.panel.findings_title", lang) + "**")
    notes = {(d.path, d.keyword): t(f"strict.sdk.{d.note}", lang) for d in rep.disagreements}
    if rep.findings:
        listed = rep.findings[:SHOWN_ROWS]
        noted = any((f.path, f.keyword) in notes for f in listed)  # else the column would be empty
        st.markdown(table([{t("strict.panel.col_path", lang): escaped_tail(f.path or "/", SHOWN_PATH_CHARS),
                            t("strict.panel.col_keyword", lang): f.keyword,
                            t("strict.panel.col_effect", lang): t(f"strict.effect.{f.effect}", lang),
                            t("strict.panel.col_message", lang): finding_message(f, lang).replace("`", ""),
                            **({t("strict.panel.col_sdk", lang): notes.get((f.path, f.keyword), "")} if noted else {}),
                            t("strict.panel.col_source", lang): link(f.source)} for f in listed],
                          markdown=(t("strict.panel.col_source", lang),)))
        _rows_left(len(rep.findings), lang)
    else:
        st.caption(t("strict.panel.no_findings", lang))
    found = {(f.path, f.keyword) for f in rep.findings}  # a set: 7 000 findings by 7 000 disagreements took 5.5 s
    others = [d for d in rep.disagreements if (d.path, d.keyword) not in found]
    if others:
        st.markdown("**" + t("strict.panel.disagreements_title", lang) + "**")
        st.markdown(table([{t("strict.panel.col_path", lang): escaped_tail(d.path, SHOWN_PATH_CHARS),
                            t("strict.panel.col_keyword", lang): d.keyword,
                            t("strict.panel.col_sdk", lang): t(f"strict.sdk.{d.note}", lang)}
                           for d in others[:SHOWN_ROWS]]))
        _rows_left(len(others), lang)
    st.markdown("**" + t("strict.panel.transforms_title", lang) + "**")
    if rep.transform_too_large:
        show_text(t("strict.panel.transform_too_large", lang, limit=f"{rep.transform_too_large:,}"))
    elif rep.transform_error:
        show_text(t("strict.panel.transform_failed", lang, error=rep.transform_error))
    if rep.transformed is not None and provider != "gemini":
        st.caption(t("strict.panel.diff_caption", lang))
        _show_diff(schema_diff(schema, rep.transformed, ("original", provider)), lang)
        moved = sorted({m.keyword for m in rep.moved if m.into == "description"})
        if moved:
            show_text(t("strict.panel.moved_caption", lang, keywords=name_list(moved, lang)))
    # Both schemas written out in full only when asked: drawn on every rerun they sent ~8x the typed schema
    # (bench/README.md, section S); an expander would send them all the same.
    if not st.toggle(t("strict.panel.show_full", lang), key=f"{PREFIX}_full", **PERSIST):
        return
    left, right = st.columns(2)
    with left:
        st.caption(t("strict.panel.original", lang))
        _show_js(schema, lang)
    with right:
        st.caption(t(f"strict.panel.{provider}_sdk", lang) if provider != "gemini" else name)
        if not rep.transform_too_large and not rep.transform_error:
            _show_js(rep.transformed if provider != "gemini" else rep.declaration, lang)


def _matrix(schema: dict[str, Any], outputs, extra=()):
    """leak_matrix, once per schema, outputs and free-box text (_memo). A matrix of the course's rows only, with
    cells left unjudged, is judged once more before it is kept: it is shared by every session on that schema, and a
    pause that is not the schema's doing must not leave it "not checked" for the class (as
    judge.evaluate_canned_cached does). With the free box's text the matrix is this student's own: not again."""
    text = json.dumps(schema, ensure_ascii=False)
    shown = tuple((o.id, o.label.get("en", o.id), o.raw, o.expected) for o in outputs)

    def build():
        matrix = leak_matrix(schema, outputs, list(extra))
        return leak_matrix(schema, outputs, list(extra)) if matrix.not_checked and not extra else matrix

    return _memo(("leaks", text, shown, tuple(extra)), build)


def _cell(verdict, lang: str) -> str:
    if verdict is None:
        return t("strict.panel.cell_none", lang)
    if not verdict.checked:
        return t("strict.panel.cell_not_checked", lang)
    if verdict.accepted:
        return t("strict.panel.cell_accepted", lang)
    return t("strict.panel.cell_rejected", lang, keywords=name_list(verdict.keywords, lang) or verdict.parse)


def _leaks(schema: dict[str, Any], outputs, lang: str) -> None:
    st.markdown("**" + t("strict.panel.leaks_title", lang) + "**")
    st.caption(t("strict.panel.leaks_intro", lang))
    free = st.session_state.get("playground_free_input") or ""
    extra = [("free", t("playground.free_title", lang), free)] if free.strip() else []
    matrix = _matrix(schema, outputs, extra)
    labels = {o.id: o.label.get(lang, o.label.get("en", o.id)) for o in outputs}
    probe = t("strict.panel.probe", lang)

    def label(row) -> str:
        if row.id in labels:
            return labels[row.id]
        return t("common.labelled", lang, label=probe, value=row.label) if row.moved else row.label

    if matrix.unprobed:
        st.caption(t("strict.panel.unprobed", lang, count=matrix.unprobed, limit=MAX_PROBES))
    st.markdown(table([{t("strict.panel.col_output", lang): label(row),
                        **{t(f"strict.panel.col_{c}", lang): _cell(row.verdicts[c], lang) for c in COLUMNS}}
                       for row in matrix.rows]))
    if matrix.not_checked:
        st.caption(t("strict.panel.not_checked", lang, count=matrix.not_checked,
                     seconds=f"{toolcall.strict.LEAK_BUDGET:g}"))
    names = {c: t(f"strict.panel.col_{c}", lang) for c in COLUMNS}
    lines = [t("strict.panel.leak_line", lang, label=label(r), columns=name_list((names[c] for c in r.leaks), lang),
               keywords=name_list(r.verdicts["original"].keywords, lang)) for r in matrix.rows if r.leaks]
    lines += [t("strict.panel.overreject_line", lang, label=label(r),
                columns=name_list((names[c] for c in r.overrejects), lang))
              for r in matrix.rows if r.overrejects]
    if lines:
        show_lines(lines, code=False)  # a property name holding a line end stays in its line
    elif not matrix.not_checked:  # cells not checked: "no leaks" would claim what was not judged
        st.caption(t("strict.panel.no_leaks", lang))


#: Lines of a diff drawn; the rest are counted in a caption. A rewrite that touches every property (Anthropic's moves
#: each constraint into the description) made the diff twice the typed schema on every rerun of the open panel.
SHOWN_DIFF_LINES = 200


def _show_diff(diff: str | None, lang: str) -> None:
    """A schema diff (its first SHOWN_DIFF_LINES lines), ``=`` when equal, or why it is not drawn (too long:
    schema_diff; the schema is not written out again to count its lines)."""
    if diff is None:
        st.caption(t("strict.panel.diff_too_long", lang, limit=f"{MAX_DIFF_LINES:,}"))
        return
    lines = diff.split("\n")
    show_code("\n".join(lines[:SHOWN_DIFF_LINES]) or "=", language="diff", wrap_lines=True)
    if len(lines) > SHOWN_DIFF_LINES:
        st.caption(t("strict.panel.diff_cut", lang, shown=SHOWN_DIFF_LINES, total=f"{len(lines):,}"))


def _fields(names: list[str], lang: str) -> str:
    """Property names a student wrote, for a line of the fix: look-alike letters escaped (as the findings' paths) and
    at most MAX_LISTED of them, then how many more. The fix makes every optional property required: 150 of them made
    "Now required and nullable" and each "was valid and is now rejected" line list all 150, 37 000 characters
    (break-it pass brk13web), and a Cyrillic "nоte" read as "note". Each name is at most lint.MAX_SHOWN_NAME_CHARS
    characters as drawn, escapes included (lint.shown_name): three optional names of 860 zero-width spaces (8 KB
    typed, within the panel's caps) made the fix's lines 79 000 characters of escapes on every rerun of the open fix
    (break-it pass brk14web)."""
    return name_list([shown_name(n) for n in names], lang, MAX_LISTED)


def _fix(schema: dict[str, Any], outputs, lang: str) -> None:
    st.markdown("**" + t("strict.panel.fix_title", lang) + "**")
    st.caption(t("strict.panel.fix_intro", lang))
    if st.button(t("strict.panel.fix_button", lang), key=f"{PREFIX}_fix"):
        st.session_state[f"{PREFIX}_fix_shown"] = True
    if not st.session_state.get(f"{PREFIX}_fix_shown"):
        return
    if st.session_state.pop(_FIX_STALE, False):
        st.warning(t("strict.panel.fix_stale", lang), icon="✏️")
    text = json.dumps(schema, ensure_ascii=False)
    fixed = _memo(("fix", text), lambda: openai_fix(schema))
    if fixed.diff == "":
        st.caption(t("strict.panel.fix_none", lang))
        return
    _show_diff(fixed.diff, lang)
    fields = [p.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") for p in fixed.made_nullable]
    lines = [t("strict.panel.fix_nullable", lang, fields=_fields(fields, lang))] if fields else []
    matrix = _matrix(schema, outputs)
    for row in matrix.rows:
        if "openai_fix" in row.overrejects and row.verdicts["openai_fix"].keywords == ("required",):
            missing = [f for f in fields if f not in json.loads(row.raw)]
            if missing:
                label = next((o.label.get(lang, o.id) for o in outputs if o.id == row.id), row.label)
                lines.append(t("strict.panel.fix_valid_now_invalid", lang, label=label, fields=_fields(missing, lang),
                               first=shown_name(missing[0])))
    if lines:
        show_lines(lines, code=False)  # a property name holding a line end stays in its line
    st.button(t("strict.panel.fix_apply", lang), key=f"{PREFIX}_fix_apply", on_click=_apply_fixed,
              args=(st.session_state.get("schema_editor"), editable_json(fixed.schema, MAX_SCHEMA_CHARS)))


def render_strict_panel(schema: dict[str, Any], tool_name: str, lang: str, outputs=None) -> None:
    """Draw the panel for ``schema`` (an input_schema that passed check_schema) behind a toggle.

    ``outputs`` are the canned outputs (default: fixtures/outputs/refund_order.yaml). Nothing
    is computed while the toggle (key ``playground_strict_open``) is off.
    """
    if not st.toggle(t("strict.panel.toggle", lang), key=f"{PREFIX}_open", help=t("strict.panel.toggle_help", lang),
                     **PERSIST):
        return
    if panel_too_large(schema):  # checked before anything is computed: bounded work per edit (issue 13)
        st.info(t("strict.panel.too_large", lang, nodes=MAX_PANEL_SUBSCHEMAS,
                  chars=f"{MAX_PANEL_CHARS:,}"), icon="ℹ️")
        return
    outputs = outputs if outputs is not None else _outputs()
    st.html(_WRAP_CSS)
    with st.container(border=True, key=f"{PREFIX}_panel"):
        st.caption(t("strict.panel.intro", lang))
        names = {p: t(f"strict.panel.provider_{p}", lang) for p in PROVIDERS}
        provider = translated("radio", t("strict.panel.provider", lang), PROVIDERS, names, horizontal=True,
                              key=f"{PREFIX}_provider")  # keeps its choice across a language switch
        with st.container(key=f"{PREFIX}_findings"):
            _findings(schema, provider, tool_name, lang)
        st.divider()
        _leaks(schema, outputs, lang)
        st.divider()
        _fix(schema, outputs, lang)
