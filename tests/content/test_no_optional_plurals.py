"""No "(s)" plurals in what a user reads (issue 14: "1 record(s) could not be used"): the project words
counts so that one form fits every number. Derived from every catalogue file and every string literal
in the core (toolcall/), so the next one is caught wherever it is written."""

import ast
import re

import yaml

from toolcall import REPO_ROOT

OPTIONAL_PLURAL = re.compile(r"[A-Za-z]\(s\)")


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _found():
    found = []
    for path in sorted((REPO_ROOT / "toolcall" / "locales").rglob("*.yaml")):
        found += [(str(path.relative_to(REPO_ROOT)), s) for s in _strings(yaml.safe_load(path.read_text("utf-8")))
                  if OPTIONAL_PLURAL.search(s)]
    for path in sorted((REPO_ROOT / "toolcall").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        found += [(f"{path.relative_to(REPO_ROOT)}:{n.lineno}", n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and OPTIONAL_PLURAL.search(n.value)
                  and not (n.lineno > 0 and _is_docstring(tree, n))]
    return found


def _is_docstring(tree, const) -> bool:
    return any(isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.body
               and isinstance(node.body[0], ast.Expr) and node.body[0].value is const for node in ast.walk(tree))


def test_the_pattern():
    assert OPTIONAL_PLURAL.search("1 record(s) could not be used")
    assert not OPTIONAL_PLURAL.search("Records that could not be used: 1")


def test_no_optional_plural_in_locales_or_core_messages():
    assert _found() == []
