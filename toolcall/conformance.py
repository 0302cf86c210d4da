"""Run the official JSON-Schema-Test-Suite (draft 2020-12) through ``validation.validate``.

The suite (https://github.com/json-schema-org/JSON-Schema-Test-Suite, MIT) is read from a
folder given by the caller; the project keeps a copy beside the repository in
``../shared/JSON-Schema-Test-Suite``. Its ``remotes/`` documents are preloaded into a
``referencing`` registry under ``http://localhost:1234/`` (the base URI the suite's README
names) and passed to ``validate`` for these tests only; nothing is ever fetched.

Groups: ``required`` (``tests/draft2020-12/*.json``), ``ecmascript-regex``
(``optional/ecmascript-regex.json``) and ``format`` (``optional/format/*.json``, run with
format assertion on).
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012, specification_with

from toolcall.fixtures import FixtureError, json_path, read_data
from toolcall.text import escape_line, escaped_head
from toolcall.validation import validate

#: Base URI of the suite's remotes/ folder (its README: "http://localhost:1234").
REMOTES_BASE = "http://localhost:1234/"

#: Formats jsonschema cannot check with the non-GPL format extras installed (requirements.txt),
#: with the reason; their optional/format files are reported, not required to pass.
UNSUPPORTED_FORMATS: dict[str, str] = {
    "date-time": "rfc3339-validator refuses leap seconds (…T23:59:60Z) and accepts a trailing newline",
    "duration": "isoduration accepts fractions, signs, exponents, commas and weeks mixed with other units",
    "email": "jsonschema's own check only looks for an \"@\" (no RFC 5321 parser among its extras)",
    "hostname": "fqdn accepts a trailing dot and a trailing newline, and checks no IDNA A-label rules",
    "idn-hostname": "idna accepts trailing dots (ASCII and ideographic) and a digit-first Bidi label",
    "iri": ("rfc3987-syntax refuses compressed IPv6 hosts, IPvFuture with an uppercase v, "
            "supplementary-plane characters"),
    "relative-json-pointer": "jsonschema's check accepts non-ASCII digits and a leading zero in the prefix",
    "time": "built on the date-time check: refuses leap seconds",
    "uri": "rfc3986-validator accepts a leading zero in an embedded IPv4 address",
    "uri-reference": "rfc3986-validator accepts a leading zero in the IPv4 part of an IPv6 literal",
    "uri-template": ("uri-template's validate() disagrees with RFC 6570 on 9 edge cases "
                     "(prefix lengths, literals, varspecs)"),
    "uuid": "Python's UUID() accepts a trailing hyphen, non-ASCII digits and underscores",
}


@dataclass
class CaseResult:
    """One suite test: where it is, and whether validate() agreed with ``valid``."""

    file: str
    group: str
    case: str
    test: str
    passed: bool


@dataclass
class FileResult:
    """Pass counts for one suite file."""

    file: str
    group: str
    passed: int = 0
    total: int = 0
    failures: list[CaseResult] = field(default_factory=list)


def remotes_registry(suite: Path) -> Registry:
    """Every JSON document under ``suite/remotes`` as a resource at REMOTES_BASE + its path.

    A document's ``$schema`` picks its specification (draft 2020-12 when it has none)."""
    resources = []
    root = suite / "remotes"
    for path in remote_files(root):
        contents = _read_json(path)
        dialect = contents.get("$schema", "") if isinstance(contents, dict) else ""
        if not isinstance(dialect, str):
            raise ValueError(f"{path}: $.$schema: not a string")
        spec = specification_with(dialect, default=DRAFT202012)
        resources.append((REMOTES_BASE + path.relative_to(root).as_posix(), Resource(contents, spec)))
    return Registry().with_resources(resources)


#: The deepest folder under ``remotes/`` remote_files looks in (the suite's own nest 2), the most ``.json`` files it
#: takes (the suite has 22) and the most bytes they may hold together (30 KB in the suite): every one is parsed and
#: kept in the registry for the whole run.
MAX_REMOTE_DEPTH = 16
MAX_REMOTE_FILES = 1_000
MAX_REMOTE_BYTES = 16_000_000
#: The most entries of any kind (files, folders, links) remote_files looks at under ``remotes/`` (the suite has 27):
#: bounding only the .json files let a folder of 300 000 other files through, all listed at once (70 MB more peak
#: RSS; break-it pass brk17new).
MAX_REMOTE_ENTRIES = 10_000


def remote_files(root: Path) -> list[Path]:
    """Every ``*.json`` under ``root`` (symlinked folders not followed, as Path.rglob does), sorted. Walks with a
    stack of its own: Path.rglob recursed once per level, and a ``remotes/`` 1 400 folders deep ended
    ``conformance`` in a RecursionError traceback (break-it pass brk16cli). Raises ValueError naming the folder
    for one nested deeper than MAX_REMOTE_DEPTH, more than MAX_REMOTE_FILES files or MAX_REMOTE_BYTES bytes, more
    than MAX_REMOTE_ENTRIES entries of any kind (never listing more), or a folder that cannot be listed (with the
    OS's reason)."""
    found: list[Path] = []
    size = seen = 0
    stack = [(root, 0)] if root.is_dir() else []
    while stack:
        folder, depth = stack.pop()
        if depth > MAX_REMOTE_DEPTH:
            raise ValueError(f"{escape_line(str(folder))}: remotes/ nests folders more than {MAX_REMOTE_DEPTH} "
                             "levels deep; the suite's own nest 2")
        try:
            with os.scandir(folder) as entries:
                listed = list(itertools.islice(entries, MAX_REMOTE_ENTRIES + 1 - seen))  # no more than the cap
        except OSError as exc:
            raise ValueError(f"{escape_line(str(folder))}: cannot list this folder: {exc.strerror or exc}") from None
        seen += len(listed)
        if seen > MAX_REMOTE_ENTRIES:
            raise ValueError(f"{escape_line(str(root))}: remotes/ holds more than {MAX_REMOTE_ENTRIES:,} files and "
                             "folders; the suite's own hold 27")
        for entry in listed:
            if entry.name.endswith(".json"):  # whatever it is: the reader names a folder, a FIFO, a loop
                found.append(Path(entry.path))
                size += _size(entry)
                if len(found) > MAX_REMOTE_FILES or size > MAX_REMOTE_BYTES:
                    raise ValueError(f"{escape_line(str(root))}: remotes/ holds more than {MAX_REMOTE_FILES:,} "
                                     f".json files or {MAX_REMOTE_BYTES:,} bytes of them; the suite's own hold 22 "
                                     "files, 30 KB")
            elif entry.is_dir(follow_symlinks=False):
                stack.append((Path(entry.path), depth + 1))
    return sorted(found)


def _size(entry: os.DirEntry) -> int:
    """The size of the regular file ``entry`` names (links followed) when the reader would read it: 0 for anything
    else (a loop, a FIFO, a file over the reader's own limit), which the reader refuses by name."""
    from toolcall.files import MAX_FILE_CHARS

    try:
        size = entry.stat().st_size if entry.is_file() else 0
    except OSError:
        return 0
    return size if size <= 4 * MAX_FILE_CHARS else 0


#: The shape of a suite test file (the suite's own test-schema.json, reduced to what run_file reads): a list
#: of cases ``{description, schema, tests: [{description, data, valid}]}``.
TEST_FILE_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object", "required": ["description", "schema", "tests"],
        "properties": {
            "description": {"type": "string"}, "schema": {"type": ["object", "boolean"]},
            "tests": {"type": "array", "items": {
                "type": "object", "required": ["description", "data", "valid"],
                "properties": {"description": {"type": "string"}, "valid": {"type": "boolean"}}}},
        },
    },
}
_TEST_FILE = Draft202012Validator(TEST_FILE_SCHEMA)


def _read_json(path: Path, shape: Draft202012Validator | None = None) -> Any:
    """One suite file's JSON, read as the content files are (toolcall.fixtures.read_data: bounded, a FIFO,
    a device, a symlink loop, an oversized or too deeply nested file refused), and, given ``shape``, held
    to it. Raises ValueError naming the file, the JSON path and the reason."""
    try:
        data = read_data(path)
    except FixtureError as exc:
        raise ValueError(str(exc).replace(f"{exc.problems[0].file}: ", f"{path}: ", 1)) from None
    error = next(iter(sorted(shape.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))), None) \
        if shape is not None else None
    if error is not None:
        raise ValueError(f"{path}: {json_path(error.absolute_path)}: not a suite test file: {error.message[:200]}")
    return data


def suite_files(suite: Path) -> Iterator[tuple[str, Path]]:
    """``(group, path)`` for every 2020-12 file the project runs, in a stable order."""
    base = suite / "tests" / "draft2020-12"
    for path in sorted(base.glob("*.json")):
        yield "required", path
    yield "ecmascript-regex", base / "optional" / "ecmascript-regex.json"
    for path in sorted((base / "optional" / "format").glob("*.json")):
        yield "format", path


def run_file(group: str, path: Path, registry: Registry, suite: Path) -> FileResult:
    """Run every test in one suite file; format files run with format assertion on."""
    name = path.relative_to(suite / "tests" / "draft2020-12").as_posix()
    result = FileResult(name, group)
    for case in _read_json(path, _TEST_FILE):
        for test in case["tests"]:
            errors, _ = validate(test["data"], case["schema"], "en", assert_format=group == "format",
                                 registry=registry)
            passed = (not errors) == test["valid"]
            result.total += 1
            result.passed += passed
            if not passed:
                result.failures.append(CaseResult(name, group, case["description"], test["description"], False))
    return result


def run_suite(suite: Path) -> list[FileResult]:
    """Results for every file of suite_files. Raises FileNotFoundError when ``suite`` has no
    ``tests/draft2020-12`` folder."""
    if not (suite / "tests" / "draft2020-12").is_dir():
        raise FileNotFoundError(f"{suite}: no tests/draft2020-12 folder (is this JSON-Schema-Test-Suite?)")
    registry = remotes_registry(suite)
    return [run_file(group, path, registry, suite) for group, path in suite_files(suite)]


#: Characters of a suite file's name, or of a case's or test's description, a line of the output quotes (escaped,
#: then cut with "…" as drawn).
MAX_SHOWN_CHARS = 200


def shown(text: str) -> str:
    """A suite file name or description as one line of the output quotes it: line ends, tabs, control,
    bidirectional and invisible characters as ``\\uXXXX`` (toolcall.text.escape_line), at most MAX_SHOWN_CHARS
    characters as drawn. Printed raw, a test described as ``"t\\nALL OK"`` printed "ALL OK" as a line of its own
    after its FAIL line, and a 1 MB description was printed whole (break-it pass brk17fresh)."""
    return escaped_head(text, MAX_SHOWN_CHARS, escape_line)


def failure_line(failure: CaseResult) -> str:
    """``FAIL <file>: <case> / <test>`` for a test the validator got wrong, each part :func:`shown`."""
    return f"FAIL {shown(failure.file)}: {shown(failure.case)} / {shown(failure.test)}"


def table(results: list[FileResult]) -> str:
    """A Markdown table: file (:func:`shown`), group, passed/total, then one total line per group."""
    lines = ["| file | group | passed | total |", "| --- | --- | ---: | ---: |"]
    for r in results:
        lines.append(f"| {shown(r.file)} | {r.group} | {r.passed} | {r.total} |")
    for group in ("required", "ecmascript-regex", "format"):
        rs = [r for r in results if r.group == group]
        passed, total = sum(r.passed for r in rs), sum(r.total for r in rs)
        pct = 100 * passed / total if total else 0
        lines.append(f"| **all {group}** | | {passed} | {total} ({pct:.1f} %) |")
    return "\n".join(lines)


def format_name(result: FileResult) -> str | None:
    """The format an ``optional/format/<name>.json`` file tests, else None."""
    if result.group != "format":
        return None
    return result.file.rsplit("/", 1)[-1].removesuffix(".json")


def format_table(results: list[FileResult]) -> str:
    """A Markdown table of the format files: format, passed/total, checked or why not."""
    lines = ["| format | passed | total | status |", "| --- | ---: | ---: | --- |"]
    for r in results:
        name = format_name(r)
        if name is None:
            continue
        status = f"partly checked: {UNSUPPORTED_FORMATS[name]}" if name in UNSUPPORTED_FORMATS else "checked"
        lines.append(f"| {shown(name)} | {r.passed} | {r.total} | {status} |")
    return "\n".join(lines)
