"""Grade an exercise answer: one pure function per exercise type, none per exercise.

Every grader takes the Exercise and the answer *text* (what the page stores and what
``python -m toolcall grade`` receives) and returns a Grade. Answer text per type:

- choice: a JSON list of option ids (``["a", "c"]``) or one id (``"b"`` or ``b``);
- number: a decimal (``0.7``), a fraction (``84/120``) or a percentage (``70%``);
- json: the JSON text itself (a JSON object), graded against the exercise's JSON Schema;
- schema_fix: the edited input_schema as JSON text, graded by running the tool's canned outputs;
- order: a JSON list of every step id, first step first;
- classify: a JSON object mapping each item id to a category id.

A malformed answer earns 0 with feedback saying why; no grader raises for any str.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from toolcall import CONTENT_ROOT
from toolcall.exercises import Exercise
from toolcall.fixtures import FixtureError, OutputsFixture, Tool, load_outputs, load_tool
from toolcall.i18n import LANGS, t
from toolcall.parsing import StrictJSONError, localized_detail, parse_tool_input, strict_loads
from toolcall.judge import evaluate_canned
from toolcall.validation import check_schema, validate

#: Longest answer text graded, in characters; a longer paste is refused with a message.
MAX_ANSWER_CHARS = 100_000

OK, WRONG, INFO, ERROR = "ok", "wrong", "info", "error"


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
        """The feedback in ``lang`` (``en`` or ``zh``)."""
        if self.text is not None:
            return self.text.get(lang) or self.text["en"]
        params = {k: (v.get(lang) or v["en"]) if isinstance(v, dict) else v for k, v in self.params.items()}
        return t(str(self.key), lang, **params)


@dataclass(frozen=True)
class Grade:
    """``score`` out of ``max_score`` (points, ≥ 0) and the feedback explaining it;
    ``malformed`` when the answer could not be read in the type's format at all."""

    score: float
    max_score: float
    feedback: tuple[FeedbackItem, ...] = ()
    malformed: bool = False

    @property
    def correct(self) -> bool:
        """Full marks."""
        return self.max_score > 0 and self.score >= self.max_score

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{score, max_score, correct, malformed, feedback: [{level, en, zh}]}``."""
        return {"score": self.score, "max_score": self.max_score, "correct": self.correct, "malformed": self.malformed,
                "feedback": [{"level": f.level, **{lang: f.render(lang) for lang in LANGS}} for f in self.feedback]}


def _fb(level: str, key: str, **params: Any) -> FeedbackItem:
    return FeedbackItem(level, "exercises.fb." + key, params)


def _both(key: str, **params: Any) -> dict[str, str]:
    return {lang: t(key, lang, **params) for lang in LANGS}


class _Malformed(Exception):
    """The answer text cannot be read in this type's format."""

    def __init__(self, *items: FeedbackItem):
        super().__init__(items[0].key if items else "")
        self.items = items


def _fail(*items: FeedbackItem, max_score: float = 1) -> Grade:
    return Grade(0, max_score, tuple(items), malformed=True)


def _check_size(text: str) -> None:
    if not text.strip():
        raise _Malformed(_fb(ERROR, "empty"))
    if len(text) > MAX_ANSWER_CHARS:
        raise _Malformed(_fb(ERROR, "too_large", size=len(text), limit=MAX_ANSWER_CHARS))


def _json_value(text: str, expected_key: str) -> Any:
    _check_size(text)
    try:
        return strict_loads(text)  # no NaN, no 5000-digit integers, no lone surrogates, no duplicate keys
    except StrictJSONError as exc:
        where = {"line": exc.line or 1, "column": exc.column or 1}
        detail = {lang: localized_detail(exc, lang) for lang in LANGS}
        raise _Malformed(_fb(ERROR, "bad_format", expected=_both(expected_key), detail=detail, **where)) from exc


def _known_wrong(exercise: Exercise, same: Callable[[Any], bool]) -> list[FeedbackItem]:
    """The instructor's feedback for every listed wrong answer that ``same`` recognises."""
    found = []
    for wrong in exercise.wrong_answers:
        try:
            if same(wrong["answer"]):
                found.append(FeedbackItem(WRONG, text=wrong["feedback"]))
        except (_Malformed, ValueError, TypeError):
            continue
    return found


# --- choice ---------------------------------------------------------------------------

def _choice_ids(exercise: Exercise, text: str) -> list[str]:
    stripped = text.strip()
    if re.fullmatch(r"[a-z][a-z0-9_]*", stripped):
        value: Any = [stripped]
    else:
        value = _json_value(text, "exercises.format.choice")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Malformed(_fb(ERROR, "wrong_shape", expected=_both("exercises.format.choice")))
    options = exercise.labels("options")
    unknown = [v for v in value if v not in options]
    if unknown:
        raise _Malformed(*(_fb(ERROR, "unknown_option", option=u[:40]) for u in unknown))
    if not value:
        raise _Malformed(_fb(ERROR, "empty"))
    if not exercise.spec["multiple"] and len(set(value)) != 1:
        raise _Malformed(_fb(ERROR, "single_only"))
    return list(dict.fromkeys(value))


def grade_choice(exercise: Exercise, text: str) -> Grade:
    """Single or multiple choice: full marks (1) for exactly the correct set of options.
    Feedback explains every chosen option and counts the correct ones left out."""
    try:
        chosen = _choice_ids(exercise, text)
    except _Malformed as exc:
        return _fail(*exc.items)
    right = set(exercise.answer)
    opts = {o["id"]: o for o in exercise.spec["options"]}
    items = []
    for oid in chosen:
        level = OK if oid in right else WRONG
        note = opts[oid].get("explanation")
        items.append(_fb(level, "option_right" if level == OK else "option_wrong", option=opts[oid]["text"])
                     if note is None else
                     _fb(level, "option_note_right" if level == OK else "option_note_wrong",
                         option=opts[oid]["text"], note=note))
    missed = len(right - set(chosen))
    if missed and exercise.spec["multiple"]:
        items.append(_fb(INFO, "missed", count=missed))
    correct = set(chosen) == right
    items = _known_wrong(exercise, lambda a: set(_choice_ids(exercise, json.dumps(a))) == set(chosen)) + items
    return Grade(1 if correct else 0, 1, tuple(items))


# --- number -----------------------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def parse_number(text: str) -> float:
    """Read ``0.7``, ``.7``, ``7e-1``, ``84/120`` or ``70%`` as a float.
    Raises ValueError for anything else, including a zero denominator, NaN and infinity."""
    s = text.strip().replace("％", "%")
    if len(s) > 200:
        raise ValueError(text[:40])
    if s.endswith("%") and _NUMBER.fullmatch(s[:-1].strip()):
        value = float(s[:-1]) / 100
    elif "/" in s:
        top, _, bottom = s.partition("/")
        if not (_NUMBER.fullmatch(top.strip()) and _NUMBER.fullmatch(bottom.strip())) or float(bottom) == 0:
            raise ValueError(text)
        value = float(top) / float(bottom)
    elif _NUMBER.fullmatch(s):
        value = float(s)
    else:
        raise ValueError(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _number(text: str) -> float:
    _check_size(text)
    try:
        return parse_number(text)
    except ValueError:
        raise _Malformed(_fb(ERROR, "not_number", text=text.strip()[:40])) from None


def grade_number(exercise: Exercise, text: str) -> Grade:
    """Full marks (1) within ``tolerance`` (absolute) of the reference; a listed wrong answer
    within the same tolerance gets its targeted feedback."""
    try:
        value = _number(text)
    except _Malformed as exc:
        return _fail(*exc.items)
    tol = float(exercise.spec["tolerance"])
    if abs(value - float(exercise.answer)) <= tol + 1e-12:
        return Grade(1, 1, (_fb(OK, "correct"),))
    known = _known_wrong(exercise, lambda a: abs(float(a) - value) <= tol + 1e-12)
    return Grade(0, 1, tuple(known or [_fb(WRONG, "number_off", value=f"{value:g}")]))


# --- json -------------------------------------------------------------------------------

def _json_object(text: str) -> dict[str, Any]:
    _check_size(text)
    parsed = parse_tool_input(text)
    if parsed.ok:
        return parsed.value
    items = [FeedbackItem(ERROR, text={lang: t("exercises.fb.json_parse", lang, code=parsed.code,
                                               detail=localized_detail(parsed, lang)[:200]) for lang in LANGS})]
    if parsed.line is not None:
        items.append(_fb(ERROR, "json_position", line=parsed.line, column=parsed.column))
    items += [FeedbackItem(INFO, "hint." + h.key, dict(h.params)) for h in parsed.hints]
    raise _Malformed(*items)


def grade_json(exercise: Exercise, text: str) -> Grade:
    """The answer must be a JSON object satisfying the exercise's ``schema``; full marks (1)
    when it does. Otherwise each failing path is one feedback item (pointer, expected,
    received), from ``validation.validate`` so students read the playground's wording."""
    try:
        value = _json_object(text)
    except _Malformed as exc:
        return _fail(*exc.items)
    errors = {lang: validate(value, exercise.spec["schema"], lang)[0] for lang in LANGS}
    known = _known_wrong(exercise, lambda a: _json_object(a if isinstance(a, str) else json.dumps(a)) == value)
    if not errors["en"]:
        return Grade(1, 1, (_fb(OK, "json_ok"),))
    items = [FeedbackItem(WRONG, text={lang: t("exercises.fb.json_field", lang, pointer=errs[i].pointer or "/",
                                                expected=errs[i].expected, received=errs[i].received)
                                       for lang, errs in errors.items()})
             for i in range(len(errors["en"]))]
    return Grade(0, 1, tuple(known + items))


# --- schema_fix -------------------------------------------------------------------------

def grade_schema_fix(exercise: Exercise, text: str, tool: Tool, outputs: OutputsFixture) -> Grade:
    """The answer is an edited input_schema for ``tool``. Each canned output scores 1 when
    the schema gives it its expected verdict (bad ones rejected, the valid one accepted),
    exactly as the playground judges it (``playground.evaluate_canned``)."""
    total = len(outputs.outputs)
    try:
        _check_size(text)
    except _Malformed as exc:
        return _fail(*exc.items, max_score=total)
    checks = {lang: check_schema(text, lang) for lang in LANGS}
    if not checks["en"].ok:
        return _fail(FeedbackItem(ERROR, text={lang: c.message for lang, c in checks.items()}), max_score=total)
    cards = evaluate_canned(outputs.outputs, checks["en"].schema, tool.name, None)
    items = []
    for card in cards:
        if card.leaked:
            items.append(_fb(WRONG, "leaked", label=card.output.label))
        elif not card.matches:
            items.append(_fb(WRONG, "overrejected", label=card.output.label))
    matched = sum(c.matches for c in cards)
    items.insert(0, _fb(OK if matched == total else INFO, "canned_count", matched=matched, total=total))
    if matched < total:
        schema = checks["en"].schema
        items += _known_wrong(exercise, lambda a: (a if isinstance(a, dict) else json.loads(a)) == schema)
    return Grade(matched, total, tuple(items))


# --- order ------------------------------------------------------------------------------

def _id_list(exercise: Exercise, text: str) -> list[str]:
    value = _json_value(text, "exercises.format.order")
    steps = exercise.labels("steps")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Malformed(_fb(ERROR, "wrong_shape", expected=_both("exercises.format.order")))
    if sorted(value) != sorted(steps):
        raise _Malformed(_fb(ERROR, "not_permutation", count=len(steps)))
    return value


def grade_order(exercise: Exercise, text: str) -> Grade:
    """One point per step in its reference position (max = number of steps)."""
    try:
        chosen = _id_list(exercise, text)
    except _Malformed as exc:
        return _fail(*exc.items)
    steps = exercise.labels("steps")
    right = sum(a == b for a, b in zip(chosen, exercise.answer))
    items = [_fb(OK if right == len(steps) else INFO, "order_count", right=right, total=len(steps))]
    items += [_fb(WRONG, "order_misplaced", position=i + 1, step=steps[a])
              for i, (a, b) in enumerate(zip(chosen, exercise.answer)) if a != b]
    items = _known_wrong(exercise, lambda a: list(a) == chosen) + items
    return Grade(right, len(steps), tuple(items))


# --- classify ---------------------------------------------------------------------------

def _mapping(exercise: Exercise, text: str) -> dict[str, str]:
    value = _json_value(text, "exercises.format.classify")
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _Malformed(_fb(ERROR, "wrong_shape", expected=_both("exercises.format.classify")))
    items, cats = exercise.labels("items"), exercise.labels("categories")
    problems = [_fb(ERROR, "unknown_item", item=k[:40]) for k in value if k not in items]
    problems += [_fb(ERROR, "unknown_category", category=v[:40]) for v in value.values() if v not in cats]
    problems += [_fb(ERROR, "unsorted", item=items[k]) for k in items if k not in value]
    if problems:
        raise _Malformed(*problems)
    return value


def grade_classify(exercise: Exercise, text: str) -> Grade:
    """One point per item sorted into its reference category (max = number of items);
    each wrong item gets its own explanation when the file gives one."""
    try:
        chosen = _mapping(exercise, text)
    except _Malformed as exc:
        return _fail(*exc.items)
    items = {i["id"]: i for i in exercise.spec["items"]}
    cats = exercise.labels("categories")
    right = sum(chosen[k] == v for k, v in exercise.answer.items())
    out = [_fb(OK if right == len(items) else INFO, "classify_count", right=right, total=len(items))]
    for key, want in exercise.answer.items():
        if chosen[key] != want:
            out.append(_fb(WRONG, "classify_wrong", item=items[key]["text"], category=cats[chosen[key]]))
            if "explanation" in items[key]:
                out.append(FeedbackItem(INFO, text=items[key]["explanation"]))
    out = _known_wrong(exercise, lambda a: dict(a) == chosen) + out
    return Grade(right, len(items), tuple(out))


# --- the exercise-type registry --------------------------------------------------------

@dataclass(frozen=True)
class GradingInputs:
    """What a grader may need besides the exercise and the answer: the tool and its canned outputs
    (schema_fix). Read them with :func:`grading_inputs`; graders never read files."""

    tool: Tool | None = None
    outputs: OutputsFixture | None = None


def _text_as_is(exercise: Exercise, value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2)


def _number_text(exercise: Exercise, value: Any) -> str:
    return value if isinstance(value, str) else repr(float(value))


def _json_text(exercise: Exercise, value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _reader(read: Callable[[Exercise, str], Any]) -> Callable[[Exercise, str], Any]:
    def safe(exercise: Exercise, text: str) -> Any:
        try:
            return read(exercise, text)
        except _Malformed:
            return None
    return safe


@dataclass(frozen=True)
class ExerciseType:
    """One exercise type, all in one object (its widgets are ui.exercise_inputs.INPUTS[name]).

    ``grade(exercise, text, inputs)`` is pure (``inputs``: :class:`GradingInputs`); ``write(exercise,
    value)`` turns a value written as data (a reference or wrong answer in a file) into answer text;
    ``read(exercise, text)`` turns stored answer text back into what the widgets hold, or None.
    ``needs_tool``: grading needs the tool named by the fixture block's ``tool`` and its outputs.
    Adding a type: its graders here (or in a new module) + one entry in :data:`EXERCISE_TYPES`
    + its fixture-schema branch + its widgets in ui/exercise_inputs.py + tests."""

    name: str
    grade: Callable[[Exercise, str, GradingInputs], Grade]
    write: Callable[[Exercise, Any], str]
    read: Callable[[Exercise, str], Any]
    needs_tool: bool = False


def _schema_fix(exercise: Exercise, text: str, inputs: GradingInputs) -> Grade:
    if inputs.tool is None or inputs.outputs is None:
        raise ValueError(f"{exercise.id}: schema_fix needs the tool and its outputs (grading_inputs)")
    return grade_schema_fix(exercise, text, inputs.tool, inputs.outputs)


def _simple(grader: Callable[[Exercise, str], Grade]) -> Callable[[Exercise, str, GradingInputs], Grade]:
    return lambda exercise, text, inputs: grader(exercise, text)


def _as_text(exercise: Exercise, text: str) -> str:
    return text


#: Every exercise type by name (the ``type`` of an exercise file's entry).
EXERCISE_TYPES: dict[str, ExerciseType] = {t.name: t for t in (
    ExerciseType("choice", _simple(grade_choice), _json_text, _reader(_choice_ids)),
    ExerciseType("number", _simple(grade_number), _number_text, _as_text),
    ExerciseType("json", _simple(grade_json), _text_as_is, _as_text),
    ExerciseType("schema_fix", _schema_fix, _text_as_is, _as_text, needs_tool=True),
    ExerciseType("order", _simple(grade_order), _json_text, _reader(_id_list)),
    ExerciseType("classify", _simple(grade_classify), _json_text, _reader(_mapping)),
)}


def answer_text(exercise: Exercise, value: Any) -> str:
    """The answer text for ``value`` written as data (a reference or wrong answer in a file):
    strings pass through for json/schema_fix/number, everything else becomes JSON."""
    return EXERCISE_TYPES[exercise.type].write(exercise, value)


def grading_inputs(exercise: Exercise, root: Path = CONTENT_ROOT) -> GradingInputs:
    """Read what grading ``exercise`` needs from ``root``/fixtures (tools/<tool>.json,
    outputs/<tool>.yaml for schema_fix; nothing for the other types). Raises FixtureError if
    those files are broken."""
    if not EXERCISE_TYPES[exercise.type].needs_tool:
        return GradingInputs()
    name = exercise.spec["tool"]
    return GradingInputs(load_tool(Path(root) / "fixtures" / "tools" / f"{name}.json"),
                         load_outputs(Path(root) / "fixtures" / "outputs" / f"{name}.yaml"))


def grade(exercise: Exercise, text: str, inputs: GradingInputs = GradingInputs()) -> Grade:
    """Grade ``text`` with the grader for the exercise's type. Pure: what the grader needs besides
    the answer comes in ``inputs`` (:func:`grading_inputs`); ValueError when a schema_fix exercise
    is graded without its tool and outputs."""
    return EXERCISE_TYPES[exercise.type].grade(exercise, text, inputs)


def answer_value(exercise: Exercise, text: str) -> Any:
    """Read stored answer text back into what the page's widgets hold, or None when it
    cannot be read: choice → list of option ids, order → list of step ids, classify →
    ``{item: category}``, number / json / schema_fix → the text itself. Never raises."""
    return EXERCISE_TYPES[exercise.type].read(exercise, text)


def max_scores(exercises, inputs: Callable[[Exercise], GradingInputs]) -> dict[str, float]:
    """Points each exercise is worth: the max_score its reference answer earns. ``inputs(exercise)``
    gives what grading needs; an exercise whose inputs raise FixtureError is left out (the page that
    uses the broken file reports it)."""
    table = {}
    for ex in exercises:
        try:
            table[ex.id] = grade(ex, answer_text(ex, ex.answer), inputs(ex)).max_score
        except FixtureError:
            continue
    return table


def totals(exercises, records: dict[str, Any]) -> tuple[int, float, float]:
    """``(solved, score, points)`` over ``exercises`` for one learner's ``records`` (progress
    records by exercise id): how many are solved, the sum of best scores, and the points of the
    exercises tried at least once."""
    tried = [records[ex.id] for ex in exercises if ex.id in records]
    return (sum(1 for r in tried if r.solved), sum(r.best_score for r in tried),
            sum(r.max_score for r in tried if r.tries))
