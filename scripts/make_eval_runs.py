"""Generate the SIMULATED run logs in fixtures/eval_runs/ (no real model output is involved).

For every case of fixtures/selection/shop.<lang>.yaml and every version of the tool
descriptions (vague, good), draw ``runs_per_case`` outcomes from the per-request
probabilities in fixtures/eval_runs/simulation.yaml with a seeded numpy generator, turn each
outcome into a tool call (see that file's header), and write native JSONL:

    .venv/bin/python scripts/make_eval_runs.py            # rewrites fixtures/eval_runs/shop_*.jsonl

The same seed draws the same outcomes in both languages, so the English and Chinese logs
tell the same story. ``generate_lines`` is also used by bench/eval_scale.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from toolcall.fixtures import load_tool  # noqa: E402
from toolcall.selection import OMIT, load_set  # noqa: E402

SPEC = REPO / "fixtures" / "eval_runs" / "simulation.yaml"
ORDERS = ("ORD-20260917", "ORD-20260705", "ORD-20261102")


def _right(case) -> dict:
    args = {}
    for name, values in case.expected_arguments.items():
        present = [v for v in values if v != OMIT]
        if present and values[0] != OMIT:
            args[name] = present[0]
    return args


def _fill(schema: dict, args: dict) -> dict:
    """Keep the arguments ``schema`` knows; fill its required ones with plain stand-ins."""
    props = schema.get("properties", {})
    out = {k: v for k, v in args.items() if k in props}
    for name in schema.get("required", []):
        if name in out:
            continue
        prop = props.get(name, {})
        if "enum" in prop:
            out[name] = prop["enum"][0]
        elif prop.get("type") == "integer":
            out[name] = max(1, prop.get("minimum", 1))
        else:
            out[name] = ORDERS[0] if name == "order_id" else "x"
    return out


def _first(args: dict, schema: dict, test) -> str:
    for name in args:
        if test(schema["properties"].get(name, {})):
            return name
    raise ValueError(f"no argument fits this outcome in {sorted(args)}")


def outcome_call(outcome: str, case, tools: dict) -> dict | None:
    """The call (``{name, raw_arguments}``) an outcome stands for, or None for no call."""
    if outcome == "none" or (outcome == "right" and case.expected_tool is None):
        return None
    if outcome.startswith("call:"):
        name = outcome[5:]
        return {"name": name, "raw_arguments": json.dumps(_fill(tools[name], _right(case)), ensure_ascii=False)}
    name, schema = case.expected_tool, tools[case.expected_tool]
    args = _right(case)
    is_int = lambda p: p.get("type") == "integer"  # noqa: E731
    is_enum = lambda p: "enum" in p  # noqa: E731
    if outcome == "yuan_string":
        key = _first(args, schema, is_int)
        args[key] = f"{args[key] / 100:.2f}"
    elif outcome == "cents_x100":
        key = _first(args, schema, is_int)
        args[key] = args[key] * 100
    elif outcome == "wrong_enum":
        key = _first(args, schema, is_enum)
        choices = schema["properties"][key]["enum"]
        args[key] = choices[(choices.index(args[key]) + 1) % len(choices)]
    elif outcome == "capitalised":
        key = _first(args, schema, is_enum)
        args[key] = args[key].capitalize()
    elif outcome == "other_order":
        args["order_id"] = next(o for o in ORDERS if o != args["order_id"])
    elif outcome == "missing_order":
        del args["order_id"]
    elif outcome != "right" and outcome != "truncated":
        raise ValueError(f"unknown outcome {outcome!r}")
    raw = json.dumps(args, ensure_ascii=False)
    if outcome == "truncated":
        raw = raw[: len(raw) // 2]
    return {"name": name, "raw_arguments": raw}


def tool_list(version: str, spec: dict, names, lang: str = "en") -> list[dict]:
    """The tools as the model saw them, in ``lang``: the fixtures (good), or the same schemas
    with the vague one-line descriptions and no parameter descriptions (vague)."""
    tools = []
    for name in names:
        tool = load_tool(REPO / "fixtures" / "tools" / f"{name}.json").for_lang(lang).as_anthropic()
        if version == "vague":
            tool["description"] = spec["vague_descriptions"][name][lang]
            schema = json.loads(json.dumps(tool["input_schema"]))
            for prop in schema["properties"].values():
                prop.pop("description", None)
            tool["input_schema"] = schema
        tools.append(tool)
    return tools


def generate_lines(
    lang: str, version: str, runs: int | None = None, copies: int = 1, seed: int | None = None
) -> list[str]:
    """Native JSONL lines for one language and version. ``copies`` repeats every case under
    new ids (``<id>__<n>``) for benchmarks; ``runs`` and ``seed`` default to the spec's."""
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    sset = load_set(REPO / "fixtures" / "selection" / f"shop.{lang}.yaml")
    tools = tool_list(version, spec, sset.tools, lang)
    schemas = {t["name"]: t["input_schema"] for t in tools}
    rng = np.random.default_rng([spec["seed"] if seed is None else seed, spec["versions"].index(version)])
    runs = runs or spec["runs_per_case"]
    lines = []
    for copy in range(copies):
        for case in sset.cases:
            table = spec["cases"][case.id][version]
            names, probs = list(table), np.array(list(table.values()), dtype=float)
            if abs(probs.sum() - 1) > 1e-9:
                raise ValueError(f"{case.id}/{version}: probabilities sum to {probs.sum()}")
            draws = rng.choice(len(names), size=runs, p=probs)
            for r, draw in enumerate(draws, start=1):
                call = outcome_call(names[draw], case, schemas)
                rec = {
                    "case_id": case.id if copies == 1 else f"{case.id}__{copy}",
                    "run": r,
                    "model": f"simulated: {version} descriptions",
                    "request": case.request,
                }
                if not lines:
                    rec["tools"] = tools
                rec["expected_calls"] = list(case.expected_calls())
                rec["actual_calls"] = [call] if call else []
                lines.append(json.dumps(rec, ensure_ascii=False))
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "fixtures" / "eval_runs"))
    args = parser.parse_args(argv)
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    for lang in ("en", "zh"):
        for version in spec["versions"]:
            path = Path(args.out) / f"shop_{version}.{lang}.jsonl"
            path.write_text("\n".join(generate_lines(lang, version)) + "\n", encoding="utf-8")
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
