"""The playground's "What the model sees" panel: each tool's JSON as sent, its token count, the set's
total against the course's tool-count guidance, and what each provider documents it adds."""

from __future__ import annotations

import streamlit as st

from toolcall.fixtures import Tool
from toolcall.tokens import ANTHROPIC_TOOL_PROMPT, COMFORTABLE, O200K, REGROUP_ABOVE, count, tool_count_zone, wire_json
from toolcall.markdown import table
from toolcall.safe_validator import SizedCache
from ui.common import MAX_ESCAPE_GROWTH, show_code, tr

#: Token counts by wire JSON: the set's four fixture tools are the same on every rerun (bench/README.md, H).
_counts = SizedCache(max_entries=1024, max_bytes=2 * 1024 ** 2)


def _count(text: str):
    hit = _counts.get(text)
    if hit is None:
        hit = count(text)
        _counts.put(text, hit)
    return hit


def show_model_view(tools: list[Tool]) -> None:
    """A table of tools and tokens (OpenAI JSON exact for its text, Claude an estimate over the Anthropic
    JSON), the total, the tool-count zone, the providers' notes and the edited tool's JSON in each
    provider's form, each under its provider's note (Anthropic ``{name, description, input_schema}``,
    OpenAI ``{type: function, function: {name, description, parameters}}``: toolcall.fixtures.Tool)."""
    rows, total_openai, total_claude, method = [], 0, 0, O200K
    for tool in tools:
        openai, claude = _count(wire_json(tool, "openai")), _count(wire_json(tool, "anthropic"))
        method = openai.method
        total_openai, total_claude = total_openai + openai.tokens, total_claude + claude.tokens
        rows.append({tr("workbench.tokens_tool"): tool.name, tr("workbench.tokens_openai"): openai.tokens,
                     tr("workbench.tokens_claude"): claude.tokens})
    st.caption(tr("workbench.tokens_method_o200k") if method == O200K else tr("workbench.tokens_method_bytes"))
    st.markdown(table(rows))  # no pandas on the playground (bench/README.md, section H)
    zone = tool_count_zone(len(tools))
    st.markdown(tr("workbench.tokens_total", count=len(tools), openai=total_openai, claude=total_claude))
    box = {"few": st.info, "comfortable": st.success, "crowded": st.warning, "regroup": st.error}[zone]
    box(tr(f"workbench.zone.{zone}", low=COMFORTABLE[0], high=COMFORTABLE[1], limit=REGROUP_ABOVE))
    st.markdown(tr("workbench.anthropic_adds"))
    st.markdown(table([{tr("workbench.model"): m, "tool_choice": c, tr("workbench.tokens_added"): n}
                       for m, c, n in ANTHROPIC_TOOL_PROMPT]))
    st.caption(tr("model_view.anthropic_source"))
    st.markdown(tr("model_view.anthropic_json"))
    show_code(wire_json(tools[0], "anthropic"), language="json", wrap_lines=True, escapes=MAX_ESCAPE_GROWTH)
    st.markdown(tr("workbench.openai_adds"))
    show_code(wire_json(tools[0], "openai"), language="json", wrap_lines=True, escapes=MAX_ESCAPE_GROWTH)
