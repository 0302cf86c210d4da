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


def safe_load(stream: Any) -> Any:
    """``yaml.safe_load(stream)`` (a str or a text file), parsed by :data:`SafeLoader`. Input it refuses is
    parsed again by the pure-Python loader, so a malformed file raises exactly the yaml.YAMLError (message,
    line mark) that yaml.safe_load raises, and the instructor reads the same message as before; text LibYAML
    cannot take at all (a lone surrogate: it encodes to UTF-8 first) goes the same way."""
    text = stream.read() if hasattr(stream, "read") else stream
    try:
        return yaml.load(text, Loader=SafeLoader)  # noqa: S506  (a safe loader)
    except (yaml.YAMLError, UnicodeEncodeError):
        return yaml.safe_load(text)
