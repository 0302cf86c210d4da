"""The command line: ``python -m toolcall {result,check,passk,pairing,grade,lint} …`` (see DESIGN.md for the contract).

Each subcommand is a function ``(args) -> exit code`` registered in ``_build_parser``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from toolcall import REPO_ROOT
from toolcall.backend import RefundBackend
from toolcall.check import run_checks
from toolcall.exercises import load_exercises
from toolcall.fixtures import FixtureError, load_orders, load_tool
from toolcall.grading import grade
from toolcall.i18n import LANGS
from toolcall.passk import EstimateInputError, estimate
from toolcall.pairing import check_pairing
from toolcall.judge import evaluate
from toolcall.lint import ERROR, grouped, lint_set, score
from toolcall.tooldef import parse_tool_list
from toolcall.results import call_id, scrub
from toolcall.wire import FORMATS, PAIRING_CHOICES
from toolcall.validation import check_schema


def _cmd_result(args: argparse.Namespace) -> int:
    try:
        tool = load_tool(Path(args.tool))
        book = load_orders(Path(args.orders)) if args.orders else load_orders()
    except FixtureError as exc:
        print(exc, file=sys.stderr)
        return 2
    schema = tool.input_schema
    if args.schema:
        try:
            text = Path(args.schema).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{args.schema}: cannot read: {exc}", file=sys.stderr)
            return 2
        checked = check_schema(text, args.lang)
        if not checked.ok:
            print(f"{args.schema}: {checked.message}", file=sys.stderr)
            return 2
        schema = checked.schema
    raw = sys.stdin.read() if args.input == "-" else args.input
    call = args.id or call_id(raw, args.format)
    card = evaluate(raw, schema, tool.name, args.lang, args.format, call, RefundBackend(book))
    print(json.dumps(card.tool_result, ensure_ascii=False, indent=2))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    root = Path(args.dir) if args.dir else REPO_ROOT
    if not root.is_dir():
        print(f"{root}: not a folder", file=sys.stderr)
        return 2
    problems = run_checks(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("all content checks passed")
    return 0


GRADE_HELP = """ANSWER formats by exercise type:
  choice      a JSON list of option ids, '["a", "c"]', or one id, 'b'
  number      a decimal 0.7, a fraction 84/120 or a percentage 70%
  json        the JSON text itself (a JSON object)
  schema_fix  the edited input_schema as JSON text
  order       a JSON list of every step id, first step first, '["send", "tool_use", ...]'
  classify    a JSON object mapping item id to category id, '{"item": "category"}'
ANSWER - reads the answer from stdin.
Prints {score, max_score, correct, malformed, feedback: [{level, en, zh}]}; exit 0 when graded,
2 for an unknown exercise id, a malformed answer or broken exercise files."""


def _cmd_grade(args: argparse.Namespace) -> int:
    loaded = load_exercises(Path(args.exercises) if args.exercises else None)
    exercise = loaded.by_id().get(args.exercise_id)
    if exercise is None:
        for problem in loaded.problems:
            print(problem, file=sys.stderr)
        known = ", ".join(sorted(loaded.by_id())) or "none"
        print(f"unknown exercise id {args.exercise_id!r}; known ids: {known}", file=sys.stderr)
        return 2
    text = sys.stdin.read() if args.answer == "-" else args.answer
    try:
        result = grade(exercise, text)
    except FixtureError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(scrub(json.dumps(result.to_dict(), ensure_ascii=False, indent=2)))
    if result.malformed:
        print(scrub(f"malformed answer for exercise {exercise.id} ({exercise.type}): "
                    f"{result.feedback[0].render('en')}"), file=sys.stderr)
        return 2
    return 0


def _cmd_passk(args: argparse.Namespace) -> int:
    try:
        est = estimate(args.n, args.c, args.k)
    except EstimateInputError as exc:
        print(f"passk: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(est.as_json(), ensure_ascii=False, indent=2))
    return 0


def _read_file(name: str) -> str | None:
    """The text of file ``name`` (``-`` reads stdin); None after printing why it cannot be read."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{name}: cannot read: {exc}", file=sys.stderr)
        return None


def _cmd_pairing(args: argparse.Namespace) -> int:
    text = _read_file(args.file)
    if text is None:
        return 2
    report = check_pairing(text, args.format, args.lang)
    if report.error:
        print(report.error, file=sys.stderr)
        return 2
    print(json.dumps({"format": report.fmt, "messages": report.messages, "more": report.more,
                      "violations": [v.__dict__ for v in report.violations]}, ensure_ascii=False, indent=2))
    return 1 if report.violations else 0


def _cmd_lint(args: argparse.Namespace) -> int:
    text = _read_file(args.file)
    if text is None:
        return 2
    tools, problem = parse_tool_list(text, args.lang)
    if problem is not None:
        print(f"{args.file}: {problem.path}: {problem.message}", file=sys.stderr)
        return 2
    findings = lint_set(tools)
    print(json.dumps({"tools": [tool.name for tool in tools], "score": score(findings),
                      "counts": {s: len(group) for s, group in grouped(findings).items()},
                      "findings": [f.as_dict(args.lang) for f in findings]}, ensure_ascii=False, indent=2))
    return 1 if any(f.severity == ERROR for f in findings) else 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m toolcall", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    result = sub.add_parser("result", help="print the tool_result the app would send for a raw model output")
    result.add_argument("--tool", required=True, help="tool definition JSON (name, description, input_schema)")
    result.add_argument("--input", required=True, help="the model's raw argument text; - reads stdin")
    result.add_argument("--schema", help="an input_schema JSON file to use instead of the tool's own")
    result.add_argument("--format", choices=FORMATS, default="anthropic")
    result.add_argument("--id", help="tool_use_id / tool_call_id to answer (default: derived from the input)")
    result.add_argument("--lang", choices=LANGS, default="en")
    result.add_argument("--orders", help="order book YAML for the fake backend (default: the repo's)")
    result.set_defaults(func=_cmd_result)

    check = sub.add_parser("check", help="validate every fixture and lesson; exit 1 on any problem")
    check.add_argument("dir", nargs="?", help="content root holding fixtures/ and lessons/ (default: this repo)")
    check.set_defaults(func=_cmd_check)

    grade_ = sub.add_parser("grade", help="grade one answer to one exercise; print the grade as JSON",
                            description="Grade ANSWER for EXERCISE_ID and print the grade as JSON.",
                            epilog=GRADE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    grade_.add_argument("exercise_id", metavar="EXERCISE_ID", help="an exercise id from fixtures/exercises/*.yaml")
    grade_.add_argument("answer", metavar="ANSWER", help="the answer text (format per type below); - reads stdin")
    grade_.add_argument("--exercises", help="folder of exercise files (default: the repo's fixtures/exercises)")
    grade_.set_defaults(func=_cmd_grade)

    passk = sub.add_parser("passk", help="estimate pass^k, pass@k and the naive (c/n)^k from n runs with c passes")
    passk.add_argument("--n", type=int, required=True, help="runs of the test case (1 to 10000)")
    passk.add_argument("--c", type=int, required=True, help="runs that passed (0 to n)")
    passk.add_argument("--k", type=int, required=True, help="k (1 to n)")
    passk.set_defaults(func=_cmd_passk)
    pairing = sub.add_parser("pairing", help="list every tool_use/tool_result pairing rule a transcript breaks; "
                                             "exit 1 if any, 2 if it cannot be read")
    pairing.add_argument("file", help="transcript JSON: a messages list or a request holding one; - reads stdin")
    pairing.add_argument("--format", choices=PAIRING_CHOICES, default="auto")
    pairing.add_argument("--lang", choices=LANGS, default="en")
    pairing.set_defaults(func=_cmd_pairing)
    lint = sub.add_parser("lint", help="design-review tool definitions (one or a list, course or OpenAI form); "
                                       "print findings as JSON; exit 1 on any error-level finding, 2 if unreadable")
    lint.add_argument("file", help="TOOLS.json: one definition or a list; - reads stdin")
    lint.add_argument("--lang", choices=LANGS, default="en")
    lint.set_defaults(func=_cmd_lint)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default sys.argv[1:]); returns the exit code."""
    args = _build_parser().parse_args(argv)
    return args.func(args)
