"""YAML read with LibYAML's safe loader when PyYAML was built with it (the wheels are), else PyYAML's own.

``yaml.safe_load`` always runs the pure-Python parser: ≈ 6.6× slower on this project's fixtures, locale
and lesson files (0.61 s against 0.09 s of CPU for all 57 on a loaded machine), and the first page of a
server reads the locale catalogue, the exercises, the outputs and the lessons (bench/README.md, section H).
``CSafeLoader`` builds the same Python values with the same safe constructors (no tags that build
objects); tests/unit/test_yaml_io.py checks every YAML file of the repository gives the same data both ways.
"""

from __future__ import annotations

from typing import Any

import yaml

#: The loader used: LibYAML's when available.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: Most nodes a document may have once its aliases are expanded. An alias is one reference in memory, but
#: every reader downstream (the schema check, json.dumps, a table) walks it as a copy: nine lines of
#: ``&x [*w, *w, …]`` expand to 9⁹ nodes and kept ``eval --selection`` busy past any limit. The largest file
#: of this repository has a few thousand nodes.
MAX_EXPANDED_NODES = 1_000_000


class AliasBomb(yaml.YAMLError):
    """A document that is too large once its aliases are expanded, or that contains itself.
    ``problem`` says which; ``problem_mark`` is the alias that crossed the limit (yaml's own Mark)."""

    def __init__(self, problem: str, mark: Any = None):
        super().__init__(problem)
        self.problem, self.problem_mark = problem, mark


def _expanded_nodes(root: yaml.Node) -> int:
    """Nodes of ``root`` counting each alias as a full copy (sizes memoized per node, so linear in the
    document); raises AliasBomb past MAX_EXPANDED_NODES or when a node contains itself."""
    size: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            children = _children(node)
            total = 1 + sum(size[id(c)] for c in children)
            if total > MAX_EXPANDED_NODES:
                raise AliasBomb(f"more than {MAX_EXPANDED_NODES} values once its aliases (*name) are expanded",
                                node.start_mark)
            size[key] = total
            open_nodes.discard(key)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise AliasBomb("an anchor (&name) is used inside itself: the value would be infinite", node.start_mark)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in size)
    return size[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _load(text: str, loader_class: Any) -> Any:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_nodes(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def safe_load(stream: Any) -> Any:
    """``yaml.safe_load(stream)`` (a str or a text file), parsed by :data:`SafeLoader`. Input it refuses is
    parsed again by the pure-Python loader, so a malformed file raises exactly the yaml.YAMLError (message,
    line mark) that yaml.safe_load raises, and the instructor reads the same message as before; text LibYAML
    cannot take at all (a lone surrogate: it encodes to UTF-8 first) goes the same way. A document larger
    than MAX_EXPANDED_NODES once its aliases are expanded, or containing itself, raises AliasBomb (a
    yaml.YAMLError) before any Python value is built."""
    text = stream.read() if hasattr(stream, "read") else stream
    try:
        return _load(text, SafeLoader)
    except AliasBomb:
        raise
    except (yaml.YAMLError, UnicodeEncodeError):
        return _load(text, yaml.SafeLoader)
