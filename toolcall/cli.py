"""The command line: ``python -m toolcall {result,check,passk,pairing,grade,conformance,strict,eval,lint,export} …``
(README.md, section "Command line").

Each subcommand is a function ``(args) -> exit code`` registered in ``_build_parser``.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from toolcall import CONTENT_ROOT, FIXTURES_DIR, content_root_problem
from toolcall.backend import backend_for
from toolcall.check import MAX_CHECK_BYTES, MAX_CHECK_FILES, run_checks
from toolcall.exercises import exercise_files, load_exercises
from toolcall.files import (MAX_FILE_CHARS, BudgetSpent, ReadError, check_listable, check_path, not_utf8, os_failure,
                            read_budget, read_bytes_bounded, read_stdin_bounded, read_text_bounded)
from toolcall.fixtures import FixtureError, load_orders, load_tool
from toolcall.grading import grade, grading_inputs
from toolcall.i18n import LANGS, fill, t
from toolcall.passk import N_MAX, EstimateInputError, estimate, read_whole
from toolcall.grading import MAX_ANSWER_CHARS
from toolcall.judge import MAX_TOKENS_LIMIT, STOP_REASONS, STOP_TOOL_USE, evaluate, no_backend_message
from toolcall.pairing import MAX_CHARS as PAIRING_MAX_CHARS
from toolcall.pairing import check_pairing
from toolcall.parsing import MAX_INPUT_CHARS
from toolcall.results import call_id, scrub
from toolcall.text import (escape_identifier, escape_line, escape_lookalikes, escape_terminal, escaped_head,
                           quoted_head, visible_json)
from toolcall.validation import MAX_SCHEMA_CHARS, check_schema
from toolcall.wire import FORMATS, PAIRING_CHOICES


def _cmd_result(args: argparse.Namespace) -> int:
    try:
        tool = load_tool(Path(args.tool), args.lang)
        book = load_orders(Path(args.orders)) if args.orders else load_orders()
    except FixtureError as exc:
        print_problems(exc.problems)
        return 2
    schema = tool.input_schema
    if args.schema:
        try:
            text = read_text_bounded(args.schema, MAX_SCHEMA_CHARS)
        except ReadError as exc:
            reason = t("files.cannot_read", args.lang, reason=exc.text(args.lang))
            print(f"{escape_line(args.schema)}: {reason}", file=sys.stderr)
            return 2
        checked = check_schema(text, args.lang)
        if not checked.ok:
            print(f"{escape_line(args.schema)}: {escape_line(checked.message)}", file=sys.stderr)
            return 2
        schema = checked.schema
    raw = _stdin_text("--input", MAX_INPUT_CHARS, args.lang) if args.input == "-" else args.input
    if raw is None:
        return 2
    raw = strip_shell_newline(raw) if args.input == "-" else raw
    if not 1 <= args.max_tokens <= MAX_TOKENS_LIMIT:  # 10**33 was taken, and its re-request printed 2 × 10**33
        digits = str(abs(args.max_tokens))
        shown = str(args.max_tokens) if len(digits) < 20 else f"a number of {len(digits)} digits"
        print(f"--max-tokens must be from 1 to {MAX_TOKENS_LIMIT:,}, not {shown}", file=sys.stderr)
        return 2
    call = args.id or call_id(raw, args.format)
    card = evaluate(raw, schema, tool.name, args.lang, args.format, call, backend_for(tool.name, book),
                    args.assert_format, args.stop_reason, args.max_tokens)
    if card.harness_action is not None:  # no tool_result is sent after a max_tokens stop
        action = card.harness_action
        out = {"stop_reason": action.stop_reason, "tool_result": None,
               "harness_action": {"action": action.kind, "max_tokens": action.max_tokens,
                                  "next_max_tokens": action.next_max_tokens,
                                  "request_fields": action.request_fields(args.format)},
               "tool_result_if_stop_reason_tool_use": card.tool_result or None}
        print(visible_json(out, indent=2))
        return 0
    if card.no_backend:  # schema verdict only: never a made-up result
        print(visible_json({"verdict": card.verdict, "tool_result": None,
                            "no_backend": no_backend_message(tool.name, args.lang)}, indent=2))
        return 0
    print(visible_json(card.tool_result, indent=2))  # invisible characters as \uXXXX: same JSON
    return 0


def _cmd_conformance(args: argparse.Namespace) -> int:
    from toolcall.conformance import failure_line, format_table, run_suite, table

    try:
        results = run_suite(Path(args.suite))
    except (FileNotFoundError, OSError, ValueError) as exc:
        print_lines(exc, file=sys.stderr)
        return 2
    print(table(results))
    print()
    print(format_table(results))
    for r in results:
        for f in r.failures:
            print(failure_line(f), file=sys.stderr)
    return 0


#: ``check`` lists at most this many problems (a tree of 3 000 broken files printed 3 000 lines); ``--all`` lists
#: every one. The count on stderr is always the whole number.
CHECK_SHOWN = 100


def _cmd_check(args: argparse.Namespace) -> int:
    root = Path(args.dir) if args.dir else CONTENT_ROOT
    if not root.is_dir():
        print(f"{escape_line(str(root))}: not a folder", file=sys.stderr)
        return 2
    problems = run_checks(root)
    shown = problems if args.all else problems[:CHECK_SHOWN]
    for problem in shown:
        print_lines(problem)
    if len(shown) < len(problems):  # the exact count of the rest, and how to see them
        print(t("cli.check_more", "en", count=len(problems) - len(shown)))
    if problems:
        print(f"problems: {len(problems)}", file=sys.stderr)
        return 1
    print("all content checks passed")
    return 0


def _umask() -> int:
    """The process's file-creation mask (read by setting it and setting it back: the command is single-threaded)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Characters of OUT's name the export's temporary file's name repeats (``.<name>.<random>.part``): NAME_MAX is 255
#: bytes on most file systems, and a name of up to 4 bytes a character takes 4 each.
PART_NAME_CHARS = 40


def _cmd_export(args: argparse.Namespace) -> int:
    """The class dashboard's JSON or CSV file (by OUT's suffix) for the whole class, written a page of rows at a time
    (toolcall.dashboard.write_export_json / write_export_csv) into a new file beside OUT (``.OUT.*.part``, removed
    on any failure or interrupt), then renamed to OUT: what the dashboard's buttons offer only up to
    MAX_PAGE_EXPORT_LEARNERS learners. The store is the app's: TOOLCALL_DATABASE_URL (the environment's, else the
    secrets files' the app reads: progress.configured_database_url), else the SQLite file in TOOLCALL_DATA_DIR (which
    must exist: an export never creates a database)."""
    from toolcall.dashboard import write_export_csv, write_export_json
    from toolcall.harness import load_scenarios
    from toolcall.harness_grading import progress_entries
    from toolcall.grading import in_course_order
    from toolcall.progress import DB_NAME, StorageError, configured_database_url, data_dir, open_store

    out, lang = Path(args.out), args.lang
    kind = out.suffix.lower().lstrip(".")
    shown = escape_line(str(out))
    if kind not in ("json", "csv"):
        print(t("cli.export_suffix", lang, file=shown), file=sys.stderr)
        return 2
    if out.is_dir() or not out.parent.is_dir():
        print(t("cli.export_folder", lang, file=shown), file=sys.stderr)
        return 2
    try:  # the app's: the environment, else its secrets files (stripped, as the app reads it)
        url = configured_database_url()
    except ValueError as exc:
        print(t("cli.export_failed", lang, file=shown, reason=str(exc)), file=sys.stderr)
        return 2
    store_file = data_dir() / DB_NAME
    if not url and os.path.lexists(store_file) and not store_file.is_file():
        try:  # a FIFO, a folder, a link to nothing or a loop there was "no progress database at …" (brk18new)
            check_path(store_file, "file")
        except ReadError as exc:
            reason = escape_line(str(store_file)) + ("：" if lang == "zh" else ": ") + exc.text(lang)
            print(t("cli.export_failed", lang, file=shown, reason=reason), file=sys.stderr)
            return 2
    if not url and not store_file.is_file():
        print(t("cli.export_no_store", lang, file=escape_line(str(data_dir() / DB_NAME))), file=sys.stderr)
        return 2
    if url:  # the server's own reason, as the class launcher says it: the store's next call said only "unreachable
        # (retrying shortly)" of a server that was not running, from a command that retries nothing (brk17fresh)
        from toolcall.progress_pg import reach_problem
        if (problem := reach_problem(url)) is not None:
            print(t("cli.export_failed", lang, file=shown, reason=escape_line(problem)), file=sys.stderr)
            return 2
    # the pool logs each failed connection to stderr; the one line below says it (without the URL)
    logging.getLogger("psycopg").addHandler(logging.NullHandler())
    part = None
    try:
        store = open_store(url, export=True)  # read-only: an export never sets up or upgrades a database
        try:
            # A new file of its own next to OUT (O_EXCL, never followed): a fixed OUT.part that was a link wrote the
            # export into the link's target and left OUT pointing at it; a FIFO there hung the command (brk18new).
            # Its name holds at most PART_NAME_CHARS of OUT's: a name near the file system's 255 bytes was refused as
            # "the name is too long for the file system", though OUT itself could be written (brk19new)
            fd, name = tempfile.mkstemp(prefix=f".{out.name[:PART_NAME_CHARS]}.", suffix=".part", dir=out.parent)
            part = Path(name)
            os.fchmod(fd, 0o666 & ~_umask())  # as open() would have made it
            with open(fd, "wb") as stream:
                if kind == "csv":
                    write_export_csv(store, stream)
                else:
                    entries = in_course_order([*load_exercises().exercises,
                                               *progress_entries(load_scenarios().scenarios)])
                    write_export_json(store, {e.id: e.title.get(lang) or e.title["en"] for e in entries}, stream)
        finally:
            store.close()
        os.replace(part, out)
        part = None
    except (StorageError, ValueError) as exc:
        print(t("cli.export_failed", lang, file=shown, reason=escape_line(str(exc))), file=sys.stderr)
        return 2
    except OSError as exc:
        print(t("cli.export_failed", lang, file=shown, reason=os_failure(exc).text(lang)), file=sys.stderr)
        return 2
    finally:  # whatever stopped it (Ctrl-C, a lost server, a full disk): no half-written file is left behind
        if part is not None:
            part.unlink(missing_ok=True)
    print(t("cli.export_done", lang, file=shown, size=f"{out.stat().st_size:,}"))
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


#: What ``grade`` reads of the exercise folder in one run, files and bytes (toolcall.files.read_budget): check's.
GRADE_READ_BUDGET = (MAX_CHECK_FILES, MAX_CHECK_BYTES)


def _cmd_grade(args: argparse.Namespace) -> int:
    if not args.exercises and (default := FIXTURES_DIR / "exercises").is_dir():
        try:  # a given --exercises was checked with the other arguments; the content root's is checked here
            check_listable(default)
        except ReadError as exc:  # it said "unknown exercise id 'pk_pass3'; known ids: none"
            print(f"{escape_line(str(default))}: {exc}", file=sys.stderr)
            return 2
    try:  # each file is held to its cap, but their number was not: every file of the folder was read (3 000 copies of
        # general.yaml: 53 s), so a folder of many more ran for as long as they lasted; now at most check's budget
        with read_budget(*GRADE_READ_BUDGET):
            loaded = load_exercises(Path(args.exercises) if args.exercises else None)
    except BudgetSpent as exc:
        files, size = GRADE_READ_BUDGET
        print(f"{escape_line(str(exc.path))}: grade stopped here: the exercise files pass what one run reads "
              f"({files:,} files, {size:,} bytes), so nothing was graded; give --exercises a folder of the course's "
              "exercise files only", file=sys.stderr)
        return 2
    # the content root's folder as --exercises: missing, a link loop or empty, it was named and then the id was
    # blamed too, "unknown exercise id 'pk_pass3'; known ids: none" (brk19new)
    folder = Path(args.exercises) if args.exercises else FIXTURES_DIR / "exercises"
    if not folder.is_dir():  # "no such folder": not "unknown exercise id"
        print_problems(loaded.problems)
        return 2
    if not exercise_files(folder):  # not "unknown id …; known ids: none"
        named = f"--exercises {escape_line(args.exercises)}" if args.exercises else escape_line(str(folder))
        print(f"{named}: no exercise files (*.yaml, *.yml) in this folder", file=sys.stderr)
        return 2
    exercise = loaded.by_id().get(args.exercise_id)
    if exercise is None:
        print_problems(loaded.problems)
        print(unknown_exercise(args.exercise_id, loaded.by_id()), file=sys.stderr)
        return 2
    # the folder's problems are said even when the id is found: an exercise defined twice (a file copied and
    # edited) was graded against the first silently, exit 0 (break-it pass brk21probe); then it is not graded
    print_problems(loaded.problems)
    twice = f"duplicate exercise id {exercise.id!r} "
    if any(twice in str(problem) for problem in loaded.problems):
        print(f"exercise {_shown_exercise_id(exercise.id)} is defined more than once (above): not graded until one "
              "is renamed or removed", file=sys.stderr)
        return 2
    text = _stdin_text("ANSWER", MAX_ANSWER_CHARS) if args.answer == "-" else args.answer
    if text is None:
        return 2
    try:
        result = grade(exercise, text, grading_inputs(exercise))
    except FixtureError as exc:
        print_problems(exc.problems)
        return 2
    print(scrub(json.dumps(result.to_dict(), ensure_ascii=False, indent=2)))
    if result.malformed:
        print(scrub(f"malformed answer for exercise {exercise.id} ({exercise.type}): "
                    f"{escape_line(result.feedback[0].render('en'))}"), file=sys.stderr)  # the answer on one line
        return 2
    return 0


def _shown_exercise_id(exercise_id: str) -> str:
    """An exercise id as pairing.shown_id shows it (cut as drawn, every non-ASCII or invisible character escaped)."""
    from toolcall.pairing import shown_id

    return shown_id(exercise_id)


def unknown_exercise(exercise_id: str, known: Iterable[str]) -> str:
    """"unknown exercise id …; known ids: …" with the id as pairing.shown_id shows it (cut at 64 characters, every
    non-ASCII, invisible or control character escaped) and at most pairing.MAX_IDS known ids, the ones spelled
    most like it first. It echoed a 100 000-character id whole, listed all 21 shipped ids (any number in an
    instructor's folder), and ``pk_pаss3`` with a Cyrillic а read the same as the ``pk_pass3`` it listed."""
    import difflib

    from toolcall.pairing import MAX_IDS, MAX_SHOWN, shown_id

    known = sorted(known)
    near = difflib.get_close_matches(exercise_id[:MAX_SHOWN], known, n=MAX_IDS, cutoff=0.6) if exercise_id else []
    ordered = near + [k for k in known if k not in set(near)]
    listed = ", ".join(shown_id(k) for k in ordered[:MAX_IDS]) or "none"
    if len(ordered) > MAX_IDS:
        listed += t("pairing.ids_more", "en", count=len(ordered) - MAX_IDS)
    return f"unknown exercise id '{shown_id(exercise_id)}'; known ids: {listed}"


def _cmd_passk(args: argparse.Namespace) -> int:
    try:
        est = estimate(args.n, args.c, args.k)
    except EstimateInputError as exc:
        print(f"passk: {exc}", file=sys.stderr)
        return 2
    print_json(est.as_json())
    return 0


#: print_lines cuts a line of a problem or refusal after this many characters: a fixture whose 1.5 MB tool name
#: breaks a rule made `check` print the whole value in its message, once per file (7.5 MB for five files).
MAX_LINE_CHARS = 2_000


def print_lines(message: Any, file: Any = None) -> None:
    """Print ``str(message)`` (a Problem, a FixtureError of several lines…) with each line cut after MAX_LINE_CHARS
    characters and the exact count of the rest said (``… (1,498,000 more characters)``, cli.line_more)."""
    out = []
    for line in str(message).split("\n"):
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + t("cli.line_more", "en", count=len(line) - MAX_LINE_CHARS)
        out.append(line)
    print("\n".join(out), file=file if file is not None else sys.stdout)


def print_problems(problems: list, prefix: str = "") -> None:
    """Print the first CHECK_SHOWN of ``problems`` (a content loader's) on stderr, one a line (print_lines), each after
    ``prefix``, then how many more were left out (cli.problems_more). ``grade --exercises`` on a folder of 3 000
    broken files printed all 9 000 of their problems before "unknown exercise id"; ``eval --selection`` printed a
    set's every problem on one line; ``result --tool`` and ``strict`` printed a line for each of 20 000 names in a
    tool's x-i18n that are no property of its input_schema."""
    for problem in problems[:CHECK_SHOWN]:
        print_lines(f"{prefix}{problem}", file=sys.stderr)
    if len(problems) > CHECK_SHOWN:
        print(t("cli.problems_more", "en", count=len(problems) - CHECK_SHOWN), file=sys.stderr)


#: ``eval``'s table shows a case id or a tool name at most this many characters as drawn, escapes included (then
#: "…"); its columns are as wide as the longest shown.
MAX_TABLE_ID_CHARS = 48

#: print_json hands the output to stdout in pieces of about this many characters.
JSON_CHUNK_CHARS = 1 << 16


def print_json(value: Any) -> None:
    """Print ``value`` as JSON (UTF-8 text as itself, indented by 2) and a line end, streamed: the encoder's
    pieces are written in batches of about JSON_CHUNK_CHARS characters, so the output is never held whole
    (``eval --out json`` on 150 000 cases is a 31 MB text; built whole, then escaped for the terminal, it
    took 265 MB on top of the analysis). Raises what json.dumps raises for a value it cannot encode."""
    batch: list[str] = []
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(value):
        batch.append(piece)
        size += len(piece)
        if size >= JSON_CHUNK_CHARS:
            sys.stdout.write("".join(batch))
            batch, size = [], 0
    batch.append("\n")
    sys.stdout.write("".join(batch))


def _stdin_text(label: str, limit: int, lang: str = "en") -> str | None:
    """Standard input as UTF-8 text, at most ``limit`` characters, for the argument ``label`` given as
    ``-``; None after printing why it cannot be used, in ``lang``
    (``--input - (stdin): not UTF-8 text (byte 0)``)."""
    try:
        text = read_stdin_bounded(sys.stdin, limit)
        if not text.strip():
            raise ReadError("empty")
    except ReadError as exc:
        print(f"{named(label, '-', lang)}: {exc.text(lang)}", file=sys.stderr)
        return None
    return text


def named(label: str, name: str, lang: str = "en") -> str:
    """How a message names the file argument ``label`` given as ``name``: ``FILE t.json`` (on one line,
    escape_line), ``FILE - (stdin)`` for standard input (in ``lang``)."""
    return f"{label} - {t('files.stdin', lang)}" if name == "-" else f"{label} {escape_line(name)}"


def _read_file(name: str, limit: int, label: str = "FILE", lang: str = "en") -> str | None:
    """The text of file ``name`` (``-`` reads stdin), at most ``limit`` characters; None after printing
    why it cannot be read, in ``lang``."""
    if name == "-":
        return _stdin_text(label, limit, lang)
    try:
        return read_text_bounded(name, limit)
    except ReadError as exc:
        print(f"{named(label, name, lang)}: {exc.text(lang)}", file=sys.stderr)
        return None


def _cmd_pairing(args: argparse.Namespace) -> int:
    text = _read_file(args.file, PAIRING_MAX_CHARS, lang=args.lang)
    if text is None:
        return 2
    report = check_pairing(text, args.format, args.lang)
    if report.error:  # naming the file: "Not JSON: …" alone did not say which of a script's files it was about
        print_lines(f"{named('FILE', args.file, args.lang)}: {escape_line(report.error)}", file=sys.stderr)
        return 2
    print_json({"format": report.fmt, "messages": report.message_count, "more": report.more,
                      "violations": [v.as_json() for v in report.violations],
                      "notes": [n.as_json() for n in report.notes], "notes_more": report.notes_more})
    if not report.message_count:  # `[]` passed with exit 0, a green verdict on nothing the page does not give
        print_lines(t("cli.pairing_empty", args.lang, file=named("FILE", args.file, args.lang)), file=sys.stderr)
        return 1
    return 1 if report.violations else 0


def _cmd_lint(args: argparse.Namespace) -> int:
    from toolcall.lint import ERROR, grouped, lint_set, score  # imported here: other commands don't need it
    from toolcall.tooldef import MAX_DEFINITION_CHARS, parse_tool_list

    text = _read_file(args.file, MAX_DEFINITION_CHARS, lang=args.lang)
    if text is None:
        return 2
    tools, problem = parse_tool_list(text, args.lang)
    if problem is not None:
        print(f"{escape_line(args.file)}: {escape_line(problem.path)}: {escape_line(problem.message)}", file=sys.stderr)
        return 2
    findings = lint_set(tools)
    print_json({"tools": [tool.name for tool in tools], "score": score(findings),
                      "counts": {s: len(group) for s, group in grouped(findings).items()},
                      "findings": [f.as_dict(args.lang) for f in findings]})
    return 1 if any(f.severity == ERROR for f in findings) else 0


def _cmd_strict(args: argparse.Namespace) -> int:
    from toolcall.i18n import t
    from toolcall.strict import finding_message, report  # imported here: other commands don't need it

    try:
        tool = load_tool(Path(args.tool), getattr(args, "lang", "en"))
    except FixtureError as exc:
        print_problems(exc.problems)
        return 2
    checked = check_schema(json.dumps(tool.input_schema), "en")
    if not checked.ok:
        print(f"{escape_line(args.tool)}: input_schema: {escape_line(checked.message)}", file=sys.stderr)
        return 2
    rep = report(checked.schema, args.provider, tool.name, tool.description)
    notes = {f"{d.path} {d.keyword}": t(f"strict.sdk.{d.note}") for d in rep.disagreements}
    out = {"provider": rep.provider, "refused": rep.refused,
           "findings": [f.as_json(finding_message(f), notes.get(f"{f.path} {f.keyword}", "")) for f in rep.findings],
           "sdk_disagreements": [{**d.__dict__, "message": t(f"strict.sdk.{d.note}")} for d in rep.disagreements],
           "moved_by_sdk": [{"path": m.path, "keyword": m.keyword, "into": m.into} for m in rep.moved],
           "transformed": rep.transformed, "transform_error": rep.transform_error or None,
           "declaration": rep.declaration}
    print_json(out)
    return 1 if rep.refused else 0


def _cmd_eval(args: argparse.Namespace) -> int:
    """``eval RUNS --k K``: per-case pass^k table and confusion matrix of a run log."""
    from toolcall.eval_import import MAX_BYTES as MAX_LOG_BYTES
    from toolcall.eval_import import LogError, read_log
    from toolcall.evaluation import ANALYSIS_BUDGET, MAX_MATRIX_TOOLS, analyse, case_rows_json, summary_rates
    from toolcall.i18n import t
    from toolcall.selection import load_set

    lang = args.lang
    runs = named("RUNS", args.runs, lang)
    try:
        expectations = None
        if args.selection:
            expectations = {c.id: c.expected_calls() for c in load_set(Path(args.selection)).cases}
    except FixtureError as exc:  # names the selection file (and the JSON path), not the runs
        print_problems(exc.problems, prefix="--selection ")
        return 2
    try:
        data = read_bytes_bounded(sys.stdin.buffer if args.runs == "-" else args.runs, MAX_LOG_BYTES)
        if not data.strip():
            raise ReadError("empty")
        if not data.startswith(b"PK\x03\x04"):  # anything but an Inspect .eval (a zip) is UTF-8 text
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise not_utf8(exc) from None
        log = read_log(data, args.format, args.runs)
    except LogError as exc:
        print(f"{runs}: {exc.text(lang)}", file=sys.stderr)
        return 2
    except (OSError, ReadError) as exc:
        print(f"{runs}: {(exc if isinstance(exc, ReadError) else os_failure(exc)).text(lang)}", file=sys.stderr)
        return 2
    for problem in log.problems:
        print(f"{escape_line(args.runs)}: {escape_line(problem.describe(lang))}", file=sys.stderr)
    if not log.runs:  # with no problem either, the log is empty: say so, not "no usable runs (problems: 0)"
        text = t("eval.cli.no_runs", lang, count=len(log.problems)) if log.problems \
            else t("eval.empty_log", lang, format=t(f"eval.format_{log.fmt}", lang))
        print(f"{escape_line(args.runs)}: {text}", file=sys.stderr)
        return 2
    result = analyse(log, args.k, expectations)
    status = 0 if any(c.refused is None for c in result.cases) else 1
    if status:
        print(f"{escape_line(args.runs)}: {t('eval.cli.nothing_estimated', lang, k=args.k)}", file=sys.stderr)
    if result.not_graded:
        budget = f"{ANALYSIS_BUDGET:g}"
        text = t("eval.cli.not_graded", lang, count=result.not_graded, seconds=budget)
        print(f"{escape_line(args.runs)}: {text}", file=sys.stderr)
    rows = case_rows_json(result.cases, lang)
    notes = [note.text(lang) for note in log.notes]
    if args.out == "json":
        print_json({"format": log.fmt, "k": args.k, "runs": len(log.runs), "problems": len(log.problems),
                          "notes": notes, "cases": rows, "mean": summary_rates(result.cases),
                          "taxonomy": result.taxonomy,
                          "confusion": {"expected": list(result.confusion.index),
                                        "chosen": list(result.confusion.columns),
                                        "counts": result.confusion.values.tolist(),
                                        "folded": dict(zip(("expected", "chosen"), result.folded_tools))}})
        return status
    if args.out == "csv":
        # The progress export's writer: a case id or tool name from the log that starts like a formula
        # (= + - @) is prefixed with ', so a spreadsheet opening this CSV never runs it. Rows end in "\n": this
        # stdout writes every CR in a cell as \u000d, so none can end a row (the downloads end rows in CRLF instead).
        from toolcall.progress import write_csv

        write_csv(sys.stdout, rows, tuple(rows[0]), line_end="\n")
        return status
    fmt = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    print(fill("{fmt}: {runs} {runs:plural:run|runs}, {cases} {cases:plural:case|cases}, k = {k}", fmt=log.fmt,
               runs=len(log.runs), cases=len(rows), k=args.k))
    # a look-alike id (Cyrillic с1) is not a second c1; a line end in an id cannot start a row of its own. Each is
    # cut as drawn (escaped_head): cut after escaping, a column ended inside an escape ("\u20"), and two ids that
    # differ past the column's width read the same with nothing to say they were cut
    cases = [escaped_head(r["case_id"], MAX_TABLE_ID_CHARS, lambda s: escape_line(escape_lookalikes(s))) for r in rows]
    tools = [escaped_head(r["expected_tool"] or "?", MAX_TABLE_ID_CHARS) for r in rows]  # get_\u043erder, not get_order
    case_w, tool_w = max([28, *map(len, cases)]), max([16, *map(len, tools)])
    print(f"{'case':<{case_w}} {'expected':<{tool_w}} {'n':>4} {'c':>4} {'pass^k':>7} {'pass@k':>7} {'naive':>7}")
    for r, case, tool in zip(rows, cases, tools):
        tail = (f"refused: {r['refused']}" if r["refused"]
                else f"{fmt(r['pass^k']):>7} {fmt(r['pass@k']):>7} {fmt(r['naive']):>7}")
        print(f"{case:<{case_w}} {tool:<{tool_w}} {r['n']:>4} {r['c']:>4} {tail}")
    means = summary_rates(result.cases)
    print(f"mean over cases: pass^k {fmt(means['pass^k'])}, pass@k {fmt(means['pass@k'])}, naive {fmt(means['naive'])}")
    if not result.confusion.empty:
        print("\nconfusion matrix (rows: expected tool, columns: chosen tool)")
        print(result.confusion.rename(index=escape_identifier, columns=escape_identifier).to_string())
        if any(result.folded_tools):
            print(t("eval.matrix_folded", lang, kept=MAX_MATRIX_TOOLS - 1, expected=result.folded_tools[0],
                    chosen=result.folded_tools[1]))
        print("\nfailure taxonomy: " + ", ".join(f"{name} {count}" for name, count in result.taxonomy.items()))
    for note in notes:
        print(f"note: {escape_line(note)}")
    return status


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m toolcall", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    result = sub.add_parser("result", help="print the tool_result the app would send for a raw model output")
    _file_arg(result, "--tool", kind="text", limit=MAX_FILE_CHARS, required=True,
              help="tool definition JSON (name, description, input_schema)")
    _file_arg(result, "--input", kind="stdin", limit=MAX_INPUT_CHARS, required=True,
              help="the model's raw argument text; - reads stdin")
    _file_arg(result, "--schema", kind="text", limit=MAX_SCHEMA_CHARS,
              help="an input_schema JSON file to use instead of the tool's own")
    result.add_argument("--format", choices=FORMATS, default="anthropic")
    result.add_argument("--id", help="tool_use_id / tool_call_id to answer (default: derived from the input)")
    result.add_argument("--lang", choices=LANGS, default="en")
    _file_arg(result, "--orders", kind="text", limit=MAX_FILE_CHARS,
              help="order book YAML for the fake backend (default: the repo's)")
    result.add_argument("--stop-reason", choices=STOP_REASONS, default=STOP_TOOL_USE,
                        help="the response's stop_reason; max_tokens prints the harness's re-request instead "
                             "of a tool_result")
    result.add_argument("--max-tokens", type=whole_number_arg, default=1024,
                        help="the request's max_tokens (default 1024)")
    result.add_argument("--assert-format", action="store_true",
                        help="check \"format\" (Draft 2020-12 format-assertion); by default it is an annotation")
    result.set_defaults(func=_cmd_result)

    conf = sub.add_parser("conformance", help="run JSON-Schema-Test-Suite (draft 2020-12) through the validator; "
                                              "print pass counts per file")
    _file_arg(conf, "suite", kind="folder", metavar="SUITE_DIR",
              help="a JSON-Schema-Test-Suite checkout (holds tests/draft2020-12)")
    conf.set_defaults(func=_cmd_conformance)

    check = sub.add_parser("check", help="validate every fixture and lesson; exit 1 on any problem")
    _file_arg(check, "dir", kind="folder", nargs="?", metavar="DIR",
              help="content root holding fixtures/ and lessons/ (default: this repo)")
    check.add_argument("--all", action="store_true",
                       help=f"list every problem (default: the first {CHECK_SHOWN}, then how many more)")
    check.set_defaults(func=_cmd_check)

    export = sub.add_parser("export", help="write the class dashboard's JSON or CSV file for the whole class "
                                           "(the store of TOOLCALL_DATABASE_URL or TOOLCALL_DATA_DIR)")
    export.add_argument("out", metavar="OUT", help="the file to write: class-progress.json or class-progress.csv")
    export.add_argument("--lang", choices=LANGS, default="en", help="the exercise titles' language (JSON)")
    export.set_defaults(func=_cmd_export)

    grade_ = sub.add_parser("grade", help="grade one answer to one exercise; print the grade as JSON",
                            description="Grade ANSWER for EXERCISE_ID and print the grade as JSON.",
                            epilog=GRADE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    grade_.add_argument("exercise_id", metavar="EXERCISE_ID", help="an exercise id from fixtures/exercises/*.yaml")
    _file_arg(grade_, "answer", kind="stdin", limit=MAX_ANSWER_CHARS, metavar="ANSWER",
              help="the answer text (format per type below); - reads stdin")
    _file_arg(grade_, "--exercises", kind="folder",
              help="folder of exercise files (default: the repo's fixtures/exercises)")
    grade_.set_defaults(func=_cmd_grade)

    passk = sub.add_parser("passk", help="estimate pass^k, pass@k and the naive (c/n)^k from n runs with c passes")
    passk.add_argument("--n", type=whole_number_arg, required=True, help="runs of the test case (1 to 10000)")
    passk.add_argument("--c", type=whole_number_arg, required=True, help="runs that passed (0 to n)")
    passk.add_argument("--k", type=whole_number_arg, required=True, help="k (1 to n)")
    passk.set_defaults(func=_cmd_passk)
    pairing = sub.add_parser("pairing", help="list every tool_use/tool_result pairing rule a transcript breaks; "
                                             "exit 1 if any, 2 if it cannot be read")
    _file_arg(pairing, "file", kind="text", limit=PAIRING_MAX_CHARS, stdin=True, metavar="FILE",
              help="transcript JSON: a messages list or a request holding one; - reads stdin")
    pairing.add_argument("--format", choices=PAIRING_CHOICES, default="auto")
    pairing.add_argument("--lang", choices=LANGS, default="en")
    pairing.set_defaults(func=_cmd_pairing)
    strict = sub.add_parser("strict", help="what a provider's strict mode refuses in a tool's input_schema, and the "
                                           "SDK's transformed schema, as JSON; exit 1 when the provider would "
                                           "refuse it")
    _file_arg(strict, "tool", kind="text", limit=MAX_FILE_CHARS, metavar="TOOL",
              help="tool definition JSON (name, description, input_schema)")
    strict.add_argument("--provider", choices=("anthropic", "openai", "gemini"), required=True)
    strict.set_defaults(func=_cmd_strict)

    eval_ = sub.add_parser("eval", help="per-case pass^k, pass@k and the confusion matrix of a run log",
                           epilog="exit 0 when at least one case was estimated; 1 when every case was refused "
                                  "(e.g. k larger than every case's n); 2 when the input or --selection cannot "
                                  "be used or the arguments are wrong")
    _file_arg(eval_, "runs", kind="bytes", limit=_max_log_bytes(), stdin=True, metavar="RUNS",
              help="native JSONL, a τ-bench results file or an Inspect log; - reads stdin")
    eval_.add_argument("--k", type=_k_arg, required=True,
                       help=f"k (1 to {N_MAX}, the passk command's largest n); a case with fewer than k runs is "
                            "refused")
    eval_.add_argument("--format", choices=("auto", "native", "tau", "inspect"), default="auto")
    eval_.add_argument("--out", choices=("table", "csv", "json"), default="table")
    _file_arg(eval_, "--selection", kind="text", limit=MAX_FILE_CHARS,
              help="a selection set YAML whose expectations replace the log's, by case id")
    eval_.add_argument("--lang", choices=LANGS, default="en",
                       help="language of the problems, notes and refusals (default en)")
    eval_.set_defaults(func=_cmd_eval)
    lint = sub.add_parser("lint", help="design-review tool definitions (one or a list, course or OpenAI form); "
                                       "print findings as JSON; exit 1 on any error-level finding, 2 if unreadable")
    _file_arg(lint, "file", kind="text", limit=_max_definition_chars(), stdin=True, metavar="FILE",
              help="TOOLS.json: one definition or a list; - reads stdin")
    lint.add_argument("--lang", choices=LANGS, default="en")
    lint.set_defaults(func=_cmd_lint)
    return parser


FILE_KINDS = ("text", "bytes", "folder", "stdin")
#: Commands that read nothing of the course content (fixtures, their schemas, lessons): they run whatever
#: TOOLCALL_CONTENT_ROOT says.
NO_CONTENT = frozenset({"passk", "conformance"})


def _file_arg(parser: argparse.ArgumentParser, *names: str, kind: str, limit: int | None = None,
              stdin: bool = False, **kwargs: Any) -> argparse.Action:
    """Add an argument that names a file, a folder or standard input, marked on the action
    (``file_kind``: text = a UTF-8 file of at most ``limit`` characters, bytes = a file of at most
    ``limit`` bytes, folder, stdin = inline text or ``-``; ``reads_stdin``: ``-`` means stdin), so
    main() checks every such argument before the command runs and the tests find them all."""
    assert kind in FILE_KINDS
    action = parser.add_argument(*names, **kwargs)
    action.file_kind, action.file_limit, action.reads_stdin = kind, limit, stdin or kind == "stdin"
    return action


def file_arguments(parser: argparse.ArgumentParser) -> dict[str, list[argparse.Action]]:
    """Every subcommand's file, folder and stdin arguments (the actions _file_arg marked), by command."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: [a for a in cmd._actions if getattr(a, "file_kind", None)] for name, cmd in sub.choices.items()}


def label(action: argparse.Action) -> str:
    """How messages name an argument: its option (``--tool``) or its metavar (``RUNS``)."""
    return action.option_strings[0] if action.option_strings else (action.metavar or action.dest.upper())


def _check_paths(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    """Check every file and folder argument of the command before it runs: one line per refusal
    (``--tool /x: a folder, not a regular file``) on stderr; False if any was refused. A text file
    is read once here (bounded) to find bad UTF-8; stdin (``-``) is left to the command."""
    ok = True
    for action in file_arguments(parser)[args.command]:
        value = getattr(args, action.dest, None)
        if value is None or action.file_kind == "stdin" or (action.reads_stdin and value == "-"):
            continue
        try:
            if action.file_kind == "folder":
                check_path(value, "folder")
            elif action.file_kind == "bytes":
                check_path(value, "file", action.file_limit)
            else:
                check_path(value, "file", 4 * action.file_limit + 4)
                if not read_text_bounded(value, action.file_limit).strip():
                    raise ReadError("only_space")
        except ReadError as exc:
            # --lang is parsed with the rest before this runs, so the refusal is in the chosen language
            # (argparse's own usage errors, raised while parsing, stay English: they are argparse's text)
            print(f"{label(action)} {escape_line(value)}: {exc.text(getattr(args, 'lang', 'en'))}", file=sys.stderr)
            ok = False
    return ok


def _max_log_bytes() -> int:
    from toolcall.eval_import import MAX_BYTES

    return MAX_BYTES


def _max_definition_chars() -> int:
    from toolcall.tooldef import MAX_DEFINITION_CHARS

    return MAX_DEFINITION_CHARS


#: Characters of a refused number argument its message quotes (as drawn: quoted_head).
MAX_QUOTED_ARG = 40


def whole_number_arg(text: str) -> int:
    """argparse type for a whole number, read as the pages read one (passk.read_whole: ASCII or full-width digits
    and a sign, white space around), else refused quoting at most MAX_QUOTED_ARG characters of it as drawn. int()
    read ``1_000`` as 1000 and Arabic-Indic ``٣`` as 3, which the pass^k page refuses, and argparse echoed a refused
    argument whole: 100 000 characters on one line (break-it pass brk20new)."""
    value = read_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"invalid int value: {quoted_head(text, MAX_QUOTED_ARG)}")
    return value


def _k_arg(text: str) -> int:
    """argparse type for eval's --k: a whole number from 1 to passk.N_MAX (read as whole_number_arg reads one)."""
    value = read_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"k must be a whole number, got {quoted_head(text, MAX_QUOTED_ARG)}")
    if not 1 <= value <= N_MAX:
        raise argparse.ArgumentTypeError(f"k must be from 1 to {N_MAX}, got {quoted_head(text, MAX_QUOTED_ARG)}")
    return value


class OutputFailed(Exception):
    """Standard output could not be written (disk full, closed, an I/O error); ``reason`` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _TerminalSafe:
    """A text stream that writes through escape_terminal (control, bidi and invisible characters
    in anything a command prints, file or log text included, become ``\\uXXXX``), and writes what the
    stream's encoding cannot hold (Chinese under ``PYTHONIOENCODING=ascii``) as ``\\uXXXX`` too. ``inner``
    None (the stream was closed when Python started): with ``required`` (stdout) a write raises
    OutputFailed, else (stderr) it is dropped. A failed write (OSError but a broken pipe, which main ends
    quietly) raises OutputFailed with the OS's reason."""

    def __init__(self, inner: Any, required: bool = False):
        self._inner, self._required = inner, required

    def write(self, text: str) -> int:
        if self._inner is None:
            if self._required:
                raise OutputFailed(t("cli.output_closed"))
            return len(text)
        text = escape_terminal(text)
        try:
            try:
                return self._inner.write(text)
            except UnicodeEncodeError:  # nothing was written: a text stream encodes all of it first
                encoding = getattr(self._inner, "encoding", None) or "utf-8"
                return self._inner.write(text.encode(encoding, "toolcall.escape").decode(encoding))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc.strerror or str(exc)) from None

    def flush(self) -> None:
        if self._inner is None:
            return
        try:
            self._inner.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc.strerror or str(exc)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _silence(stream: Any) -> None:
    """Point ``stream``'s file descriptor at /dev/null, so the interpreter's last flush at exit finds nowhere
    to fail ("Exception ignored … BrokenPipeError" / ENOSPC); nothing for a stream without one."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def strip_shell_newline(text: str) -> str:
    """``text`` without the one line end (``\\n`` or ``\\r\\n``) that ``echo`` or a here-string adds,
    so ``echo '{"rea' | … --input -`` reads the same text as ``printf '{"rea'``. Only one: a model
    output that itself ends in newlines keeps the others."""
    for end in ("\r\n", "\n"):
        if text.endswith(end):
            return text[: -len(end)]
    return text


#: Exit code when the reader of stdout went away (``| head -1``) before the output ended: 128 + SIGPIPE.
EXIT_PIPE_CLOSED = 141


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default sys.argv[1:]); returns the exit code. All text
    output, argparse's errors included, goes through toolcall.text.escape_terminal. Output piped
    into a reader that stops early (``| head``) ends quietly (no traceback) with EXIT_PIPE_CLOSED;
    output that cannot be written (``> /dev/full``, stdout closed) is one line on stderr and exit 2;
    Ctrl+C is one line and exit 130. A closed stdin reads as empty."""
    out, err, stdin = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = _TerminalSafe(out, required=True), _TerminalSafe(err)
    if stdin is None:  # started with <&-
        sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    lang = "en"
    try:
        parser = _build_parser()
        args = parser.parse_args(argv)
        lang = getattr(args, "lang", "en")
        problem = content_root_problem() if args.command not in NO_CONTENT else None
        if problem is not None:  # every command reads content: name the setting, not a schema file's traceback
            print(t(f"content_root.{problem[0]}", lang, value=escape_line(problem[1])), file=sys.stderr)
            return 2
        code = args.func(args) if _check_paths(parser, args) else 2
        sys.stdout.flush()
    except BrokenPipeError:
        # https://docs.python.org/3/library/signal.html#note-on-sigpipe: stop writing to the closed pipe, quietly.
        # The command did not finish (`check | head -1` returned 0 with problems left unprinted): 128 + SIGPIPE,
        # what a shell reports for a program the signal ended, so `set -o pipefail` sees it.
        _silence(out)
        return EXIT_PIPE_CLOSED
    except OutputFailed as exc:
        _silence(out)
        print(t("cli.output_failed", lang, reason=exc.reason), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("cli.interrupted", lang), file=sys.stderr)
        return 130
    except (MemoryError, RecursionError) as exc:  # what no reader turned into its own message: one line, not a
        # traceback (an export stopped so ended in one; its temporary file is gone by then: brk19new)
        print(t("cli.out_of_memory", lang, error=type(exc).__name__), file=sys.stderr)
        return 2
    finally:
        sys.stdout, sys.stderr, sys.stdin = out, err, stdin
    return code
