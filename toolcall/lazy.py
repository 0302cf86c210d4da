"""Imports deferred until first use, so a server's first page does not pay for what it may never need.

jsonschema imports ``rfc3987_syntax`` at import time when it is installed (the ``format-nongpl``
extra), only to check ``format: iri`` / ``iri-reference`` when format assertion is on, and
``rfc3987_syntax`` builds a Lark Earley parser for RFC 3987 while being imported: 1–5 s of CPU
on the course machine (``python -X importtime -c "import jsonschema"``; bench/README.md, section G),
more than everything else the playground imports. :func:`defer_rfc3987_syntax` puts a stand-in
package in its place whose ``is_valid_syntax`` imports the real parser at its first call, so
the same checks run, with the same library, only when a schema asks for them.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

#: The module jsonschema imports (``from rfc3987_syntax import is_valid_syntax``).
RFC3987_SYNTAX = "rfc3987_syntax"


def _real_rfc3987_syntax() -> types.ModuleType:
    """The module that holds the parser (built on first import; Python's import lock makes
    concurrent first calls wait for one build)."""
    return importlib.import_module(RFC3987_SYNTAX + ".syntax_helpers")


def is_valid_syntax(term: str, value: str) -> bool:
    """rfc3987_syntax.is_valid_syntax (True when ``value`` parses as the RFC 3987 rule ``term``),
    building the parser at the first call."""
    return _real_rfc3987_syntax().is_valid_syntax(term, value)


def _module_getattr(name: str):
    """PEP 562 hook of the stand-in: ``parse`` and the constants come from the real module;
    dunder lookups (``__wrapped__``, ``__loader__`` … by inspect, pickle, the file watcher) do not
    build the parser."""
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_real_rfc3987_syntax(), name)


def defer_rfc3987_syntax() -> bool:
    """Register the stand-in package ``rfc3987_syntax`` unless the real one is already imported
    or not installed. Returns True when the stand-in is (now) in place. Must run before the
    first ``import jsonschema`` to have an effect (toolcall/__init__.py calls it)."""
    current = sys.modules.get(RFC3987_SYNTAX)
    if current is not None:
        return getattr(current, "__toolcall_deferred__", False)
    spec = importlib.util.find_spec(RFC3987_SYNTAX)
    if spec is None or not spec.submodule_search_locations:
        return False
    stub = types.ModuleType(RFC3987_SYNTAX, "Stand-in for rfc3987_syntax: see toolcall/lazy.py.")
    stub.__path__ = list(spec.submodule_search_locations)  # its submodules import from the real files
    stub.__package__ = RFC3987_SYNTAX
    stub.__toolcall_deferred__ = True
    stub.is_valid_syntax = is_valid_syntax
    stub.__file__ = spec.origin  # inspect and Streamlit's file watcher read __file__ of every module
    stub.__getattr__ = _module_getattr
    sys.modules[RFC3987_SYNTAX] = stub
    return True
