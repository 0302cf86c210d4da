"""The playground's replay section: one refund sent three times (first call, the same request
re-sent with the same tool_use id, the model writing it again with a new id) to a refund service
keyed by the tool_use id and to one keyed by the business parameters (toolcall.judge.replay_demo)."""

from __future__ import annotations

import streamlit as st

from toolcall.backend import KEY_BY_CALL_ID
from toolcall.judge import replay_demo
from toolcall.markdown import table
from ui.common import lang, show_json, tr


def show_replay(raw: str, schema, tool_name: str, book, fmt: str) -> None:
    """Draw the replay table and what each keying paid; ``raw`` is a valid refund's arguments."""
    by_id, by_business = replay_demo(raw, schema, tool_name, book, lang(), fmt)
    st.subheader(tr("replay.title"))
    st.markdown(tr("replay.intro"))
    rows = []
    for (kind, id_card), (_, biz_card) in zip(by_id.calls, by_business.calls):
        rows.append({tr("replay.col_call"): tr(f"replay.kind.{kind}"), tr("replay.col_id"): id_card.tool_use_id,
                     tr("replay.col_by_id"): _outcome(id_card), tr("replay.col_by_business"): _outcome(biz_card)})
    st.markdown(table(rows))  # no pandas on the playground (bench/README.md, section H)
    for run in (by_id, by_business):
        text = tr(f"replay.total.{run.key_by}", paid=run.paid, cents=run.refunded_cents)
        (st.error if run.key_by == KEY_BY_CALL_ID and run.paid > 1 else st.success)(text, icon="🔁")
    st.caption(tr("replay.reissue_result"))
    show_json(by_business.calls[-1][1].tool_result)


def _outcome(card) -> str:
    """One cell: the refund id paid, the first refund returned again, or the refusal's code."""
    result = card.backend
    if result is None:
        return tr("replay.not_run")
    if not result.ok:
        return (result.error or {}).get("code", "")
    data = result.data or {}
    key = "replay.returned_first" if data.get("replayed") else "replay.paid"
    return tr(key, refund_id=data.get("refund_id", ""), cents=data.get("amount_cents", ""))
