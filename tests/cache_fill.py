"""Fill each bounded cache (toolcall.safe_validator.SizedCache) through the code that fills it in the app, with
the largest realistic values a student can make it keep; and a cache's real retained bytes, measured.

Used by tests/unit/test_cache_bytes.py and bench/cache_walk.py. Every filler keeps its inputs within the app's
own limits (MAX_SCHEMA_CHARS, MAX_PATTERN_CHARS, MAX_MOVE_CHARS …): these are values a class can send.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable

from toolcall.safe_validator import SizedCache

def hostile_schema(n: int, tag: str = "") -> str:
    """A schema text whose ``default`` holds ``n`` empty objects (3 characters each): about 24 bytes of parsed
    dicts per character of text, the most a schema's characters hold (a string-heavy schema holds about 1 byte
    per character), and cheap to check (``default`` is not a subschema). ``tag`` makes it unique."""
    return json.dumps({"type": "object", "description": tag, "default": [{}] * n}, separators=(",", ":"))


def _patterns() -> None:
    from toolcall.safe_validator import MAX_PATTERN_CHARS, compile_pattern

    unit = "\\P{Lu}\\P{Ll}"  # the shape that holds the most Rust memory per character (toolcall/memsize.py)
    for i in range(300):
        head = f"{i:04d}"
        compile_pattern(head + unit * ((MAX_PATTERN_CHARS - len(head)) // len(unit)))


def _checks() -> None:
    from toolcall.validation import check_schema_cached

    for i in range(20):
        check_schema_cached(hostile_schema(6_000, str(i)), "en")


def _validators() -> None:
    from toolcall.validation import validate

    for i in range(20):
        validate({"a": 1}, json.loads(hostile_schema(6_000, str(i))))


def _too_expensive() -> None:
    from toolcall.validation import _too_expensive

    for i in range(20):  # what validate() keeps when a schema ran past its budget: the schema's JSON text
        _too_expensive.put(hostile_schema(60_000, str(i)), None)


def _judgements() -> None:
    from toolcall.fixtures import load_orders, load_outputs, load_tool
    from toolcall.judge import evaluate_cached, evaluate_canned_cached

    tool, outputs, book = load_tool(), load_outputs(), load_orders()
    for i in range(20):
        schema = json.loads(hostile_schema(6_000, str(i)))
        evaluate_canned_cached(outputs.outputs, schema, tool.name, book)
        raw = json.dumps({f"k{j}": j for j in range(400)})  # an error per key
        evaluate_cached(raw, {**tool.input_schema, "description": str(i)}, tool.name, book)


def _specs() -> None:
    from toolcall.charts import cached_spec, passk_chart_for

    for i in range(8):
        cached_spec(passk_chart_for, 0.5 + i / 100, 20, 0.3, "en")


def _simulations() -> None:
    from toolcall.charts import simulation_for

    for i in range(8):
        simulation_for(0.5 + i / 100, 8, 0.3)


def _regraded() -> None:
    from toolcall.harness import load_scenarios
    from toolcall.harness_grading import MAX_MOVE_CHARS, new_run

    scenario = load_scenarios().scenarios[0]
    for i in range(20):
        run = new_run(scenario, "anthropic")
        move = json.dumps([{"type": "text", "text": str(i)}] + [{"x": j} for j in range(2_000)])[:MAX_MOVE_CHARS]
        run.last_move = (1, move)  # plain_call's step 1 takes JSON
        run.last_grade(scenario, "en")


def _tool_editor() -> None:
    from toolcall.fixtures import Tool
    from toolcall.presets import PRESETS
    from ui.tool_editor import _preset_fields, _ref_key, checked_definition, review_findings

    for i in range(8):
        ref = Tool(f"t{i}", "d", json.loads(hostile_schema(6_000, str(i))))
        _ref_key(ref)
        for preset in PRESETS[:2]:
            _preset_fields(ref, preset)
        review_findings(ref, [ref])
        checked_definition(f"t{i}", "d", hostile_schema(6_000, str(i)), "en")
        checked_definition(f"t{i}", "d", json.dumps({"type": "object", "default": [[[[i]]]] * 20_000}), "en")


def _counts() -> None:
    from ui.model_view import _count

    for i in range(20):
        _count(f"{i} " + "tool " * 20_000)


def _strict() -> None:
    from toolcall.fixtures import load_outputs
    from ui.strict_panel import _matrix

    outputs = load_outputs().outputs
    for i in range(3):
        schema = {"type": "object", "description": str(i),
                  "properties": {f"p{j}": {"type": "string", "maxLength": j} for j in range(400)}}
        _matrix(schema, outputs)


def _cards() -> None:
    from toolcall.fixtures import load_orders, load_outputs, load_tool
    from toolcall.judge import evaluate_canned_cached
    from ui.cards import show_card
    from ui.playground_pick import output_labels

    tool, outputs, book = load_tool(), load_outputs(), load_orders()
    for i in range(10):
        canned = evaluate_canned_cached(outputs.outputs, json.loads(hostile_schema(2_000, str(i))), tool.name, book)
        output_labels(canned)
        for n, judged in enumerate(canned):
            show_card(judged.card, f"card_{n}", f"label {n}", judged, tool.name, "anthropic")


def _pairing() -> None:
    from ui.pairing_checks import checked, conversion

    for i in range(20):  # 600 unpaired tool_use blocks (~40 KB each): a report and a conversion per paste
        messages = [{"role": "user", "content": f"go {i}"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}_{j}", "name": "t",
                                                       "input": {"k": j}} for j in range(600)]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"other_{j}", "content": "ok"}
                                                 for j in range(600)]}]
        text = json.dumps(messages)
        checked(text, "auto", "en")
        conversion(text, "anthropic", "openai", "en")


#: The filler of each cache, by "module.name" (what tests/unit/test_cache_bytes.py finds).
FILLERS: dict[str, Callable[[], None]] = {
    "toolcall.safe_validator._patterns": _patterns,
    "toolcall.validation._checks": _checks,
    "toolcall.validation._meta_checks": _checks,
    "toolcall.validation._validators": _validators,
    "toolcall.validation._too_expensive": _too_expensive,
    "toolcall.judge._canned": _judgements,
    "toolcall.judge._free": _judgements,
    "toolcall.charts._specs": _specs,
    "toolcall.charts._simulations": _simulations,
    "toolcall.harness_grading._regraded": _regraded,
    "ui.tool_editor._ref_json": _tool_editor,
    "ui.tool_editor._written": _tool_editor,
    "ui.tool_editor._reviews": _tool_editor,
    "ui.tool_editor._definitions": _tool_editor,
    "ui.model_view._counts": _counts,
    "ui.strict_panel._computed": _strict,
    "ui.cards._plans": _cards,
    "ui.playground_pick._labels": _cards,
    "ui.pairing_checks._reports": _pairing,
    "ui.pairing_checks._conversions": _pairing,
}


def retained_by(cache: SizedCache) -> int:
    """The bytes that only ``cache`` keeps alive, as tracemalloc sees them: traced memory before and after
    ``cache.clear()``. ``tracemalloc`` must be tracing since before the entries were made. Native memory (a
    compiled pattern's program) is not seen: see tests/unit/test_cache_bytes.py for the patterns' RSS test."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    cache.clear()
    gc.collect()
    return before - tracemalloc.get_traced_memory()[0]
