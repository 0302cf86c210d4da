"""Message builders for hand-made transcripts (tests of the pairing checker): Anthropic blocks and
messages (``use``, ``result``, ``assistant``, ``user``) and OpenAI ones (``call``, ``calls``, ``tool``),
all about one refund_order call."""

import json

USER = {"role": "user", "content": "refund ORD-20260917"}
INPUT = {"order_id": "ORD-20260917", "amount_cents": 1999, "reason": "damaged"}
ARGS = json.dumps(INPUT)


def use(i="toolu_A"):
    return {"type": "tool_use", "id": i, "name": "refund_order", "input": INPUT}


def result(i="toolu_A", content="ok", **extra):
    return {"type": "tool_result", "tool_use_id": i, "content": content, **extra}


def assistant(*blocks):
    return {"role": "assistant", "content": list(blocks)}


def user(*blocks):
    return {"role": "user", "content": list(blocks)}


def call(i="call_A", args=ARGS):
    return {"id": i, "type": "function", "function": {"name": "refund_order", "arguments": args}}


def calls(*items):
    return {"role": "assistant", "content": None, "tool_calls": list(items)}


def tool(i="call_A", content="ok"):
    return {"role": "tool", "tool_call_id": i, "content": content}
