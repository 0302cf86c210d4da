"""``python -m toolcall check``: validate every fixture and lesson under a content folder.

Each checker takes the content root (the folder holding fixtures/ and lessons/) and
returns Problems; a checker never stops the others. Add a checker by appending a
function to ``CHECKERS``.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import os
import re
import stat
from pathlib import Path
from collections.abc import Callable

from toolcall.backend import backend_for
from toolcall.exercises import load_exercises
from toolcall.files import BudgetSpent, ReadError, charge, check_path, max_text_bytes, read_budget
from toolcall.fixtures import (FixtureError, Problem, display_name, json_path, load_orders, load_outputs,
                               load_tool, one_read_per_run, same_title_problems)
from toolcall.lesson_check import check_lessons
from toolcall.markdown_hazards import (MAX_MARKDOWN_CHARS, dead_links, markdown_hazards, quoted_source,
                                       source_problems)
from toolcall.pairing import check_pairing, load_examples
from toolcall.grading import answer_text, grade, grading_inputs
from toolcall.judge import evaluate, verdict_holds
from toolcall.results import call_id
from toolcall.wire import STEP_FORMATS as FORMATS
from toolcall.text import escape_invisible, escape_lookalikes, quoted_head
from toolcall.i18n import LANGS
from toolcall.transcripts import RUNNABLE, build_transcript, load_walkthrough

Checker = Callable[[Path], list[Problem]]


def reference_problem(root: Path, file: str, at: list, relative: str) -> Problem | None:
    """A Problem at ``file``/``at`` when the fixture that entry names, ``fixtures/<relative>`` (``tools/x.json``),
    is not there, listing what is; None when it is. A name with a typo was reported as the missing file's own
    problem (``fixtures/tools/x.json: $: cannot read file: no such file``), naming neither the file the
    instructor edited nor the entry."""
    target = Path(root) / "fixtures" / relative
    if os.path.lexists(target):
        return None  # there: its own problems, if any, are reported at it
    folder, suffix = target.parent, "".join(Path(relative).suffixes)
    known = sorted(p.name.removesuffix(suffix) for p in folder.glob(f"*{suffix}")) if folder.is_dir() else []
    return Problem(file, json_path(at), f"names {Path(relative).name.removesuffix(suffix)!r}, but there is no "
                                        f"fixtures/{relative}; there are: {known}")


def check_tools(root: Path) -> list[Problem]:
    """Every fixtures/tools/*.json is a tool definition whose input_schema is a valid schema (load_tool)."""
    problems: list[Problem] = []
    for path in sorted((root / "fixtures" / "tools").glob("*.json")):
        try:
            tool = load_tool(path)
        except FixtureError as exc:
            problems += exc.problems
            continue
        if path.stem != tool.name:
            problems.append(Problem(display_name(path), "$.name",
                                    f"tool name {tool.name!r} differs from the file name "
                                    f"'{escape_lookalikes(path.stem)}'"))
    return problems


def check_orders(root: Path) -> list[Problem]:
    """Every fixtures/orders/*.yaml is a valid order book with unique order ids."""
    problems: list[Problem] = []
    for path in sorted((root / "fixtures" / "orders").glob("*.y*ml")):
        try:
            book = load_orders(path)
        except FixtureError as exc:
            problems += exc.problems
            continue
        seen: set[str] = set()
        for i, order in enumerate(book.orders):
            if order.order_id in seen:
                problems.append(Problem(display_name(path), json_path(["orders", i, "order_id"]),
                                        f"duplicate order id {order.order_id!r}"))
            seen.add(order.order_id)
    return problems


#: What a canned output's ``catches`` may name: INVALID_JSON (it never parses) or a JSON Schema
#: keyword that can reject an instance (Draft 2020-12 validation and applicator keywords).
CATCHABLE = ("INVALID_JSON", "type", "enum", "const", "required", "additionalProperties", "properties",
             "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "minProperties",
             "maxProperties", "unevaluatedProperties", "pattern", "minLength", "maxLength", "format", "minimum",
             "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "prefixItems", "contains",
             "minItems", "maxItems", "uniqueItems", "minContains", "maxContains", "unevaluatedItems", "allOf",
             "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "false")


def unknown_keyword(word: str) -> str:
    """The message for a ``catches`` that names no keyword: with "did you mean …?" when one is
    close (difflib, cutoff 0.6), else the list of what it may name."""
    close = difflib.get_close_matches(word, CATCHABLE, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}?" if close else f"expected one of {', '.join(CATCHABLE)}"
    return f"{word!r} is not a keyword that can reject an output: {hint}"


def check_outputs(root: Path) -> list[Problem]:
    """Every canned output gets its expected verdict, caught by the keyword it names, under
    its tool's reference schema; every business case is schema-valid and refused with its
    expected error code by the backend over fixtures/orders/orders.yaml."""
    problems: list[Problem] = []
    for path in sorted((root / "fixtures" / "outputs").glob("*.y*ml")):
        name = display_name(path)
        try:
            fixture = load_outputs(path)
            if (missing := reference_problem(root, name, ["tool"], f"tools/{fixture.tool}.json")) is not None:
                problems.append(missing)
                continue
            tool = load_tool(root / "fixtures" / "tools" / f"{fixture.tool}.json")
        except FixtureError as exc:
            problems += exc.problems
            continue
        if fixture.tool != path.stem:  # the playground judges outputs/<tool>.yaml against the tool of that name
            problems.append(Problem(name, "$.tool", f"names the tool {fixture.tool!r}, but the playground shows these "
                                                    f"outputs for the tool of the file's name, {path.stem!r}"))
            continue
        try:
            book = load_orders(root / "fixtures" / "orders" / "orders.yaml")
        except FixtureError:
            book = None  # reported by check_orders
        for i, out in enumerate(fixture.outputs):
            if out.catches is not None and out.catches not in CATCHABLE:
                problems.append(Problem(name, json_path(["outputs", i, "catches"]), unknown_keyword(out.catches)))
                continue
            card = evaluate(out.raw, tool.input_schema, tool.name, tool_use_id=call_id(out.id))
            if not verdict_holds(out, card):
                parse_failed = card.parse and not card.parse.ok
                caught = card.parse.code if parse_failed else ", ".join(sorted({e.keyword for e in card.errors}))
                wanted = f"{out.expected} (caught by {out.catches})" if out.catches and out.expected == "rejected" \
                    else out.expected  # an accepted output is caught by nothing, whatever `catches` says
                got = f"{card.verdict} (caught by {caught})" if caught else card.verdict
                problems.append(Problem(name, json_path(["outputs", i]),
                                        f"output {out.id!r}: expected {wanted}, got {got}"))
        for i, case in enumerate(fixture.business_cases):
            if book is None:
                break
            card = evaluate(case.raw, tool.input_schema, tool.name, tool_use_id=call_id(case.id),
                            backend=backend_for(tool.name, book))
            code = card.backend.error.get("code") if card.backend and card.backend.error else None
            if card.verdict != "accepted":
                problems.append(Problem(name, json_path(["business_cases", i, "raw"]),
                                        "a business case must pass the schema; it was rejected"))
            elif code != case.expected_error:
                problems.append(Problem(name, json_path(["business_cases", i, "expected_error"]),
                                        f"expected backend error {case.expected_error}, got {code or 'success'}"))
    return problems


def _variant_problems(name, v, fx, variant, tools, book) -> list[Problem]:
    """Build one variant in every format and language. A build error or a wrong outcome is
    reported once (it does not depend on the format); pairing problems per request."""
    problems: list[Problem] = []
    for fmt in FORMATS:
        for lang in LANGS:
            try:
                built = build_transcript(fx, variant.id, fmt, tools, book, lang)
            except ValueError as exc:
                return [Problem(name, json_path(["variants", v]), str(exc))]
            if built.outcome != variant.outcome:
                return [Problem(name, json_path(["variants", v, "outcome"]),
                                f"states {variant.outcome}, but the app concludes {built.outcome}")]
            problems += [Problem(name, json_path(["variants", v]), f"{fmt} request {r}: {x.rule}: {x.detail}")
                         for r, request in enumerate(built.of_kind("request"))
                         for x in check_pairing(json.dumps(request), fmt, lang).violations]
            if fmt == FORMATS[0]:
                problems += _final_identifier_problems(name, v, variant, lang, built.of_kind("request"))
    return problems


#: An identifier the fake backend hands out or the order book holds (ORD-20260917, RF-20260917-001).
_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9-])[A-Z]{2,5}-[0-9]{6,}(?:-[0-9]+)*(?![A-Za-z0-9-])")


def _final_identifier_problems(name: str, v: int, variant, lang: str, requests: list) -> list[Problem]:
    """The final answer's identifiers that nothing before it holds: the user's sentence and every tool_result are
    in the requests, so a refund number the backend never returned ("refund RF-20260917-007" when it returned
    RF-20260917-001) is the final answer quoting app output that has changed, or a typo."""
    final = (variant.final or {}).get(lang) or ""
    seen = json.dumps(requests, ensure_ascii=False)
    missing = sorted({m for m in _IDENTIFIER.findall(final) if m not in seen})
    return [Problem(name, json_path(["variants", v, "final", lang]),
                    f"names {', '.join(missing)}, which neither the user nor any tool result said")] if missing else []


def check_walkthroughs(root: Path) -> list[Problem]:
    """Every fixtures/transcripts/*.yaml names runnable tools, builds in both formats and
    languages, reaches the outcome it states, and pairs every call with its result."""
    problems: list[Problem] = []
    for path in sorted((root / "fixtures" / "transcripts").glob("*.y*ml")):
        name = display_name(path)
        try:
            fx = load_walkthrough(path)
            book = load_orders(root / "fixtures" / "orders" / "orders.yaml")
        except FixtureError as exc:
            problems += exc.problems
            continue
        tools = {}
        for i, tool_name in enumerate(fx.tools):
            if tool_name not in RUNNABLE:
                problems.append(Problem(name, json_path(["tools", i]),
                                        f"{tool_name!r} cannot run here; runnable: {RUNNABLE}"))
                continue
            try:
                tools[tool_name] = load_tool(root / "fixtures" / "tools" / f"{tool_name}.json")
            except FixtureError as exc:
                problems += exc.problems
        if set(fx.tools) - set(tools):  # said above; every request lists every tool, so none can be built
            continue
        for v, variant in enumerate(fx.variants):
            unknown = sorted({c.tool for a in variant.attempts for c in a.calls} - set(tools))
            if unknown:
                problems.append(Problem(name, json_path(["variants", v]),
                                        f"calls tools not listed (or not loadable) in tools: {unknown}"))
                continue
            problems += _variant_problems(name, v, fx, variant, tools, book)
    return problems


def check_pairing_examples(root: Path) -> list[Problem]:
    """Every example in fixtures/pairing/*.yaml, in each language (the schema requires en and zh), is
    detected as its format, breaks exactly the rules it lists, in that order, and gets exactly the notes
    it lists: the customer's words change with the language, the verdict does not."""
    problems: list[Problem] = []
    for path in sorted((root / "fixtures" / "pairing").glob("*.y*ml")):
        try:
            examples = load_examples(path)
        except FixtureError as exc:
            problems += exc.problems
            continue
        for i, example in enumerate(examples):
            found = {language: _pairing_example_problem(example, text) for language, text in example.text.items()}
            if len(set(found.values())) == 1 and None not in found.values():  # the same in every language: once
                found = {"": next(iter(found.values()))}
            for language, problem in found.items():
                if problem:
                    at, message = problem
                    where = ["examples", i, at] + ([language] if at == "text" and language else [])
                    problems.append(Problem(display_name(path), json_path(where), message if at == "text" or not
                                            language else f"{message} (its text.{language})"))
    return problems


def _pairing_example_problem(example, text: str) -> tuple[str, str] | None:
    """``(field, message)`` for the first way ``text`` does not behave as ``example`` says, or None."""
    report = check_pairing(text)
    got = [v.rule for v in report.violations]
    if report.error:
        return "text", report.error
    if report.fmt != example.fmt:
        return "format", f"declared {example.fmt}, detected {report.fmt}"
    if got != list(example.expect):
        return "expect", f"expected {list(example.expect)}, the checker reports {got}"
    if [n.rule for n in report.notes] != list(example.notes):
        return "notes", f"expected notes {list(example.notes)}, the checker notes {[n.rule for n in report.notes]}"
    return None


def _answer_text(ex, value, at: list, problems: list[Problem]) -> str | None:
    """The answer text of ``value`` (the reference or a listed wrong answer) as a student would type it, or None
    after adding a problem at ``at`` when the exercise type cannot write it: a wrong answer is any JSON to the
    schema, and a number exercise's ``[null]`` raised TypeError from float() in check."""
    try:
        return answer_text(ex, value)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        problems.append(Problem(ex.file, json_path(at), f"not an answer to a {ex.type} exercise ({exc})"))
        return None


def check_exercises(root: Path) -> list[Problem]:
    """Every fixtures/exercises/*.yaml loads (schema-valid, both languages, ids unique,
    answers consistent); each reference answer earns full marks; each listed wrong answer does not,
    is an answer a student can give (graded, not refused as malformed: an option id with a typo is
    not), and gets its own feedback when given."""
    if not (root / "fixtures" / "exercises").is_dir():
        return []
    loaded = load_exercises(root / "fixtures" / "exercises")
    problems = list(loaded.problems)
    for page in dict.fromkeys(ex.page for ex in loaded.exercises):  # one page's exercises, and its rows of the table
        problems += same_title_problems([(ex.file, ["exercises", ex.index, "title"], ex.title)
                                         for ex in loaded.exercises if ex.page == page],
                                        f"the {page} page and the exercises' table")
    for ex in loaded.exercises:
        where = ex.index
        texts = [_answer_text(ex, value, ["exercises", where, *at], problems)
                 for at, value in [(["answer"], ex.answer)]
                 + [(["wrong_answers", i, "answer"], w["answer"]) for i, w in enumerate(ex.wrong_answers)]]
        if "tool" in ex.spec:  # schema_fix: the tool and its canned outputs, by name
            missing = [p for relative in (f"tools/{ex.spec['tool']}.json", f"outputs/{ex.spec['tool']}.yaml")
                       if (p := reference_problem(root, ex.file, ["exercises", where, "tool"], relative)) is not None]
            if missing:
                problems += missing
                continue
        try:
            inputs = grading_inputs(ex, root)
            graded = [None if text is None else grade(ex, text, inputs) for text in texts]
        except FixtureError as exc:
            problems += exc.problems
            continue
        reference, wrongs = graded[0], graded[1:]
        if reference is not None and not reference.correct:
            problems.append(Problem(ex.file, json_path(["exercises", where, "answer"]),
                                    f"the reference answer scores {reference.score:g} of {reference.max_score:g}"))
        for i, (g, wrong) in enumerate(zip(wrongs, ex.wrong_answers)):
            path = json_path(["exercises", where, "wrong_answers", i, "answer"])
            if g is None:
                continue
            if g.correct:
                problems.append(Problem(ex.file, path, "this wrong answer earns full marks"))
            elif g.malformed:
                why = g.feedback[0].render("en") if g.feedback else "it is not read as an answer"
                problems.append(Problem(ex.file, path, f"no student can give this wrong answer ({why}), so its "
                                                       "feedback is never shown"))
            elif not any(item.text == wrong["feedback"] for item in g.feedback):
                problems.append(Problem(ex.file, path, "the grader does not recognise this wrong answer, so its "
                                                       "feedback is never shown"))
    return problems


#: How a recorded log follows a renamed case (its runs are drawn, seeded, from simulation.yaml).
REGENERATE = ("; rename the case in fixtures/eval_runs/simulation.yaml too, then run "
              "scripts/make_eval_runs.py")


def _translation_problems(sets: dict) -> list[Problem]:
    """Each language's selection set against the first language's: the same case ids, each
    with the same expected tool and near misses, and the same tools (only the requests and the argument values
    are translated). A case added to one language only, or renamed in one, passed."""
    first, *others = [(lang, path, sset) for lang, (path, sset) in sets.items()]
    problems = []
    for lang, path, sset in others:
        name, theirs = display_name(path), {c.id: c for c in first[2].cases}
        ours = {c.id for c in sset.cases}
        reference = f"fixtures/selection/{first[1].name}"
        if sset.tools != first[2].tools:
            problems.append(Problem(name, "$.tools", f"{list(sset.tools)} differs from {list(first[2].tools)} in "
                                                     f"{reference}: each language's set covers the same tools"))
        for i, case in enumerate(sset.cases):
            twin = theirs.get(case.id)
            if twin is None:
                problems.append(Problem(name, json_path(["cases", i, "id"]), f"{case.id!r} is no case of {reference}: "
                                        "each language's set has the same cases (a translation of each request)"))
                continue
            for field in ("expected_tool", "should_not_call"):
                if getattr(case, field) != getattr(twin, field):
                    shown = [getattr(case, field), getattr(twin, field)]
                    shown = [list(v) if isinstance(v, tuple) else v for v in shown]
                    problems.append(Problem(name, json_path(["cases", i, field]), f"{shown[0]!r} differs from "
                                            f"{shown[1]!r} for {case.id!r} in {reference}"))
        missing = [c.id for c in first[2].cases if c.id not in ours]
        if missing:
            problems.append(Problem(name, "$.cases", f"no {lang} version of the cases {missing} of {reference}"))
    return problems


def check_selection_and_runs(root: Path) -> list[Problem]:
    """Selection sets (fixtures/selection/*.yaml) follow the set rules, and each language's set is a translation
    of the first's (_translation_problems); every recorded run log (fixtures/eval_runs/*.jsonl) loads without a
    bad line, and a log ``<name>.<lang>.jsonl`` has runs only of cases of the set in its language (the lab
    grades each run by the set's expectation for its case id: a case renamed or removed in the set left its runs
    graded by the log's own, stale expectation). A case added to the set may have no runs yet."""
    from toolcall.eval_import import read_recorded
    from toolcall.selection import check_selection_files, load_set

    problems = check_selection_files(root)
    sets: dict = {}
    for lang in LANGS:
        path = root / "fixtures" / "selection" / f"shop.{lang}.yaml"
        try:
            sets[lang] = (path, load_set(path))
        except FixtureError:
            pass  # reported by check_selection_files
    if len(sets) > 1:
        problems += _translation_problems(sets)
    for path in sorted((root / "fixtures" / "eval_runs").glob("*.jsonl")):
        try:
            recorded = read_recorded(path)  # as the selection lab reads it
        except FixtureError as exc:
            problems += exc.problems
            continue
        lang = path.name.removesuffix(".jsonl").rsplit(".", 1)[-1]
        if lang not in sets:
            continue
        logged = list(dict.fromkeys(run.case_id for run in recorded.log.runs))
        cases = {c.id for c in sets[lang][1].cases}
        reference = f"fixtures/selection/{sets[lang][0].name}"
        if unknown := [c for c in logged if c not in cases]:
            problems.append(Problem(display_name(path), "$", f"runs of cases {reference} does not have: "
                                                             f"{shown_names(unknown)}{REGENERATE}"))
    return problems


#: A problem lists at most this many names (case ids of a log), each cut at SHOWN_NAME_CHARS as drawn.
SHOWN_NAMES, SHOWN_NAME_CHARS = 12, 40


def shown_names(names: list[str]) -> str:
    """``['a', 'b']`` for at most SHOWN_NAMES of ``names`` (each quoted_head: look-alike and hidden characters
    escaped, cut as drawn), then `` and N more``. A log of 124 000 runs under new case ids listed every one (a
    2 264-character line for 124 ids; a log may hold 200 000 runs: break-it pass brk18new)."""
    text = "[" + ", ".join(quoted_head(str(name), SHOWN_NAME_CHARS) for name in names[:SHOWN_NAMES]) + "]"
    return text + (f" and {len(names) - SHOWN_NAMES:,} more" if len(names) > SHOWN_NAMES else "")


def check_simulation(root: Path) -> list[Problem]:
    """fixtures/eval_runs/simulation.yaml, the spec the recorded runs are drawn from (see
    toolcall.simulation.spec_problems): a typo in it passed check and ended scripts/make_eval_runs.py in a traceback."""
    from toolcall.simulation import spec_problems

    return spec_problems(root)


#: Most characters of Markdown text check parses in one file. Each text is held to MAX_MARKDOWN_CHARS, but a 1.4 MB
#: exercise file of 20 hints of ``"[\n"`` repeated, each under it, held check for 75 s (break-it pass brk14content):
#: the parser costs up to ~40 µs a character on such text, twice (markdown_hazards, dead_links). Twice one text's
#: limit, 20 times the most any shipped file holds (fixtures/exercises/playground.yaml, 4 776).
MAX_MARKDOWN_FILE_CHARS = 2 * MAX_MARKDOWN_CHARS


#: An exercise's prompt, explanation and hints are shown under its title, drawn as a level-4 heading
#: (ui/exercise_widgets.py): a heading of that level or larger in them reads as the start of another exercise.
EXERCISE_TITLE = (4, "the exercise's title")
#: A scenario's summary and step texts and a walkthrough variant's note are short texts between bold labels ("The
#: model's response", "Your move:") and captions: any heading in them is drawn larger than the labels of the step.
STEP_TEXT = (6, "the labels of the step around it")


def _markdown_field_problems(file: str, at: list, texts: dict | None, spent: dict[str, int],
                             outranks: tuple[int, str] | None = None) -> list[Problem]:
    """A Problem per language of ``texts`` ({en, zh}, rendered as Markdown) for each toolcall.markdown_hazards
    (``outranks``: the heading the texts sit under, see there).
    ``spent`` counts the characters parsed per file: the text that would pass MAX_MARKDOWN_FILE_CHARS is named once,
    and it and the file's later texts are not parsed."""
    problems: list[Problem] = []
    for lang, text in (texts or {}).items():
        if not isinstance(text, str):
            continue
        before = spent.get(file, 0)
        if before > MAX_MARKDOWN_FILE_CHARS:
            break  # named already
        spent[file] = before + (len(text) if len(text) <= MAX_MARKDOWN_CHARS else 0)  # a longer one is not parsed
        if spent[file] > MAX_MARKDOWN_FILE_CHARS:
            problems.append(Problem(file, json_path([*at, lang]), f"the file's Markdown texts pass "
                                    f"{MAX_MARKDOWN_FILE_CHARS:,} characters here; check parses at most "
                                    f"{MAX_MARKDOWN_FILE_CHARS:,} per file, so this text and the ones after it were "
                                    "not checked"))
            break
        problems += [Problem(file, json_path([*at, lang]), found)
                     for found in markdown_hazards(text, hidden=False, outranks=outranks) + dead_links(text)]
    return problems


def check_markdown_texts(root: Path) -> list[Problem]:
    """The fixture texts the pages render as Markdown (not escaped: an exercise's title, prompt, explanation
    and hints; a scenario's summary and each step's prompt, world and explanation; a walkthrough variant's
    note) hold nothing Streamlit shows otherwise than written: raw HTML shown as tags, ``$…$`` read as LaTeX,
    a code fence left open, a link to no web address (toolcall.markdown_hazards); each source a scenario cites
    would open the page it names (source_problems). Files that do not load are
    reported by their checkers."""
    from toolcall.harness import load_scenarios

    problems: list[Problem] = []
    spent: dict[str, int] = {}
    if (root / "fixtures" / "exercises").is_dir():
        for ex in load_exercises(root / "fixtures" / "exercises").exercises:
            at = ["exercises", ex.index]
            problems += _markdown_field_problems(ex.file, [*at, "title"], ex.title, spent)
            for key in ("prompt", "explanation"):
                problems += _markdown_field_problems(ex.file, [*at, key], getattr(ex, key), spent, EXERCISE_TITLE)
            for i, hint in enumerate(ex.hints):
                problems += _markdown_field_problems(ex.file, [*at, "hints", i], hint, spent, EXERCISE_TITLE)
    for s in load_scenarios(root / "fixtures" / "scenarios").scenarios:
        problems += _markdown_field_problems(s.file, ["summary"], s.summary, spent, STEP_TEXT)
        problems += [Problem(s.file, json_path(["sources", i]), f"{quoted_source(source)} {found}")
                     for i, source in enumerate(s.sources) for found in source_problems(source)]
        for i, step in enumerate(s.steps):
            for key in ("prompt", "world", "explain"):
                problems += _markdown_field_problems(s.file, ["steps", i, key], getattr(step, key), spent,
                                                     STEP_TEXT)
    for path in sorted((root / "fixtures" / "transcripts").glob("*.y*ml")):
        try:
            fx = load_walkthrough(path)
        except FixtureError:
            continue  # reported by check_walkthroughs
        for v, variant in enumerate(fx.variants):
            problems += _markdown_field_problems(display_name(path), ["variants", v, "note"], variant.note, spent,
                                                 STEP_TEXT)
    return problems


def check_harness_scenarios(root: Path) -> list[Problem]:
    """Harness-lab scenarios (fixtures/scenarios/*.yaml): see toolcall.harness_grading.check_scenarios."""
    from toolcall.harness_grading import check_scenarios  # kept local: the lab is self-contained
    return check_scenarios(root)


CHECKERS: list[Checker] = [check_tools, check_orders, check_outputs, check_walkthroughs, check_pairing_examples,
                           check_lessons, check_exercises, check_harness_scenarios, check_selection_and_runs,
                           check_simulation, check_markdown_texts]


#: The files the checkers read; a root with none of them has nothing to check.
CONTENT_PATTERNS = ("fixtures/tools/*.json", "fixtures/orders/*.y*ml", "fixtures/outputs/*.y*ml",
                    "fixtures/transcripts/*.y*ml", "fixtures/pairing/*.y*ml", "fixtures/exercises/*.y*ml",
                    "fixtures/scenarios/*.y*ml", "fixtures/selection/*.y*ml", "fixtures/eval_runs/*.jsonl",
                    "lessons/*/*.md")


def content_folders(root: Path) -> list[Path]:
    """The folders the checkers read files from (each pattern's folder; ``lessons/<lang>`` per language)."""
    folders = [Path(root) / pattern.rsplit("/", 1)[0] for pattern in CONTENT_PATTERNS if "*/" not in pattern]
    return folders + [Path(root) / "lessons"] + [Path(root) / "lessons" / lang for lang in LANGS]


def content_folder_problems(root: Path) -> list[Problem]:
    """A content folder that is missing is simply a kind of content not used; one whose name is taken by
    something that is not a folder (a file, a FIFO, a link to nothing, a symlink loop) is a problem: every
    file meant to be in it would otherwise be skipped without a word."""
    problems = []
    for folder in content_folders(root):
        if not os.path.lexists(folder):
            continue
        try:
            check_path(folder, "folder")
        except ReadError as exc:
            problems.append(Problem(display_name(folder), "$", f"cannot read folder: {exc}: nothing in it is checked"))
    return problems


#: What the app reads in each content folder (fnmatch patterns, case-sensitive as the app's own globs and
#: fixed names are): any other file there is never used, so an instructor's ``NEW.JSON``, ``orders2.yaml`` or
#: ``get_order.yml`` beside ``get_order.yaml`` would pass ``check`` and be missing in class.
APP_READS: dict[str, tuple[str, ...]] = {
    "fixtures/tools": ("*.json",),
    "fixtures/orders": ("orders.yaml",),
    "fixtures/outputs": ("*.yaml",),
    "fixtures/transcripts": ("refund_walkthrough.yaml",),
    "fixtures/pairing": ("examples.yaml",),
    "fixtures/exercises": ("*.yaml", "*.yml"),
    "fixtures/scenarios": ("*.yaml", "*.yml"),
    "fixtures/selection": tuple(f"shop.{lang}.yaml" for lang in LANGS),
    "fixtures/eval_runs": ("*.jsonl", "simulation.yaml"),  # simulation.yaml: scripts/make_eval_runs.py's input
    **{f"lessons/{lang}": ("*.md",) for lang in LANGS},
}


def lookalike_name(name: str) -> str | None:
    """Why a content file's ``name`` reads otherwise than it is, or None: it holds a letter drawn like a Latin one
    (toolcall.text.LOOKALIKE_BLOCKS: Cyrillic о, Greek ο, fullwidth ｏ) or a character shown as nothing. A lesson
    ``03-tool-definitiоn.md`` with a Cyrillic о was told only "file name must look like NN-slug.md" and "has no zh
    version", a tool ``get_оrder.json`` "tool name 'get_order' differs from the file name": each read as the right
    name (break-it pass brk14content). Chinese characters are names an instructor may choose, and are left alone."""
    shown = escape_lookalikes(name)
    if shown == name:
        return None
    odd = sorted({c for c in name if escape_lookalikes(c) != c})
    listed = ", ".join(f"{c} (U+{ord(c):04X})" if escape_invisible(c) == c else escape_invisible(c)
                       for c in odd[:3])
    return (f"the file name reads as one it is not: it holds {listed}, a letter drawn like a Latin one (Cyrillic, "
            f"Greek, fullwidth) or a character shown as nothing; written out it is '{shown}': rename it in ASCII")


def unread_file_problems(root: Path) -> list[Problem]:
    """Every file in a content folder that the app never reads (APP_READS), and every folder under lessons/ but
    the languages the app has (``lessons/fr``), each as a problem naming it and what is read there instead; every
    file whose name reads as one it is not (lookalike_name).
    Names starting with ``.`` (``.gitkeep``, an editor's swap file) and README files are left alone."""
    problems = []
    for folder, patterns in APP_READS.items():
        base = Path(root) / folder
        for entry in _entries(base, counted=True):
            if entry.name.startswith(".") or entry.name.upper().startswith("README"):
                continue
            if (odd := lookalike_name(entry.name)) is not None:
                problems.append(Problem(display_name(entry), "$", odd))
            if not any(fnmatch.fnmatchcase(entry.name, pattern) for pattern in patterns):
                problems.append(Problem(display_name(entry), "$", "never read by the app: it reads only "
                                        f"{', '.join(patterns)} in {folder}/ (is the name or its case wrong?)"))
    for entry in _entries(Path(root) / "lessons"):
        if entry.name.startswith(".") or entry.name.upper().startswith("README") or entry.name in LANGS:
            continue
        problems.append(Problem(display_name(entry), "$", "never read by the app: lessons/ holds one folder "
                                f"per language the app has ({', '.join(LANGS)})"))
    return problems


def _entries(folder: Path, counted: bool = False) -> list[Path]:
    """The entries of ``folder``, sorted; none when it is not a folder or cannot be listed (content_folder_problems
    names that: a folder this program may not list ended ``check`` in a PermissionError traceback). ``counted``:
    each name but a dot file or a README is charged to check's read budget as it is listed (toolcall.files.charge,
    which raises BudgetSpent past it), so a folder of a million names costs at most the budget, not a sorted list."""
    try:
        if not folder.is_dir():
            return []
        listed = []
        for entry in folder.iterdir():
            if counted:  # a dot file or a README is neither charged nor listed: every caller passes over them
                if entry.name.startswith(".") or entry.name.upper().startswith("README"):
                    continue
                charge(entry)
            listed.append(entry)
        return sorted(listed)
    except OSError:
        return []


#: What one ``check`` run may look at and read in all (toolcall.files.read_budget): each file is held to its own
#: cap, but 60 tool files of 1.9 MB each (every one under its cap) were all read, parsed and kept in the run's memo:
#: 9.5 s of CPU and 154 MB of RSS, growing with every file (now refused from the sizes: 0.3 s, 40 MB). The course's
#: content is 63 files, 0.7 MB (2026-12-07): the budget is room for 40 times as many files and 45 times the bytes.
MAX_CHECK_FILES, MAX_CHECK_BYTES = 5_000, 32_000_000
#: What the run itself may open and list (toolcall.files.read_budget), against the content's own size measured first
#: (content_budget_problem): a lesson is read by more than one checker, the schemas come from the app, and every
#: name in a content folder is looked at. A backstop: content within the budget above stays well within it.
RUN_BUDGET_FACTOR = 4
#: The bytes of recorded run logs (fixtures/eval_runs/*.jsonl) one run reads, apart from MAX_CHECK_BYTES: the logs
#: scripts/make_eval_runs.py draws (one per version of the descriptions and language) may each be as large as the
#: selection lab reads (toolcall.eval_import.MAX_BYTES, 50 MB), and a log is read and let go before the next. In the
#: content budget, the logs of a spec at its schema's 1 000 runs per case (43 MB) had the whole course refused,
#: "nothing was checked" (break-it pass brk18new); checked, they took 2.9 s and 118 MB.
MAX_CHECK_LOG_BYTES = 200_000_000


def _read_cap(pattern: str) -> int:
    """The most bytes a checker reads of one file matching ``pattern`` (CONTENT_PATTERNS): a larger file is refused
    from its size, unread, and named by its own problem ("too large"), so it costs the run nothing. Counted whole,
    one sparse 4 GB file put the content over the budget and hid every other problem (break-it pass, round 11)."""
    from toolcall.eval_import import MAX_BYTES
    from toolcall.lessons import MAX_LESSON_CHARS

    if pattern.startswith("lessons/"):
        return max_text_bytes(MAX_LESSON_CHARS)
    return MAX_BYTES if pattern.endswith(".jsonl") else max_text_bytes()


def content_budget_problem(root: Path) -> Problem | None:
    """The problem of content larger than one run checks, found from the files' sizes before any is read: more than
    MAX_CHECK_FILES content files (CONTENT_PATTERNS) or MAX_CHECK_BYTES bytes of them (the run logs apart, held to
    MAX_CHECK_LOG_BYTES), named at the folder where the count passed the budget; None when it fits. Each file is
    counted as it is listed, so a folder of a million names costs at most MAX_CHECK_FILES + 1 of them; a file over
    what its reader takes (_read_cap) counts as a file of no bytes."""
    files = size = logs = 0
    for pattern in CONTENT_PATTERNS:
        is_log = pattern.endswith(".jsonl")
        for path in root.glob(pattern):
            try:
                info = path.stat()
            except OSError:
                continue  # a link to nothing, a loop: the checkers name it
            files += 1
            read = info.st_size if stat.S_ISREG(info.st_mode) and info.st_size <= _read_cap(pattern) else 0
            if is_log:
                logs += read
            else:
                size += read
            if files > MAX_CHECK_FILES or size > MAX_CHECK_BYTES:
                return Problem(display_name(path.parent), "$", (
                    f"more content than check reads in one run ({MAX_CHECK_FILES:,} files, {MAX_CHECK_BYTES:,} "
                    f"bytes): it passed the budget here, at {files:,} files and {size:,} bytes, so nothing was "
                    "checked. Check a smaller folder, or remove files the course does not use"))
            if logs > MAX_CHECK_LOG_BYTES:
                return Problem(display_name(path.parent), "$", (
                    f"more recorded run logs than check reads in one run ({MAX_CHECK_LOG_BYTES:,} bytes of *.jsonl): "
                    f"it passed the budget here, at {logs:,} bytes, so nothing was checked. Draw fewer "
                    "runs_per_case in simulation.yaml, or remove logs the course does not use"))
    return None


def budget_problem(exc: BudgetSpent) -> Problem:
    """The one problem of a run that stopped at its read budget: the file it stopped at, what it had read, the
    budget, and what was left unchecked."""
    b = exc.budget
    return Problem(display_name(Path(exc.path)), "$", f"check stopped here: it had looked at or read {b.used_files:,} "
                   f"files ({b.used_bytes:,} bytes), and this file ({exc.size:,} bytes) would pass what one run reads "
                   f"({b.files:,} files, {b.bytes:,} bytes); this file and the rest were not checked. "
                   "Check a smaller folder, or remove files the course does not use")


def run_checks(root: Path) -> list[Problem]:
    """Run every checker on ``root``; returns all problems (empty when the content is sound).
    A folder without fixtures/ is itself a problem: checking nothing must not pass. Content of more than
    MAX_CHECK_FILES files or MAX_CHECK_BYTES bytes is refused before any file is read (content_budget_problem); what
    the run then opens and lists is held to RUN_BUDGET_FACTOR times that (plus MAX_CHECK_LOG_BYTES), and past it
    the run stops there and its last problem says where (budget_problem)."""
    problems: list[Problem] = []
    with read_budget(int(RUN_BUDGET_FACTOR * MAX_CHECK_FILES), int(RUN_BUDGET_FACTOR * MAX_CHECK_BYTES)
                     + MAX_CHECK_LOG_BYTES):
        try:
            _run_checks(Path(root), problems)
        except BudgetSpent as exc:  # the problems found before it, then where it stopped
            problems.append(budget_problem(exc))
    return list(dict.fromkeys(problems))  # a fixture problem met through a lesson or an exercise: once


def _run_checks(root: Path, problems: list[Problem]) -> None:
    """run_checks' work: each problem appended to ``problems`` as it is found."""
    if not (root / "fixtures").is_dir():
        problems.append(Problem(display_name(root), "$", "no fixtures/ folder here: nothing to check"))
        return
    problems += content_folder_problems(root)
    if not any(next(root.glob(pattern), None) for pattern in CONTENT_PATTERNS):
        if not problems:
            problems.append(Problem(display_name(root), "$", "nothing to check: no fixture or lesson files "
                                    "(fixtures/<kind>/*.json|yaml, lessons/<lang>/*.md) under this folder"))
        return
    if (too_much := content_budget_problem(root)) is not None:
        problems.append(too_much)
        return
    problems += unread_file_problems(root)
    with one_read_per_run():  # each fixture read once, however many checkers and lessons use it
        for checker in CHECKERS:
            problems += checker(root)
