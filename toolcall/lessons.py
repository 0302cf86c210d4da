"""Lessons: Markdown files with YAML front matter under ``lessons/<lang>/NN-slug.md``.

A lesson file looks like::

    ---
    title: The model proposes, your code decides
    summary: One sentence for the table of contents.
    page: playground          # the page it is shown on (or "lessons": reading page only)
    order: 1
    figures:                  # every number the lesson quotes, and what computes it
      - {value: "72.9%", source: "naive_pass_k(p=0.9, k=3)"}
    ---
    The lesson body, in Markdown.

The front matter is validated against ``fixtures/schemas/lesson.schema.json``; every
problem reads ``lessons/en/03-x.md: $.title: …``. This module also holds the exact
pass^k arithmetic the lessons quote (``PASSK_FIGURES``) and the rules for comparing a
quoted value with a computed one. Pure: no streamlit import.
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from collections.abc import Callable

import yaml

from toolcall.yaml_io import NotJson, lookalike_punctuation, plain_colon, safe_load

from toolcall import CONTENT_ROOT, passk
from toolcall.files import ReadError, read_text_bounded
from toolcall.fixtures import Problem, lone_surrogate, schema_problems
from toolcall.pages_registry import LESSON_PAGE_IDS

#: Page ids a lesson may name in ``page`` (toolcall/pages_registry.py; a test keeps lesson.schema.json's enum equal).
PAGE_IDS: tuple[str, ...] = LESSON_PAGE_IDS
FILE_NAME = re.compile(r"^[0-9]{2}-[a-z0-9]+(-[a-z0-9]+)*\.md$")
_FENCE = "---"


@dataclass(frozen=True)
class Figure:
    """A value a lesson quotes (``"72.9%"``, ``52``) and the call that computes it (``source``)."""

    value: str
    source: str


@dataclass(frozen=True)
class Lesson:
    """One lesson in one language. ``name`` is the file name (``03-tool-choice.md``),
    ``file`` its path relative to the content root, ``body`` the Markdown after the front matter."""

    name: str
    lang: str
    file: str
    title: str
    summary: str
    page: str
    order: int
    body: str
    figures: tuple[Figure, ...] = ()
    body_line: int = 1  # the file's line where ``body`` starts (check names lines of the file)
    sources: tuple[str, ...] = ()  # the https pages its provider claims were checked against (shown under it)

    @property
    def slug(self) -> str:
        """The file name without ``.md``; also the lesson's anchor on the reading page."""
        return self.name.removesuffix(".md")


@dataclass(frozen=True)
class LessonSet:
    """Every lesson of one language that loaded, sorted by (order, name), and the problems of the rest."""

    lang: str
    lessons: tuple[Lesson, ...]
    problems: tuple[Problem, ...]

    def for_page(self, page: str) -> tuple[Lesson, ...]:
        """The lessons whose front matter names ``page``, in order."""
        return tuple(lesson for lesson in self.lessons if lesson.page == page)


def lesson_files(lang: str, root: Path = CONTENT_ROOT) -> list[Path]:
    """The ``*.md`` files under ``root/lessons/<lang>/``, sorted by name (empty if the folder is missing)."""
    folder = Path(root) / "lessons" / lang
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def _relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (``lessons/en/01-x.md``), else ``path`` itself. A link is named by
    itself, not by its target (only its folder is resolved); never raises, even for a symlink loop."""
    path = Path(path)
    try:
        return (path.parent.resolve() / path.name).relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # outside root, or a loop among the folders
        return str(path)


def split_front_matter(text: str) -> tuple[str, str] | None:
    """Split ``---\\n<yaml>\\n---\\n<body>`` into (yaml, body); None when there is no front matter."""
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    if not lines or lines[0].rstrip() != _FENCE:
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip() == _FENCE:
            return "".join(lines[1:i]), "".join(lines[i + 1:])
    return None


def parse_lesson(text: str, name: str, lang: str, file: str) -> tuple[Lesson | None, list[Problem]]:
    """Parse one lesson's text. Returns (Lesson, []) or (None, problems), each problem
    located as ``file: $.json.path: message``. Never raises for any str ``text``."""
    parts = split_front_matter(text)
    if parts is None:
        return None, [Problem(file, "$", "no front matter: the file must start with a line '---', "
                                        "then YAML, then a line '---'")]
    head, body = parts
    try:
        data = safe_load(head, json_only=True)
    except NotJson as exc:  # YAML, but not what JSON holds (a date, a key that is no text)
        mark = exc.problem_mark
        return None, [Problem(file, exc.path, f"front matter line {mark.line + 2} column {mark.column + 1}: {exc}")]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 2} column {mark.column + 1}: " if mark else ""
        stray = lookalike_punctuation(head, exc, line_offset=1) or plain_colon(head, exc, line_offset=1)
        said = f"{stray} (the parser: {where}{getattr(exc, 'problem', exc)})" if stray else \
            f"{where}{getattr(exc, 'problem', exc)}"
        return None, [Problem(file, getattr(exc, "path", "$"), f"front matter is not YAML: {said}")]
    if (half := lone_surrogate(data)) is not None:
        return None, [Problem(file, half[0], f"front matter {half[1]}")]
    problems = schema_problems(data, "lesson", file)
    if not body.strip():
        problems.append(Problem(file, "$", "the lesson has no body after its front matter"))
    if problems:
        return None, problems
    figures = tuple(Figure(str(f["value"]), f["source"]) for f in data.get("figures", []))
    skipped = body[:len(body) - len(body.lstrip())].count("\n")  # blank lines strip() drops
    body_line = text.lstrip("\ufeff").count("\n", 0, len(text) - len(body)) + 1 + skipped
    return Lesson(name, lang, file, data["title"], data["summary"], data["page"], data["order"],
                  body.strip() + "\n", figures, body_line, tuple(data.get("sources", ()))), []


#: A lesson file's character limit. The longest shipped lesson is about 6 300 characters; check parses each lesson
#: three times with a Markdown parser that costs up to ~40 µs a character on hostile text (``"[\n"`` repeated), so
#: a 2 MB lesson (the limit of other content files) held check for over a minute. Past this it is not read.
MAX_LESSON_CHARS = 50_000


def load_lessons(lang: str, root: Path = CONTENT_ROOT) -> LessonSet:
    """Load every lesson of ``lang`` under ``root/lessons/<lang>/``.

    A file that cannot be read (or is over MAX_LESSON_CHARS characters), has a badly named file, or malformed
    front matter is left
    out and reported in ``problems``; the others load. Lessons are sorted by (order, name).
    """
    lessons: list[Lesson] = []
    problems: list[Problem] = []
    for path in lesson_files(lang, root):
        file = _relative(path, root)
        if not FILE_NAME.fullmatch(path.name):
            problems.append(Problem(file, "$", "file name must look like NN-slug.md (two digits, lowercase words)"))
            continue
        try:
            text = read_text_bounded(path, MAX_LESSON_CHARS)
        except ReadError as exc:
            problems.append(Problem(file, "$", f"cannot read file: {exc}"))
            continue
        lesson, found = parse_lesson(text, path.name, lang, file)
        problems += found
        if lesson is not None:
            lessons.append(lesson)
    lessons.sort(key=lambda lesson: (lesson.order, lesson.name))
    return LessonSet(lang, tuple(lessons), tuple(problems))


# --- the pass^k arithmetic lessons quote: thin adapters onto toolcall.passk -----------

def _exact(x: int | float | Fraction) -> Fraction:
    """A literal like 0.9 as the exact fraction 9/10 (through its decimal text, not its binary float)."""
    return x if isinstance(x, Fraction) else Fraction(str(x))


#: Most bits the numerator or the denominator of an exact p^k (naive_pass_k) may need. ``p=1e-300, k=10000`` is a
#: 10-million-bit fraction: 0.9 s of check per figure, and a lesson's front matter holds hundreds of figures (break-it
#: pass brk14content). A million bits (≈ 301 000 digits) costs about 0.02 s; the course's figures need a few dozen.
MAX_EXACT_BITS = 1_000_000


def naive_pass_k(p: float, k: int) -> Fraction:
    """The plug-in estimate p^k (toolcall.passk.Estimates.naive is (c/n)^k): the chance that
    k independent runs, each passing with probability ``p`` (0..1), all pass. 0.9^3 = 72.9%.
    Raises ValueError when the exact fraction would need more than MAX_EXACT_BITS bits."""
    base = _exact(p)
    bits = max(base.numerator.bit_length(), base.denominator.bit_length()) * abs(int(k))
    if bits > MAX_EXACT_BITS:
        raise ValueError(f"p^k would need {bits:,} bits to compute exactly; the limit is {MAX_EXACT_BITS:,}: quote a "
                         "figure with fewer digits in p or a smaller k")
    return base ** k


def pass_hat_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased pass^k from ``c`` passes in ``n`` runs, C(c, k) / C(n, k) (τ-bench), as
    computed by toolcall.passk.estimate. n=10, c=9, k=3 gives 84/120 = 70%.
    Raises toolcall.passk.EstimateInputError (a ValueError) for impossible counts."""
    return passk.estimate(n, c, k).pass_hat_k


def all_fail(p_fail: float, attempts: int) -> float:
    """The chance that ``attempts`` independent tries all fail, p_fail^attempts
    (toolcall.passk.prob_all with rho = 0). 0.2^3 = 0.8%."""
    return passk.prob_all(p_fail, attempts, 0.0)


#: Figure functions a lesson's ``source`` may call, by name.
PASSK_FIGURES: dict[str, Callable[..., Any]] = {
    "naive_pass_k": naive_pass_k,
    "pass_hat_k": pass_hat_k,
    "pass_k": passk.pass_k,  # the ambiguity model: rho=0 gives q^(m·k), rho=1 gives q^m
    "equivalent_q": passk.equivalent_q,
    "all_fail": all_fail,
}


# --- figures: parse a source, compare a quoted value -----------------------------------

#: Largest number a figure's source may pass: the course's figures use small counts, and an
#: exponent of ten million would make exact arithmetic run for minutes.
MAX_ARGUMENT = 10_000
#: Longest figure source read (the course's are under 100 characters): Python's parser builds one node per
#: operator, so 3 000 minus signs raised RecursionError and 10 000 MemoryError out of ast.parse.
MAX_SOURCE_CHARS = 500


def parse_source(source: str) -> tuple[str, dict[str, Any]]:
    """Parse ``name(key=literal, …)`` without evaluating anything.

    Only keyword arguments whose values are literals (numbers, strings, booleans) are
    allowed. Returns (name, kwargs); raises ValueError for anything else (a source over
    MAX_SOURCE_CHARS characters or nested past the parser's limits included).
    """
    if len(source) > MAX_SOURCE_CHARS:
        raise ValueError(f"the source is {len(source):,} characters; the limit is {MAX_SOURCE_CHARS}")
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"not a call: {exc.msg}") from exc
    except (RecursionError, MemoryError):
        raise ValueError("not a call: nested too deeply for the parser") from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
        raise ValueError("expected name(key=value, …) with keyword arguments only")
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            raise ValueError("** arguments are not allowed")
        try:
            kwargs[kw.arg] = ast.literal_eval(kw.value)
        except ValueError as exc:
            raise ValueError(f"argument {kw.arg} is not a literal") from exc
        value = kwargs[kw.arg]
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if is_number and not -MAX_ARGUMENT <= value <= MAX_ARGUMENT:
            raise ValueError(f"argument {kw.arg}={value!r} is outside ±{MAX_ARGUMENT}")
        if not isinstance(value, (int, float, str, bool)):
            raise ValueError(f"argument {kw.arg} must be a number, a string or a boolean")
    return node.func.id, kwargs


#: Most digits a quoted figure may have (``0.333…`` with 60 threes is the longest compared): rounding is exact
#: (integer arithmetic on the fraction), so its cost grows with the digits asked for. Decimal's 28-digit default
#: made a correct ``0.`` + 40 threes for 1/3 fail as "[<class 'decimal.InvalidOperation'>]", blamed on the source
#: (issue 13, break-it pass brk12cli).
MAX_FIGURE_DIGITS = 60


def _round(x: Fraction, places: int) -> str:
    """``x`` rounded half away from zero to ``places`` decimals, exactly, written with that many decimals."""
    scaled = abs(x) * 10 ** places
    n = math.floor(scaled + Fraction(1, 2))
    digits = str(n).rjust(places + 1, "0")
    sign = "-" if x < 0 and n else ""
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)


def value_problem(value: str, computed: Any) -> str | None:
    """Why ``value`` (as quoted) does not state ``computed``; None when it does.

    Strings and integers must match exactly. A probability may be quoted as a percentage
    rounded to the decimals shown (``72.9%``, ``8.0%``, ``70%``), as a fraction equal to it
    (``84/120``), or as a decimal rounded to the places shown (``0.729``).
    """
    if isinstance(computed, str) or isinstance(computed, bool):
        return None if value == str(computed) else f"the app computes {computed!r}"
    if isinstance(computed, int):
        return None if value == str(computed) else f"computed {computed}"
    # a float as written (its shortest repr: 0.725, not the binary 0.72499999…), as a reader rounds it
    exact = Fraction(repr(computed)) if isinstance(computed, float) else Fraction(computed)
    if re.fullmatch(r"[\d./%]+", value) and (digits := sum(ch.isdigit() for ch in value)) > MAX_FIGURE_DIGITS:
        return (f"it has {digits:,} digits; a figure is quoted with at most {MAX_FIGURE_DIGITS} (the app computes "
                f"{float(exact):.6g})")
    if m := re.fullmatch(r"(\d+)(?:\.(\d+))?%", value):
        shown = _round(exact * 100, len(m.group(2) or ""))
        return None if shown == value[:-1] else f"computed {shown}%"
    if m := re.fullmatch(r"(\d+)/(\d+)", value):
        ok = int(m.group(2)) != 0 and Fraction(int(m.group(1)), int(m.group(2))) == exact
        return None if ok else f"computed {exact}"
    if m := re.fullmatch(r"\d+(?:\.(\d+))?", value):
        shown = _round(exact, len(m.group(1) or ""))
        return None if shown == value else f"computed {shown}"
    return "a number must be quoted as 72.9%, 84/120 or 0.729"


#: A character that would make a quoted figure part of a longer number or word: "8.0%" inside "18.0%",
#: "52" inside "152" or "52.5" (ASCII only: a Chinese character beside a number is a word boundary).
_GLUED_BEFORE = r"(?<![0-9A-Za-z_.])"
_GLUED_AFTER = r"(?![0-9A-Za-z_]|\.[0-9])"


def quoted_in(value: str, body: str) -> bool:
    """True when ``value`` appears in ``body`` as is, or as it reads inside a JSON string, and not as
    part of a longer number or word (the lesson reading "18.0%" does not quote the figure "8.0%")."""
    for form in dict.fromkeys((value, json.dumps(value, ensure_ascii=False)[1:-1])):
        before = _GLUED_BEFORE if re.match(r"[0-9A-Za-z_]", form) else ""
        after = _GLUED_AFTER if re.search(r"[0-9A-Za-z_]\Z", form) else ""
        if form and re.search(before + re.escape(form) + after, body):
            return True
    return False
