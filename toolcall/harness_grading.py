"""The harness lab's step grader: grade a move, run through a scenario, check the scenario files.

A choice is right when it is the step's correct option; a wrong one carries its consequence
(``choice:<consequence>``). A json move (the next request's fields, as text) is parsed with
``toolcall.parsing.strict_loads`` (size-capped), checked with our pairing rules on the whole
request (``pairing:<rule>``, each an HTTP 400 the API would send) and then against the step's
expectations (``expect:<check>``, see ``EXPECTATIONS``). Scoring: a step is worth 1 point when
its first move is right, 0.5 after one wrong move, 0 after more. Pure: no streamlit import.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall.fixtures import Problem, json_path, same_title_problems, shared_orders
from toolcall.harness import (
    Scenario,
    Step,
    build_request,
    echo,
    history,
    load_scenarios,
    move_text,
    reference_move,
    scenario_call_id,
    wrong_moves,
)
from toolcall.i18n import LANGS, t
from toolcall.pairing import check_pairing, shown_id
from toolcall.text import reads_as
from toolcall.safe_validator import SizedCache
from toolcall.parsing import MAX_DEPTH, TOO_LARGE, StrictJSONError, localized_detail, names_place, strict_loads
from toolcall.wire import ANTHROPIC, OPENAI
from toolcall.wire import HARNESS_FORMATS as FORMATS

#: Largest JSON move accepted, in characters (a whole follow-up request is a few thousand).
MAX_MOVE_CHARS = 20_000


# --- grading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One reason a move is wrong: a stable ``code`` (``pairing:id_mismatch``, ``expect:is_error``,
    ``parse:INVALID_JSON``, ``choice:double_refund``…), the sentence in the grade's language, and
    whether the API itself would refuse the request with HTTP 400."""

    code: str
    message: str
    http_400: bool = False
    #: The code of an earlier finding that already states this fault in other words (a pairing rule
    #: the API enforces and the step's expectation of it), or "": the page shows one bullet per fault.
    repeats: str = ""


#: Faults of one move a page lists (MoveGrade.listed); a 20 000-character move can break a pairing rule
#: hundreds of times (253 bullets, 22 000 characters, for one result block per message).
MAX_LISTED_FINDINGS = 20


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
    #: Pairing violations past the checker's MAX_VIOLATIONS: found, not listed in ``findings``.
    more: int = 0

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)

    @property
    def unreadable(self) -> bool:
        """The move could not be read as a request (not JSON, empty, too large, no ``messages``): it is shown
        with its reasons but is not a wrong try (``play``), and a page says so rather than "wrong"."""
        return any(c.startswith("parse:") for c in self.codes)

    @property
    def shown(self) -> tuple[Finding, ...]:
        """The findings a student reads: one per fault (those that repeat an earlier one left out)."""
        return tuple(f for f in self.findings if not f.repeats)

    def listed(self, limit: int = MAX_LISTED_FINDINGS) -> tuple[tuple[Finding, ...], int]:
        """``(the first `limit` of shown, how many faults more)``: a page lists a bounded number of bullets and
        says how many it left out, those past the pairing checker's own cap (``more``) included."""
        shown = self.shown
        return shown[:limit], max(0, len(shown) - limit) + self.more


def grade_choice_move(step: Step, option_id: str, lang: str) -> MoveGrade:
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
        return None, Finding(
            "parse:TOO_LARGE", t("harness.finding.too_large", lang, size=len(text), limit=MAX_MOVE_CHARS)
        )
    if not text.strip():
        return None, Finding("parse:EMPTY", t("harness.finding.empty", lang))
    try:
        value = strict_loads(text, MAX_DEPTH)
    except StrictJSONError as exc:
        if exc.code == TOO_LARGE:  # out of memory: the sentence says it all
            return None, Finding("parse:TOO_LARGE", localized_detail(exc, lang))
        where = t("harness.finding.at", lang, line=exc.line, column=exc.column) if exc.line is not None \
            and not names_place(exc) else ""
        return None, Finding(
            f"parse:{exc.code}", t("harness.finding.not_json", lang, where=where, detail=localized_detail(exc, lang))
        )
    if isinstance(value, dict) and "messages" not in value and (
            written := next((k for k in value if reads_as(k, frozenset({"messages"}))), None)):
        # "messagеs" (Cyrillic е) read "write an object with a messages list" over a box showing one (brk12web2)
        return None, Finding("parse:NOT_A_REQUEST", t("pairing.rule_detail.lookalike_key", lang,
                                                      written=shown_id(written), word="messages"))
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None, Finding("parse:NOT_A_REQUEST", t("harness.finding.not_request", lang))
    return value, None


def _results(fmt: str, messages: list[Any], start: int) -> dict[str, dict[str, Any]]:
    """Tool results in the turn that starts at ``messages[start]``, by call id, each as
    ``{"content": str, "is_error": bool, "message": index, "block": index}``."""
    found: dict[str, dict[str, Any]] = {}
    if fmt == ANTHROPIC:
        if (
            start < len(messages)
            and isinstance(messages[start], dict)
            and isinstance(messages[start].get("content"), list)
        ):
            for j, b in enumerate(messages[start]["content"]):
                if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("tool_use_id"), str):
                    found[b["tool_use_id"]] = {
                        "content": b.get("content", ""),
                        "is_error": b.get("is_error") is True,
                        "message": start,
                        "block": j,
                    }
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
        text = t(f"harness.expect.{check}", lang, **params)
        if params.get("index", -1) >= len(messages):  # a message that should exist and does not
            text = (t("harness.expect.ends_at", lang, finding=text, last=len(messages) - 1) if messages
                    else t("harness.expect.no_messages", lang, finding=text))
        return Finding(f"expect:{check}", text)

    # The results belong in messages[start + 1], after the echoed turn. An index past the end is
    # never named as if it existed (issue 14: "must come first in messages[2]" for a request of two
    # messages): "result" says where the results should go and where the request ends, and
    # "result_first" has no message to check.
    missing = start + 1 >= len(messages)

    if check == "history":
        return None if messages[:start] == ctx["history"] else fail(count=start)
    if check == "echo":
        return None if start < len(messages) and _same_turn(messages[start], ctx["echo"]) else fail(index=start)
    if check == "result":
        return None if cid in results else fail(id=cid, index=start + 1)
    if check == "result_first":
        if missing:
            return None
        nxt = messages[start + 1] if start + 1 < len(messages) and isinstance(messages[start + 1], dict) else {}
        if fmt == ANTHROPIC:
            blocks = nxt.get("content")
            ok = (
                isinstance(blocks, list)
                and bool(blocks)
                and isinstance(blocks[0], dict)
                and blocks[0].get("type") == "tool_result"
            )
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
EXPECTATIONS = (
    "history",
    "echo",
    "result",
    "result_first",
    "is_error",
    "not_error",
    "max_tokens_at_least",
    "ends_with_echo",
)


def conversation_lang(scenario: Scenario, step: Step, fmt: str, messages: list[Any], lang: str) -> str:
    """The language of the conversation a json move carries on: ``lang`` (the page's), unless the move starts
    with the conversation so far in another language, word for word. The editor is the student's in both
    languages, so a student who began a step in English and then switched the page to Chinese still holds the
    English customer's sentence; that conversation is kept unchanged, and its echo is the English response
    (newcomer session 14: a right move was told to keep the first message unchanged)."""
    for said in (lang, *(other for other in LANGS if other != lang)):
        kept = history(scenario, step, fmt, said)
        if messages[: len(kept)] == kept:
            return said
    return lang


def grade_json_move(scenario: Scenario, step: Step, fmt: str, text: str, lang: str) -> MoveGrade:
    """Grade a json move (the request fields the student wrote, as text). Findings, in order:
    the parse (stop there), our pairing rules on the whole request (each an HTTP 400 the API
    would send), then the step's expectations."""
    move, problem = parse_move(text, lang)
    if problem is not None:
        return MoveGrade(False, (problem,))
    request = build_request(scenario, fmt, move)
    report = check_pairing(json.dumps(request), fmt, lang)
    findings = [
        Finding(
            f"pairing:{v.rule}",
            t("harness.finding.pairing", lang, rule=t(f"pairing.rule.{v.rule}", lang), detail=v.detail),
            True,
        )
        for v in report.violations
    ]
    # a key that reads as a wire key without being it, first: the cause of the violations it brings (brk12web2)
    findings[:0] = [Finding("pairing:lookalike_key", t("harness.finding.pairing", lang,
                                                       rule=t("pairing.rule.lookalike_key", lang), detail=n.detail),
                            False) for n in report.notes if n.rule == "lookalike_key"]
    if report.error:
        findings.append(Finding("parse:NOT_A_REQUEST", report.error, True))
    calls = (step.model or {}).get("calls", [])
    said = conversation_lang(scenario, step, fmt, move["messages"], lang)
    ctx = {
        "fmt": fmt,
        "move": move,
        "messages": move["messages"],
        "history": history(scenario, step, fmt, said),
        "echo": echo(scenario, step, fmt, said) if step.model else None,
        "ids": {c["id"]: scenario_call_id(scenario, step, c["id"], fmt) for c in calls},
    }
    for exp in step.expect:
        found = _expectation(exp, ctx, lang)
        if found is not None:
            same = _stated_by(exp, ctx["ids"].get(exp.get("call", ""), ""), report.violations)
            findings.append(Finding(found.code, found.message, found.http_400, same))
    return MoveGrade(not findings, tuple(findings), request=request, more=report.more)


#: Expectations that restate a pairing rule when it fails: check -> the rule that states the same fault
#: (the results not first in their message; a call of the echoed turn with no result, by its id).
_SAME_FAULT = {"result_first": "text_before_tool_result", "result": "tool_use_without_result"}


def _stated_by(exp: dict[str, Any], cid: str, violations: list[Any]) -> str:
    """The code of the pairing finding that already states the fault of the failed expectation ``exp``
    (``result`` only for a violation about the same call id ``cid``), else ""."""
    rule = _SAME_FAULT.get(exp["check"])
    for v in violations:
        if v.rule == rule and (exp["check"] != "result" or v.params.get("id") == cid):
            return f"pairing:{rule}"
    return ""


def grade_move(scenario: Scenario, step: Step, fmt: str, move: str, lang: str = "en") -> MoveGrade:
    """Grade one move at ``step``: an option id (choice step) or JSON text (json step)."""
    if step.kind == "choice":
        return grade_choice_move(step, move, lang)
    return grade_json_move(scenario, step, fmt, move, lang)


# --- a run through one scenario --------------------------------------------------------------


def step_points(wrong_tries: int) -> float:
    """Points for a step solved after ``wrong_tries`` wrong moves: 1, 0.5, then 0."""
    return {0: 1.0, 1: 0.5}.get(wrong_tries, 0.0)


#: Grades of last moves by (scenario id, format, step index, move, language), with the scenario they were
#: graded against (an edited scenario file grades again). Bounded by entries and by bytes.
_regraded = SizedCache(max_entries=256, max_bytes=4 * 1024 ** 2)


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
        """The last move's grade, written in ``lang`` (None before the first move). Graded once per move,
        scenario and language (_regraded): the lab asks on every rerun, twice, and a 20 000-character move
        runs the pairing checker over its whole request each time."""
        if self.last_move is None:
            return None
        index, move = self.last_move
        key = (scenario.id, self.fmt, index, move, lang)
        hit = _regraded.get(key)
        if hit is not None and (hit[0] is scenario or hit[0] == scenario):  # the page's cache hands out copies
            return hit[1]
        grade = grade_move(scenario, scenario.steps_for(self.fmt)[index], self.fmt, move, lang)
        _regraded.put(key, (scenario, grade))
        return grade

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
    elif not result.unreadable:
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


def progress_max(scenario: Scenario) -> float:
    """The points a scenario is worth in the progress store: those of its longest format."""
    return float(max(len(scenario.steps_for(f)) for f in FORMATS))


def progress_entries(scenarios: tuple[Scenario, ...]) -> list[ProgressEntry]:
    """One entry per scenario, ids ``harness:<scenario id>``; ``max_score`` is progress_max
    (what progress_score scales every finished run to)."""
    return [ProgressEntry(s.progress_id, "harness_lab", "harness", s.title, progress_max(s)) for s in scenarios]


def progress_score(scenario: Scenario, run: Run) -> tuple[float, float]:
    """(score, max_score) to record for a finished run: its points scaled from the points of its
    format to progress_max, so runs in formats with different step counts (stop_reasons: 4
    Anthropic steps, 3 OpenAI) share one scale and the store's best score stays the best fraction
    (issue 13: an OpenAI 2/3 after an Anthropic 4/4 read "4 of 3"; an Anthropic 3.5/4 after an
    OpenAI 3/3 un-solved it). Full marks in any format are exactly progress_max."""
    earned, points = run.score(scenario)
    top = progress_max(scenario)
    if points <= 0 or earned >= points:
        return top, top
    return earned * top / points, top


def run_summary(scenario: Scenario, run: Run) -> str:
    """What the progress store keeps as the "answer" of a finished run (short JSON)."""
    return json.dumps({"format": run.fmt, "wrong_per_step": run.wrong, "moves": run.moves}, ensure_ascii=False)


_SUMMARY_HEAD = re.compile(r'\{"format": "(?P<format>[a-z]{1,20})", "wrong_per_step": \[(?P<wrong>[0-9, ]{0,400})\]')


def readable_summary(text: str, lang: str) -> str:
    """A stored run summary (run_summary, possibly cut short and case-folded by the dashboard's grouping) as
    an instructor reads it in ``lang``: the wire format and the wrong moves by step, ``Anthropic · wrong
    moves: step 1 ×1, step 3 ×2`` (``… no wrong move`` when there were none). Text that is not a summary is
    returned as it is. Never raises."""
    head = _SUMMARY_HEAD.match(str(text))  # its first two fields, which a cut keeps (the moves come last)
    if head is None:
        return text
    fmt = head["format"]
    steps = [(n, int(w)) for n, w in enumerate(head["wrong"].replace(" ", "").split(","), start=1) if w and int(w)]
    name = t(f"harness.format.{fmt}", lang) if fmt in FORMATS else str(fmt)
    if not steps:
        return t("harness.summary.none", lang, format=name)
    listed = t("harness.summary.sep", lang).join(t("harness.summary.step", lang, n=n, count=w) for n, w in steps)
    return t("harness.summary.wrong", lang, format=name, steps=listed)


# --- python -m toolcall check ----------------------------------------------------------------


def check_scenarios(root: Path) -> list[Problem]:
    """Every fixtures/scenarios/*.yaml loads; in every format and language its reference moves
    score full marks (and every json reference builds a request that breaks no pairing rule),
    and each listed wrong move is graded wrong with every finding code it lists."""
    folder = Path(root) / "fixtures" / "scenarios"
    loaded = load_scenarios(folder)
    problems = list(loaded.problems) + shared_orders(sorted(loaded.scenarios, key=lambda s: (s.order, s.file)))
    problems += same_title_problems([(s.file, ["title"], s.title) for s in loaded.scenarios], "the scenario picker")
    for s in loaded.scenarios:
        index = {step.id: i for i, step in enumerate(s.steps)}
        for fmt in FORMATS:
            for lang in LANGS:
                for step in s.steps_for(fmt):
                    where = ["steps", index[step.id]]
                    try:
                        right = grade_move(s, step, fmt, move_text(step, reference_move(s, step, fmt, lang)), lang)
                        wrongs = [
                            (m, codes, grade_move(s, step, fmt, move_text(step, m), lang))
                            for m, codes in wrong_moves(s, step, fmt, lang)
                        ]
                    except (KeyError, ValueError) as exc:
                        problems.append(Problem(s.file, json_path(where), f"{fmt}/{lang}: cannot grade: {exc}"))
                        continue
                    if not right.correct:
                        problems.append(
                            Problem(
                                s.file,
                                json_path(where + ["answer" if step.kind == "json" else "options"]),
                                f"{fmt}/{lang}: the reference move is graded wrong: {list(right.codes)}",
                            )
                        )
                    for n, (_, codes, g) in enumerate(wrongs):
                        missing = [c for c in codes if c not in g.codes]
                        if g.correct or missing:
                            problems.append(
                                Problem(
                                    s.file,
                                    json_path(where + ["wrong_moves" if step.kind == "json" else "options"]),
                                    f"{fmt}/{lang}: wrong move {n} is graded {list(g.codes) or 'right'}; "
                                    f"expected {list(codes)}",
                                )
                            )
    return problems
