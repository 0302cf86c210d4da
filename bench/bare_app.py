"""The benchmark's floor: the playground's widgets and element counts with no validation.

Served by ``bench/load.py`` beside ``app.py`` so that playground / bare shows what the
page's own work costs on top of Streamlit's per-rerun overhead. Same page config, sidebar
selectbox, st.navigation with the app's ten pages (``playground`` among them), widgets with the
page's option lists, the same ``st.fragment`` around the
``schema_editor`` text area, the summary, the panel and output pickers and the ONE card the
student picked (same elements per card as ``ui/cards.show_card``; the first output, the valid
call, at first), then the business cases and the idempotency demo; the texts are static
(English only, benchmark-only page) and nothing is validated.
"""

import json

import streamlit as st
import yaml

from toolcall import FIXTURES_DIR

st.set_page_config(page_title="Bare floor", page_icon="🛠️", layout="wide")
st.sidebar.selectbox("Language", ["en", "zh"], key="app_lang")


@st.cache_data(show_spinner=False)
def _fixtures() -> tuple[dict, dict]:
    tool = json.loads((FIXTURES_DIR / "tools/refund_order.json").read_text(encoding="utf-8"))
    outputs = yaml.safe_load((FIXTURES_DIR / "outputs/refund_order.yaml").read_text(encoding="utf-8"))
    return tool, outputs


_ROW = {"field": "/amount_cents", "keyword": "type", "expected": "integer", "received": "string", "hint": "-"}
_RESULT = {"type": "tool_result", "tool_use_id": "toolu_bench", "is_error": True,
           "content": "Invalid input: amount_cents must be an integer."}
_CALL = {"type": "tool_use", "id": "toolu_bench", "name": "refund_order",
         "input": {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}}
#: The playground's option lists, as long as the page's (6 fixture tools + custom, 9 presets, 5 wire formats):
#: a widget's cost grows with its options.
_TOOLS = ["refund_order", "cancel_order", "do_stuff", "get_order", "search_orders", "update_address", "custom"]
_PRESETS = ["Reference schema", "No required fields", "Enum removed", "additionalProperties allowed", "No pattern",
            "Type loosened to string", "Description removed", "No \"when not to use\"", "Vague name"]
_FORMATS = ["Anthropic (tool_result block)", "OpenAI (role: tool message)", "OpenAI Responses (function_call_output)",
            "MCP (tools/call answer)", "Gemini (functionResponse)"]
#: The app's navigation: as many pages as toolcall/pages_registry.py lists, with icons (every rerun's
#: messages carry the page list).
_PAGES = [("Schema playground", "playground", "🧪"), ("One call, step by step", "walkthrough", "🔁"),
          ("Pairing checker", "pairing", "🔗"), ("pass^k lab", "passk_lab", "🎯"), ("Be the loop", "harness_lab", "🔄"),
          ("Selection lab", "eval_lab", "📊"), ("Lessons", "lessons", "📖"), ("Exercises", "exercises", "✏️"),
          ("Class dashboard", "dashboard", "🧑‍🏫")]
_TABLE = "| tool | OpenAI tokens | Claude tokens |\n|---|---:|---:|\n" + "| `refund_order` | 180 | 190 |\n" * 5


def _card(key: str, label: str, raw: str, errors: bool, truncated: bool = False) -> None:
    """Same elements as ui/cards.show_card on a canned output: label+verdict, raw, the model's call,
    then (a truncated output) three alerts and the re-request, or the errors + "send back" line;
    the tool_result, where it lands, the content as read."""
    with st.container(border=True, key=key):
        st.markdown(f"**{label}**  \nSchema verdict: :red-badge[rejected] · expected: :red-badge[rejected]")
        st.code(raw, language="json", wrap_lines=True)
        st.caption("The model's call, as the provider sends it:")
        st.code(json.dumps(_CALL, indent=2), language="json", wrap_lines=True)
        if truncated:
            st.error("The JSON ends early: line 1, column 56.")
            st.info("💡 The output was cut off by max_tokens.", icon="💡")
            st.warning("stop_reason max_tokens: ask again with a larger max_tokens (64 → 128).", icon="✂️")
            st.code(json.dumps({"max_tokens": 128}, indent=2), language="json", wrap_lines=True)
            st.caption("Had the response stopped with tool_use, this would go back:")
        else:
            tail = "**Errors (1)**\n\n- **/amount\\_cents** (type): expected integer, received string\n" \
                   "    - 💡 Send a number.\n\n" if errors else ""
            st.markdown(tail + ":small[Message to send back to the model:]")
        st.code(json.dumps(_RESULT, indent=2), language="json", wrap_lines=True)
        st.caption("Where it lands: a tool_result block in the next user message.")
        st.caption("The content, as the model reads it:")
        st.code(_RESULT["content"], language=None, wrap_lines=True)


def _options() -> None:
    """pages/playground.py's show_options(): drawn above the fragment, so not sent again by an edit."""
    tool_col, preset_col, apply_col, reset_col = st.columns([3, 4, 2, 2], vertical_alignment="bottom")
    tool_col.selectbox("Tool", _TOOLS, key="playground_tool")
    preset_col.selectbox("Loosen the schema", _PRESETS, key="playground_preset")
    apply_col.button("Apply", key="playground_apply_preset", width="stretch")
    reset_col.button("Reset", key="playground_reset", width="stretch")
    fmt_col, assert_col = st.columns([4, 1.3], vertical_alignment="bottom")
    fmt_col.radio("Wire format", _FORMATS, key="playground_format", horizontal=True)
    assert_col.toggle("Check format (assertion)", key="playground_assert_format",
                      help="Draft 2020-12 only annotates format by default; on: the formats this validator knows are "
                           "checked.")


@st.fragment
def _live(tool: dict, outputs: dict) -> None:
    """The part a schema edit reruns, element for element as pages/playground.py's live_part() with the
    refund_order tool picked and the strict panel closed (bench/README.md: load.py's msgs column)."""
    left, right = st.columns([2, 3], gap="medium")
    with left:  # ui/tool_editor.show_editor
        st.caption("Edited by hand since this preset was applied.")
        st.success("The definition is valid.", icon="✅")
        st.text_input("Name", key="tool_name")
        st.text_area("Description", key="tool_description", height=130,
                     help="What the model reads when it decides whether to call this tool; the panel counts its "
                          "tokens. A language switch rewrites the box only while you have not typed in it.")
        st.text_area("Schema", key="schema_editor", height=380)
    with right:
        with st.container(border=True, key="playground_summary"):  # ui/playground_pick.show_summary
            st.markdown("**8 of 8 outputs got their expected verdict.**")
            st.success("No bad output got through.")
        panels = ["outputs", "review", "definition", "model"]  # ui/playground_pick.pick_panel
        st.session_state.setdefault("playground_panel", "outputs")
        panel = st.segmented_control("Panel", panels, key="playground_panel", required=True,
                                     label_visibility="collapsed", wrap=True, persist_state="session") or "outputs"
        if panel == "outputs":  # ui/playground_pick.pick_output, then the picked card only
            cases = {o["id"]: o for o in outputs["outputs"]}
            names = {i: o["label"]["en"] for i, o in cases.items()} | {"-free": "✏️ Your own output"}
            shown = st.radio("Output to show", list(names), format_func=names.__getitem__, key="playground_output",
                             captions=[""] * len(names), help="🚨 leaked · ⚠️ rejected, though valid",
                             persist_state="session")
            out = cases.get(shown)
            if out is None:
                st.text_area("Raw output", key="playground_free_input", height=120, persist_state="session")
                st.radio("Stop reason", ["tool_use", "max_tokens"], key="playground_free_stop_reason",
                         horizontal=True, persist_state="session")
                st.caption("Nothing pasted yet.")
            else:
                _card(f"playground_card_{out['id']}", out["label"]["en"], out["raw"], out["expected"] == "rejected",
                      out.get("stop_reason") == "max_tokens")
        elif panel == "review":  # ui/tool_editor.show_review
            st.markdown("**Score 83/100 · 0 errors, 3 warnings, 2 notes**")
            st.warning("**Warnings**\n\n- `$.description` Say when not to use it.", icon="⚠️")
            st.info("**Notes**\n\n- `$.input_schema` Give an example.", icon="💡")
            st.markdown("**What only a person can judge**")
            st.caption("Rules read words; they cannot tell whether the words are right.")
            for i in range(6):
                st.checkbox(f"Check {i}", key=f"workbench_check_{i}", persist_state="session")
        elif panel == "definition":  # ui/tool_editor.show_definition
            st.radio("Form", ["course", "openai"], key="workbench_form", horizontal=True, persist_state="session")
            text = json.dumps(tool, indent=2)
            st.code(text, language="json", wrap_lines=True)
            with st.expander("Edit the definition"):
                st.text_area("Definition", key="workbench_definition_text", height=260, persist_state="session")
                st.button("Apply", key="workbench_apply_definition")
            st.caption("Share exactly this definition: add this to the address.")
            st.code("/playground?tool=bench", language=None, wrap_lines=True)
        else:  # ui/model_view.show_model_view
            text = json.dumps(tool, indent=2)
            st.caption("Counted offline with OpenAI's o200k_base encoding.")
            st.markdown(_TABLE)
            st.markdown("The set: 5 tools, about 872 tokens (OpenAI), 900 (Claude).")
            st.success("5 tools: comfortable.")
            st.markdown("**Anthropic** documents that with `tools` it adds a system prompt:")
            st.markdown(_TABLE)
            st.markdown("**OpenAI** documents no rendered form: the JSON below is what is sent.")
            st.code(text, language="json", wrap_lines=True)
    st.toggle("Strict mode", key="playground_strict_open")  # ui/strict_panel, closed


def page() -> None:
    tool, outputs = _fixtures()
    if "schema_editor" not in st.session_state:
        st.session_state["schema_editor"] = json.dumps(tool["input_schema"], indent=2)
        st.session_state["tool_name"] = tool["name"]
        st.session_state["tool_description"] = tool["description"]
    st.title("Schema playground")
    st.markdown("Edit the schema; nothing is validated on this page.")
    _options()
    _live(tool, outputs)
    st.divider()
    st.subheader("Business rules")
    st.markdown("Schema-valid calls the backend refuses.")
    st.caption("Current customer: bench")
    st.markdown("| " + " | ".join(_ROW) + " |\n|" + "---|" * len(_ROW) + "\n"
                + ("| " + " | ".join(_ROW.values()) + " |\n") * 4)
    cols = st.columns(2)
    for i, case in enumerate(outputs["business_cases"]):
        with cols[i % 2]:
            _card(f"playground_business_{case['id']}", case["label"]["en"], case["raw"], False)
    st.subheader("Idempotency")
    st.markdown("The same call id twice refunds once.")
    c1, c2 = st.columns(2)
    for col in (c1, c2):
        with col:
            st.caption("Call")
            st.code(json.dumps(_RESULT, indent=2), language="json", wrap_lines=True)
    st.info("Refunded once.", icon="🔁")


def home() -> None:
    st.title("Bare floor")


st.navigation([st.Page(home, title="Home", icon="🏠", url_path="home", default=True)]
              + [st.Page(page if path == "playground" else home, title=title, icon=icon, url_path=path,
                         visibility="hidden" if path == "dashboard" else "visible")  # instructor only
                 for title, path, icon in _PAGES]).run()
