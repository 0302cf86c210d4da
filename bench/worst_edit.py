"""The server CPU of ONE rerun for each page's inputs at their caps, several shapes per input, sorted by cost.

Streamlit runs every session of a server process in threads that share one GIL: one student's edit that burns
3 s of CPU delays every other student on that process for about as long (issue 13: "no user can slow the others
down"). For each input a student can type into, this opens the page in AppTest, runs it once warm, puts a NEW
value of that shape in the box (so no cache has it) and measures ``time.process_time()`` around the one
``at.run()`` that follows (the script runs in a thread of this process, so its CPU is counted). Prints a Markdown
table, costliest first; bench/README.md section P holds one run. A benchmark, not a test. Not measured here: the
harness lab's JSON step (a 20 000-character move; in AppTest its first move did not advance the scenario) and the
selection lab's table (a data editor AppTest cannot type into).

    python bench/worst_edit.py                 # every input
    python bench/worst_edit.py --only pairing  # the rows whose input name contains "pairing"
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
# the answers and moves below are saved as progress: to a folder of this run, never the app's data/
os.environ["TOOLCALL_DATA_DIR"] = tempfile.mkdtemp(prefix="worst_edit_")

from streamlit.testing.v1 import AppTest  # noqa: E402

from toolcall.pairing import MAX_CHARS as PAIRING_CHARS  # noqa: E402
from toolcall.parsing import MAX_INPUT_CHARS  # noqa: E402
from toolcall.tooldef import MAX_DEFINITION_CHARS  # noqa: E402
from toolcall.validation import MAX_SCHEMA_CHARS  # noqa: E402


def _fill(build, cap: int) -> str:
    """The JSON text of ``build(n)`` for the largest n (doubling, then bisecting) whose text fits in ``cap``."""
    lo, hi = 1, 2
    while len(json.dumps(build(hi))) <= cap:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if len(json.dumps(build(mid))) <= cap else (lo, mid)
    return json.dumps(build(lo))


# --- schema editor shapes (an input_schema) ------------------------------------------------------------------
def wide(n: int, salt: str = "") -> dict:
    return {"type": "object", "properties": {f"p{i}{salt}": {"type": "string"} for i in range(n)},
            "required": [f"p{i}{salt}" for i in range(n)]}


def constrained(n: int, salt: str = "") -> dict:
    return {"type": "object", "properties": {f"p{i}{salt}": {"type": "integer", "minimum": i, "maximum": i + 9}
                                             for i in range(n)}, "required": [f"p{i}{salt}" for i in range(n)]}


def patterns(n: int, salt: str = "") -> dict:
    return {"type": "object", "properties": {f"p{i}{salt}": {"type": "string",
                                                             "pattern": f"^[a-z]{{1,{i % 50 + 1}}}x{i}$"}
                                             for i in range(n)}}


def defs(n: int, salt: str = "") -> dict:
    return {"type": "object", "properties": {f"p{i}{salt}": {"$ref": f"#/$defs/d{i}"} for i in range(n)},
            "$defs": {f"d{i}": {"type": "object", "properties": {"q": {"$ref": f"#/$defs/d{(i + 1) % n}"}}}
                      for i in range(n)}}


SCHEMA_SHAPES = {"wide": wide, "constrained": constrained, "patterns": patterns, "defs": defs}


# --- transcripts for the pairing checker ---------------------------------------------------------------------
def unpaired(n: int) -> list:
    """Anthropic messages: n tool_use blocks, each answered by a tool_result of another id."""
    return [{"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "t", "input": {}}
                                              for i in range(n)]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"other_{i}", "content": "ok"}
                                         for i in range(n)]}]


def paired(n: int) -> list:
    msgs = [{"role": "user", "content": "go"}]
    for i in range(n):
        msgs.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "t",
                                                       "input": {"a": i}}]})
        msgs.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}",
                                                  "content": "ok"}]})
    return msgs


def openai_calls(n: int) -> list:
    msgs = [{"role": "user", "content": "go"}]
    for i in range(n):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}]})
        msgs.append({"role": "tool", "tool_call_id": f"call_{i + 1}", "content": "ok"})
    return msgs


def one_big_string(n: int) -> list:
    return [{"role": "user", "content": "x" * n}]


# --- running one page --------------------------------------------------------------------------------------------
def _app(page: str, state: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=600)
    at.session_state["app_lang"] = "en"
    at.query_params["learner"] = "bench"
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    at.switch_page(page).run()
    return at


def _timed(at: AppTest) -> float:
    start = time.process_time()
    at.run()
    return time.process_time() - start


def _text_edit(page: str, key: str, text: str, state: dict | None = None, before=None) -> tuple[float, str]:
    """CPU seconds of the one rerun after ``key`` is set to ``text`` (the page warm); and the first error shown."""
    at = _app(page, state)
    if before:
        before(at)
    at.text_area(key=key).set_value(text) if key in [w.key for w in at.text_area] else at.session_state.__setitem__(
        key, text)
    cpu = _timed(at)
    shown = [e.value for e in at.error][:1] + [f"EXCEPTION {e.value}" for e in at.exception][:1]
    return cpu, (shown[0][:70] if shown else "")


def schema_rows(strict: bool):
    for name, build in SCHEMA_SHAPES.items():
        for label, text in ((f"{name}, at the {MAX_SCHEMA_CHARS:,}-char cap",
                             _fill(lambda n, b=build: b(n, "x"), MAX_SCHEMA_CHARS - 100)),
                            (f"{name}, 500 properties", json.dumps(build(500, "y")))):
            def before(at):
                if strict:
                    at.toggle(key="playground_strict_open").set_value(True).run()
            cpu, note = _text_edit("pages/playground.py", "schema_editor", text, before=before)
            yield (f"playground schema editor{' + strict panel' if strict else ''}", f"{label} ({len(text):,} chars)",
                   cpu, note)


def free_rows():
    body = {"amount_cents": 1, "order_id": "A"}
    shapes = {"many keys": {**body, **{f"k{i}": i for i in range(9000)}},
              "long string": {**body, "reason": "x" * (MAX_INPUT_CHARS - 200)},
              "deep": "DEEP"}
    for name, value in shapes.items():
        text = json.dumps({"type": "tool_use", "id": "toolu_1", "name": "refund_order", "input": value})
        text = text.replace('"DEEP"', "[" * 40_000 + "]" * 40_000)[:MAX_INPUT_CHARS]

        def before(at):
            at.radio(key="playground_output").set_value("-free").run()
        cpu, note = _text_edit("pages/playground.py", "playground_free_input", text, before=before)
        yield "playground free box", f"{name} ({len(text):,} chars)", cpu, note


def definition_rows():
    for name, build in SCHEMA_SHAPES.items():
        text = _fill(lambda n, b=build: {"name": "t", "description": "d", "input_schema": b(n, "z")},
                     MAX_DEFINITION_CHARS - 100)

        def before(at):
            at.session_state["playground_panel"] = "definition"
            at.run()
        cpu, note = _text_edit("pages/playground.py", "workbench_definition_text", text, before=before)
        yield "playground definition box", f"{name} ({len(text):,} chars)", cpu, note


def pairing_rows():
    for name, build in (("unpaired tool_use", unpaired), ("paired turns", paired), ("openai calls", openai_calls),
                        ("one long string", lambda n: one_big_string(n * 100))):
        text = _fill(build, PAIRING_CHARS - 100)
        cpu, note = _text_edit("pages/pairing.py", "pairing_input", text)
        yield "pairing checker + converter", f"{name} ({len(text):,} chars)", cpu, note


def exercise_rows():
    from toolcall.exercises import load_exercises  # noqa: PLC0415
    from toolcall.exercise_types.base import MAX_ANSWER_CHARS  # noqa: PLC0415

    for kind, build in (("schema_fix", lambda n: constrained(n, "e")),
                        ("json", lambda n: {f"k{i}": i for i in range(n)})):
        ex = next((e for e in load_exercises().exercises if e.type == kind), None)
        if ex is None:
            continue
        text = _fill(build, MAX_ANSWER_CHARS - 100)
        at = _app(f"pages/{ex.page}.py" if (REPO / "pages" / f"{ex.page}.py").exists() else "pages/exercises.py")
        at.text_area(key=f"exercises_{ex.id}_answer").input(text)
        at.button(key=f"exercises_{ex.id}_submit").click()
        cpu = _timed(at)
        yield f"exercise answer ({kind})", f"{ex.id}, {len(text):,} chars", cpu, ""


ROWS = {"schema": lambda: schema_rows(False), "strict": lambda: schema_rows(True), "free": free_rows,
        "definition": definition_rows, "pairing": pairing_rows, "exercise": exercise_rows}


def main() -> None:
    """Measure every input family (or ``--only`` those whose name contains a word) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run only the families whose name contains this")
    args = parser.parse_args()
    rows = []
    for family, make in ROWS.items():
        if args.only and args.only not in family:
            continue
        try:
            for row in make():
                rows.append(row)
                print(f"  {row[0]}: {row[1]}: {row[2]:.2f} s {row[3]}", file=sys.stderr, flush=True)
        except Exception as exc:  # a page whose keys changed: say so, keep measuring the rest
            print(f"  {family}: not measured ({type(exc).__name__}: {exc})", file=sys.stderr, flush=True)
    print("| input | shape | CPU s, one rerun | first error shown |\n|---|---|---|---|")
    for page, shape, cpu, note in sorted(rows, key=lambda r: -r[2]):
        print(f"| {page} | {shape} | {cpu:.2f} | {note.replace('|', '/')} |")


if __name__ == "__main__":
    main()
