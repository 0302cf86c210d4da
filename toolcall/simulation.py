"""The simulated run logs of fixtures/eval_runs/ (no real model output is involved): their spec,
fixtures/eval_runs/simulation.yaml, checked as ``python -m toolcall check`` checks every instructor file, and the
seeded draw scripts/make_eval_runs.py writes.

For every case of fixtures/selection/shop.<lang>.yaml and every version of the tool descriptions (vague, good),
``runs_per_case`` outcomes are drawn from the case's probabilities with a seeded numpy generator, each outcome is
turned into a tool call (see simulation.yaml's header) and written as native JSONL. The same seed draws the same
outcomes in both languages, so the English and Chinese logs tell the same story.

simulation.yaml was read by the script only: a typo in it (an outcome ``righ``, probabilities summing to 0.1, a
case renamed) passed ``check`` and ended the script in a traceback naming no file (break-it pass brk16content).
"""

from __future__ import annotations

import difflib
import json
import math
from pathlib import Path


from toolcall import FIXTURES_DIR
from toolcall.text import escape_line, escape_lookalikes, escaped_head, quoted_head
from toolcall.fixtures import FixtureError, Problem, display_name, json_path, load_tool, read_data, schema_problems
from toolcall.i18n import LANGS, fill
from toolcall.selection import OMIT, load_set

ORDERS = ("ORD-20260917", "ORD-20260705", "ORD-20261102")

#: A case id, an outcome or a tool name quoted in a problem of simulation.yaml: at most this many characters as
#: drawn, look-alike letters and hidden characters escaped (toolcall.text.quoted_head).
MAX_SHOWN_NAME = 80


def _shown(name) -> str:
    """``name`` quoted as a problem of simulation.yaml quotes it: ``'so_l\\u0430mp'``, where repr drew the Cyrillic
    а of a case id as 'so_lаmp', a case the set has (break-it pass brk18new)."""
    return quoted_head(str(name), MAX_SHOWN_NAME)


#: At most this many names of one simulation.yaml are compared with the names they may mean ("did you mean"): each
#: comparison (difflib) costs the length of both names, once per name of the set, so 3 000 unknown case ids in a
#: 263 KB spec against a set of 500 cases held check for 215 s (break-it pass brk19new). Past it a name is named
#: without a guess.
MAX_HINTS = 20


class _Hints:
    """The "did you mean" guesses one spec_problems call may still make (MAX_HINTS)."""

    def __init__(self) -> None:
        self.left = MAX_HINTS

    def close(self, name, names) -> str:
        """`` did you mean 'x'?`` for the one of ``names`` ``name`` is closest to (difflib, cutoff 0.8; a look-alike
        letter is a letter off), or "" (also once MAX_HINTS guesses were made); only ``name``'s first
        MAX_SHOWN_NAME characters are compared."""
        if self.left <= 0:
            return ""
        self.left -= 1
        close = difflib.get_close_matches(str(name)[:MAX_SHOWN_NAME], [str(n) for n in names], n=1, cutoff=0.8)
        return f": did you mean {_shown(close[0])}?" if close else ""


def _plain_list(names) -> str:
    """At most a dozen of ``names`` (tool names, which their schema holds to ``[a-zA-Z0-9_-]``) joined, then how many
    more: a set of 3 000 tools was listed whole in every problem that named the set's tools (brk19new)."""
    names = list(names)
    return ", ".join(names[:12]) + (f" and {len(names) - 12:,} more" if len(names) > 12 else "")


def _shown_list(names) -> str:
    """At most a dozen of ``names`` quoted (_shown), then how many more."""
    names = list(names)
    text = ", ".join(_shown(n) for n in names[:12])
    return text + (f" and {len(names) - 12:,} more" if len(names) > 12 else "")


def _right(case) -> dict:
    args = {}
    for name, values in case.expected_arguments.items():
        present = [v for v in values if v != OMIT]
        if present and values[0] != OMIT:
            args[name] = present[0]
    return args


def _prop(schema: dict, name) -> dict:
    """The schema of property ``name``, or {} when it has none or it is not an object: JSON Schema allows ``true``
    for a property, and ``_fill`` ended check in ``TypeError: argument of type 'bool' is not iterable`` on it."""
    props = schema.get("properties")
    prop = props.get(name) if isinstance(props, dict) else None
    return prop if isinstance(prop, dict) else {}


def _enum(prop: dict) -> list | None:
    """The property's enum when it is a list of values, else None."""
    choices = prop.get("enum")
    return choices if isinstance(choices, list) and choices else None


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fill(schema: dict, args: dict) -> dict:
    """Keep the arguments ``schema`` knows; fill its required ones with plain stand-ins."""
    props = schema.get("properties", {})
    out = {k: v for k, v in args.items() if k in props}
    for name in schema.get("required", []):
        if name in out:
            continue
        prop = _prop(schema, name)
        if (choices := _enum(prop)) is not None:
            out[name] = choices[0]
        elif prop.get("type") == "integer":
            least = prop.get("minimum", 1)
            out[name] = max(1, least) if isinstance(least, (int, float)) and not isinstance(least, bool) else 1
        else:
            out[name] = ORDERS[0] if name == "order_id" else "x"
    return out


def _first(args: dict, schema: dict, test) -> str:
    for name in args:
        if test(_prop(schema, name)):
            return name
    raise ValueError(f"no argument fits this outcome in [{_shown_list(sorted(args, key=str))}]")


def _value_problem(key, value, what: str) -> ValueError:
    """The error of an outcome that cannot change ``value``, the right value of argument ``key``: it is not
    ``what``. A right value of the wrong type (``amount_cents: [null]``, ``reason: [7]`` in the set) ended check in
    a TypeError or AttributeError traceback (break-it pass brk19new); the set's own checks name its type."""
    shown = escaped_head(json.dumps(value, ensure_ascii=False, default=str), MAX_SHOWN_NAME,
                         lambda piece: escape_line(escape_lookalikes(piece)))  # as JSON: null, "25.99"
    return ValueError(f"the right value of {_shown(key)} is {shown}, not {what}")


def outcome_call(outcome: str, case, tools: dict) -> dict | None:
    """The call (``{name, raw_arguments}``) an outcome stands for, or None for no call. Raises ValueError saying
    why when the outcome cannot be drawn for ``case`` (spec_problems names it)."""
    if outcome == "none" or (outcome == "right" and case.expected_tool is None):
        return None
    if outcome.startswith("call:"):
        name = outcome[5:]
        return {"name": name, "raw_arguments": json.dumps(_fill(tools[name], _right(case)), ensure_ascii=False)}
    if case.expected_tool not in tools:
        raise ValueError(f"its tool {_shown(case.expected_tool)} is not a tool of the selection set")
    name, schema = case.expected_tool, tools[case.expected_tool]
    args = _right(case)
    is_int = lambda p: p.get("type") == "integer"  # noqa: E731
    is_enum = lambda p: _enum(p) is not None  # noqa: E731
    if outcome in ("yuan_string", "cents_x100"):
        key = _first(args, schema, is_int)
        if not _number(args[key]):
            raise _value_problem(key, args[key], "a number")
        args[key] = f"{args[key] / 100:.2f}" if outcome == "yuan_string" else args[key] * 100
    elif outcome == "wrong_enum":
        key = _first(args, schema, is_enum)
        choices = _enum(_prop(schema, key))
        if args[key] not in choices:
            raise _value_problem(key, args[key], "one of its enum")
        args[key] = choices[(choices.index(args[key]) + 1) % len(choices)]
    elif outcome == "capitalised":
        key = _first(args, schema, is_enum)
        if not isinstance(args[key], str):
            raise _value_problem(key, args[key], "text")
        args[key] = args[key].capitalize()
    elif outcome in ("other_order", "missing_order"):
        if "order_id" not in args:
            raise ValueError("the right call has no order_id")
        if outcome == "missing_order":
            del args["order_id"]
        else:
            args["order_id"] = next(o for o in ORDERS if o != args["order_id"])
    elif outcome != "right" and outcome != "truncated":
        raise ValueError(f"unknown outcome {_shown(outcome)}")
    raw = json.dumps(args, ensure_ascii=False)
    if outcome == "truncated":
        raw = raw[: len(raw) // 2]
    return {"name": name, "raw_arguments": raw}


def tool_list(version: str, spec: dict, names, lang: str = "en", fixtures: Path | None = None) -> list[dict]:
    """The tools as the model saw them, in ``lang``: the fixtures (good), or the same schemas
    with the vague one-line descriptions and no parameter descriptions (vague)."""
    tools = []
    for name in names:
        tool = load_tool((fixtures or FIXTURES_DIR) / "tools" / f"{name}.json").for_lang(lang).as_anthropic()
        if version == "vague":
            tool["description"] = spec["vague_descriptions"][name][lang]
            schema = json.loads(json.dumps(tool["input_schema"]))
            for prop in schema["properties"].values():
                if isinstance(prop, dict):  # a property may be true (any value): it has no description
                    prop.pop("description", None)
            tool["input_schema"] = schema
        tools.append(tool)
    return tools


def generate_lines(
    lang: str, version: str, runs: int | None = None, copies: int = 1, seed: int | None = None,
    fixtures: Path | None = None,
) -> list[str]:
    """Native JSONL lines for one language and version, from ``fixtures`` (default FIXTURES_DIR, the content
    root's). ``copies`` repeats every case under new ids (``<id>__<n>``) for benchmarks; ``runs`` and ``seed``
    default to the spec's. A case of the set that simulation.yaml gives no probabilities has no runs (the README:
    a case added to the set may have none yet); before, it raised KeyError. Raises FixtureError when
    :func:`spec_problems` finds any."""
    import numpy as np  # here: check reads this module's spec_problems, and needs no numpy

    fixtures = fixtures or FIXTURES_DIR
    if problems := spec_problems(fixtures.parent):
        raise FixtureError(problems)
    spec = read_data(fixtures / "eval_runs" / "simulation.yaml")
    sset = load_set(fixtures / "selection" / f"shop.{lang}.yaml")
    tools = tool_list(version, spec, sset.tools, lang, fixtures)
    schemas = {t["name"]: t["input_schema"] for t in tools}
    rng = np.random.default_rng([spec["seed"] if seed is None else seed, spec["versions"].index(version)])
    runs = runs or spec["runs_per_case"]
    lines = []
    for copy in range(copies):
        for case in sset.cases:
            if case.id not in spec["cases"]:
                continue
            table = spec["cases"][case.id][version]
            names, probs = list(table), np.array(list(table.values()), dtype=float)
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


def _max_runs() -> int:
    """Most runs one generated log may hold: what the selection lab reads of a log (toolcall.eval_import.MAX_RUNS)."""
    from toolcall.eval_import import MAX_RUNS

    return MAX_RUNS


def spec_problems(root: Path) -> list[Problem]:
    """Every problem of ``root``/fixtures/eval_runs/simulation.yaml, each with the file and JSON path: its shape
    (fixtures/schemas/simulation.schema.json), a case the set of some language does not have, probabilities that do
    not sum to 1, an outcome that cannot be drawn for its case (``yuan_string`` for a case with no integer argument,
    ``call:<tool>`` for a tool outside the set), a tool of the set with no vague description, and more runs than the
    lab reads. ``[]`` when there is no simulation.yaml (a content root without simulated runs)."""
    path = Path(root) / "fixtures" / "eval_runs" / "simulation.yaml"
    if not path.is_file() and not path.is_symlink():
        return []
    name = display_name(path)
    try:
        spec = read_data(path)
    except FixtureError as exc:
        return exc.problems
    if problems := schema_problems(spec, "simulation", name):
        return problems
    sets = {}
    for lang in LANGS:
        try:
            sets[lang] = load_set(Path(root) / "fixtures" / "selection" / f"shop.{lang}.yaml")
        except FixtureError:
            continue  # reported by the selection checks
    problems, hints = [], _Hints()
    for lang, sset in sets.items():
        cases = {c.id: c for c in sset.cases}
        if (total := len([c for c in cases if c in spec["cases"]]) * spec["runs_per_case"]) > _max_runs():
            problems.append(Problem(name, "$.runs_per_case", fill(
                "{runs:,} {runs:plural:run|runs} of each of {cases:,} {cases:plural:case|cases} make {total:,} runs in "
                "one log; the selection lab reads at most {limit:,}", runs=spec["runs_per_case"],
                cases=total // spec["runs_per_case"], total=total, limit=_max_runs())))
        try:
            tools = {t["name"]: t["input_schema"] for t in tool_list("good", spec, sset.tools, lang, root / "fixtures")}
        except FixtureError:
            continue  # a tool of the set that does not load (or does not exist): reported by the selection checks
        if missing := [tool for tool in sset.tools if tool not in spec["vague_descriptions"]]:
            problems.append(Problem(name, "$.vague_descriptions", f"no vague description of ["
                                    f"{_plain_list(map(repr, missing))}], a tool of "
                                    f"fixtures/selection/shop.{lang}.yaml"))
        for case_id, table in spec["cases"].items():
            case = cases.get(case_id)
            if case is None:
                problems.append(Problem(name, json_path(["cases", case_id]), f"{_shown(case_id)} is no case of "
                                        f"fixtures/selection/shop.{lang}.yaml{hints.close(case_id, cases)}"))
                continue
            for version in spec["versions"]:
                if version not in table:
                    problems.append(Problem(name, json_path(["cases", case_id]), f"no probabilities for {version!r}"))
                    continue
                total = math.fsum(table[version].values())
                if abs(total - 1) > 1e-9:
                    problems.append(Problem(name, json_path(["cases", case_id, version]),
                                            f"the probabilities sum to {total:g}, not 1"))
                for outcome in table[version]:
                    if why := _outcome_problem(outcome, case, tools, hints):
                        problems.append(Problem(name, json_path(["cases", case_id, version, outcome]), why))
    return list(dict.fromkeys(problems))


#: The outcomes simulation.yaml may name besides ``call:<tool>`` (its header says what each draws).
OUTCOMES = ("right", "none", "yuan_string", "cents_x100", "wrong_enum", "capitalised", "other_order", "missing_order",
            "truncated")


def _outcome_problem(outcome: str, case, tools: dict, hints: _Hints) -> str | None:
    """Why ``outcome`` cannot be drawn for ``case`` (in English), or None."""
    if outcome not in OUTCOMES and not outcome.startswith("call:"):
        close = difflib.get_close_matches(outcome[:MAX_SHOWN_NAME], OUTCOMES, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"expected one of {', '.join(OUTCOMES)} or call:<tool>"
        return f"{_shown(outcome)} is no outcome: {hint}"
    if outcome.startswith("call:") and outcome[5:] not in tools:
        return (f"{_shown(outcome[5:])} is no tool of the selection set ({_plain_list(tools)})"
                f"{hints.close(outcome[5:], tools)}")
    if case.expected_tool is None and outcome not in ("right", "none") and not outcome.startswith("call:"):
        return f"{_shown(case.id)} expects no call, so there is no call to change into {_shown(outcome)}"
    try:
        outcome_call(outcome, case, tools)
    except ValueError as exc:  # outcome_call's own reasons, names escaped
        return f"cannot be drawn for {_shown(case.id)}: {exc}"
    except (LookupError, TypeError, AttributeError, StopIteration) as exc:  # a shape outcome_call does not foresee
        return f"cannot be drawn for {_shown(case.id)} ({type(exc).__name__})"
    return None
