"""The playground's whole-definition editor: pick a tool, edit its name, description and input_schema,
see the design review, the full definition in both forms, and what the model sees.

Session state (keys fixed by DESIGN.md and issue 19): ``playground_tool`` (picked tool id or
``custom``), ``tool_name``, ``tool_description``, ``schema_editor`` (the input_schema text),
``playground_preset``; ``playground_last_good`` holds the fields (name, description, schema text, language) of
the last definition that passed every check, which the cards follow while the editor shows an error (the Tool is
rebuilt from the shared ``_definitions``: last_good). ``workbench_description`` and
``workbench_reference`` mirror the description and the picked tool's reference description for
the pass^k lab (widget state does not survive a page change; these plain keys do).
"""

from __future__ import annotations

import functools
import json

import streamlit as st

from toolcall import FIXTURES_DIR
from toolcall.fixtures import Tool
from toolcall.i18n import LANGS
from toolcall.lint import CHECKLIST, SEVERITIES, grouped, lint_set, lint_tool, score, shown_path
from toolcall.markdown import code, plain
from toolcall.text import hidden_places
from toolcall.points import POINTS, TEMPLATE_POINTS, description_points, stated
from toolcall.presets import DEFINITION_PRESETS, PRESETS, apply_definition_preset, apply_preset, schema_text
from toolcall.tooldef import (FORMS, MAX_DEFINITION_CHARS, MAX_DESCRIPTION_CHARS, NAME_MAX, from_fields,
                              parse_definition, read_share_token, render, share_token, share_url)
from toolcall.validation import MAX_SCHEMA_CHARS
from toolcall.safe_validator import SizedCache
from ui.common import MAX_ESCAPE_GROWTH, PERSIST, box_chars, file_mtime, lang, load, show_code, tr
from ui.widgets import translated

CUSTOM = "custom"
#: The query parameter that carries a shared definition.
SHARE_PARAM = "tool"
_ICONS = {"error": "❌", "warning": "⚠️", "info": "💡"}


def tool_ids() -> list[str]:
    """Every tool in fixtures/tools/, refund_order first, then by name (listed again when the folder changes)."""
    return list(_tool_ids(file_mtime(FIXTURES_DIR / "tools")))


@functools.lru_cache(maxsize=4)
def _tool_ids(mtime: float) -> tuple[str, ...]:
    ids = sorted(p.stem for p in (FIXTURES_DIR / "tools").glob("*.json"))
    return tuple(sorted(ids, key=lambda i: (i != "refund_order", i)))


def localized(tool: Tool, language: str) -> Tool:
    """The tool as a student of ``language`` reads it (translated description, when the fixture has one)."""
    for_lang = getattr(tool, "for_lang", None)
    return for_lang(language) if for_lang else tool


def reference(tool_id: str) -> Tool:
    """The picked fixture tool in the session's language (``refund_order`` for ``custom``)."""
    return fixture_tool(tool_id if tool_id != CUSTOM else "refund_order", lang())


#: Loosening presets whose lesson names refund_order's fields and outputs: another tool gets the general one.
OTHER_TOOL_LESSONS = ("no_additional_properties", "nothing_required", "enum_removed", "integer_loosened")


def has_outputs(tool_id: str) -> bool:
    """Whether the fixture tool ``tool_id`` has canned outputs (fixtures/outputs/<tool_id>.yaml), which the
    reference preset's note says it catches."""
    return (FIXTURES_DIR / "outputs" / f"{tool_id}.yaml").is_file()


def fixture_tool(tool_id: str, language: str) -> Tool:
    """fixtures/tools/<tool_id>.json in ``language``, translated once per file version and shared (read only)."""
    relative = f"tools/{tool_id}.json"
    return _fixture_tool(tool_id, language, file_mtime(FIXTURES_DIR / relative))


@functools.lru_cache(maxsize=64)
def _fixture_tool(tool_id: str, language: str, mtime: float) -> Tool:
    return localized(load("tool", f"tools/{tool_id}.json"), language)


def _fill(tool: Tool) -> None:
    state = st.session_state
    state["tool_name"], state["tool_description"], state["schema_editor"] = (
        tool.name, tool.description, schema_text(tool.input_schema))


def _pick() -> None:
    picked = st.session_state["playground_tool"]
    st.session_state["playground_preset"] = "reference"
    if picked != CUSTOM:
        _fill(reference(picked))


def _apply_preset() -> None:
    ref = reference(st.session_state.get("playground_tool", "refund_order"))
    preset = st.session_state["playground_preset"]
    _fill(_preset_tool(ref, preset))


def _preset_tool(ref: Tool, preset: str) -> Tool:
    """The definition a preset writes for the reference tool ``ref``."""
    if preset in DEFINITION_PRESETS:
        name, description = apply_definition_preset(ref.name, ref.description, preset)
        return Tool(name, description, ref.input_schema)
    return Tool(ref.name, ref.description, apply_preset(ref.input_schema, preset))


#: (name, description, schema text) a preset writes, by (reference tool as JSON, preset): the editor compares
#: the fields with it on every rerun, and a preset deep-copies the schema (bench/README.md, section H).
_written = SizedCache(max_entries=256, max_bytes=4 * 1024 ** 2)


#: Each reference tool's JSON (the key of _written), by the tool's identity: fixture_tool shares one object per
#: file version and language, so an edit does not serialise the reference again (issue 18). The entry holds the
#: tool, so its id is not reused meanwhile.
_ref_json = SizedCache(max_entries=256, max_bytes=4 * 1024 ** 2)


def _ref_key(ref: Tool) -> str:
    hit = _ref_json.get(id(ref))
    if hit is None or hit[0] is not ref:
        hit = (ref, json.dumps([ref.name, ref.description, ref.input_schema], sort_keys=True, ensure_ascii=False))
        _ref_json.put(id(ref), hit)
    return hit[1]


def _preset_fields(ref: Tool, preset: str) -> tuple[str, str, str]:
    key = (_ref_key(ref), preset)
    hit = _written.get(key)
    if hit is None:
        wrote = _preset_tool(ref, preset)
        hit = (wrote.name, wrote.description, schema_text(wrote.input_schema))
        _written.put(key, hit)
    return hit


#: Checked definitions (toolcall.tooldef.from_fields) by their fields and language, shared by every session of the
#: process and bounded in bytes: a click on a picker, the format or a panel reruns the editor with the same fields
#: and checks nothing again (issue 18). Each session used to keep its own (the last check and the last good Tool):
#: a 175 KB schema of nested empty lists parses to 6.2 MB of Python objects, which the session kept after the
#: student left the page, 35 times what was typed (break-it pass brk14web). A session now keeps the fields only.
_definitions = SizedCache(max_entries=64, max_bytes=16 * 1024 ** 2)


def checked_definition(name: str, description: str, schema: str, language: str):
    """from_fields(name, description, schema, language), remembered in _definitions (shared, read only)."""
    key = (name, description, schema, language)
    checked = _definitions.get(key)
    if checked is None:
        checked = from_fields(name, description, schema, language)
        _definitions.put(key, checked)
    return checked


def last_good() -> Tool | None:
    """The last definition of this session that passed every check (``playground_last_good``: its fields and
    language), or None."""
    fields = st.session_state.get("playground_last_good")
    return checked_definition(*fields).tool if isinstance(fields, tuple) else None


def error_text(checked) -> str:
    """A failed DefinitionCheck for the editor: schema messages already say where; others get their path."""
    return checked.message if checked.path.startswith("$.input_schema") else \
        tr("workbench.error_at", path=checked.path, message=checked.message)


def _reset() -> None:
    st.session_state["playground_preset"] = "reference"
    _apply_preset()


def init_state() -> None:
    """First run of a session: the fields from a share link (``?tool=…``) when it reads, else
    refund_order in the session's language; a damaged link leaves a message for the editor."""
    state = st.session_state
    if "tool_name" in state:
        return
    state.setdefault("playground_tool", "refund_order")
    token = st.query_params.get(SHARE_PARAM)
    if token:
        shared = read_share_token(token, lang())
        if shared.ok:  # a course tool's name keeps its canned outputs, so the leak the sharer saw is seen
            state["playground_tool"] = shared.tool.name if shared.tool.name in tool_ids() else CUSTOM
            _fill(shared.tool)
            return
        state["workbench_link_error"] = shared.message
    previous = last_good()
    _fill(previous if previous is not None else reference(state["playground_tool"]))
    state[_FIELDS_LANG] = lang()


#: Session-state key: the language the editor's fields were last filled or checked in (see follow_language).
_FIELDS_LANG = "playground_fields_lang"


def follow_language() -> None:
    """After a language switch, fields the student has not touched follow it: a picked fixture tool with the
    picked preset applied, exactly as written in the previous language, is written again in the new one (the
    description is the fixture's translation). Fields edited by hand stay as they are, and the preset's note
    then says they were edited. Before this, a switch left the old language's description in the box and the
    note claimed an edit nobody made. Call before the fields are drawn in the run (show_picker does)."""
    state, language = st.session_state, lang()
    was = state.get(_FIELDS_LANG, language)
    state[_FIELDS_LANG] = language
    picked = state.get("playground_tool", "refund_order")
    if was == language or picked == CUSTOM or "tool_name" not in state:
        return
    preset = state.get("playground_preset", "reference")
    fields = (state["tool_name"], state["tool_description"], state["schema_editor"])
    if fields == _preset_fields(fixture_tool(picked, was), preset):
        _fill(_preset_tool(reference(picked), preset))


def show_picker() -> None:
    """The tool picker, the presets and their Apply / Reset buttons, in one row. The playground draws them above
    its fragment: a definition edit (a fragment rerun) does not send them again, and a pick or a click, which
    changes the fields anyway, reruns the whole page (issue 18: each widget an edit redraws costs every student
    of the process CPU)."""
    init_state()
    follow_language()
    ids = tool_ids()
    tool_col, preset_col, apply_col, reset_col = st.columns([3, 4, 2, 2], vertical_alignment="bottom")
    with tool_col:
        translated("selectbox", tr("workbench.pick_label"), [*ids, CUSTOM],
                   {i: (tr("workbench.pick_custom") if i == CUSTOM else i) for i in [*ids, CUSTOM]},
                   key="playground_tool", on_change=_pick)
    options = [*PRESETS, *DEFINITION_PRESETS]
    with preset_col:
        translated("selectbox", tr("playground.preset_label"), options,
                   {p: tr(f"playground.preset.{p}") if p in PRESETS else tr(f"workbench.preset.{p}")
                    for p in options}, key="playground_preset", on_change=_apply_preset)
    apply_col.button(tr("playground.preset_apply"), key="playground_apply_preset", on_click=_apply_preset,
                     width="stretch")
    reset_col.button(tr("playground.reset"), key="playground_reset", on_click=_reset, width="stretch")


#: Places of hidden characters a box's warning lists; the rest are counted.
MAX_HIDDEN_PLACES = 5


def show_hidden(text: str, field: str) -> None:
    """Under a box: where its text holds characters a page draws as nothing (toolcall.text.HIDDEN: a zero-width
    space, a direction mark, tag characters that can carry a whole sentence), each as its escape, at most
    MAX_HIDDEN_PLACES of them, then how many more. The box shows them as nothing, the model reads them: a shared
    link (``?tool=``) could hand a classmate a description that reads "Refund an order." and tells the model more."""
    count, places = hidden_places(text, MAX_HIDDEN_PLACES)
    if not count:
        return
    listed = [tr("workbench.hidden_place", char=char, line=line, column=column) for line, column, char in places]
    if count > len(places):
        listed.append(tr("workbench.hidden_more", count=count - len(places)))
    st.warning(plain(tr("workbench.hidden_chars", field=field, count=count, places=tr("word.list_sep").join(listed))),
               icon="🫥")


def show_editor() -> tuple[Tool, bool]:
    """Draw the preset's note, the check of the fields and the three fields (the picker and presets are
    :func:`show_picker`'s, drawn first); return (the definition the cards follow, stale).

    ``stale`` is True when the fields do not pass (the message is shown above the fields) and the
    cards keep the last good definition."""
    state = st.session_state
    init_state()
    if "workbench_link_error" in state:
        st.error(plain(state.pop("workbench_link_error")), icon="🔗")
    picked = state["playground_tool"]
    ref = reference(picked)
    preset = state.get("playground_preset", "reference")
    lesson = tr(f"playground.preset_lesson.{preset}") if preset in PRESETS else tr(f"workbench.preset_lesson.{preset}")
    if picked != "refund_order" and preset in OTHER_TOOL_LESSONS:  # refund_shipping, reason "broken"… are refund's
        lesson = tr(f"playground.preset_lesson_other.{preset}")
    edited = (state["tool_name"], state["tool_description"], state["schema_editor"]) != _preset_fields(ref, preset)
    if picked == CUSTOM:  # no reference to compare with: not "every bad output is caught"
        lesson = tr("workbench.custom_lesson")
    elif edited:  # the reference itself has no "preset" to apply again: Reset restores it
        lesson = (tr("playground.reference_edited", reset=tr("playground.reset")) if preset == "reference"
                  else tr("playground.preset_edited"))
    elif preset == "reference" and not has_outputs(picked):  # nothing to catch: cancel_order, do_stuff…
        lesson = tr("playground.reference_no_outputs")
    elif preset in PRESETS and preset != "reference" \
            and _preset_fields(ref, preset) == _preset_fields(ref, "reference"):
        lesson = tr("playground.preset_unchanged", tool=ref.name)  # enum_removed on get_order: not a refund lesson
    st.caption(lesson)
    fields = (state["tool_name"], state["tool_description"], state["schema_editor"], lang())
    checked = checked_definition(*fields)
    if checked.ok:
        state["playground_last_good"] = fields
        st.success(tr("workbench.definition_ok"), icon="✅")
    else:
        st.error(plain(error_text(checked)), icon="❌")
        st.warning(tr("playground.stale"), icon="⏳")
    st.text_input(tr("workbench.name_label"), key="tool_name", **PERSIST, max_chars=box_chars(NAME_MAX))
    st.text_area(tr("workbench.description_label"), key="tool_description", height=130, **PERSIST,
                 max_chars=box_chars(MAX_DESCRIPTION_CHARS), help=tr("workbench.description_help"))
    show_hidden(state["tool_description"], "description")
    st.text_area(tr("playground.editor_label"), key="schema_editor", height=380, **PERSIST,
                 max_chars=box_chars(MAX_SCHEMA_CHARS), help=tr("playground.editor_help"))
    show_hidden(state["schema_editor"], "input_schema")
    state["workbench_description"] = state["tool_description"]
    state["workbench_reference"] = ref.description
    good = checked.tool if checked.ok else last_good()
    return (good if good is not None else ref), not checked.ok


def tool_set(tool: Tool, picked: str) -> list[Tool]:
    """The set the edited tool belongs to: it, then every other fixture tool except the course's bad
    do_stuff (the edited tool replaces the fixture it was picked from)."""
    others = [fixture_tool(i, lang()) for i in tool_ids() if i not in (picked, "do_stuff")]
    return [tool, *[o for o in others if o.name != tool.name or picked == CUSTOM]]


#: The review's findings by the set's definitions as canonical JSON: a rerun that changed no definition
#: (a keystroke in another field, another student on the same preset) lints nothing (bench/README.md, H).
_reviews = SizedCache(max_entries=256, max_bytes=4 * 1024 ** 2)


def review_findings(tool: Tool, tools: list[Tool]) -> list:
    """``tool``'s findings (paths from ``$``) and the set rules (``set_…``) of ``tools``; shared, read only."""
    key = json.dumps([[t.name, t.description, t.input_schema] for t in [tool, *tools]], sort_keys=True,
                     ensure_ascii=False)
    hit = _reviews.get(key)
    if hit is None:
        hit = lint_tool(tool) + [f for f in lint_set(tools) if f.rule.startswith("set_")]
        _reviews.put(key, hit)
    return hit


#: Findings listed per severity in the design review; the score line counts them all. A schema of 3 000 empty
#: properties (153 KB, before toolcall.validation.MAX_SCHEMA_PARTS) drew a bullet per finding: 1.07 MB sent per
#: rerun; 450 (23 KB, under that cap) 192 KB, eight times what was typed.
MAX_SHOWN_FINDINGS = 40


def show_review(tool: Tool, tools: list[Tool]) -> None:
    """Findings for the edited tool (and the set rules that concern it), grouped by severity, with
    the score, each pointing at its JSON path (at most MAX_SHOWN_FINDINGS per severity, then how many more);
    then the judgment checklist. The playground draws this
    panel only while it is open, so its checkboxes keep their state with ``persist_state``."""
    findings = review_findings(tool, tools)
    groups = grouped(findings)
    st.markdown("**" + tr("workbench.review_score", score=score(findings), errors=len(groups["error"]),
                          warnings=len(groups["warning"]), infos=len(groups["info"])) + "**")
    if not findings:
        st.success(tr("workbench.review_clean"))
    for severity in SEVERITIES:
        if groups[severity]:
            listed = groups[severity][:MAX_SHOWN_FINDINGS]
            lines = [f"- {code(shown_path(f.path))} {plain(f.reason(lang()))} "
                     f":small[({plain(f.source(lang()))})]" for f in listed]
            if len(groups[severity]) > len(listed):
                lines.append("- " + tr("workbench.review_more", count=len(groups[severity]) - len(listed)))
            box = {"error": st.error, "warning": st.warning, "info": st.info}[severity]
            box(f"**{tr(f'workbench.severity.{severity}')}**\n\n" + "\n".join(lines), icon=_ICONS[severity])
    st.markdown("**" + tr("workbench.checklist_title") + "**")
    st.caption(tr("workbench.checklist_intro"))
    for item in CHECKLIST:
        st.checkbox(tr(f"workbench.check.{item}"), key=f"workbench_check_{item}", **PERSIST)


#: Set while the definition box holds what the student typed: it no longer follows the fields (a change of form or
#: field refilled it, and their text was gone without a word: break-it pass brk12web) until they apply it or start
#: it again from the fields.
_OWN_DEFINITION = "workbench_definition_own"


def _typed_definition() -> None:
    st.session_state[_OWN_DEFINITION] = True


def _refill(text: str) -> None:
    st.session_state["workbench_definition_text"] = st.session_state["workbench_definition_shown"] = text
    st.session_state[_OWN_DEFINITION] = False


def _apply_definition() -> None:
    checked = parse_definition(st.session_state["workbench_definition_text"], lang())
    if checked.ok:
        st.session_state[_OWN_DEFINITION] = False  # applied: the box follows the fields again
        st.session_state["playground_tool"] = CUSTOM if st.session_state.get("playground_tool") not in tool_ids() \
            else st.session_state["playground_tool"]
        _fill(checked.tool)
        st.session_state.pop("workbench_definition_error", None)
    else:
        st.session_state["workbench_definition_error"] = error_text(checked)


def show_definition(tool: Tool) -> None:
    """The full definition in the course's or OpenAI's form: copy it (the code block's copy button), or
    edit it here and apply it to the three fields; and the share link."""
    form = translated("radio", tr("workbench.form_label"), FORMS, {f: tr(f"workbench.form.{f}") for f in FORMS},
                      key="workbench_form", horizontal=True, **PERSIST)
    text = render(tool, form)
    show_code(text, language="json", wrap_lines=True, escapes=MAX_ESCAPE_GROWTH)  # the box below holds it whole
    with st.expander(tr("workbench.edit_definition")):
        state = st.session_state
        if state.get("workbench_definition_shown") != text and not state.get(_OWN_DEFINITION):
            _refill(text)  # follows the fields while the student has not typed in it
        st.text_area(tr("workbench.definition_label"), key="workbench_definition_text", height=260,
                     **PERSIST, max_chars=box_chars(MAX_DEFINITION_CHARS), on_change=_typed_definition)
        if state.get(_OWN_DEFINITION) and state.get("workbench_definition_shown") != text:
            st.caption(tr("workbench.definition_kept"))
            st.button(tr("workbench.definition_refill"), key="workbench_definition_refill", on_click=_refill,
                      args=(text,))
        st.button(tr("workbench.apply_definition"), key="workbench_apply_definition", on_click=_apply_definition)
        if "workbench_definition_error" in st.session_state:
            st.error(plain(st.session_state["workbench_definition_error"]), icon="❌")
    token = share_token(tool)
    if token is None:
        st.warning(tr("workbench.share_too_long"))
    else:
        link = share_url(st.context.url, "playground", SHARE_PARAM, token)
        st.caption(tr("share_link.caption") if link else tr("workbench.share_caption"))
        show_code(link or f"/playground?{SHARE_PARAM}={token}", language=None, wrap_lines=True)  # text, never HTML



def lab_description(fallback: Tool) -> tuple[str, frozenset[str], bool]:
    """For the pass^k lab: (the description to split, the points it is expected to state, whether it
    comes from the playground's editor). Without a visit to the playground: ``fallback``'s description
    in the session's language, expected to state what it states."""
    state = st.session_state
    reference_text = state.get("workbench_reference")
    if "workbench_description" in state and reference_text is not None:
        expected = stated(description_points(reference_text)) if state.get("playground_tool") != CUSTOM \
            else TEMPLATE_POINTS
        return state["workbench_description"], expected, True
    text = localized(fallback, lang()).description
    return text, stated(description_points(text)), False


def description_identity(text: str) -> str:
    """What a description is, whatever the language: ``tool:<id>`` when ``text`` is a fixture tool's description in
    one of the app's languages (the same sentences, translated one for one), else the text itself. The pass^k lab
    keeps a student's cuts while this stays the same (a language switch translates an untouched description)."""
    for tool_id in tool_ids():
        if any(fixture_tool(tool_id, language).description == text for language in LANGS):
            return f"tool:{tool_id}"
    return text


def points_text(points) -> str:
    """Points in POINTS order, translated, joined with the list separator."""
    return tr("word.list_sep").join(tr(f"workbench.point.{p}") for p in POINTS if p in points)
