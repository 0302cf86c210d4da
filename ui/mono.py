"""A monospace font for the boxes where students type JSON (the schema editor, the harness lab's request,
the exercises' JSON answers, the pairing checker and the converter): nesting lines up, and "line 12,
column 7" in an error message can be found by eye.

Streamlit gives every keyed widget the class ``st-key-<key>``; the rule below names those classes. The
selectors are built from the app's own widget keys only, never from anything a student typed.
"""

from __future__ import annotations

import streamlit as st

#: The font stack of Streamlit's own code blocks (Source Code Pro), then the system's monospace.
MONO_FONT = "'Source Code Pro', ui-monospace, monospace"


def mono_css(keys: tuple[str, ...] = (), prefixes: tuple[str, ...] = ()) -> str:
    """The ``<style>`` rule that sets :data:`MONO_FONT` on the text areas and text inputs of the widgets
    keyed ``keys`` and of every widget whose key starts with one of ``prefixes``."""
    selectors = [f".st-key-{k} {tag}" for k in keys for tag in ("textarea", "input")]
    selectors += [f"[class*='st-key-{p}'] textarea" for p in prefixes]
    return "<style>" + ", ".join(selectors) + " { font-family: " + MONO_FONT + "; }</style>"


def monospace(keys: tuple[str, ...] = (), prefixes: tuple[str, ...] = ()) -> None:
    """Draw :func:`mono_css` (an invisible style element) on the page."""
    st.html(mono_css(keys, prefixes))
