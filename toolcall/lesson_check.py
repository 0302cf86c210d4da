"""Check lessons: same files in every language, valid front matter, every quoted figure right.

``check_lessons`` is one of ``toolcall.check.CHECKERS``. A figure's ``source`` is a call
such as ``pass_hat_k(n=10, c=9, k=3)`` or ``tool_result_content(output="wrong_type")``;
it is parsed (never evaluated) and computed here, by the pass^k arithmetic in
``toolcall.lessons`` or by the playground core over the content root's own fixtures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from toolcall.backend import backend_for
from toolcall.fixtures import (FixtureError, Problem, json_path, load_orders, load_outputs, load_tool,
                               same_title_problems, shared_orders)
from toolcall.i18n import LANGS
from toolcall.lessons import PASSK_FIGURES, Lesson, lesson_files, load_lessons, parse_source, quoted_in, value_problem
from toolcall.judge import evaluate
from toolcall.markdown_hazards import dead_links, markdown_hazards, quoted_source, source_problems, structure
from toolcall.results import call_id
from toolcall.text import quoted_head


def _canned_card(root: Path, lang: str, output: str, fmt: str = "anthropic"):
    """The card the app builds for canned output (or business case) ``output`` under the
    reference schema, with the fake backend: exactly what ``python -m toolcall result`` prints."""
    fixture = load_outputs(root / "fixtures" / "outputs" / "refund_order.yaml")
    tool = load_tool(root / "fixtures" / "tools" / f"{fixture.tool}.json")
    book = load_orders(root / "fixtures" / "orders" / "orders.yaml")
    raws = {o.id: o.raw for o in fixture.outputs} | {b.id: b.raw for b in fixture.business_cases}
    if output not in raws:
        raise ValueError(f"no canned output or business case {output!r}")
    return evaluate(raws[output], tool.input_schema, tool.name, lang, fmt, call_id(output, fmt),
                    backend_for(tool.name, book))


def _tool_result_content(root: Path, lang: str, output: str, format: str = "anthropic") -> str:
    return _sent_content(_canned_card(root, lang, output, format), output)


def _sent_content(card, output: str) -> str:
    """The content of the tool_result ``card`` sends back. ValueError, reported at the lesson's figure, when it sends
    none: a tool file whose name is no fake backend's (``refund_order.json`` renamed ``x`` inside) ended check in
    ``KeyError: 'content'`` (break-it pass brk19new)."""
    content = (card.tool_result or {}).get("content")
    if content is None:
        from toolcall.backend import BACKENDS

        raise ValueError(f"canned output {quoted_head(output, 80)} gets no tool_result content: the tool of "
                         "fixtures/outputs/refund_order.yaml has no fake backend (the \"name\" in its file is none of "
                         f"{', '.join(BACKENDS)})")
    return content


#: parse_error's ``field`` -> the member of the INVALID_JSON content the app sends back.
_PARSE_ERROR_FIELDS = {"code": "error", "detail": "detail", "line": "line", "column": "column", "pos": "position"}


def _parse_error(root: Path, lang: str, output: str, field: str) -> str | int:
    """A field of the parse error exactly as the app prints it: read back from the
    INVALID_JSON tool_result content (so in ``lang``, as translated), never from the
    parser's internal message, which the app no longer shows."""
    card = _canned_card(root, lang, output)
    if card.parse is None or card.parse.ok or field not in _PARSE_ERROR_FIELDS:
        raise ValueError(f"{output!r} has no parse error field {field!r}; fields: {sorted(_PARSE_ERROR_FIELDS)}")
    printed = json.loads(_sent_content(card, output))
    return printed[_PARSE_ERROR_FIELDS[field]]


def _tool_description(root: Path, lang: str, tool: str) -> str:
    """The tool's description as the app shows it in ``lang`` (fixtures/tools/<tool>.json). ValueError, reported at
    the lesson's figure, for a name that is no tool file there: it was reported as ``fixtures/tools/<name>.json:
    $: cannot read file: no such file``, a file the instructor never touched, with no word of the lesson."""
    known = sorted(path.stem for path in (root / "fixtures" / "tools").glob("*.json"))
    if tool not in known:
        raise ValueError(f"no tool {tool!r}: fixtures/tools/ holds {known}")
    return load_tool(root / "fixtures" / "tools" / f"{tool}.json").description_for(lang)


#: Figures computed by the playground core, in the lesson's language: name -> f(root, lang, **kwargs).
PLAYGROUND_FIGURES = {"tool_result_content": _tool_result_content, "parse_error": _parse_error,
                      "tool_description": _tool_description}


def _compute_figure(source: str, root: Path, lang: str):
    name, kwargs = parse_source(source)
    if name in PLAYGROUND_FIGURES:
        return PLAYGROUND_FIGURES[name](root, lang, **kwargs)
    if name in PASSK_FIGURES:
        return PASSK_FIGURES[name](**kwargs)
    raise ValueError(f"unknown figure function {name!r}; known: {sorted(PLAYGROUND_FIGURES | PASSK_FIGURES)}")


def _figure_problems(lesson: Lesson, root: Path) -> list[Problem]:
    problems = []
    for i, figure in enumerate(lesson.figures):
        where = json_path(["figures", i])
        try:
            computed = _compute_figure(figure.source, root, lesson.lang)
            wrong = value_problem(figure.value, computed)
        except FixtureError as exc:  # the fixture's own problem, at its root (run_checks reports it once)
            problems += exc.problems
            continue
        except (ValueError, TypeError, ArithmeticError) as exc:
            problems.append(Problem(lesson.file, where + ".source", f"{figure.source}: {exc}"))
            continue
        if wrong:
            problems.append(Problem(lesson.file, where + ".value", f"{figure.value!r} is wrong: {wrong}"))
        elif not quoted_in(figure.value, lesson.body):
            problems.append(Problem(lesson.file, where + ".value", f"{figure.value!r} does not appear in the lesson"))
    return problems


def _link_problems(lesson: Lesson) -> list[Problem]:
    """A Problem for each link or image target in the body that is no web address, and each front matter source
    that would not open the page it names (toolcall.markdown_hazards: dead_links, source_problems)."""
    return [Problem(lesson.file, "$.body", found) for found in dead_links(lesson.body)] \
        + [Problem(lesson.file, f"$.sources[{i}]", f"{quoted_source(source)} {found}")
           for i, source in enumerate(lesson.sources) for found in source_problems(source)]


_LINE = re.compile(r"^line \d+: ")
#: A lesson's body is shown under its title, a level-2 heading (``st.header`` on the lessons page; an expander's
#: label above the page it belongs to): a ``#`` or ``##`` in the body is drawn as large, and the lesson reads as
#: several.
LESSON_TITLE = (2, "the lesson's title")


def _markdown_problems(lesson: Lesson) -> list[Problem]:
    """A Problem for each place Streamlit renders otherwise than written (toolcall.markdown_hazards): in the body
    (lines of the file) and in the title and summary (an expander's label and a caption are Markdown too)."""
    problems = [Problem(lesson.file, "$.body", found)
                for found in markdown_hazards(lesson.body, lesson.body_line, outranks=LESSON_TITLE)]
    for key in ("title", "summary"):
        problems += [Problem(lesson.file, f"$.{key}", _LINE.sub("", found))
                     for found in markdown_hazards(getattr(lesson, key))]
    return problems


def _listable(folder: Path) -> bool:
    """Whether ``folder`` is missing or can be listed: a ``lessons/<lang>`` this program may not list had each
    lesson of the other language called "missing: … has no <lang> version" (break-it pass brk16cli)."""
    from toolcall.files import ReadError, check_listable

    try:
        if folder.is_dir():
            check_listable(folder)
    except ReadError:
        return False
    return True


def check_lessons(root: Path) -> list[Problem]:
    """Every lesson exists in every language under the same file name, with valid front matter
    (title, summary, a known page, order), the same page and order in each language, and
    every quoted figure equal to what the app or the pass^k arithmetic computes and present
    in the text. A root without a lessons/ folder has nothing to check."""
    if not (root / "lessons").is_dir():
        return []
    problems: list[Problem] = []
    names = {lang: {p.name for p in lesson_files(lang, root)} for lang in LANGS}
    every = set().union(*names.values())
    for lang in LANGS:
        if not _listable(root / "lessons" / lang):  # named by check.content_folder_problems; its files are unknown
            continue
        for name in sorted(every - names[lang]):
            other = next(code for code in LANGS if name in names[code])
            problems.append(Problem(f"lessons/{lang}/{name}", "$",
                                    f"missing: lessons/{other}/{name} has no {lang} version"))
    sets = {lang: load_lessons(lang, root) for lang in LANGS}
    first = {lesson.name: lesson for lesson in sets[LANGS[0]].lessons}
    problems += shared_orders(sets[LANGS[0]].lessons)  # sorted by (order, name); the others' orders must agree
    for lang in LANGS:
        problems += sets[lang].problems
        problems += same_title_problems([(lesson.file, ["title"], lesson.title) for lesson in sets[lang].lessons],
                                        "the lessons' table of contents")
        for lesson in sets[lang].lessons:
            problems += _figure_problems(lesson, root) + _link_problems(lesson) + _markdown_problems(lesson)
            twin = first.get(lesson.name)
            if twin is None or twin is lesson:
                continue
            for key in ("page", "order"):
                if getattr(lesson, key) != getattr(twin, key):
                    problems.append(Problem(lesson.file, f"$.{key}", f"{getattr(lesson, key)!r} differs from "
                                                                      f"{getattr(twin, key)!r} in {twin.file}"))
            ours, theirs = structure(lesson.body), structure(twin.body)
            problems += [Problem(lesson.file, "$.body", f"its {part} {ours[part]} differ from {theirs[part]} in "
                                                        f"{twin.file}: a translation keeps every code block, heading "
                                                        "and table")
                         for part in ours if ours[part] != theirs[part]]
    return problems
