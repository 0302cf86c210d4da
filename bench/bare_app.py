"""The benchmark's floor: the playground's widgets and element counts with no validation.

Served by ``bench/load.py`` beside ``app.py`` so that playground / bare shows what the
page's own work costs on top of Streamlit's per-rerun overhead. Same page config, sidebar
selectbox, st.navigation at url path ``playground``, the same ``st.fragment`` around the
``schema_editor`` text area and the six cards (same elements per card as
``ui/cards.show_card``), then the business cases and the idempotency demo; the texts are
static (English only, benchmark-only page) and nothing is validated.
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


def _card(key: str, label: str, raw: str, errors: bool, leaked: bool = False) -> None:
    """Same elements as ui/cards.show_card: label+verdict, raw, alert, errors+label, two code blocks."""
    with st.container(border=True, key=key):
        st.markdown(f"**{label}**  \nSchema verdict: :red-badge[rejected] · expected: :red-badge[rejected]")
        st.code(raw, language="json", wrap_lines=True)
        if leaked:
            st.error("This bad output got through.", icon="🚨")
        tail = "**Errors (1)**\n\n- `/amount_cents`: **type**, expected integer, received string\n" \
               "    - 💡 Send a number.\n\n" if errors else ""
        st.markdown(tail + ":small[What goes back to the model:]")
        st.code(json.dumps(_RESULT, indent=2), language="json", wrap_lines=True)
        st.caption("The content as the model reads it:")
        st.code(_RESULT["content"], language=None, wrap_lines=True)


@st.fragment
def _live(outputs: dict) -> None:
    """The part a schema edit reruns, as in pages/playground.py's live_part()."""
    left, right = st.columns([2, 3], gap="large")
    with left:
        st.selectbox("Preset", ["reference", "loose"], key="playground_preset")
        st.caption("Preset lesson.")
        with st.container(horizontal=True):
            st.button("Apply", key="playground_apply_preset", width="stretch")
            st.button("Reset", key="playground_reset", width="stretch")
        st.success("Schema is valid.", icon="✅")
        st.text_area("Schema", key="schema_editor", height=620)
    with right:
        st.radio("Format", ["anthropic", "openai"], key="playground_format", horizontal=True)
        with st.container(border=True, key="playground_summary"):
            st.markdown("**6 of 6 match**")
            st.error("Leaked: none", icon="🚨")
            st.success("All good.")
        for i, out in enumerate(outputs["outputs"]):
            _card(f"playground_card_{out['id']}", out["label"]["en"], out["raw"], 0 < i < 5, i >= 4)
    st.divider()
    st.subheader("Try your own")
    st.text_area("Raw output", key="playground_free_input", height=140)
    st.caption("Type a model output above.")


def page() -> None:
    tool, outputs = _fixtures()
    if "schema_editor" not in st.session_state:
        st.session_state["schema_editor"] = json.dumps(tool["input_schema"], indent=2)
    st.title("Schema playground")
    st.markdown("Edit the schema; nothing is validated on this page.")
    _live(outputs)
    st.divider()
    st.subheader("Business rules")
    st.markdown("Schema-valid calls the backend refuses.")
    st.caption("Current customer: bench")
    st.dataframe([_ROW] * 4, hide_index=True, width="stretch")
    cols = st.columns(2)
    for i, case in enumerate(outputs["business_cases"]):
        with cols[i % 2]:
            _card(f"playground_business_{case['id']}", case["label"]["en"], case["raw"], False)
            st.warning("Backend refused.", icon="🛑")
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


st.navigation([st.Page(home, title="Home", url_path="home", default=True),
               st.Page(page, title="Playground", url_path="playground")]).run()
