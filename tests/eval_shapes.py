"""Upload shapes at the whole-document caps of toolcall.eval_import (MAX_JSON_BYTES, MAX_JSON_VALUES): realistic
Inspect samples, ``.json`` and ``.eval`` logs, and the largest of a shape that fits the caps. Used by
tests/unit/test_eval_parse_peak.py and bench/eval_parse_peak.py."""

from __future__ import annotations

import io
import json
import sys
import zipfile
from collections.abc import Callable

from toolcall.eval_import import MAX_JSON_BYTES, MAX_JSON_VALUES, json_values

if sys.version_info >= (3, 14):  # a zipfile that writes Zstandard (method 93), as Inspect writes a .eval
    import zipfile as zstd_zipfile
else:  # the backport of 3.14's (requirements.txt: backports-zstd)
    from backports.zstd import zipfile as zstd_zipfile  # noqa: F401 (imported by the tests)


def sample(i: int, events: int) -> dict:
    """One Inspect sample: a user turn, one refund call, ``events`` model events each listing the tool."""
    return {"id": f"c{i}", "epoch": 1, "target": "t",
            "messages": [{"role": "user", "content": "hello " * 20},
                         {"role": "assistant", "content": "ok", "tool_calls": [
                             {"function": "refund_order", "arguments": {"order_id": "A", "amount_cents": 1}}]}],
            "events": [{"event": "model", "tools": [{"name": "refund_order", "parameters": {"type": "object"}}],
                        "output": {"choices": [{"message": {"content": "x" * 40, "k": [1, 2, 3]}}]}}
                       for _ in range(events)]}


def under_caps(data: bytes) -> bool:
    return len(data) <= MAX_JSON_BYTES and json_values(data) <= MAX_JSON_VALUES


def largest(build: Callable[[int], bytes]) -> bytes:
    """``build(n)`` for the largest n whose bytes are under both caps (doubling, then bisecting)."""
    lo, hi = 1, 2
    while under_caps(build(hi)):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if under_caps(build(mid)) else (lo, mid)
    return build(lo)


def json_log(n: int, events: int = 50) -> bytes:
    """An Inspect ``.json`` log of ``n`` samples."""
    return json.dumps({"version": 2, "eval": {"model": "m"}, "samples": [sample(i, events) for i in range(n)]}).encode()


def eval_log(*members: bytes) -> bytes:
    """A ``.eval`` log (a zip) whose samples are ``members``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", '{"eval": {"model": "m"}}')
        for i, member in enumerate(members):
            z.writestr(f"samples/c{i}_epoch_1.json", member)
    return buf.getvalue()


#: name → (upload bytes builder, reader format, file name): every reader that parses a whole document, with the
#: shapes that hold the most per byte seen.
SHAPES: dict[str, Callable[[], tuple[bytes, str, str]]] = {
    "Inspect .json, realistic samples": lambda: (largest(json_log), "inspect", "log.json"),
    ".eval, one realistic member": lambda: (eval_log(largest(lambda n: json.dumps(sample(0, n)).encode())),
                                            "inspect", "log.eval"),
    ".eval, one member of empty lists": lambda: (eval_log(largest(lambda n: json.dumps(
        sample(0, 1) | {"pad": [[]] * n}).encode())), "inspect", "log.eval"),
    ".eval, one member of long strings": lambda: (eval_log(largest(lambda n: json.dumps(
        {"id": "c0", "epoch": 1, "pad": ["y" * 1000] * n}).encode())), "inspect", "log.eval"),
    "τ-bench results": lambda: (largest(lambda n: json.dumps(
        [{"task_id": i, "reward": 1.0, "trial": 0, "info": {"pad": "z" * 200, "k": [1, 2]}} for i in range(n)]).encode()),
        "tau", "results.json"),
}
