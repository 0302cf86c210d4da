"""The harness lab: the student is the loop. A scripted fake model, scenario fixtures, a step grader.

A scenario (``fixtures/scenarios/*.yaml``, checked by ``fixtures/schemas/scenario.schema.json``)
is a customer's sentence, the tools on offer and a list of steps. At each step the fake model's
recorded response is shown (rendered in the Anthropic or the OpenAI wire format) and the student
makes the harness's next move:

* ``choice``: one of several possible next moves; each carries what the real API or the real
  world would do with it (a 400, a double refund, a loop that never ends).
* ``json``: the student writes the next request's fields (``messages``, ``max_tokens``…) as JSON.
  It is parsed with ``toolcall.parsing.strict_loads`` (size-capped), checked with our pairing
  rules (``toolcall.pairing.check_pairing``: a break there is what the API would answer with
  HTTP 400) and then against the step's expectations (``EXPECTATIONS``).

Fixture strings may hold placeholders, filled per format and language: ``{call:a}`` is the id
of the recorded call ``a``, ``{user}`` the customer's sentence, and a list item that is exactly
``"{echo}"`` becomes the assistant message that carries the step's response back unchanged.

Scoring: a step is worth 1 point when its first move is right, 0.5 after one wrong move, 0
after more (the lab still lets the student finish). Pure: no streamlit import.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall import FIXTURES_DIR
from toolcall.fixtures import FixtureError, Problem, display_name, json_path, load_checked, require_unique_ids
from toolcall.i18n import LANGS, t
from toolcall.pairing import check_pairing
from toolcall.parsing import MAX_DEPTH, StrictJSONError, localized_detail, strict_loads
from toolcall.results import ANTHROPIC, FORMATS, OPENAI, call_id

SCENARIOS_DIR = FIXTURES_DIR / "scenarios"
#: Largest JSON move accepted, in characters (a whole follow-up request is a few thousand).
MAX_MOVE_CHARS = 20_000
#: Prefix of the progress-store ids of scenario results (``harness:plain_call``).
PROGRESS_PREFIX = "harness:"
#: What each stop reason is called in OpenAI Chat Completions ``finish_reason`` (pause_turn has no
#: counterpart there). A refusal is rendered as ``message.refusal`` set and content null; the lab
#: shows finish_reason ``stop`` with it (our choice: the docs below describe the field, not the reason).
#: Sources: https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons and
#: https://platform.openai.com/docs/guides/structured-outputs#refusals
FINISH_REASON = {"tool_use": "tool_calls", "end_turn": "stop", "max_tokens": "length", "refusal": "stop"}
#: The consequence kinds a wrong choice may name (the page picks an icon per kind).
CONSEQUENCES = ("http_400", "double_refund", "stuck_loop", "lost_result", "wrong_answer", "crash", "unsafe",
                "context_blowup")
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
    return Option(data["id"], data["label"], data.get("correct", False), data["feedback"], data.get("consequence"),
                  data.get("code", {}))


def _step(data: dict[str, Any]) -> Step:
    history = data.get("history")
    return Step(data["id"], data["kind"], data["prompt"], tuple(data.get("formats", FORMATS)), data.get("model"),
                data.get("world"), tuple(_option(o) for o in data.get("options", [])), data.get("answer", {}),
                tuple(data.get("expect", [])), tuple(data.get("wrong_moves", [])),
                tuple(history) if history is not None else None, data.get("explain"))


def _consistency(path: Path, data: dict[str, Any]) -> list[Problem]:
    """What the schema cannot say: one right option per choice step, references to calls that
    exist, an answer for each format a json step is shown in."""
    name, problems = display_name(path), []
    tool_names = {tool["name"] for tool in data["tools"]}
    for i, step in enumerate(data["steps"]):
        where = ["steps", i]
        calls = {c["id"] for c in (step.get("model") or {}).get("calls", [])}
        for j, call in enumerate((step.get("model") or {}).get("calls", [])):
            if call["name"] not in tool_names:
                problems.append(Problem(name, json_path(where + ["model", "calls", j, "name"]),
                                        f"{call['name']!r} is not one of the scenario's tools {sorted(tool_names)}"))
        if (step.get("model") or {}).get("stop_reason") == "pause_turn" and step.get("formats") != [ANTHROPIC]:
            problems.append(Problem(name, json_path(where + ["formats"]),
                                    "pause_turn exists in the Anthropic API only: list formats: [anthropic]"))
        if step["kind"] == "choice":
            right = [o["id"] for o in step.get("options", []) if o.get("correct")]
            if len(right) != 1:
                problems.append(Problem(name, json_path(where + ["options"]),
                                        f"a choice step needs exactly one correct option, found {len(right)}"))
            for j, o in enumerate(step.get("options", [])):
                if not o.get("correct") and not o.get("consequence"):
                    problems.append(Problem(name, json_path(where + ["options", j]),
                                            "a wrong option must name its consequence"))
        else:
            for fmt in step.get("formats", FORMATS):
                if fmt not in step.get("answer", {}):
                    problems.append(Problem(name, json_path(where + ["answer"]), f"no reference answer for {fmt}"))
            for j, exp in enumerate(step.get("expect", [])):
                if "call" in exp and exp["call"] not in calls:
                    problems.append(Problem(name, json_path(where + ["expect", j, "call"]),
                                            f"no recorded call {exp['call']!r} in this step's model response"))
        for j, text in enumerate(re.findall(r"\{call:([a-z0-9_]+)\}", json.dumps(step.get("answer", {})))):
            if text not in calls:
                problems.append(Problem(name, json_path(where + ["answer"]), f"placeholder {{call:{text}}} names no call"))
    return problems


def load_scenario(path: Path) -> Scenario:
    """Load one scenario file, schema-checked and consistent. Raises FixtureError listing
    every problem with its JSON path (``$.steps[2].options``)."""
    data = load_checked(path, "scenario")
    require_unique_ids(path, data, "steps")
    problems = _consistency(path, data)
    for i, step in enumerate(data["steps"]):
        try:
            require_unique_ids(path, step, "options")
        except FixtureError as exc:
            problems += [Problem(p.file, p.path.replace("$.", f"$.steps[{i}].", 1), p.message) for p in exc.problems]
    if problems:
        raise FixtureError(problems)
    return Scenario(data["id"], data["order"], data["title"], data["summary"], data["user"], tuple(data["tools"]),
                    tuple(_step(s) for s in data["steps"]), tuple(data.get("sources", [])),
                    data.get("models", {ANTHROPIC: "claude-sonnet-4-5", OPENAI: "gpt-4.1"}),
                    data.get("max_tokens", 1024), display_name(path))


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
    with the same ``id`` is a problem of the second."""
    loaded, problems, seen = [], [], set()
    for path in scenario_files(folder):
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

def scenario_call_id(scenario: Scenario, step: Step, ref: str, fmt: str) -> str:
    """The provider-shaped id of recorded call ``ref`` at ``step`` (deterministic)."""
    return call_id(f"{scenario.id}:{step.id}:{ref}", fmt)


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
        return [{"name": x["name"], "description": x["description"], "input_schema": x["input_schema"]}
                for x in scenario.tools]
    return [{"type": "function", "function": {"name": x["name"], "description": x["description"],
                                              "parameters": x["input_schema"]}} for x in scenario.tools]


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
    seed = call_id(f"{scenario.id}:{step.id}:response")[len("toolu_01"):]
    if fmt == ANTHROPIC:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [{"type": "tool_use", "id": cid, "name": c["name"], "input": c["input"]} for cid, c in calls]
        if "partial" in spec:  # cut by max_tokens: the lab shows the block with an empty, unusable input
            p = spec["partial"]
            content.append({"type": "tool_use", "id": scenario_call_id(scenario, step, "partial", fmt),
                            "name": p["name"], "input": {}})
        return {"id": f"msg_01{seed}", "type": "message", "role": "assistant", "model": scenario.models[fmt],
                "content": content, "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": 412, "output_tokens": 64 if stop != "max_tokens" else scenario.max_tokens}}
    message: dict[str, Any] = {"role": "assistant", "content": None if stop == "refusal" else text,
                               "refusal": text if stop == "refusal" else None}
    tool_calls = [{"id": cid, "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["input"])}}
                  for cid, c in calls]
    if "partial" in spec:
        p = spec["partial"]
        tool_calls.append({"id": scenario_call_id(scenario, step, "partial", fmt), "type": "function",
                           "function": {"name": p["name"], "arguments": p["text"]}})
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"id": f"chatcmpl-{seed}", "object": "chat.completion", "created": 1789000000, "model": scenario.models[fmt],
            "choices": [{"index": 0, "message": message, "finish_reason": FINISH_REASON.get(stop, "stop"),
                         "logprobs": None}],
            "usage": {"prompt_tokens": 412, "completion_tokens": 64, "total_tokens": 476}}


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
    return [(_fill(w["move"], scenario, step, fmt, lang), tuple(w["codes"])) for w in step.wrong_moves
            if w["format"] == fmt]


# --- grading ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """One reason a move is wrong: a stable ``code`` (``pairing:id_mismatch``, ``expect:is_error``,
    ``parse:INVALID_JSON``, ``choice:double_refund``…), the sentence in the grade's language, and
    whether the API itself would refuse the request with HTTP 400."""

    code: str
    message: str
    http_400: bool = False


@dataclass(frozen=True)
class MoveGrade:
    """The grade of one move: ``correct``; ``findings`` (empty when correct); ``feedback`` (the
    fixture's words for a choice, right or wrong); ``consequence`` (a CONSEQUENCES kind or None);
    ``request`` (the whole request a json move builds, None when it could not be built)."""

    correct: bool
    findings: tuple[Finding, ...] = ()
    feedback: str = ""
    consequence: str | None = None
    request: dict[str, Any] | None = None

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)


def grade_choice(step: Step, option_id: str, lang: str) -> MoveGrade:
    """Grade a choice. Raises KeyError for an option the step does not have."""
    option = next((o for o in step.options if o.id == option_id), None)
    if option is None:
        raise KeyError(option_id)
    if option.correct:
        return MoveGrade(True, feedback=option.feedback[lang])
    finding = Finding(f"choice:{option.consequence}", option.feedback[lang], option.consequence == "http_400")
    return MoveGrade(False, (finding,), option.feedback[lang], option.consequence)


def parse_move(text: str, lang: str) -> tuple[dict[str, Any] | None, Finding | None]:
    """The student's JSON text as a dict, or the Finding that says why not (too large, not JSON,
    not an object). Strict: no NaN, no duplicate keys (toolcall.parsing.strict_loads)."""
    if len(text) > MAX_MOVE_CHARS:
        return None, Finding("parse:TOO_LARGE", t("harness.finding.too_large", lang, size=len(text), limit=MAX_MOVE_CHARS))
    if not text.strip():
        return None, Finding("parse:EMPTY", t("harness.finding.empty", lang))
    try:
        value = strict_loads(text, MAX_DEPTH)
    except StrictJSONError as exc:
        where = t("harness.finding.at", lang, line=exc.line, column=exc.column) if exc.line is not None else ""
        return None, Finding(f"parse:{exc.code}", t("harness.finding.not_json", lang, where=where,
                                                      detail=localized_detail(exc, lang)))
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None, Finding("parse:NOT_A_REQUEST", t("harness.finding.not_request", lang))
    return value, None


def _results(fmt: str, messages: list[Any], start: int) -> dict[str, dict[str, Any]]:
    """Tool results in the turn that starts at ``messages[start]``, by call id, each as
    ``{"content": str, "is_error": bool, "message": index, "block": index}``."""
    found: dict[str, dict[str, Any]] = {}
    if fmt == ANTHROPIC:
        if start < len(messages) and isinstance(messages[start], dict) and isinstance(messages[start].get("content"), list):
            for j, b in enumerate(messages[start]["content"]):
                if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("tool_use_id"), str):
                    found[b["tool_use_id"]] = {"content": b.get("content", ""), "is_error": b.get("is_error") is True,
                                               "message": start, "block": j}
        return found
    for i in range(start, len(messages)):
        m = messages[i]
        if not isinstance(m, dict) or m.get("role") != "tool":
            break
        if isinstance(m.get("tool_call_id"), str):
            found[m["tool_call_id"]] = {"content": m.get("content", ""), "is_error": False, "message": i, "block": None}
    return found


def _content_object(content: Any) -> dict[str, Any] | None:
    """A result's content read as one JSON object (text content, or the first text block), else None."""
    if isinstance(content, list):
        content = next((b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"), None)
    if not isinstance(content, str) or len(content) > MAX_MOVE_CHARS:
        return None
    try:
        value = strict_loads(content)
    except StrictJSONError:
        return None
    return value if isinstance(value, dict) else None


def _retryable(obj: dict[str, Any]) -> Any:
    """``retryable`` at the top of an error object or under its ``error`` (the course's shape)."""
    if "retryable" in obj:
        return obj["retryable"]
    inner = obj.get("error")
    return inner.get("retryable") if isinstance(inner, dict) else None


def _same_turn(got: Any, want: dict[str, Any] | None) -> bool:
    """Is ``got`` the assistant turn ``want``, echoed? Keys whose value is null are ignored on
    both sides, so an OpenAI message copied with ``"refusal": null`` still counts."""
    def bare(m: Any) -> Any:
        return {k: v for k, v in m.items() if v is not None} if isinstance(m, dict) else m
    return want is not None and bare(got) == bare(want)


def _expectation(exp: dict[str, Any], ctx: dict[str, Any], lang: str) -> Finding | None:
    """Check one expectation; a Finding ``expect:<check>`` when it fails."""
    check, fmt, move, messages = exp["check"], ctx["fmt"], ctx["move"], ctx["messages"]
    start = len(ctx["history"])
    cid = ctx["ids"].get(exp.get("call", ""), "")
    results = _results(fmt, messages, start + 1)

    def fail(**params: Any) -> Finding:
        return Finding(f"expect:{check}", t(f"harness.expect.{check}", lang, **params))

    if check == "history":
        return None if messages[:start] == ctx["history"] else fail(count=start)
    if check == "echo":
        return None if start < len(messages) and _same_turn(messages[start], ctx["echo"]) else fail(index=start)
    if check == "result":
        return None if cid in results else fail(id=cid, index=start + 1)
    if check == "result_first":
        nxt = messages[start + 1] if start + 1 < len(messages) and isinstance(messages[start + 1], dict) else {}
        if fmt == ANTHROPIC:
            blocks = nxt.get("content")
            ok = isinstance(blocks, list) and bool(blocks) and isinstance(blocks[0], dict) and blocks[0].get("type") == "tool_result"
        else:
            ok = nxt.get("role") == "tool"
        return None if ok else fail(index=start + 1)
    if check == "is_error":
        r = results.get(cid)
        obj = _content_object(r["content"]) if r else None
        flagged = r is not None and (r["is_error"] or fmt == OPENAI)
        ok = flagged and obj is not None and _retryable(obj) is exp.get("retryable", True)
        return None if ok else fail(id=cid, retryable=json.dumps(exp.get("retryable", True)))
    if check == "not_error":
        r = results.get(cid)
        return None if r is None or not r["is_error"] else fail(id=cid)
    if check == "max_tokens_at_least":
        value = move.get("max_tokens")
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= exp["value"]
        return None if ok else fail(value=exp["value"])
    if check == "ends_with_echo":
        return None if len(messages) == start + 1 and _same_turn(messages[start], ctx["echo"]) else fail(index=start)
    return None


#: The expectation checks a json step may list, each a key under ``harness.expect.``.
EXPECTATIONS = ("history", "echo", "result", "result_first", "is_error", "not_error", "max_tokens_at_least",
                "ends_with_echo")


def grade_json(scenario: Scenario, step: Step, fmt: str, text: str, lang: str) -> MoveGrade:
    """Grade a json move (the request fields the student wrote, as text). Findings, in order:
    the parse (stop there), our pairing rules on the whole request (each an HTTP 400 the API
    would send), then the step's expectations."""
    move, problem = parse_move(text, lang)
    if problem is not None:
        return MoveGrade(False, (problem,))
    request = build_request(scenario, fmt, move)
    report = check_pairing(json.dumps(request), fmt, lang)
    findings = [Finding(f"pairing:{v.rule}", t("harness.finding.pairing", lang, rule=t(f"pairing.rule.{v.rule}", lang),
                                                detail=v.detail), True) for v in report.violations]
    if report.error:
        findings.append(Finding("parse:NOT_A_REQUEST", report.error, True))
    calls = (step.model or {}).get("calls", [])
    ctx = {"fmt": fmt, "move": move, "messages": move["messages"], "history": history(scenario, step, fmt, lang),
           "echo": echo(scenario, step, fmt, lang) if step.model else None,
           "ids": {c["id"]: scenario_call_id(scenario, step, c["id"], fmt) for c in calls}}
    for exp in step.expect:
        found = _expectation(exp, ctx, lang)
        if found is not None:
            findings.append(found)
    return MoveGrade(not findings, tuple(findings), request=request)


def grade_move(scenario: Scenario, step: Step, fmt: str, move: str, lang: str = "en") -> MoveGrade:
    """Grade one move at ``step``: an option id (choice step) or JSON text (json step)."""
    if step.kind == "choice":
        return grade_choice(step, move, lang)
    return grade_json(scenario, step, fmt, move, lang)


def move_text(step: Step, move: Any) -> str:
    """A reference or wrong move as the text a student would submit (option id, or JSON)."""
    return move if step.kind == "choice" else json.dumps(move, ensure_ascii=False, indent=2)


# --- a run through one scenario --------------------------------------------------------------

def step_points(wrong_tries: int) -> float:
    """Points for a step solved after ``wrong_tries`` wrong moves: 1, 0.5, then 0."""
    return {0: 1.0, 1: 0.5}.get(wrong_tries, 0.0)


@dataclass
class Run:
    """One student's way through one scenario in one format: the step reached, the wrong moves
    made at each step, the last grade with the move and the step index it was made at (so a
    page can grade it again in another language), and the moves that were right."""

    scenario_id: str
    fmt: str
    step: int = 0
    wrong: list[int] = field(default_factory=list)
    last: MoveGrade | None = None
    moves: list[str] = field(default_factory=list)
    last_move: tuple[int, str] | None = None

    def last_grade(self, scenario: Scenario, lang: str) -> MoveGrade | None:
        """The last move's grade, written in ``lang`` (None before the first move)."""
        if self.last_move is None:
            return None
        index, move = self.last_move
        return grade_move(scenario, scenario.steps_for(self.fmt)[index], self.fmt, move, lang)

    def done(self, scenario: Scenario) -> bool:
        return self.step >= len(scenario.steps_for(self.fmt))

    def score(self, scenario: Scenario) -> tuple[float, float]:
        """(points earned, points possible); unfinished steps earn nothing."""
        earned = sum(step_points(w) for w in self.wrong[: self.step])
        return earned, float(len(scenario.steps_for(self.fmt)))


def new_run(scenario: Scenario, fmt: str) -> Run:
    """A fresh run; raises ValueError for a format the scenario has no steps in."""
    if fmt not in FORMATS or not scenario.steps_for(fmt):
        raise ValueError(f"scenario {scenario.id!r} has no steps in format {fmt!r}")
    return Run(scenario.id, fmt, wrong=[0] * len(scenario.steps_for(fmt)))


def play(scenario: Scenario, run: Run, move: str, lang: str = "en") -> MoveGrade:
    """Grade ``move`` at the run's current step and advance when it is right (mutates ``run``).
    An unreadable json move (not JSON, too large) is shown but does not count as a wrong try."""
    steps = scenario.steps_for(run.fmt)
    if run.done(scenario):
        raise ValueError("the run is finished")
    result = grade_move(scenario, steps[run.step], run.fmt, move, lang)
    run.last, run.last_move = result, (run.step, move)
    if result.correct:
        run.moves.append(move if steps[run.step].kind == "choice" else "json")
        run.step += 1
    elif not any(c.startswith("parse:") for c in result.codes):
        run.wrong[run.step] += 1
    return result


@dataclass(frozen=True)
class ProgressEntry:
    """A scenario as a row of the progress table and export: the fields
    ``toolcall.progress.export_rows`` reads from an exercise (``id``, ``page``, ``type``, ``title``)."""

    id: str
    page: str
    type: str
    title: dict[str, str]
    max_score: float


def progress_entries(scenarios: tuple[Scenario, ...]) -> list[ProgressEntry]:
    """One entry per scenario, ids ``harness:<scenario id>``; ``max_score`` is the points of its
    longest format (a finished run stores the points of the format it was played in)."""
    return [ProgressEntry(s.progress_id, "harness_lab", "harness", s.title,
                          float(max(len(s.steps_for(f)) for f in FORMATS))) for s in scenarios]


def run_summary(scenario: Scenario, run: Run) -> str:
    """What the progress store keeps as the "answer" of a finished run (short JSON)."""
    return json.dumps({"format": run.fmt, "wrong_per_step": run.wrong, "moves": run.moves}, ensure_ascii=False)


# --- python -m toolcall check ----------------------------------------------------------------

def check_scenarios(root: Path) -> list[Problem]:
    """Every fixtures/scenarios/*.yaml loads; in every format and language its reference moves
    score full marks (and every json reference builds a request that breaks no pairing rule),
    and each listed wrong move is graded wrong with every finding code it lists."""
    folder = Path(root) / "fixtures" / "scenarios"
    loaded = load_scenarios(folder)
    problems = list(loaded.problems)
    for s in loaded.scenarios:
        index = {step.id: i for i, step in enumerate(s.steps)}
        for fmt in FORMATS:
            for lang in LANGS:
                for step in s.steps_for(fmt):
                    where = ["steps", index[step.id]]
                    try:
                        right = grade_move(s, step, fmt, move_text(step, reference_move(s, step, fmt, lang)), lang)
                        wrongs = [(m, codes, grade_move(s, step, fmt, move_text(step, m), lang))
                                  for m, codes in wrong_moves(s, step, fmt, lang)]
                    except (KeyError, ValueError) as exc:
                        problems.append(Problem(s.file, json_path(where), f"{fmt}/{lang}: cannot grade: {exc}"))
                        continue
                    if not right.correct:
                        problems.append(Problem(s.file, json_path(where + ["answer" if step.kind == "json" else "options"]),
                                                f"{fmt}/{lang}: the reference move is graded wrong: {list(right.codes)}"))
                    for n, (_, codes, g) in enumerate(wrongs):
                        missing = [c for c in codes if c not in g.codes]
                        if g.correct or missing:
                            problems.append(Problem(s.file, json_path(where + ["wrong_moves" if step.kind == "json"
                                                                               else "options"]),
                                                    f"{fmt}/{lang}: wrong move {n} is graded {list(g.codes) or 'right'}; "
                                                    f"expected {list(codes)}"))
    return problems
