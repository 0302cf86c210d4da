"""Load the files instructors edit, each validated against fixtures/schemas/<kind>.schema.json.

Every problem is reported as ``Problem(file, json_path, message)`` and printed as
``fixtures/outputs/refund_order.yaml: $.outputs[3].raw: 'raw' is a required property``
so an instructor's typo fails CI with the file and the JSON path.
"""

from __future__ import annotations

import contextvars
import copy
import functools
import json
import math
import os
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolcall.yaml_io import MAX_DEPTH, NotJson, lookalike_punctuation, plain_colon, python_reason, safe_load
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from toolcall import CONTENT_ROOT, FIXTURES_DIR, REPO_ROOT
from toolcall.files import ReadError, read_text_bounded
from toolcall.text import CONFUSABLE_LATIN, escape_line, reading_key, repr_head
from toolcall.i18n import fill


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a content file: where (file, JSON path like ``$.a[0].b``) and what."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        # one line, as written: a file named "x\nall content checks passed\n" must not print a line of its own
        # into `check`'s output (escape_line), nor may a message that quotes it ("differs from the file name
        # 'new\nline'" printed "line'" as a line of its own: break-it pass brk16cli), nor a key in the JSON path
        return f"{escape_line(self.file)}: {escape_line(self.path)}: {escape_line(self.message)}"


class FixtureError(Exception):
    """Raised by a loader when its file cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def json_path(parts) -> str:
    """JSONPath-style location for error messages: ``['outputs', 3, 'raw']`` → ``$.outputs[3].raw``."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def display_name(path: Path) -> str:
    """``path`` relative to the repository (or to the current folder) when possible. A link is
    named by itself, not by its target (its folder is resolved); never raises, even for a
    symlink loop."""
    path = Path(path)
    try:
        path = path.parent.resolve() / path.name if path.name else path.resolve()
    except (OSError, RuntimeError):  # a loop among the folders; the current folder removed (os.getcwd() fails)
        try:
            path = path.absolute()
        except OSError:
            pass
    try:
        here = [Path.cwd()]
    except OSError:  # the current folder was removed: `python -m toolcall check` ended with a traceback
        here = []
    for base in (REPO_ROOT, CONTENT_ROOT, *here):
        try:
            return str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)


class _RunMemo(OrderedDict[str, tuple[Any, int]]):
    """The run memo: path -> (what was read, its weight), newest use last, and ``total``, the sum of the weights,
    kept as files come and go (summed again on every file read, 16 000 files of 8 bytes took read_data 18 s in one
    run against 2 s without the memo: quadratic; break-it pass brk17new)."""

    total: int = 0


#: The files read_data has read during one `check` run (one_read_per_run): absolute path -> (the data, or the
#: FixtureError it raised; the file's size in bytes), newest use last. None outside a run: nothing is kept. Not a
#: cache: it lives and dies with the run.
_RUN_MEMO: contextvars.ContextVar[_RunMemo | None] = contextvars.ContextVar("fixture_run_memo", default=None)
#: The most bytes of files (their sizes on disk) the run memo keeps parsed at once; the least recently used go
#: first. Kept whole, 61 tool files of 1.9 MB took `check` to 785 MB (12.5 MB per file, break-it pass brk16cli):
#: memory grew with the number of files. The shipped content is about 0.8 MB.
RUN_MEMO_BYTES = 4_000_000
#: What the run memo charges a file beyond its size: the parsed value, the path and the entry itself. Charged its
#: size alone, an empty or 8-byte file cost nothing and the memo kept every one of them.
RUN_MEMO_ENTRY_BYTES = 1_000


@contextmanager
def one_read_per_run() -> Iterator[None]:
    """Within the block, read_data reads each file once and gives every later caller a copy of what it read (or
    raises the same FixtureError): `check` opened and parsed fixtures/tools/refund_order.json 40 times and the
    other tools 23 to 31 times each, 242 opens of 63 files (issue 13, break-it pass brk12cli). It keeps at most
    RUN_MEMO_BYTES of files (a file read again after it was let go is parsed again), and is dropped when the
    block ends."""
    token = _RUN_MEMO.set(_RunMemo())
    try:
        yield
    finally:
        _RUN_MEMO.reset(token)


def read_data(path: Path) -> Any:
    """Read a .json, .yaml or .yml file once per `check` run (one_read_per_run) through _read_data."""
    memo = _RUN_MEMO.get()
    if memo is None:
        return _read_data(path)
    key = os.path.abspath(path)
    if key not in memo:
        try:
            found = _read_data(path)
        except FixtureError as exc:
            found = exc
        _remember(memo, key, found, path)
    memo.move_to_end(key)
    found = memo[key][0]
    if isinstance(found, FixtureError):
        raise FixtureError(found.problems)
    return copy.deepcopy(found)  # callers may change what they get; each gets the file as read


def _remember(memo: _RunMemo, key: str, found: Any, path: Path) -> None:
    """Keep ``found`` (read from ``path``, not yet in ``memo``) under ``key``, charged its size plus
    RUN_MEMO_ENTRY_BYTES, letting the least recently used files go while the memo holds more than RUN_MEMO_BYTES
    (the newest is always kept: its caller is about to use it). Constant time per file let go."""
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    weight = size + RUN_MEMO_ENTRY_BYTES
    memo[key] = (found, weight)
    memo.total += weight
    while memo.total > RUN_MEMO_BYTES and len(memo) > 1:
        _, (_, gone) = memo.popitem(last=False)
        memo.total -= gone


def _read_data(path: Path) -> Any:
    """Read a .json, .yaml or .yml file (a regular file of at most MAX_FILE_CHARS characters,
    through ``read_text_bounded``). Raises FixtureError with the line of a syntax error, or
    with why the file was not read (a FIFO, a device, a symlink loop, too large …), or why its
    text cannot be used: nested deeper than yaml_io.MAX_DEPTH (checked before parsing, JSON and
    YAML alike), a number Python will not convert (5 000 digits), a date that does not exist, a YAML value JSON
    cannot hold as written (yaml_io.not_json: a date, bytes, a set, a key that is no text, ``0100`` read as 64).
    Raises nothing else for any file."""
    from toolcall.parsing import json_reason, max_depth  # here: toolcall.parsing reads the catalogue, which reads YAML

    name = display_name(path)
    try:
        text = read_text_bounded(path)
    except ReadError as exc:
        raise FixtureError([Problem(name, "$", f"cannot read file: {exc}")]) from None
    try:
        if Path(path).suffix == ".json":
            depth = max_depth(text)
            if depth > MAX_DEPTH:
                raise FixtureError([Problem(name, "$", f"not JSON: nested {depth} levels deep; the limit is "
                                                       f"{MAX_DEPTH}")])
            # a byte-order mark is no content (Notepad's and PowerShell's "UTF-8" start with one): YAML, lessons and
            # run logs already read past it, and json.loads refused it with Python's advice "decode using utf-8-sig"
            data = _json_without_duplicates(name, text.removeprefix("\ufeff"))
            if (half := lone_surrogate(data)) is not None:
                raise FixtureError([Problem(name, half[0], half[1])])
            return data
        data = safe_load(text, json_only=True)
        if (half := lone_surrogate(data)) is not None:
            raise FixtureError([Problem(name, half[0], half[1])])
        if (found := _first_written(data)) is not None:  # .inf, .nan: a YAML float JSON Schema's "number" accepts
            raise FixtureError([Problem(name, found[0], f"{found[1]} is not a finite number (YAML's .inf and .nan are "
                                                        "no number a student or JSON can write): write a number")])
        return data
    except json.JSONDecodeError as exc:
        # why and where, as every "not JSON" message says it (content problems are in English, like check's output)
        why = json_reason(text.removeprefix("\ufeff"), pos=exc.pos)["en"]
        raise FixtureError([Problem(name, "$", f"not JSON: {why}")]) from exc
    except ValueError as exc:  # json.loads past Python's integer digits limit: not a JSONDecodeError
        raise FixtureError([Problem(name, "$", f"not JSON: {python_reason(exc)}")]) from None
    except NotJson as exc:  # YAML, but not what JSON holds: a date, bytes, a key that is no text, 012
        mark = exc.problem_mark
        raise FixtureError([Problem(name, exc.path, f"line {mark.line + 1} column {mark.column + 1}: {exc}")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}: " if mark else ""
        # named first: the parser's words name the ASCII one as missing, or no text at all
        stray = lookalike_punctuation(text, exc) or plain_colon(text, exc)
        said = f"{stray} (the parser: {where}{getattr(exc, 'problem', exc)})" if stray else \
            f"{where}{getattr(exc, 'problem', exc)}"
        raise FixtureError([Problem(name, getattr(exc, "path", "$"), f"not YAML: {said}")]) from exc


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(root: Any) -> tuple[str, str] | None:
    """The JSON path of the first string (value or key, document order) holding a UTF-16 surrogate, and the problem,
    or None. An escape ``"\\ud800"`` (YAML and JSON) makes one, and YAML also makes two of ``"\\ud83d\\ude00"``
    (it does not join a pair): Python holds them, but no page can send them to the browser ("'utf-8' codec can't
    encode character '\\ud800'"): an output's label or an exercise's title so passed check and failed the
    playground and the exercises page in class (break-it pass brk14content). Without recursion."""
    stack: list[tuple[Any, list]] = [(root, [])]
    while stack:
        value, parts = stack.pop()
        texts = [(value, parts)] if isinstance(value, str) else \
            [(k, [*parts, k]) for k in value if isinstance(k, str)] if isinstance(value, dict) else []
        for text, at in texts:
            if found := _SURROGATE.search(text):
                return json_path(at), (f"holds \\u{ord(found.group()):04x}, half of a UTF-16 pair: no page can show "
                                          "it (YAML does not join an escaped pair such as \\ud83d\\ude00): write the "
                                          "character itself, or \\U0001F600 for one above U+FFFF")
        if isinstance(value, dict):
            stack.extend(reversed([(v, [*parts, k]) for k, v in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(v, [*parts, i]) for i, v in enumerate(value)]))
    return None


def _json_without_duplicates(name: str, text: str) -> Any:
    """``json.loads(text)``; raises FixtureError at the JSON path of the first key an object writes twice, or of
    the first number that is not finite (``NaN``, ``Infinity``, ``1e999``)."""
    data, twice = json_with_duplicates(text, parse_float=_finite_float, parse_constant=_written)
    if twice is not None:
        raise FixtureError([Problem(name, twice[0], duplicate_key_message(twice[1]))])
    if (found := _first_written(data)) is not None:
        why = (f"not JSON: {found[1]} is not a finite number (JSON has no NaN or Infinity, and a number must be "
               "within ±1.7976931348623157e308)")
        raise FixtureError([Problem(name, found[0], why)])
    return data


class _Written(float):
    """A number that is not finite, with the text it was written as (``1e999``, ``NaN``)."""

    text = ""


def _written(text: str) -> _Written:
    number = _Written(float(text))
    number.text = text
    return number


def _finite_float(text: str) -> float:
    number = float(text)
    return number if math.isfinite(number) else _written(text)


def _first_written(root: Any) -> tuple[str, str] | None:
    """The JSON path and text of the first _Written number (or other float that is not finite: YAML's ``.inf``) in
    ``root`` (document order), or None. The tool check
    re-encoded ``input_schema`` and named only ``$.input_schema: Not JSON: Infinity is not valid JSON``, not the
    key (issue 13, break-it pass brk12cli). Without recursion."""
    stack: list[tuple[Any, list]] = [(root, [])]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, _Written):
            return json_path(parts), value.text[:40]
        if isinstance(value, float) and not math.isfinite(value):  # YAML's .inf, .nan
            return json_path(parts), repr(value)
        if isinstance(value, dict):
            stack.extend(reversed([(v, [*parts, k]) for k, v in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(v, [*parts, i]) for i, v in enumerate(value)]))
    return None


def duplicate_key_message(key: str) -> str:
    """The problem for a JSON object that writes ``key`` twice."""
    return f"not JSON: the key {key!r} is written twice in this object: only the last one would be kept"


def json_with_duplicates(text: str, **hooks: Any) -> tuple[Any, tuple[str, str] | None]:
    """``(json.loads(text), None)``, or with ``(JSON path of the key, key)`` for the first key an object writes
    twice: json.loads keeps the last value without a word (a second ``"name"`` silently renamed a tool). Raises
    what json.loads raises; ``hooks`` (parse_float, parse_constant) go to json.loads."""
    twice: list[tuple[dict, str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        value = dict(items)
        if len(value) < len(items) and not twice:
            keys: set[str] = set()
            twice.append((value, next(k for k, _ in items if k in keys or keys.add(k))))
        return value

    data = json.loads(text, object_pairs_hook=pairs, **hooks)
    if not twice:
        return data, None
    holder, key = twice[0]
    return data, (f"{_path_of(data, holder)}.{key}", key)


def _path_of(root: Any, target: Any) -> str:
    """The JSON path of the object ``target`` (by identity) inside ``root``; ``$`` when not found. Without recursion."""
    stack: list[tuple[Any, list]] = [(root, [])]
    while stack:
        value, parts = stack.pop()
        if value is target:
            return json_path(parts)
        if isinstance(value, dict):
            stack.extend((v, [*parts, k]) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, [*parts, i]) for i, v in enumerate(value))
    return "$"


class SchemaFileError(ValueError):
    """A content schema (``fixtures/schemas/<kind>.schema.json``) that cannot check anything: its reason."""


def content_schema(path: Path) -> Any:
    """The JSON Schema in the file at ``path`` (an instructor's content root holds its own copy), read through
    read_text_bounded and checked against Draft 2020-12's meta-schema, so a broken copy is one sentence, never
    a traceback from the validator (``{"type": 5}`` raised TypeError while checking a fixture). Raises
    SchemaFileError: the file cannot be read, is not JSON, is nested too deep, or is not a valid schema.
    Cached by the file's modification time and size."""
    try:
        info = os.stat(path)
    except OSError:
        info = None
    return _content_schema(str(path), info.st_mtime_ns if info else 0, info.st_size if info else -1)


@functools.lru_cache(maxsize=32)
def _content_schema(path: str, mtime_ns: int, size: int) -> Any:
    try:
        schema = json.loads(read_text_bounded(path))
    except ReadError as exc:
        raise SchemaFileError(str(exc)) from None
    except ValueError as exc:
        raise SchemaFileError(f"not JSON: {exc}") from None
    except RecursionError:
        raise SchemaFileError("not JSON: nested too deep to read") from None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = "".join(f"/{p}" for p in exc.absolute_path)
        raise SchemaFileError(f"not a valid JSON Schema: {where or '/'}: {exc.message}") from None
    except RecursionError:
        raise SchemaFileError("not a valid JSON Schema: nested too deep to check") from None
    if (why := _reference_problem(schema)) is not None:
        raise SchemaFileError(why)
    return schema


def _reference_problem(schema: Any) -> str | None:
    """Why the references of a content schema cannot be followed, with the JSON path, or None: a ``$ref`` to a
    document outside the file (the validator fetched it: `check` made an HTTP request for
    ``"$ref": "http://…/remote.json"``), more than validation.MAX_EXPANDED_SUBSCHEMAS subschemas once they are
    followed (25 ``$defs`` each referring to the next twice ran past 10 minutes), or a loop that applies itself to
    the same value (a RecursionError that `check` then passed as "all content checks passed"). Nothing is
    fetched (issue 13, break-it pass brk12cli)."""
    if not isinstance(schema, dict):
        return None
    from toolcall.validation import MAX_EXPANDED_SUBSCHEMAS, expanded_parts, ref_loop, remote_refs

    def at(where: str) -> str:
        return json_path(pointer_parts(where))

    for where, keyword, uri in remote_refs(schema):
        return (f"{at(where)}: {keyword} {uri!r} is a document outside this file; nothing is fetched, so it cannot "
                "be checked: put the definition under $defs")
    _, where = expanded_parts(schema, MAX_EXPANDED_SUBSCHEMAS)
    if where is not None:
        return (f"{at(where)}: more than {MAX_EXPANDED_SUBSCHEMAS} subschemas once its $refs are followed (a "
                "definition referred to more than once at each step): refer to each definition once")
    if (loop := ref_loop(schema)) is not None:
        return (f"{at(loop[0])}: the schema loops ({' → '.join(map(at, loop))}): each applies the next to the same "
                "value, so checking would never end")
    return None


def schema_problems(data: Any, kind: str, name: str, schemas_dir: Path | None = None,
                    lang: str = "en") -> list[Problem]:
    """Every error of ``data`` against ``fixtures/schemas/<kind>.schema.json``, as Problems: in
    English, jsonschema's messages (what authors of content files read); in another ``lang``, the
    app's translated validator explanations (toolcall.validation.validate: expected / received)."""
    schema_path = (schemas_dir or FIXTURES_DIR / "schemas") / f"{kind}.schema.json"
    try:
        schema = content_schema(schema_path)
    except SchemaFileError as exc:  # a content root without its schemas, or a broken one: nothing is checked
        return [Problem(name, "$", f"cannot be checked: {display_name(schema_path)}: {exc}")]
    if oversized := oversized_lists(data, schema, name):
        return oversized
    if lang != "en":
        from toolcall.i18n import t
        from toolcall.validation import validate  # here: validation is heavier than loading fixtures

        errors, _ = validate(data, schema, lang)
        decimals = [e for e in content_validator(schema).iter_errors(data) if _decimal_integer(e)]
        return [Problem(name, json_path(pointer_parts(e.pointer)),
                        t("schema.invalid_detail", lang, expected=e.expected, received=e.received)) for e in errors] \
            + [Problem(name, json_path(e.absolute_path), t("schema.invalid_detail", lang,
                                                           expected=t("type.integer", lang),
                                                           received=repr(e.instance))) for e in decimals]
    errors = sorted(content_validator(schema).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [Problem(name, json_path(e.absolute_path), content_message(e)) for e in errors] \
        + blank_text_problems(data, name, kind) + same_text_problems(data, name) \
        + hidden_text_problems(data, name, kind)


#: At most this many unexpected keys of one object are compared with the names it allows (a hostile file may hold
#: thousands), and this many characters of each are compared (each is quoted as safe_validator.quoted_name: cut as
#: drawn, look-alike letters escaped).
MAX_GUESSED_KEYS = 20
MAX_GUESSED_KEY_CHARS = 64


def _misspelt_key(error: Any) -> str | None:
    """For an ``additionalProperties: false`` error, which allowed name each unexpected key is close to (difflib,
    cutoff 0.8: a letter missing, added or swapped) when that name is missing: ``did you mean 'label' for
    'lable'?``. jsonschema says only that 'lable' is not allowed (and, apart, that 'label' is required), never that
    one is a typo of the other. ``expected`` and ``expected_error`` (0.73) are not typos of each other: an output
    written under ``business_cases:`` is told where it goes instead (check_outputs)."""
    import difflib

    from toolcall.safe_validator import quoted_name  # here: loaded with content_validator, which made ``error``

    if error.validator != "additionalProperties" or error.validator_value is not False \
            or not isinstance(error.instance, dict) or not isinstance(error.schema, dict):
        return None
    allowed = [k for k in error.schema.get("properties", {}) if k not in error.instance]
    unexpected = [k for k in error.instance if isinstance(k, str) and k not in error.schema.get("properties", {})]
    guesses = []
    for key in unexpected[:MAX_GUESSED_KEYS]:
        close = difflib.get_close_matches(key[:MAX_GUESSED_KEY_CHARS], allowed, n=1, cutoff=0.8)
        if close:
            guesses.append(f"{quoted_name(close[0])} for {quoted_name(key)}")
    return f"did you mean {', '.join(guesses)}?" if guesses else None


#: oversized_lists' problem: the list quoted, its length and its cap.
TOO_MANY_ITEMS = "{quoted} is too long ({n:,} {n:plural:item|items}; at most {limit:,})"


def oversized_lists(data: Any, schema: dict, name: str) -> list[Problem]:
    """A Problem for each top-level list of ``data`` longer than its ``maxItems`` in ``schema``, worded as
    content_message words it (``$.orders: [{'order_id': …… is too long (12,004 items; at most 200)``).
    schema_problems returns these alone, before validating: jsonschema checks every item before the count, so a
    12 000-order book took check 72 s and 160 MB though its one problem was its size (break-it pass brk16content)."""
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(data, dict) or not isinstance(props, dict):
        return []
    return [Problem(name, json_path([key]), fill(TOO_MANY_ITEMS, quoted=_quoted(value), n=len(value),
                                                 limit=props[key]["maxItems"]))
            for key, value in data.items()
            if isinstance(value, list) and isinstance(props.get(key), dict)
            and isinstance(props[key].get("maxItems"), int) and len(value) > props[key]["maxItems"]]


def _quoted(value: Any) -> str:
    """``repr(value)`` cut at MAX_QUOTED characters as drawn (repr_head), as content_message quotes it."""
    return repr_head(value, MAX_QUOTED)


def content_message(error: Any) -> str:
    """What an instructor reads for ``error`` of content_validator: jsonschema's message with the value it quotes
    cut after MAX_QUOTED characters, a size rule's count and limit, and for a whole number written as a decimal,
    how to write it."""
    if _decimal_integer(error):
        return f"{error.message} (write {int(error.instance)}: with a decimal point it is a decimal number)"
    if (number := _yaml_text_number(error)) is not None:
        return (f"{error.message} (YAML reads {error.instance.strip()} as text: a number with an exponent needs a "
                f"decimal point and a signed exponent there; write {number})")
    if (read := _yaml_read_as(error)) is not None:
        return f"{error.message} ({read})"
    message = error.message
    if (guess := _misspelt_key(error)) is not None:
        message += f" ({guess})"
    if isinstance(error.instance, (str, list, dict)) and len(message) > MAX_QUOTED:  # not by its length alone:
        quoted = repr(error.instance)  # 11 hints of 100 characters were quoted whole (pass fix19left)
        if len(quoted) > MAX_QUOTED:  # cut as drawn: no escape cut in half (repr_head)
            message = message.replace(quoted, repr_head(error.instance, MAX_QUOTED), 1)
    if error.validator in SIZE_RULES and isinstance(error.instance, (str, list, dict)):
        (one, other), bound = SIZE_RULES[error.validator]
        count = len(error.instance)
        message += f" ({count:,} {one if count == 1 else other}; {bound} {error.validator_value:,})"
    return message


#: How many characters of a value jsonschema quotes whole in its message a content problem keeps: 1 240 selection
#: cases made `check` print "$.cases: [{'expected_arguments': … (287,970 more characters)", cut before the words
#: "is too long" and without the limit of 500 (issue 13, round 6).
MAX_QUOTED = 120
#: The size rules of content schemas: what they count (one, more: "1 characters" was printed, break-it pass
#: brk16cli), and whether the limit is the most or the least.
SIZE_RULES = {"maxItems": (("item", "items"), "at most"), "minItems": (("item", "items"), "at least"),
              "maxLength": (("character", "characters"), "at most"),
              "minLength": (("character", "characters"), "at least"),
              "maxProperties": (("property", "properties"), "at most"),
              "minProperties": (("property", "properties"), "at least")}


#: A number with an exponent that YAML 1.1 (PyYAML) reads as a string: ``1e-3``, ``5e+2``, ``1.0e3`` (its float
#: needs a decimal point and a sign in the exponent: ``1.0e-3``).
_EXPONENT_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)[eE][-+]?\d+")


def _yaml_text_number(error: Any) -> str | None:
    """For a type error on a string like ``1e-3`` where a number is due: the same number written so YAML reads a
    number (``0.001``, ``1.0e-07``); None otherwise."""
    wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    if error.validator != "type" or not isinstance(error.instance, str) or not {"number", "integer"} & set(wanted):
        return None
    text = error.instance.strip()
    if not _EXPONENT_NUMBER.fullmatch(text) or not math.isfinite(value := float(text)):
        return None
    if "integer" in wanted and "number" not in wanted and value.is_integer() and abs(value) < 10 ** 15:
        return str(int(value))
    mantissa, _, exponent = repr(value).partition("e")
    if not exponent:
        return mantissa
    return f"{mantissa if '.' in mantissa else mantissa + '.0'}e{exponent if exponent[0] in '+-' else '+' + exponent}"


#: A plain integer with a leading 0 and an 8 or a 9: YAML 1.1 reads it as text (not octal, not decimal).
_NOT_OCTAL = re.compile(r"[-+]?0[0-9_]*[89][0-9_]*")
#: Why YAML read a value of a JSON type where text is due, by that type: an unquoted ``no`` in an id or a label
#: passed as False, and check said only "False is not of type 'string'" (break-it pass brk14content).
_READ_AS = {bool: "YAML 1.1 reads an unquoted yes, no, on, off, true or false as a boolean, not as text: write the "
                  "text in quotes",
            type(None): "YAML reads an unquoted null, ~ or an empty value as null, not as text: write the text in "
                        "quotes",
            int: "YAML reads an unquoted number as a number, not as text: write it in quotes",
            float: "YAML reads an unquoted number as a number, not as text: write it in quotes"}


def _yaml_read_as(error: Any) -> str | None:
    """For a type error YAML 1.1's reading explains, why and what to write: a boolean, null or number where text is
    due (``id: no``), or text where a number is due that YAML read as text for its leading 0 (``order: 08``);
    None otherwise."""
    if error.validator != "type":
        return None
    wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    if "string" in wanted and type(error.instance) in _READ_AS:
        return _READ_AS[type(error.instance)]
    if {"number", "integer"} & set(wanted) and isinstance(error.instance, str) \
            and _NOT_OCTAL.fullmatch(text := error.instance.strip()):
        return (f"YAML 1.1 reads {text} as text: a leading 0 makes an octal number, and 8 and 9 are no octal digits; "
                f"write {int(text.replace('_', ''), 10)}")
    return None


#: The display texts of a lesson's front matter (one language per file; fixtures hold {en, zh} objects).
_LESSON_TEXTS = ("title", "summary")


def blank_text_problems(data: Any, name: str, kind: str = "") -> list[Problem]:
    """A Problem at each text students read that shows nothing (toolcall.text.blank: ``"   "``, ``"\u200b"``):
    every value of an ``{en, zh}`` object, and a lesson's title and summary. ``minLength: 1`` let them pass
    check, and a card, an order's item or an exercise's prompt was blank in class. Without recursion."""
    from toolcall.i18n import LANGS  # here: toolcall.i18n reads the catalogue through this module
    from toolcall.text import blank

    problems: list[Problem] = []
    if kind == "lesson" and isinstance(data, dict):
        problems += [Problem(name, json_path([key]), _BLANK) for key in _LESSON_TEXTS
                     if isinstance(data.get(key), str) and data[key] and blank(data[key])]
    stack: list[tuple[Any, list]] = [(data, [])]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, dict):
            if set(value) == set(LANGS):
                problems += [Problem(name, json_path([*parts, lang]), _BLANK) for lang in LANGS
                             if isinstance(value[lang], str) and value[lang] and blank(value[lang])]
            stack.extend((v, [*parts, k]) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, [*parts, i]) for i, v in enumerate(value))
    return sorted(problems, key=lambda p: p.path)


_BLANK = "shows nothing: only white space or invisible characters (students would read an empty text)"

#: The kinds of content file every string of which is read or compared as written: an order's ids and item names, a
#: selection case's request and expected arguments (a zero-width space in a customer id made every refund of that
#: order "ORDER_NOT_OWNED", and check said only that a business case got another error).
_ALL_TEXT_KINDS = ("orders", "selection")
#: Where a content file holds wire text as a model or a client sent it, in which a hidden character may be the
#: lesson: the pairing checker's transcripts.
_WIRE_TEXT = {"pairing": "text"}


def hidden_text_problems(data: Any, name: str, kind: str = "") -> list[Problem]:
    """A Problem at each text students read, or a value compared as written, that holds a character the page shows
    as nothing or that reorders the text around it (toolcall.markdown_hazards.hidden_text): every value of an
    ``{en, zh}`` object (an output's label, an option, an order's item) but the pairing transcripts, and every
    string of an order book or a selection set. Only texts rendered as Markdown were checked (with their line):
    ``label: "Valid\u200b call"``, ``item: "Note\u202ebook"`` and ``customer_id: "CUST-1001\u200b"`` passed.
    A lesson's title and summary are checked with its Markdown. Without recursion."""
    from toolcall.i18n import LANGS  # here: toolcall.i18n reads the catalogue through this module
    from toolcall.markdown_hazards import hidden_text

    if kind == "lesson":
        return []
    every = kind in _ALL_TEXT_KINDS
    problems: list[Problem] = []
    stack: list[tuple[Any, list, bool]] = [(data, [], every)]
    while stack:
        value, parts, shown = stack.pop()
        if isinstance(value, str):
            if shown and (found := hidden_text(value)):
                problems.append(Problem(name, json_path(parts), found))
        elif isinstance(value, dict):
            texts = set(value) == set(LANGS) and not (parts and _WIRE_TEXT.get(kind) == parts[-1])
            stack.extend((v, [*parts, k], every or texts) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, [*parts, i], every) for i, v in enumerate(value))
    return sorted(problems, key=lambda p: p.path)

#: The keys under which a list's entries show their {en, zh} text side by side (options, steps, categories,
#: items, cards, variants, examples): what a student tells the entries apart by.
SHOWN_KEYS = ("text", "label")


def same_text_problems(data: Any, name: str) -> list[Problem]:
    """A Problem at each entry of a list whose shown text (SHOWN_KEYS), in one language, is an earlier entry's
    (white space and case aside): two options of a choice exercise both reading "回一个 is_error 的 tool_result"
    passed check, and a Chinese-reading student could not tell the right one from the wrong one."""
    from toolcall.i18n import LANGS  # here: toolcall.i18n reads the catalogue through this module

    problems: list[Problem] = []
    stack: list[tuple[Any, list]] = [(data, [])]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, [*parts, k]) for k, v in value.items())
            continue
        if not isinstance(value, list):
            continue
        stack.extend((v, [*parts, i]) for i, v in enumerate(value))
        for key in SHOWN_KEYS:
            for lang in LANGS:
                seen: dict[str, int] = {}
                for i, entry in enumerate(value):
                    text = entry.get(key) if isinstance(entry, dict) else None
                    if not (isinstance(text, dict) and isinstance(text.get(lang), str)):
                        continue
                    shown = " ".join(text[lang].split()).casefold()
                    if shown in seen:
                        problems.append(Problem(name, json_path([*parts, i, key, lang]),
                                                f"shows the same text as {json_path([*parts, seen[shown], key, lang])}"
                                                f" ({text[lang]!r}): students cannot tell the two apart"))
                    seen.setdefault(shown, i)
    return sorted(problems, key=lambda p: p.path)


def same_title_problems(entries: list[tuple[str, list, Any]], shown_in: str) -> list[Problem]:
    """A Problem at each entry whose title, in one language, reads as an earlier entry's (white space, case, hidden
    characters, full-width forms and look-alike letters of other scripts aside: toolcall.text.reading_key and
    CONFUSABLE_LATIN).
    ``entries`` are ``(file, JSON path of the title, title)``, the title a ``{lang: text}`` map or one text; they are
    listed side by side in ``shown_in`` (the lessons' table of contents, the exercises' table…). A lesson copied to
    start a new one, its title left as it was, passed check: two lines of the table of contents read the same."""
    problems: list[Problem] = []
    seen: dict[tuple[str | None, str], tuple[str, list]] = {}
    for file, at, title in entries:
        for lang, text in (title.items() if isinstance(title, dict) else [(None, title)]):
            if not isinstance(text, str):
                continue
            where = [*at, lang] if lang is not None else at
            # read as a reader reads it: NFKC (a full-width Ｓ), hidden characters dropped, a Cyrillic е as e (two
            # titles that only looked different passed: break-it pass brk21probe)
            first = seen.setdefault((lang, reading_key(text.translate(CONFUSABLE_LATIN))), (file, where))
            if first != (file, where):
                problems.append(Problem(file, json_path(where), f"the same title as {first[0]} {json_path(first[1])} "
                                        f"({text!r}): both are listed in {shown_in}, and students cannot tell the "
                                        "two apart"))
    return problems


def _decimal_integer(error: Any) -> bool:
    """Whether ``error`` is only content_validator's: a whole number written as a decimal where an integer is due."""
    return error.validator == "type" and isinstance(error.instance, float) and error.instance.is_integer()


def _integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _content_validator_class() -> Any:
    from jsonschema import validators

    from toolcall.safe_validator import SafeValidator  # here: the ECMA engine is not needed to read fixtures

    cls = validators.extend(SafeValidator, {}, type_checker=SafeValidator.TYPE_CHECKER.redefine("integer", _integer))
    cls.descend = SafeValidator.descend  # the time budget of every subschema
    return cls


def content_validator(schema: Any) -> Any:
    """The validator of content files against their schema: JSON Schema's own ``pattern`` semantics
    (ECMA-262, toolcall.safe_validator, as the non-English path and every student schema use), not Python's
    ``re``, whose ``$`` also matches before a final line break: ``id: "pk_pass3\n"`` (a YAML block scalar) passed
    ``^[a-z][a-z0-9_]*$`` and became a second exercise reading ``pk_pass3``; ``name: "refund_order\n"`` a tool.
    An ``integer`` is an int as written: JSON Schema also counts ``2599.0`` as one, so ``paid_cents: 2599.0``
    passed check and the fake backend then wrote "2599.0 cents of 2599.0 paid" to the model at class time."""
    from toolcall.safe_validator import REGISTRY  # fetches nothing: jsonschema's default registry fetched http $refs

    return _content_validator_class()(schema, registry=REGISTRY)


def pointer_parts(pointer: str) -> list[str | int]:
    """``/a/0/b`` -> ``["a", 0, "b"]`` (RFC 6901 unescaping; all-digit segments as indexes)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    return [int(p) if p.isdigit() else p for p in parts]


def load_checked(path: Path, kind: str, lang: str = "en") -> Any:
    """Read ``path`` and validate it as ``kind``; raises FixtureError listing every problem (in
    ``lang``: see schema_problems)."""
    data = read_data(path)
    problems = schema_problems(data, kind, display_name(path), lang=lang)
    if problems:
        raise FixtureError(problems)
    return data


def first_introduced(paths) -> list[Path]:
    """``paths`` oldest first by modification time, then by name: when two files claim one id, the
    later in this order (the file just edited, which introduced the duplicate) is the one blamed."""
    def key(path: Path):
        try:
            return (Path(path).stat().st_mtime_ns, str(path))
        except OSError:
            return (0, str(path))
    return sorted(paths, key=key)


def shared_orders(entries) -> list[Problem]:
    """A Problem at ``$.order`` of each entry (``file``, ``order`` attributes: lessons of one language, scenarios)
    whose order an earlier one (in the given order) already has: two lessons both ``order: 4`` passed `check`,
    and which came first then followed the file names, not the course."""
    first: dict = {}
    problems = []
    for entry in entries:
        if entry.order in first:
            problems.append(Problem(entry.file, "$.order", f"{entry.order} is also the order of {first[entry.order]}: "
                                                           "give each its own place in the list"))
        else:
            first[entry.order] = entry.file
    return problems


def require_unique_ids(path: Path, data: dict[str, Any], *sections: str, key: str = "id", shared: bool = False,
                       at: tuple = ()) -> None:
    """Raise FixtureError naming ``$.<at…>.<section>[i].<key>`` for every ``key`` (default ``id``) used twice in a
    section; with ``shared``, twice in all ``sections`` together (one namespace: the canned outputs and the
    business cases of a file, which lessons and tool_use ids name alike), the message then naming the first."""
    problems = []
    first: dict[str, list] = {}
    for section in sections:
        if not shared:
            first = {}
        for i, item in enumerate(data.get(section, [])):
            name = item[key]
            if name in first:
                also = f" (also {json_path([*at, *first[name]])})" if first[name][0] != section else ""
                problems.append(Problem(display_name(path), json_path([*at, section, i, key]),
                                        f"duplicate {key} {name!r}{also}"))
            else:
                first[name] = [section, i]
    if problems:
        raise FixtureError(problems)


# --- typed views of each kind --------------------------------------------------------

#: The member of a tool file that holds its translations (never sent on the wire; see Tool).
TOOL_I18N = "x-i18n"


@dataclass(frozen=True)
class Tool:
    """A tool definition as sent in a request's ``tools`` list.

    ``i18n`` holds the file's ``x-i18n`` member: per language code, a translated
    ``description`` and ``properties`` (property name -> translated description of that
    property of ``input_schema``). ``description``/``input_schema`` are the English wire
    text. ``as_anthropic``/``as_openai`` build the wire shape from name, description and
    input_schema only, so ``x-i18n`` is never sent; ``for_lang(lang)`` gives the definition
    a student sees (and a request would carry) in ``lang``.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    i18n: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    def description_for(self, lang: str) -> str:
        """The description in ``lang``; the English one when there is no translation."""
        return self.i18n.get(lang, {}).get("description", self.description)

    def input_schema_for(self, lang: str) -> dict[str, Any]:
        """``input_schema`` with each top-level property's ``description`` in ``lang`` (a copy;
        constraints unchanged, so it validates exactly like the English one)."""
        translated = self.i18n.get(lang, {}).get("properties", {})
        if not translated:
            return self.input_schema
        schema = dict(self.input_schema)
        schema["properties"] = {name: ({**spec, "description": translated[name]}
                                       if name in translated and isinstance(spec, dict) else spec)
                                for name, spec in self.input_schema.get("properties", {}).items()}
        return schema

    def for_lang(self, lang: str) -> Tool:
        """This tool as shown in ``lang``: translated description and property descriptions."""
        return Tool(self.name, self.description_for(lang), self.input_schema_for(lang))

    def as_anthropic(self) -> dict[str, Any]:
        """The Anthropic Messages API shape: ``{name, description, input_schema}``."""
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    def as_openai(self) -> dict[str, Any]:
        """The OpenAI Chat Completions shape: ``{type: function, function: {name, description, parameters}}``."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.input_schema}}


@dataclass(frozen=True)
class CannedOutput:
    """One canned model output: ``raw`` argument text, its expected verdict, the keyword that catches it."""

    id: str
    label: dict[str, str]
    raw: str
    catches: str | None
    expected: str
    stop_reason: str = "tool_use"  # the response's stop_reason: "max_tokens" when the limit cut the output


@dataclass(frozen=True)
class BusinessCase:
    """A schema-valid call that the backend must still refuse with ``expected_error``."""

    id: str
    label: dict[str, str]
    raw: str
    expected_error: str


@dataclass(frozen=True)
class OutputsFixture:
    """The canned outputs of one tool; ``max_tokens`` is the limit of the request they answer;
    ``replay_raw`` the refund the replay demo sends three times (None: the first accepted output)."""

    tool: str
    outputs: tuple[CannedOutput, ...]
    business_cases: tuple[BusinessCase, ...] = field(default_factory=tuple)
    max_tokens: int = 1024
    replay_raw: str | None = None


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    paid_cents: int
    status: str
    item: dict[str, str] = field(default_factory=dict)  # {en, zh}

    def item_for(self, lang: str) -> str:
        """The item's name in ``lang`` (English when untranslated; "" when there is none)."""
        return self.item.get(lang) or self.item.get("en", "")


@dataclass(frozen=True)
class OrderBook:
    current_customer: str
    orders: tuple[Order, ...]


def load_tool(path: Path | None = None, lang: str = "en") -> Tool:
    """Load a tool definition (default fixtures/tools/refund_order.json). Raises FixtureError (its
    schema problems in ``lang``), also when its ``input_schema`` is not a valid JSON Schema."""
    path = path or FIXTURES_DIR / "tools" / "refund_order.json"
    data = load_checked(path, "tool", lang)
    i18n = data.get(TOOL_I18N, {})
    names = set(data["input_schema"]["properties"]) if isinstance(data["input_schema"]["properties"], dict) else set()
    unknown = [Problem(display_name(path), json_path([TOOL_I18N, lang, "properties", name]),
                       f"{name!r} is not a property of input_schema")
               for lang, tr in i18n.items() for name in tr.get("properties", {}) if name not in names]
    if unknown:
        raise FixtureError(unknown)
    # An input_schema that is no JSON Schema ({"type": -1} inside properties) passes tool.schema.json; every
    # validation against it then raised TypeError (check's selection and output checks, `result`, the pages).
    from toolcall.validation import check_schema  # here: validation imports this module

    checked = check_schema(json.dumps(data["input_schema"]), lang)
    if not checked.ok:
        raise FixtureError([Problem(display_name(path), json_path(["input_schema", *pointer_parts(checked.path or "")]),
                                    checked.message)])
    return Tool(data["name"], data["description"], data["input_schema"], i18n)


def load_outputs(path: Path | None = None) -> OutputsFixture:
    """Load canned outputs (default fixtures/outputs/refund_order.yaml). Raises FixtureError,
    including for duplicate ids (path ``$.outputs[i].id``)."""
    path = path or FIXTURES_DIR / "outputs" / "refund_order.yaml"
    data = read_data(path)
    if problems := schema_problems(data, "outputs", display_name(path)):
        raise FixtureError(problems + misplaced_entries(data, display_name(path)))
    require_unique_ids(path, data, "outputs", "business_cases", shared=True)
    return OutputsFixture(
        data["tool"],
        tuple(CannedOutput(**o) for o in data["outputs"]),
        tuple(BusinessCase(**b) for b in data.get("business_cases", [])),
        data.get("max_tokens", 1024),
        data.get("replay_raw"),
    )


#: Per list of an outputs file: the fields that mark an entry of the other list, and the sentence saying where it goes.
_MISPLACED = {
    "business_cases": (("expected", "catches"), "expected_error",
                       "a canned output's fields: cards go under outputs: (above business_cases:, which holds "
                       "schema-valid calls the backend refuses, each with expected_error)"),
    "outputs": (("expected_error",), "expected",
                "a business case's field: a schema-valid call the backend refuses goes under business_cases:"),
}


def misplaced_entries(data: Any, name: str) -> list[Problem]:
    """A Problem at each entry of an outputs file written with the other list's fields: a card appended at the end
    of the file lands in ``business_cases:``, the last list, and jsonschema only said "'expected_error' is a
    required property" and "Additional properties are not allowed ('catches', 'expected')", not where it belongs."""
    problems: list[Problem] = []
    for key, (marks, own, where) in _MISPLACED.items():
        entries = data.get(key) if isinstance(data, dict) else None
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            found = [f for f in marks if isinstance(entry, dict) and f in entry]
            if found and own not in entry:
                problems.append(Problem(name, json_path([key, i]), f"has {' and '.join(found)}, {where}"))
    return problems


def load_orders(path: Path | None = None) -> OrderBook:
    """Load the fake order book (default fixtures/orders/orders.yaml). Raises FixtureError."""
    data = load_checked(path or FIXTURES_DIR / "orders" / "orders.yaml", "orders")
    return OrderBook(data["current_customer"], tuple(Order(**o) for o in data["orders"]))
