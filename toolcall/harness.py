"""The harness lab: the student is the loop. A scripted fake model, scenario fixtures, a step grader.

A scenario (``fixtures/scenarios/*.yaml``, checked by ``fixtures/schemas/scenario.schema.json``)
is a customer's sentence, the tools on offer and a list of steps. At each step the fake model's
recorded response is shown (rendered in the Anthropic or the OpenAI wire format) and the student
makes the harness's next move:

* ``choice``: one of several possible next moves; each carries what the real API or the real
  world would do with it (a 400, a double refund, a loop that never ends).
* ``json``: the student writes the next request's fields (``messages``, ``max_tokens``…) as JSON,
  graded by ``toolcall.harness_grading`` (strict parse, our pairing rules, the step's expectations).

Fixture strings may hold placeholders, filled per format and language: ``{call:a}`` is the id
of the recorded call ``a``, ``{user}`` the customer's sentence, and a list item that is exactly
``"{echo}"`` becomes the assistant message that carries the step's response back unchanged.

This module loads scenarios and plays the fake model; grading, runs and the scenario check are in
``toolcall.harness_grading``. Pure: no streamlit import.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall import FIXTURES_DIR
from toolcall.fixtures import (FixtureError, Problem, display_name, first_introduced, json_path, load_checked,
                               pointer_parts, require_unique_ids)
from toolcall.results import call_id
from toolcall.wire import ANTHROPIC, OPENAI
from toolcall.wire import HARNESS_FORMATS as FORMATS

SCENARIOS_DIR = FIXTURES_DIR / "scenarios"
#: Prefix of the progress-store ids of scenario results (``harness:plain_call``).
PROGRESS_PREFIX = "harness:"
#: What each stop reason is called in OpenAI Chat Completions ``finish_reason`` (pause_turn has no
#: counterpart there). A refusal is rendered as ``message.refusal`` set and content null; the lab
#: shows finish_reason ``stop`` with it (our choice: the docs below describe the field, not the reason).
#: Sources: https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons and
#: https://platform.openai.com/docs/guides/structured-outputs#refusals
FINISH_REASON = {"tool_use": "tool_calls", "end_turn": "stop", "max_tokens": "length", "refusal": "stop"}
#: The consequence kinds a wrong choice may name (the page picks an icon per kind).
CONSEQUENCES = (
    "http_400",
    "double_refund",
    "stuck_loop",
    "lost_result",
    "wrong_answer",
    "crash",
    "unsafe",
    "context_blowup",
)
_PLACEHOLDER = re.compile(r"\{(call:[a-z0-9_]+|user)\}")
ECHO = "{echo}"


# --- the fixture -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One possible next move of a choice step; ``consequence`` is None for the right one."""

    id: str
    label: dict[str, str]
    correct: bool
    feedback: dict[str, str]
    consequence: str | None = None
    code: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One decision. ``model`` is the recorded response shown first (or None); ``world`` what
    the tools or the network did; ``kind`` is ``choice`` (``options``) or ``json`` (``answer``
    per format, ``expect`` checks, ``wrong_moves`` that must fail)."""

    id: str
    kind: str
    prompt: dict[str, str]
    formats: tuple[str, ...]
    model: dict[str, Any] | None = None
    world: dict[str, str] | None = None
    options: tuple[Option, ...] = ()
    answer: dict[str, Any] = field(default_factory=dict)
    expect: tuple[dict[str, Any], ...] = ()
    wrong_moves: tuple[dict[str, Any], ...] = ()
    history: tuple[Any, ...] | None = None
    explain: dict[str, str] | None = None


@dataclass(frozen=True)
class Scenario:
    """A whole scenario as loaded from its file (``file`` is the repository-relative path)."""

    id: str
    order: int
    title: dict[str, str]
    summary: dict[str, str]
    user: dict[str, str]
    tools: tuple[dict[str, Any], ...]
    steps: tuple[Step, ...]
    sources: tuple[str, ...]
    models: dict[str, str]
    max_tokens: int
    file: str

    @property
    def progress_id(self) -> str:
        """The id its results are stored under in the progress store."""
        return PROGRESS_PREFIX + self.id

    def steps_for(self, fmt: str) -> tuple[Step, ...]:
        """The steps shown in wire format ``fmt`` (a step may exist in one format only)."""
        return tuple(s for s in self.steps if fmt in s.formats)


def _option(data: dict[str, Any]) -> Option:
    return Option(
        data["id"],
        data["label"],
        data.get("correct", False),
        data["feedback"],
        data.get("consequence"),
        data.get("code", {}),
    )


def _step(data: dict[str, Any]) -> Step:
    history = data.get("history")
    return Step(
        data["id"],
        data["kind"],
        data["prompt"],
        tuple(data.get("formats", FORMATS)),
        data.get("model"),
        data.get("world"),
        tuple(_option(o) for o in data.get("options", [])),
        data.get("answer", {}),
        tuple(data.get("expect", [])),
        tuple(data.get("wrong_moves", [])),
        tuple(history) if history is not None else None,
        data.get("explain"),
    )


#: The step fields every kind reads, and those each kind reads besides: the schema lists them all, so ``explain``
#: on a choice step (a hint no student sees) or ``options`` on a json step passed it while the app ignores them.
STEP_COMMON_FIELDS = frozenset({"id", "kind", "formats", "model", "world", "prompt"})
STEP_KIND_FIELDS = {"choice": frozenset({"options"}),
                    "json": frozenset({"answer", "expect", "wrong_moves", "history", "explain"})}


def _unread_step_fields(name: str, where: list, step: dict[str, Any]) -> list[Problem]:
    reads = STEP_KIND_FIELDS[step["kind"]]
    return [Problem(name, json_path(where + [k]), f"a {step['kind']} step never reads {k!r} (it reads "
                    f"{', '.join(sorted(reads))} besides the common fields): remove it, or change the kind")
            for k in step if k not in STEP_COMMON_FIELDS | reads]


def _tool_schema_problems(name: str, tools: list[dict[str, Any]]) -> list[Problem]:
    """A Problem for each tool whose input_schema is no valid JSON Schema (check_schema, as load_tool checks a
    fixtures/tools file): scenario.schema.json asks only for an object, so ``required: -1`` or ``type: strin``
    passed check and went into every request the page shows as what the harness sends (a provider refuses it)."""
    from toolcall.validation import check_schema  # here: validation imports fixtures, as harness does

    problems = []
    for i, tool in enumerate(tools):
        checked = check_schema(json.dumps(tool["input_schema"]))
        if not checked.ok:
            problems.append(Problem(name, json_path(["tools", i, "input_schema", *pointer_parts(checked.path or "")]),
                                    checked.message))
    return problems


def _consistency(path: Path, data: dict[str, Any]) -> list[Problem]:
    """What the schema cannot say: one right option per choice step, references to calls that
    exist, an answer for each format a json step is shown in."""
    name, problems = display_name(path), []
    tool_names = {tool["name"] for tool in data["tools"]}
    problems += _tool_schema_problems(name, data["tools"])
    for i, step in enumerate(data["steps"]):
        where = ["steps", i]
        problems += _unread_step_fields(name, where, step)
        calls = {c["id"] for c in (step.get("model") or {}).get("calls", [])}
        for j, call in enumerate((step.get("model") or {}).get("calls", [])):
            if call["name"] not in tool_names:
                problems.append(
                    Problem(
                        name,
                        json_path(where + ["model", "calls", j, "name"]),
                        f"{call['name']!r} is not one of the scenario's tools {sorted(tool_names)}",
                    )
                )
        if (step.get("model") or {}).get("stop_reason") == "pause_turn" and step.get("formats") != [ANTHROPIC]:
            problems.append(
                Problem(
                    name,
                    json_path(where + ["formats"]),
                    "pause_turn exists in the Anthropic API only: list formats: [anthropic]",
                )
            )
        if step["kind"] == "choice":
            right = [o["id"] for o in step.get("options", []) if o.get("correct")]
            if len(right) != 1:
                problems.append(
                    Problem(
                        name,
                        json_path(where + ["options"]),
                        f"a choice step needs exactly one correct option, found {len(right)}",
                    )
                )
            for j, o in enumerate(step.get("options", [])):
                if not o.get("correct") and not o.get("consequence"):
                    problems.append(
                        Problem(name, json_path(where + ["options", j]), "a wrong option must name its consequence")
                    )
                elif o.get("correct") and o.get("consequence"):  # the page would show it as right, silently
                    problems.append(
                        Problem(name, json_path(where + ["options", j, "consequence"]),
                                f"the correct option names the consequence {o['consequence']!r}, which the page never "
                                "shows for a right move: remove it, or make the option wrong")
                    )
        else:
            for fmt in step.get("formats", FORMATS):
                if fmt not in step.get("answer", {}):
                    problems.append(Problem(name, json_path(where + ["answer"]), f"no reference answer for {fmt}"))
            for j, exp in enumerate(step.get("expect", [])):
                if "call" in exp and exp["call"] not in calls:
                    problems.append(
                        Problem(
                            name,
                            json_path(where + ["expect", j, "call"]),
                            f"no recorded call {exp['call']!r} in this step's model response",
                        )
                    )
        for text in re.findall(r"\{call:([a-z0-9_]+)\}", json.dumps(step.get("answer", {}))):
            if text not in calls:
                problems.append(
                    Problem(name, json_path(where + ["answer"]), f"placeholder {{call:{text}}} names no call")
                )
    return problems


def load_scenario(path: Path) -> Scenario:
    """Load one scenario file, schema-checked and consistent. Raises FixtureError listing
    every problem with its JSON path (``$.steps[2].options``)."""
    data = load_checked(path, "scenario")
    require_unique_ids(path, data, "steps")
    problems = _consistency(path, data)
    # one tool per name; one id per option of a step, and per call of one model response (the providers refuse
    # repeated tool_use ids, and results pair with calls by id)
    checks = [(data, "tools", "name", ())]
    checks += [(step, "options", "id", ("steps", i)) for i, step in enumerate(data["steps"])]
    checks += [(step["model"], "calls", "id", ("steps", i, "model")) for i, step in enumerate(data["steps"])
               if step.get("model")]
    for part, section, key, at in checks:
        try:
            require_unique_ids(path, part, section, key=key, at=at)
        except FixtureError as exc:
            problems += exc.problems
    if problems:
        raise FixtureError(problems)
    return Scenario(
        data["id"],
        data["order"],
        data["title"],
        data["summary"],
        data["user"],
        tuple(data["tools"]),
        tuple(_step(s) for s in data["steps"]),
        tuple(data.get("sources", [])),
        data.get("models", {ANTHROPIC: "claude-sonnet-4-5", OPENAI: "gpt-4.1"}),
        data.get("max_tokens", 1024),
        display_name(path),
    )


@dataclass(frozen=True)
class ScenarioSet:
    """Every scenario that loaded (sorted by ``order``, then id) and every problem of those that did not."""

    scenarios: tuple[Scenario, ...]
    problems: tuple[Problem, ...]

    def by_id(self, scenario_id: str) -> Scenario:
        """Raises KeyError for an unknown id."""
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        raise KeyError(scenario_id)


def scenario_files(folder: Path | None = None) -> list[Path]:
    """The scenario files of ``folder`` (default fixtures/scenarios), sorted."""
    return sorted(Path(folder or SCENARIOS_DIR).glob("*.y*ml"))


def load_scenarios(folder: Path | None = None) -> ScenarioSet:
    """Load every scenario file; a broken file is left out and its problems listed. Two files
    with the same ``id`` is a problem of the one that introduced it (the later modified;
    ``first_introduced``)."""
    loaded, problems, seen = [], [], set()
    for path in first_introduced(scenario_files(folder)):
        try:
            s = load_scenario(path)
        except FixtureError as exc:
            problems += exc.problems
            continue
        if s.id in seen:
            problems.append(Problem(s.file, "$.id", f"scenario id {s.id!r} is used by another file"))
            continue
        seen.add(s.id)
        loaded.append(s)
    return ScenarioSet(tuple(sorted(loaded, key=lambda s: (s.order, s.id))), tuple(problems))


# --- the scripted fake model -----------------------------------------------------------------


def turn_step(scenario: Scenario, step: Step) -> Step:
    """The first step of ``scenario`` that shows the same model turn as ``step`` (an equal ``model``),
    else ``step``. A scenario shows one response again at the next step (step 1 asks what to do with
    it, step 2 asks for the follow-up request that echoes it unchanged): ids are keyed by this step, so
    the response and its call ids are the same wherever that turn is shown, and differ between turns
    that are really different (retries_cap's three invalid calls, each ``a``)."""
    if step.model is None:
        return step
    return next((s for s in scenario.steps if s.model == step.model), step)


def scenario_call_id(scenario: Scenario, step: Step, ref: str, fmt: str) -> str:
    """The provider-shaped id of recorded call ``ref`` of ``step``'s model turn (deterministic: the
    same on every step that shows that turn, see :func:`turn_step`)."""
    return call_id(f"{scenario.id}:{turn_step(scenario, step).id}:{ref}", fmt)


def _fill(value: Any, scenario: Scenario, step: Step, fmt: str, lang: str) -> Any:
    """``value`` with the placeholders filled (see the module docstring); a new object."""
    if isinstance(value, str):
        if value == ECHO:
            return echo(scenario, step, fmt, lang)

        def sub(m: re.Match) -> str:
            token = m.group(1)
            return scenario.user[lang] if token == "user" else scenario_call_id(scenario, step, token[5:], fmt)

        return _PLACEHOLDER.sub(sub, value)
    if isinstance(value, list):
        return [_fill(v, scenario, step, fmt, lang) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, scenario, step, fmt, lang) for k, v in value.items()}
    return value


def request_tools(scenario: Scenario, fmt: str) -> list[dict[str, Any]]:
    """The scenario's tools in ``fmt``'s request shape."""
    if fmt == ANTHROPIC:
        return [
            {"name": x["name"], "description": x["description"], "input_schema": x["input_schema"]}
            for x in scenario.tools
        ]
    return [
        {
            "type": "function",
            "function": {"name": x["name"], "description": x["description"], "parameters": x["input_schema"]},
        }
        for x in scenario.tools
    ]


def first_request(scenario: Scenario, fmt: str, lang: str) -> dict[str, Any]:
    """The request that opens the scenario: the customer's sentence and the tools."""
    return build_request(scenario, fmt, {"messages": [{"role": "user", "content": scenario.user[lang]}]})


def build_request(scenario: Scenario, fmt: str, move: dict[str, Any]) -> dict[str, Any]:
    """The whole request body: the model and tools the harness always sends, then the fields
    of ``move`` (a dict the student wrote, e.g. ``messages`` and ``max_tokens``) on top."""
    request: dict[str, Any] = {"model": scenario.models[fmt]}
    if fmt == ANTHROPIC:
        request["max_tokens"] = scenario.max_tokens
    request.update(copy.deepcopy(move))
    request["tools"] = request_tools(scenario, fmt)
    return request


def model_response(scenario: Scenario, step: Step, fmt: str, lang: str) -> dict[str, Any] | None:
    """The fake model's recorded response at ``step``, in ``fmt``'s wire shape (None when the
    step has no model turn). Anthropic: a Message; OpenAI: a ChatCompletion."""
    spec = step.model
    if spec is None:
        return None
    stop, text = spec["stop_reason"], spec.get("text", {}).get(lang)
    calls = [(scenario_call_id(scenario, step, c["id"], fmt), c) for c in spec.get("calls", [])]
    seed = call_id(f"{scenario.id}:{turn_step(scenario, step).id}:response")[len("toolu_01") :]
    if fmt == ANTHROPIC:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [{"type": "tool_use", "id": cid, "name": c["name"], "input": c["input"]} for cid, c in calls]
        if "partial" in spec:  # cut by max_tokens: the lab shows the block with an empty, unusable input
            p = spec["partial"]
            content.append(
                {
                    "type": "tool_use",
                    "id": scenario_call_id(scenario, step, "partial", fmt),
                    "name": p["name"],
                    "input": {},
                }
            )
        return {
            "id": f"msg_01{seed}",
            "type": "message",
            "role": "assistant",
            "model": scenario.models[fmt],
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 412, "output_tokens": 64 if stop != "max_tokens" else scenario.max_tokens},
        }
    message: dict[str, Any] = {
        "role": "assistant",
        "content": None if stop == "refusal" else text,
        "refusal": text if stop == "refusal" else None,
    }
    tool_calls = [
        {"id": cid, "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["input"])}}
        for cid, c in calls
    ]
    if "partial" in spec:
        p = spec["partial"]
        tool_calls.append(
            {
                "id": scenario_call_id(scenario, step, "partial", fmt),
                "type": "function",
                "function": {"name": p["name"], "arguments": p["text"]},
            }
        )
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": f"chatcmpl-{seed}",
        "object": "chat.completion",
        "created": 1789000000,
        "model": scenario.models[fmt],
        "choices": [
            {"index": 0, "message": message, "finish_reason": FINISH_REASON.get(stop, "stop"), "logprobs": None}
        ],
        "usage": {"prompt_tokens": 412, "completion_tokens": 64, "total_tokens": 476},
    }


def echo(scenario: Scenario, step: Step, fmt: str, lang: str) -> dict[str, Any]:
    """The assistant message that carries the step's response back in the next request, unchanged."""
    response = model_response(scenario, step, fmt, lang)
    if response is None:
        raise ValueError(f"step {step.id!r} has no model response to echo")
    if fmt == ANTHROPIC:
        return {"role": "assistant", "content": response["content"]}
    message = response["choices"][0]["message"]
    out = {"role": "assistant", "content": message["content"]}
    if "tool_calls" in message:
        out["tool_calls"] = message["tool_calls"]
    return out


def history(scenario: Scenario, step: Step, fmt: str, lang: str) -> list[Any]:
    """The conversation before ``step``'s response (default: the customer's sentence alone)."""
    if step.history is None:
        return [{"role": "user", "content": scenario.user[lang]}]
    return _fill(list(step.history), scenario, step, fmt, lang)


def starter(scenario: Scenario, step: Step, fmt: str, lang: str) -> str:
    """The text a json step's editor starts with: the conversation so far, to be continued."""
    move: dict[str, Any] = {"messages": history(scenario, step, fmt, lang)}
    if fmt == ANTHROPIC:
        move = {"max_tokens": scenario.max_tokens, **move}
    return json.dumps(move, ensure_ascii=False, indent=2)


def reference_move(scenario: Scenario, step: Step, fmt: str, lang: str) -> Any:
    """The right move: an option id (choice) or the request fields as a dict (json)."""
    if step.kind == "choice":
        return next(o.id for o in step.options if o.correct)
    return _fill(step.answer[fmt], scenario, step, fmt, lang)


def wrong_moves(scenario: Scenario, step: Step, fmt: str, lang: str) -> list[tuple[Any, tuple[str, ...]]]:
    """Every listed wrong move in ``fmt`` with the finding codes it must raise: each wrong
    option (code ``choice:<consequence>``) or each fixture ``wrong_moves`` entry."""
    if step.kind == "choice":
        return [(o.id, (f"choice:{o.consequence}",)) for o in step.options if not o.correct]
    return [
        (_fill(w["move"], scenario, step, fmt, lang), tuple(w["codes"])) for w in step.wrong_moves if w["format"] == fmt
    ]


def move_text(step: Step, move: Any) -> str:
    """A reference or wrong move as the text a student would submit (option id, or JSON)."""
    return move if step.kind == "choice" else json.dumps(move, ensure_ascii=False, indent=2)
