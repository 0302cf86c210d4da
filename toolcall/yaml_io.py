"""YAML read with LibYAML's safe loader when PyYAML was built with it (the wheels are), else PyYAML's own.

``yaml.safe_load`` always runs the pure-Python parser: ≈ 6.6× slower on this project's fixtures, locale
and lesson files (0.61 s against 0.09 s of CPU for all 57 on a loaded machine), and the first page of a
server reads the locale catalogue, the exercises, the outputs and the lessons (bench/README.md, section H).
``CSafeLoader`` builds the same Python values with the same safe constructors (no tags that build
objects); tests/unit/test_yaml_io.py checks every YAML file of the repository gives the same data both ways.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

#: The loader used: LibYAML's when available.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: Most nodes a document may have once its aliases are expanded. An alias is one reference in memory, but
#: every reader downstream (the schema check, json.dumps, a table) walks it as a copy: nine lines of
#: ``&x [*w, *w, …]`` expand to 9⁹ nodes and kept ``eval --selection`` busy past any limit. The largest file
#: of this repository has a few thousand nodes.
MAX_EXPANDED_NODES = 1_000_000
#: Most characters of scalars (keys and values) a document may have once its aliases are expanded. Counting nodes
#: alone let one 200 000-character string, aliased 100 × 100 times, through as 10 101 nodes: 2 × 10⁹ characters
#: that `check` copied into 7.9 GB of memory in 40 s and went on (issue 13, break-it pass brk12cli). Four times the
#: largest file read (toolcall.files.MAX_FILE_CHARS); this repository's largest YAML file (the English catalogue)
#: has 31 000.
MAX_EXPANDED_CHARS = 8_000_000
#: Deepest nesting of lists and mappings a document may have (the input cap of toolcall.parsing.MAX_DEPTH; the
#: deepest file of this repository nests 10). Deeper, every reader downstream (the schema check, json.dumps, the
#: pure-Python parser LibYAML's refusals fall back to) recurses past Python's limit: a RecursionError, not a line.
MAX_DEPTH = 64


class AliasBomb(yaml.YAMLError):
    """A document that is too large once its aliases are expanded, or that contains itself.
    ``problem`` says which; ``problem_mark`` is the node that crossed the limit (yaml's own Mark); ``path`` its JSON
    path (where it is first reached)."""

    def __init__(self, problem: str, mark: Any = None, path: str = "$"):
        super().__init__(problem)
        self.problem, self.problem_mark, self.path = problem, mark, path


class Refused(yaml.YAMLError):
    """A document nested deeper than MAX_DEPTH, a mapping with a key written twice, or a value YAML's constructors
    cannot build (a date that does not exist, an integer of more than 4300 digits). ``problem`` says which;
    ``problem_mark`` where (yaml's Mark); ``path`` the JSON path of the place when known (else ``$``)."""

    def __init__(self, problem: str, mark: Any = None, path: str = "$"):
        super().__init__(problem)
        self.problem, self.problem_mark, self.path = problem, mark, path

    def __str__(self) -> str:
        return self.problem


class NotJson(Refused):
    """A value YAML builds that a JSON document cannot hold, in a file read as JSON-shaped data (safe_load's
    ``json_only``): a date, bytes, a set, a list of pairs, a key that is not text, or a number YAML 1.1 reads in
    another base than the author likely meant (``012`` is 10). ``problem`` says what was written, what YAML made
    of it and what to write."""


def _expanded_nodes(root: yaml.Node) -> int:
    """Nodes of ``root`` counting each alias as a full copy (sizes, characters and depths memoized per node, so
    linear in the document); raises AliasBomb past MAX_EXPANDED_NODES nodes or MAX_EXPANDED_CHARS characters of
    scalars, or when a node contains itself, Refused when lists and mappings nest deeper than MAX_DEPTH; each with
    the JSON path where the node is first reached."""
    size: dict[int, int] = {}
    chars: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool, str]] = [(root, False, "$")]
    while stack:
        node, done, path = stack.pop()
        key = id(node)
        if done:
            children = [c for c, _ in _steps(node, path)]
            total = 1 + sum(size[id(c)] for c in children)
            if total > MAX_EXPANDED_NODES:
                raise AliasBomb(f"more than {MAX_EXPANDED_NODES} values once its aliases (*name) are expanded",
                                node.start_mark, path)
            text = len(node.value) if isinstance(node, yaml.ScalarNode) else sum(chars[id(c)] for c in children)
            if text > MAX_EXPANDED_CHARS:
                raise AliasBomb(f"more than {MAX_EXPANDED_CHARS} characters once its aliases (*name) are expanded",
                                node.start_mark, path)
            size[key], chars[key] = total, text
            nested = (depth[id(c)] for c in children)
            depth[key] = 0 if isinstance(node, yaml.ScalarNode) else 1 + max(nested, default=0)
            if depth[key] > MAX_DEPTH:
                raise Refused(f"nested more than {MAX_DEPTH} levels deep (lists and mappings)", node.start_mark, path)
            open_nodes.discard(key)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise AliasBomb("an anchor (&name) is used inside itself: the value would be infinite", node.start_mark,
                            path)
        open_nodes.add(key)
        stack.append((node, True, path))
        stack.extend((c, False, step) for c, step in reversed(_steps(node, path)) if id(c) not in size)
    return size[id(root)]


def _steps(node: yaml.Node, path: str) -> list[tuple[yaml.Node, str]]:
    """The children of ``node`` (a list's items, a mapping's keys and values) with their JSON paths (a mapping's
    key at the path of its value)."""
    if isinstance(node, yaml.SequenceNode):
        return [(item, _step(path, i)) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        return [(part, _step(path, k) if isinstance(k, yaml.ScalarNode) else path)
                for k, v in node.value for part in (k, v)]
    return []


_MERGE = "tag:yaml.org,2002:merge"


def _step(path: str, key: yaml.Node | int) -> str:
    """``path`` one level down: ``[i]`` for a list index, ``.key`` for a key (as toolcall.fixtures.json_path)."""
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key.value}"


def _key_value(key: yaml.ScalarNode, constructor: yaml.constructor.SafeConstructor) -> Any:
    """The Python value a scalar mapping key becomes (``0x1`` -> 1, ``yes`` -> True, ``~`` -> None), or its tag
    and text when it cannot be built or hashed (the constructor then says why)."""
    try:
        value = constructor.construct_object(key)
        hash(value)
        return value
    except Exception:
        return (key.tag, key.value)


def duplicate_key(root: yaml.Node) -> tuple[str, str, Any, str] | None:
    """The first mapping key written twice in the same mapping, as ``(JSON path of that key, key, the second
    key's Mark, the first key's text)``, or None. YAML's constructors keep the last value without a word (an
    instructor's second ``expected:`` silently replaced the first); a ``<<`` merge may be overridden, as YAML
    intends. Keys compare by the value they become, as the Python mapping built from them does: ``id`` and
    ``"id"``, and also ``1``, ``0x1``, ``1.0`` and ``true``, ``yes`` and ``on``, ``~`` and ``null``, are one key
    (compared by tag and text, ``{1: a, 0x1: b}`` passed and kept ``b`` alone). Each node is visited once
    (aliases are not walked again)."""
    seen: set[int] = set()
    constructor = yaml.constructor.SafeConstructor()
    stack: list[tuple[yaml.Node, str]] = [(root, "$")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: dict[Any, str] = {}
            for key, value in node.value:
                if key.tag == _MERGE or not isinstance(key, yaml.ScalarNode):
                    continue
                built = _key_value(key, constructor)
                if built in keys:
                    return _step(path, key), str(key.value), key.start_mark, keys[built]
                keys[built] = str(key.value)
                stack.append((value, _step(path, key)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, _step(path, i)) for i, item in enumerate(node.value))
    return None


#: Tags whose values JSON has no type for (PyYAML's safe constructors build them), with what they build and what to
#: write instead. A scenario's ``input: {order_id: 2026-09-17}`` passed check (its schema says only "object") and the
#: harness page failed in class with "Object of type date is not JSON serializable" (break-it pass brk14content).
_NOT_JSON_TAGS = {"tag:yaml.org,2002:timestamp": ("a date", "it in quotes"),
                  "tag:yaml.org,2002:binary": ("bytes", "the text itself"),
                  "tag:yaml.org,2002:set": ("a set", "a list"),
                  "tag:yaml.org,2002:omap": ("a list of pairs", "a mapping"),
                  "tag:yaml.org,2002:pairs": ("a list of pairs", "a mapping")}
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_NUMBERS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
#: A plain integer YAML 1.1 reads in base 8 (``012`` is 10; ``0o12`` is YAML 1.2's spelling and text to PyYAML).
_OCTAL = re.compile(r"[-+]?0[0-7_]+")  # plain style: "" from LibYAML, None from PyYAML


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "…"


def not_json(root: yaml.Node, text: str = "") -> tuple[str, Any, str] | None:
    """The first place of a composed document (document order, each node once) that a JSON document cannot hold
    as written, as ``(JSON path, yaml Mark, problem)``, or None: a value tagged, implicitly or not, as a date,
    ``!!binary``, ``!!set``, ``!!omap`` or ``!!pairs`` (JSON has no such type: a page's ``json.dumps`` failed on
    it at class time); a mapping key YAML reads as something else than text (``no: x`` is the key false, ``1: x``
    the number 1: a JSON key is text); a plain number YAML 1.1 reads in base 8 or 60 (``paid_cents: 0100`` is 64,
    ``order: 010`` is 8, ``1:30`` is 90), which passed every schema with a value its author never wrote (``01`` …
    ``07`` are what they read, and pass); with the document's ``text``, an empty value followed on its line by a
    comment (``en: #1 The model …``: a ``#`` after a space starts a comment, and the text was read as null)."""
    constructor = yaml.constructor.SafeConstructor()
    lines = text.split("\n") if text else []
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, str, bool]] = [(root, "$", False)]
    while stack:
        node, path, is_key = stack.pop()
        if is_key:
            value = _key_value(node, constructor)
            read = "null" if value is None else f"the boolean {str(value).lower()}" if isinstance(value, bool) \
                else f"the number {value}" if isinstance(value, (int, float)) else "something else"
            if node.tag in _NOT_JSON_TAGS:
                read = _NOT_JSON_TAGS[node.tag][0]
            return path, node.start_mark, (f"YAML reads the key {_shown(node.value)} as {read}, not as text, and a "
                                           f"JSON key is text: write it in quotes, \"{_shown(node.value)}\"")
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag in _NOT_JSON_TAGS:
            built, instead = _NOT_JSON_TAGS[node.tag]
            date = node.tag.endswith("timestamp")  # the one YAML reads without a tag written
            written = _shown(node.value) if date else f"!!{node.tag.rsplit(':', 1)[-1]}"
            quoted = f', "{_shown(node.value)}"' if date else ""
            return path, node.start_mark, (f"YAML reads {written} as {built}, which JSON has no type for (a page "
                                           f"would fail on it): write {instead}{quoted}")
        if isinstance(node, yaml.ScalarNode):
            mark = node.start_mark
            if node.tag == _NULL and node.value == "" and not node.style and mark.line < len(lines) \
                    and (rest := lines[mark.line][mark.column:].strip()).startswith("#"):
                return path, mark, (f"the value is empty: YAML reads {_shown(rest)!r} as a comment (a # after a space "
                                    "starts one); put the text in quotes, or write null for no value")
            if node.tag in _NUMBERS and not node.style and (":" in node.value or _OCTAL.fullmatch(node.value)):
                value = _key_value(node, constructor)
                if ":" not in node.value and value == int(node.value.replace("_", ""), 10):
                    continue  # 01 … 07 (an order written as its file's 01-): the value is what it reads
                base = "a base-60 number" if ":" in node.value else "an octal number"
                return path, node.start_mark, (f"YAML 1.1 reads {_shown(node.value)} as {base}, {value}: write "
                                               f"{value} for that number, or \"{_shown(node.value)}\" in quotes "
                                               "for text")
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                at = _step(path, key) if isinstance(key, yaml.ScalarNode) else path
                stack.append((value, at, False))
                if isinstance(key, yaml.ScalarNode) and key.tag not in (_STR, _MERGE):
                    stack.append((key, at, True))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, _step(path, i), False) for i, item in reversed(list(enumerate(node.value))))
    return None


def _load(text: str, loader_class: Any, json_only: bool = False) -> Any:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_nodes(node)
        if (twice := duplicate_key(node)) is not None:
            where, key, mark, first = twice
            written = "written twice" if key == first else f"written twice ({first!r} and {key!r} are the same key)"
            raise Refused(f"the key {key!r} is {written} in this mapping: YAML would keep only the last one",
                          mark, where)
        try:
            data = loader.construct_document(node)
        except yaml.YAMLError:
            raise
        except MemoryError:
            raise
        except Exception as exc:  # a constructor's own failure (ValueError, KeyError …), not a YAMLError
            raise Refused(_refusal(exc), getattr(exc, "_yaml_mark", None)) from None
        if json_only and (place := not_json(node, text)) is not None:
            raise NotJson(place[2], place[1], place[0])
        return data
    finally:
        loader.dispose()


def python_reason(exc: Exception) -> str:
    """What ``exc`` says, without Python's advice to the programmer (``int()`` past 4300 digits ends "; use
    sys.set_int_max_str_digits() to increase the limit", which an instructor cannot act on)."""
    return str(exc).split("; use sys.set_int_max_str_digits()")[0]


def _refusal(exc: Exception) -> str:
    """The problem for a constructor's exception: the tag and the scalar (cut to 40 characters), and what a
    ValueError says without Python's advice to the programmer (``int()`` ends "use
    sys.set_int_max_str_digits() to increase the limit"); another exception's words (``'NoneType' object has no
    attribute 'groupdict'``) would only confuse: ``not a valid timestamp: '2024-02-30' (day is out of range for
    month)``."""
    tag = str(getattr(exc, "_yaml_tag", "") or "").rsplit(":", 1)[-1] or "value"
    value = getattr(exc, "_yaml_value", None)
    shown = f" {value if len(value) <= 40 else value[:40] + '…'!r}" if isinstance(value, str) else ""
    reason = python_reason(exc) if isinstance(exc, ValueError) else ""
    return f"not a valid {tag}:{shown}" + (f" ({reason})" if reason else "")


class _Marked:
    """A loader mixin: an exception raised while one node is built carries that node's tag and start mark, so
    the refusal says what and where (``2024-02-30`` on line 4: not a valid timestamp)."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)  # type: ignore[misc]
        except yaml.YAMLError:
            raise
        except Exception as exc:
            if getattr(exc, "_yaml_mark", None) is None:
                exc._yaml_mark, exc._yaml_tag = node.start_mark, node.tag  # type: ignore[attr-defined]
                exc._yaml_value = node.value if isinstance(node, yaml.ScalarNode) else None  # type: ignore
            raise


class _FastLoader(_Marked, SafeLoader):  # type: ignore[misc, valid-type]
    pass


class _PureLoader(_Marked, yaml.SafeLoader):
    pass


def safe_load(stream: Any, json_only: bool = False) -> Any:
    """``yaml.safe_load(stream)`` (a str or a text file), parsed by :data:`SafeLoader`. Input it refuses is
    parsed again by the pure-Python loader, so a malformed file raises exactly the yaml.YAMLError (message,
    line mark) that yaml.safe_load raises, and the instructor reads the same message as before; text LibYAML
    cannot take at all (a lone surrogate: it encodes to UTF-8 first) goes the same way. A document larger
    than MAX_EXPANDED_NODES nodes or MAX_EXPANDED_CHARS characters once its aliases are expanded, or
    containing itself, raises AliasBomb (a yaml.YAMLError, with the JSON path) before any Python value is
    built; one nested deeper than MAX_DEPTH, or holding a value the constructors cannot build (``2024-02-30``,
    an integer of 5 000 digits), raises Refused (a yaml.YAMLError, with the line), and so does a mapping with
    a key written twice (with its JSON path). Any ``str`` raises nothing else: no RecursionError, no
    ValueError. With ``json_only`` (content files, which are JSON-shaped data checked by JSON Schemas), a value JSON
    cannot hold as written raises NotJson (a Refused, with the JSON path and the line: see :func:`not_json`)."""
    text = stream.read() if hasattr(stream, "read") else stream
    try:
        return _load(text, _FastLoader, json_only)
    except (AliasBomb, Refused):
        raise
    except (yaml.YAMLError, UnicodeEncodeError) as fast:
        try:
            return _load(text, _PureLoader, json_only)
        except RecursionError:  # the pure parser recurses once per level: LibYAML's own refusal says why
            if isinstance(fast, yaml.YAMLError):
                raise fast from None
            raise Refused(f"nested more than {MAX_DEPTH} levels deep (lists and mappings)") from None


#: Full-width punctuation an input method in Chinese or full-width mode types where YAML needs its own, by the ASCII
#: character: ``tolerance：0.005`` (a full-width colon) is read as a plain text, not a key, and the parser says
#: "could not find expected ':'" on the line after it; ``{en: "x"，zh: "y"}`` "expected ',' or '}'".
YAML_LOOKALIKES = {"\uff1a": ":", "\uff0c": ",", "\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]"}


def lookalike_punctuation(text: str, exc: yaml.YAMLError, line_offset: int = 0) -> str | None:
    """Where YAML's refusal ``exc`` of ``text`` comes from a full-width character (YAML_LOOKALIKES) the instructor
    sees as YAML's own punctuation, as ``line L column C holds ： (U+FF1A), a full-width character where YAML needs
    the ASCII :``, else None: the character the parser stopped at, or the first one, outside quotes, on the lines
    it read from where the construct began (its context mark) to where it stopped, that stands for a character
    the parser says it expected (``expected ':'``, ``expected ',' or ']'``). Lines are 1-based, ``line_offset``
    lines further on (the text is a part of a file). Before, the parser's own words named the ASCII character as
    missing, often a line below (break-it pass brk13text). Reads at most the lines between the two marks."""
    problem = getattr(exc, "problem_mark", None)
    if problem is None:
        return None
    lines = text.split("\n")
    context = getattr(exc, "context_mark", None) or problem
    expected = set(re.findall(r"'(.)'", str(getattr(exc, "problem", "") or "")))
    found: tuple[int, int] | None = None
    if problem.line < len(lines) and lines[problem.line][problem.column:][:1] in YAML_LOOKALIKES:
        found = problem.line, problem.column
    else:
        for n in range(min(context.line, problem.line), min(problem.line + 1, len(lines))):
            masked = _QUOTED.sub(lambda m: " " * len(m.group()), lines[n])
            at = [i for i, ch in enumerate(masked) if YAML_LOOKALIKES.get(ch) in expected]
            if at:
                found = n, at[0]
                break
    if found is None:
        return None
    ch = lines[found[0]][found[1]]
    return (f"line {found[0] + 1 + line_offset} column {found[1] + 1} holds {ch} (U+{ord(ch):04X}), a full-width "
            f"character where YAML needs the ASCII {YAML_LOOKALIKES[ch]}")


def plain_colon(text: str, exc: yaml.YAMLError, line_offset: int = 0) -> str | None:
    """Where YAML's refusal ``exc`` of ``text`` is "mapping values are not allowed here", what the author wrote: a
    text holding a colon and a space (``en: Notebook: A5, ruled``, ``summary: Step 1: the model proposes``), which
    YAML reads as the start of another key; as ``line L column C: 'Notebook: A5, ruled' holds a colon and a space
    …``, else None. PyYAML's own words named no text and no fix (break-it pass brk14content). Lines are 1-based,
    ``line_offset`` lines further on."""
    mark = getattr(exc, "problem_mark", None)
    if mark is None or getattr(exc, "problem", None) != "mapping values are not allowed here":
        return None
    lines = text.split("\n")
    if mark.line >= len(lines):
        return None
    line = lines[mark.line]
    key = line.find(": ")
    value = (line[key + 2:] if -1 < key < mark.column else line).strip()
    return (f"line {mark.line + 1 + line_offset} column {mark.column + 1}: {_shown(value)!r} holds a colon and a "
            "space, which YAML reads as the start of another key: put the whole text in quotes")


#: A quoted YAML scalar on one line: what it holds is text, where full-width punctuation is the author's.
_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'")
