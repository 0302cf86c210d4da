"""What every exercise type shares: the Grade it returns, its feedback lines, the ExerciseType
record a type module exports as ``TYPE``, and the helpers graders use to read answer text.

A type module (``toolcall/exercise_types/<name>.py``) defines ``TYPE = ExerciseType(...)``;
the package discovers it (toolcall/exercise_types/__init__.py). Nothing here reads files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolcall.fixtures import OutputsFixture, Tool
from toolcall.i18n import DEFAULT_LANG, LANGS, catalogue, t
from toolcall.markdown import unwrap_code
from toolcall.parsing import Hint, StrictJSONError, localized_detail, names_place, parse_tool_input, strict_loads

if TYPE_CHECKING:  # toolcall.exercises imports this package to check fixture blocks
    from toolcall.exercises import Exercise

#: Longest answer text graded, in characters; a longer paste is refused with a message.
MAX_ANSWER_CHARS = 100_000

OK, WRONG, INFO, ERROR = "ok", "wrong", "info", "error"

#: Most feedback lines a Grade keeps (like a playground card's MAX_SHOWN_ERRORS): past it, the first
#: MAX_FEEDBACK lines and one more saying how many were left out. A JSON answer with 8 000 extra fields,
#: or a choice answer naming 9 000 unknown options, made 8 000 feedback lines (each one element the page
#: sent to the browser on every rerun, 2.4 MB through ``grade``) (issue 13).
MAX_FEEDBACK = 40


@dataclass(frozen=True)
class FeedbackItem:
    """One line of feedback. ``level`` is ok / wrong / info / error. Either ``key`` (an i18n
    key, with ``params`` whose values may themselves be ``{en, zh}`` dicts) or ``text``
    (an ``{en, zh}`` dict, e.g. an instructor's feedback for a known wrong answer)."""

    level: str
    key: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    text: dict[str, str] | None = None

    def render(self, lang: str) -> str:
        """The feedback in ``lang`` (``en`` or ``zh``), plain text (the page shows it through ``plain``): the
        exercise's own texts (``text``, the ``{en, zh}`` params) as the page showed them, code spans without
        their backticks (toolcall.markdown.unwrap_code)."""
        if self.text is not None:
            return unwrap_code(self.text.get(lang) or self.text["en"])
        params = {k: unwrap_code(v.get(lang) or v["en"]) if isinstance(v, dict) else v for k, v in self.params.items()}
        return t(str(self.key), lang, **params)


@dataclass(frozen=True)
class Grade:
    """``score`` out of ``max_score`` (points, ≥ 0) and the feedback explaining it;
    ``malformed`` when the answer could not be read in the type's format at all."""

    score: float
    max_score: float
    feedback: tuple[FeedbackItem, ...] = ()
    malformed: bool = False

    def __post_init__(self):
        """Keep at most :data:`MAX_FEEDBACK` lines, then one ``exercises.fb.more_feedback`` line with the count."""
        items = tuple(self.feedback)
        if len(items) > MAX_FEEDBACK:
            items = items[:MAX_FEEDBACK] + (fb(INFO, "more_feedback", count=len(items) - MAX_FEEDBACK),)
        object.__setattr__(self, "feedback", items)

    @property
    def correct(self) -> bool:
        """Full marks."""
        return self.max_score > 0 and self.score >= self.max_score

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{score, max_score, correct, malformed, feedback: [{level, en, zh}]}``."""
        return {"score": self.score, "max_score": self.max_score, "correct": self.correct, "malformed": self.malformed,
                "feedback": [{"level": f.level, **{lang: f.render(lang) for lang in LANGS}} for f in self.feedback]}


@dataclass(frozen=True)
class GradingInputs:
    """What a grader may need besides the exercise and the answer: the tool and its canned outputs
    (schema_fix). Read them with toolcall.grading.grading_inputs; graders never read files."""

    tool: Tool | None = None
    outputs: OutputsFixture | None = None


#: ``load(kind, path relative to fixtures/)``: how a type's ``inputs`` reads a fixture ("tool", "outputs").
Loader = Callable[[str, str], Any]

#: ``(path inside the exercise's fixture block, message)``: one fault a type's ``check`` finds.
Fault = tuple[list, str]


def _no_inputs(exercise: Exercise, load: Loader) -> GradingInputs:
    return GradingInputs()


def _no_faults(item: dict[str, Any]) -> list[Fault]:
    return []


def _as_text(exercise: Exercise, value: Any, lang: str) -> str:
    return str(value)


def texts_of(exercise: Exercise, kind: str, listed: list[str], lang: str) -> list[str]:
    """The texts (in ``lang``) a student saw for ids of ``kind`` (options, steps, items, categories), as plain text:
    code spans without their backticks (unwrap_code), as the dashboard's table cells show an answer."""
    labels = exercise.labels(kind)
    return [unwrap_code(labels[i].get(lang) or labels[i]["en"]) for i in listed]


def as_text(exercise: Exercise, text: str) -> str:
    """``read`` for types whose widgets hold the answer text itself."""
    return text


def text_as_is(exercise: Exercise, value: Any) -> str:
    """``write`` for types whose answer is text: strings pass through, data becomes indented JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2)


def json_text(exercise: Exercise, value: Any) -> str:
    """``write`` for types whose answer text is JSON."""
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class ExerciseType:
    """One exercise type, all in one module ``toolcall/exercise_types/<module>.py`` (its widgets are
    ``ui/exercise_inputs/<module>.py``).

    ``grade(exercise, text, inputs)`` is pure (``inputs``: :class:`GradingInputs`); ``write(exercise,
    value)`` turns a value written as data (a reference or wrong answer in a file) into answer text;
    ``read(exercise, text)`` turns stored answer text back into what the widgets hold, or None;
    ``check(item)`` lists the faults of a fixture block that passed the JSON Schema but contradicts
    itself (:data:`Fault`); ``inputs(exercise, load)`` reads what grading needs with ``load``
    (:data:`Loader`); ``show(exercise, value, lang)`` writes what ``read`` gave as the student saw it
    in ``lang`` (option, step, item and category texts rather than their ids)."""

    name: str
    grade: Callable[[Exercise, str, GradingInputs], Grade]
    write: Callable[[Exercise, Any], str]
    read: Callable[[Exercise, str], Any]
    check: Callable[[dict[str, Any]], list[Fault]] = _no_faults
    inputs: Callable[[Exercise, Loader], GradingInputs] = _no_inputs
    show: Callable[[Exercise, Any, str], str] = _as_text


# --- helpers the graders share ----------------------------------------------------------------

def fb(level: str, key: str, **params: Any) -> FeedbackItem:
    """A feedback line with key ``exercises.fb.<key>``."""
    return FeedbackItem(level, "exercises.fb." + key, params)


def both(key: str, **params: Any) -> dict[str, str]:
    """``{en, zh}`` for an i18n key."""
    return {lang: t(key, lang, **params) for lang in LANGS}


class Malformed(Exception):
    """The answer text cannot be read in this type's format."""

    def __init__(self, *items: FeedbackItem):
        super().__init__(items[0].key if items else "")
        self.items = items


def fail(*items: FeedbackItem, max_score: float = 1) -> Grade:
    """0 points, malformed, with ``items`` as feedback."""
    return Grade(0, max_score, tuple(items), malformed=True)


def check_size(text: str) -> None:
    """Raise Malformed for empty text and for text over :data:`MAX_ANSWER_CHARS`."""
    if not text.strip():
        raise Malformed(fb(ERROR, "empty"))
    if len(text) > MAX_ANSWER_CHARS:
        raise Malformed(fb(ERROR, "too_large", size=len(text), limit=MAX_ANSWER_CHARS))


def json_value(text: str, expected_key: str) -> Any:
    """Strict JSON (parsing.strict_loads); Malformed, naming ``expected_key``'s format, where the
    text breaks and the student's hints (:func:`answer_hints`), otherwise."""
    check_size(text)
    try:
        return strict_loads(text)  # no NaN, no 5000-digit integers, no lone surrogates, no duplicate keys
    except StrictJSONError as exc:
        where = {"line": exc.line or 1, "column": exc.column or 1}
        detail = {lang: localized_detail(exc, lang) for lang in LANGS}
        hints = [exc.hint] if exc.hint else parse_tool_input(text).hints
        # the explanation says where to fix and quotes the text there; or the parser gives no place (NaN, a key
        # written twice, a number past a double), which "line 1, column 1" put at the answer's first character
        if names_place(exc) or not exc.line:
            raise Malformed(fb(ERROR, "bad_format_explained", expected=both(expected_key), detail=detail),
                            *answer_hints(hints)) from exc
        raise Malformed(fb(ERROR, "bad_format", expected=both(expected_key), detail=detail, **where),
                        *where_it_breaks(text, exc.line, exc.column), *answer_hints(hints)) from exc


#: How much of the line before the place the JSON breaks is quoted back to the student, in characters.
WHERE_CONTEXT = 40


def where_it_breaks(text: str, line: int | None, column: int | None) -> list[FeedbackItem]:
    """One ``answer_where`` line quoting the student's own text up to where the JSON breaks
    (1-based ``line``/``column`` from the parser; at most :data:`WHERE_CONTEXT` characters), or
    nothing when the parser gave no position."""
    if not line or not column:
        return []
    lines = text.splitlines() or [""]
    row = lines[min(line, len(lines)) - 1]
    before = row[max(0, column - 1 - WHERE_CONTEXT):column - 1 + 1].strip()
    return [fb(INFO, "answer_where", line=line, column=column, before=before or "…")]


def json_trouble(text: str) -> list[FeedbackItem]:
    """Where a student's JSON text breaks and their hints (nothing when it is a JSON object):
    for answers whose own message (a schema checker's) names no cause. The place only when the parser's
    explanation does not already name it (the schema checker's message quotes that explanation): a schema_fix
    answer with a missing comma read "at line 1, column 17: …" and then "Your answer breaks at line 1, column 17"."""
    parsed = parse_tool_input(text)
    if parsed.ok:
        return []
    return [*([] if names_place(parsed) else where_it_breaks(text, parsed.line, parsed.column)),
            *answer_hints(parsed.hints)]


def answer_hints(hints: list[Hint]) -> list[FeedbackItem]:
    """The parser's hints worded for a student's own answer: ``exercises.answer_hint.<key>`` where
    the general ``hint.<key>`` speaks of a model's output (a ``max_tokens`` stop, tool arguments),
    the general wording otherwise."""
    known = catalogue(DEFAULT_LANG)
    # a JSON type name in a hint ("array") is shown in the reader's language, as render_hint does
    return [FeedbackItem(INFO, f"exercises.answer_hint.{h.key}" if f"exercises.answer_hint.{h.key}" in known
                         else f"hint.{h.key}",
                         {k: {lang: t(f"type.{v}", lang) for lang in LANGS} if k == "type" and f"type.{v}" in known
                          else v for k, v in h.params.items()}) for h in hints]


def known_wrong(exercise: Exercise, same: Callable[[Any], bool]) -> list[FeedbackItem]:
    """The instructor's feedback for every listed wrong answer that ``same`` recognises."""
    found = []
    for wrong in exercise.wrong_answers:
        try:
            if same(wrong["answer"]):
                found.append(FeedbackItem(WRONG, text=wrong["feedback"]))
        except (Malformed, ValueError, TypeError, RecursionError):  # a listed answer json.loads cannot nest
            continue
    return found


def simple(grader: Callable[[Exercise, str], Grade]) -> Callable[[Exercise, str, GradingInputs], Grade]:
    """``grade`` for a type that needs nothing besides the exercise and the text."""
    return lambda exercise, text, inputs: grader(exercise, text)


def reader(read: Callable[[Exercise, str], Any]) -> Callable[[Exercise, str], Any]:
    """``read`` from a parser that raises Malformed: None instead of the exception."""
    def safe(exercise: Exercise, text: str) -> Any:
        try:
            return read(exercise, text)
        except Malformed:
            return None
    return safe


def ids(entries: list[dict[str, Any]]) -> list[str]:
    """The ``id`` of each entry of a fixture block's list (options, steps, items, categories)."""
    return [entry["id"] for entry in entries]


def duplicate_ids(item: dict[str, Any], *kinds: str) -> list[Fault]:
    """A fault for each of ``kinds`` (lists of the fixture block) whose ids repeat."""
    found = []
    for kind in kinds:
        listed = ids(item.get(kind, []))
        if len(set(listed)) != len(listed):
            found.append(([kind], f"duplicate {kind} ids"))
    return found
